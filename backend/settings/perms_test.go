//go:build unix

package settings

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestPrivateModes: the secrets folder is 0700 even when it already existed
// with a looser mode (shared with settings.json, made by another tool), and
// settings.json is 0600 even when it replaces a 0644 file.
func TestPrivateModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "papertree")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil { // whatever the umask
		t.Fatal(err)
	}
	settingsPath := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(settingsPath, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Default().Save(settingsPath); err != nil {
		t.Fatal(err)
	}
	fs, err := NewFileSecrets(filepath.Join(dir, "secrets.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.Set(context.Background(), "llm-api-key", "sk-test"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want os.FileMode
	}{{dir, 0o700}, {settingsPath, 0o600}, {fs.Path, 0o600}} {
		st, err := os.Stat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != c.want {
			t.Errorf("%s: mode %v, want %v", filepath.Base(c.path), st.Mode().Perm(), c.want)
		}
	}
}
