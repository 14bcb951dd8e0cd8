//go:build unix

package settings

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestPrivateModes: the settings folder is 0700 and settings.json and
// secrets.json are 0600, whichever writes or reads them first, even when
// the folder or the files were made (or later loosened) with looser modes.
func TestPrivateModes(t *testing.T) {
	cases := []struct {
		name string
		// run does the step under test in dir (which exists, 0755).
		run func(t *testing.T, dir string) []string // the files to check besides dir
	}{
		{"settings saved without a key", func(t *testing.T, dir string) []string {
			p := filepath.Join(dir, "settings.json")
			loose(t, p, 0o644)
			if err := Default().Save(p); err != nil {
				t.Fatal(err)
			}
			return []string{p}
		}},
		{"key saved", func(t *testing.T, dir string) []string {
			fs := &FileSecrets{Path: filepath.Join(dir, "secrets.json")}
			if err := fs.Set(context.Background(), APIKeyName, "sk-test"); err != nil {
				t.Fatal(err)
			}
			return []string{fs.Path}
		}},
		{"key read after the folder and the file were loosened", func(t *testing.T, dir string) []string {
			fs := &FileSecrets{Path: filepath.Join(dir, "secrets.json")}
			if err := fs.Set(context.Background(), APIKeyName, "sk-test"); err != nil {
				t.Fatal(err)
			}
			loose(t, dir, 0o755)
			loose(t, fs.Path, 0o644)
			if v, err := fs.Get(context.Background(), APIKeyName); err != nil || v != "sk-test" {
				t.Fatalf("get %q %v", v, err)
			}
			return []string{fs.Path}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "papertree")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			loose(t, dir, 0o755) // whatever the umask
			files := c.run(t, dir)
			check := func(path string, want os.FileMode) {
				st, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if st.Mode().Perm() != want {
					t.Errorf("%s: mode %v, want %v", filepath.Base(path), st.Mode().Perm(), want)
				}
			}
			check(dir, 0o700)
			for _, f := range files {
				check(f, 0o600)
			}
		})
	}
}

// loose sets path's mode, creating it as a file when it does not exist.
func loose(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if _, err := os.Stat(path); os.IsNotExist(err) {
		if err := os.WriteFile(path, []byte("{}\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}
