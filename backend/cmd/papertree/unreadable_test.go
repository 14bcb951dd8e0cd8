package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestIndexUnreadableFolderSaysWhy: a folder that cannot be read, given
// itself or holding the only PDFs in a sub-folder that cannot be read, is
// reported with its reason (permission denied, code invalid), never as "No
// PDF files were found" (which the check for an empty folder said before the
// job could look). Permissions are real: as root, which reads every folder,
// the built CLI runs as user nobody (setpriv), as a desktop user would.
func TestIndexUnreadableFolderSaysWhy(t *testing.T) {
	var runAs func(args ...string) (string, string, int)
	root := t.TempDir()
	if os.Getuid() == 0 {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			t.Skip("run as root without setpriv: root reads every folder, so none is unreadable")
		}
		// nobody must reach the test folders.
		for p := root; p != os.TempDir() && p != "/"; p = filepath.Dir(p) {
			if st, err := os.Stat(p); err == nil && st.Mode().Perm()&0o005 == 0 {
				os.Chmod(p, st.Mode().Perm()|0o755)
			}
		}
		bin := filepath.Join(root, "papertree")
		if out, err := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", bin, ".").CombinedOutput(); err != nil {
			t.Fatalf("build: %v\n%s", err, out)
		}
		runAs = func(args ...string) (string, string, int) {
			cmd := exec.Command(setpriv, append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", bin}, args...)...)
			var out, errb strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			return out.String(), errb.String(), code
		}
	} else {
		runAs = func(args ...string) (string, string, int) { return cli(t, args...) }
	}
	mk := func(dirs ...string) {
		for _, d := range dirs {
			if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	mk("subonly/locked", "locked", "mixed/locked", "dbs")
	os.Chmod(filepath.Join(root, "dbs"), 0o1777)
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(root, "subonly/locked/a.pdf"))
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(root, "locked/a.pdf"))
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(root, "mixed/a.pdf"))
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(root, "mixed/locked/b.pdf"))
	for _, d := range []string{"subonly/locked", "locked", "mixed/locked"} {
		p := filepath.Join(root, d)
		os.Chmod(p, 0)
		t.Cleanup(func() { os.Chmod(p, 0o755) })
	}
	for _, tc := range []struct {
		name, path, unreadable string
		indexed                int
	}{
		{"the only PDFs are in a folder that cannot be read", "subonly", "subonly/locked", 0},
		{"the folder given cannot be read", "locked", "locked", 0},
		{"one PDF readable, a sub-folder not", "mixed", "mixed/locked", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(root, "dbs", strings.ReplaceAll(tc.path, "/", "_")+".db")
			out, errs, code := runAs("index", "--db", db, "--json", "--quiet", filepath.Join(root, tc.path))
			if strings.Contains(errs, "No PDF files were found") {
				t.Fatalf("an unreadable folder reported as empty: %s", errs)
			}
			var sum indexOutput
			// Nothing indexed exits 1 after the summary (TestIndexExitCodeWhenEveryFileFails).
			wantCode := 0
			if tc.indexed == 0 {
				wantCode = 1
			}
			if code != wantCode || json.Unmarshal([]byte(out), &sum) != nil {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
			}
			if sum.Indexed != tc.indexed || len(sum.Failed) != 1 {
				t.Fatalf("indexed %d, failed %+v; want %d indexed and the folder reported", sum.Indexed, sum.Failed, tc.indexed)
			}
			f := sum.Failed[0]
			if f.File != filepath.Join(root, tc.unreadable) || f.Code != "invalid" || !strings.Contains(f.Error, "cannot be read (permission denied)") {
				t.Errorf("failure %+v, want %s with code invalid and the reason", f, tc.unreadable)
			}
		})
	}
}
