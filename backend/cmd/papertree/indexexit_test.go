package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIndexExitCodeWhenEveryFileFails: a run in which every PDF found fails
// exits 1 after its summary (a script must not go on to ask an empty
// library); failures beside an indexed file exit 0 and are listed, since
// the folder did index. Before, a folder of broken files exited 0.
func TestIndexExitCodeWhenEveryFileFails(t *testing.T) {
	for _, tc := range []struct {
		name     string
		good     bool
		json     bool
		wantCode int
	}{
		{"only broken files", false, false, 1},
		{"only broken files, json", false, true, 1},
		{"broken beside a good file", true, false, 0},
		{"broken beside a good file, json", true, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			docs := filepath.Join(dir, "docs")
			os.Mkdir(docs, 0o755)
			os.WriteFile(filepath.Join(docs, "notes.pdf"), []byte("not a pdf"), 0o644)
			os.WriteFile(filepath.Join(docs, "cut.pdf"), []byte("%PDF-1.4\n1 0 obj"), 0o644)
			if tc.good {
				copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(docs, "good.pdf"))
			}
			args := []string{"index", "--db", filepath.Join(dir, "lib.db"), docs}
			if tc.json {
				args = append(args, "--json")
			}
			out, errs, code := cli(t, args...)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.wantCode, out, errs)
			}
			for _, f := range []string{"notes.pdf", "cut.pdf"} {
				if !strings.Contains(out, f) {
					t.Errorf("the summary does not list %s:\n%s", f, out)
				}
			}
			if tc.wantCode != 0 && !strings.Contains(errs, "nothing was indexed: all 2 failed") {
				t.Errorf("stderr does not say why the run failed: %s", errs)
			}
		})
	}
}
