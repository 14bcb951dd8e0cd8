package app

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

func write(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("%PDF-1.4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFindPDFs(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "b.pdf"))
	write(t, filepath.Join(root, "A.PDF"))
	write(t, filepath.Join(root, "notes.txt"))
	write(t, filepath.Join(root, "sub", "deep", "c.pdf"))
	write(t, filepath.Join(root, ".hidden", "h.pdf"))
	write(t, filepath.Join(root, ".dot.pdf"))
	write(t, filepath.Join(root, "pdf-but-no-ext"))
	if err := os.Mkdir(filepath.Join(root, "folder.pdf"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	write(t, filepath.Join(other, "linked.pdf"))
	write(t, filepath.Join(other, "inside-linked-dir.pdf"))
	if err := os.Symlink(filepath.Join(other, "linked.pdf"), filepath.Join(root, "link.pdf")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, filepath.Join(root, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "missing.pdf"), filepath.Join(root, "dangling.pdf")); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	write(t, filepath.Join(empty, "readme.md"))

	cases := []struct {
		name string
		dir  string
		want []string
		code papertree.Code
	}{
		{name: "nested, any case, sorted, links to files only", dir: root, want: []string{
			filepath.Join(root, "A.PDF"),
			filepath.Join(root, "b.pdf"),
			filepath.Join(root, "link.pdf"),
			filepath.Join(root, "sub", "deep", "c.pdf"),
		}},
		{name: "blank path", dir: "  ", code: papertree.EInvalid},
		{name: "missing folder", dir: filepath.Join(root, "nope"), code: papertree.EInvalid},
		{name: "a file, not a folder", dir: filepath.Join(root, "b.pdf"), code: papertree.EInvalid},
		{name: "no PDFs", dir: empty, code: papertree.EInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FindPDFs(tc.dir)
			if tc.code != "" {
				if papertree.ErrorCode(err) != tc.code {
					t.Fatalf("err = %v (code %q), want code %q", err, papertree.ErrorCode(err), tc.code)
				}
				if papertree.ErrorMessage(err) == "An internal error occurred." {
					t.Errorf("message is not user-specific: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestFindPDFsRelativePathBecomesAbsolute(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "x.pdf"))
	t.Chdir(root)
	got, err := FindPDFs(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !filepath.IsAbs(got[0]) || filepath.Base(got[0]) != "x.pdf" {
		t.Errorf("got %q, want one absolute path to x.pdf", got)
	}
}
