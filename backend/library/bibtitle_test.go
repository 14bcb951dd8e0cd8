package library

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestBibTeXEntryWithoutTitle: a paper whose PDF gave no title (rotated.pdf
// has none) exports with its file name as the title and a note saying so,
// not as an entry no citation can show; a paper with a title has no note.
func TestBibTeXEntryWithoutTitle(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	copyFixture(t, "rotated.pdf", filepath.Join(dir, "Smith notes.pdf"))
	copyFixture(t, "twocolumn.pdf", filepath.Join(dir, "a.pdf"))
	l, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Index(ctx, []string{dir}, nil); err != nil {
		t.Fatal(err)
	}
	ps, err := l.Papers(ctx)
	if err != nil || len(ps) != 2 {
		t.Fatalf("papers %v %d", err, len(ps))
	}
	for _, p := range ps {
		bib, err := l.BibEntries(ctx, []int64{p.ID})
		if err != nil || len(bib) != 1 {
			t.Fatalf("%s: %v %+v", p.Path, err, bib)
		}
		f := bib[0].Fields
		switch filepath.Base(p.Path) {
		case "Smith notes.pdf":
			if p.Title != "" {
				t.Fatalf("the fixture now has a title (%q): the test proves nothing", p.Title)
			}
			if f["title"] != "Smith notes" || !strings.Contains(f["note"], "file name") || bib[0].Key != "smith" {
				t.Errorf("untitled paper: key %q, fields %+v", bib[0].Key, f)
			}
		default:
			if f["title"] == "" || f["note"] != "" {
				t.Errorf("titled paper: fields %+v", f)
			}
		}
	}
}
