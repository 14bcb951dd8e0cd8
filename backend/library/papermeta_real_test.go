package library

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/internal/shareddata"
)

// Real PDFs indexed into a real library keep the metadata the tree builder
// extracted from their first page: listed (PapersWithRefs) and loaded.
func TestIndexStoresPDFMetadata(t *testing.T) {
	pdfs := shareddata.Dir(t, "pdfs")
	tests := []struct {
		name, file        string
		arxiv, doi, venue string // prefixes that must be stored
	}{
		{"arXiv stamp", "sutskever2014_seq2seq_arxiv.pdf", "1409.3215", "", ""},
		{"ACM DOI and venue, arXiv stamp beside them", "papermage_2302.07302v1.pdf", "2302.07302", "10.1145/3544548.3580847", "2023 CHI Conference"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(pdfs, tc.file))
			if err != nil {
				t.Skipf("%s not in ../shared/data/pdfs: %v", tc.file, err)
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tc.file), data, 0o644); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			lib, err := Open(ctx, Config{DBPath: filepath.Join(dir, "lib.db"), Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer lib.Close()
			if _, err := lib.Index(ctx, []string{dir}, nil); err != nil {
				t.Fatal(err)
			}
			ps, err := lib.PapersWithRefs(ctx)
			if err != nil || len(ps) != 1 {
				t.Fatalf("papers %d, err %v", len(ps), err)
			}
			p, err := lib.store.LoadPaper(ctx, ps[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct{ what, got, want string }{
				{"listed arXiv id", ps[0].ArxivID, tc.arxiv}, {"loaded arXiv id", p.ArxivID, tc.arxiv},
				{"listed DOI", ps[0].DOI, tc.doi}, {"loaded DOI", p.DOI, tc.doi},
				{"listed venue", ps[0].Venue, tc.venue}, {"loaded venue", p.Venue, tc.venue},
			} {
				if !strings.HasPrefix(c.got, c.want) || (c.want == "") != (c.got == "") {
					t.Errorf("%s %q, want %q", c.what, c.got, c.want)
				}
			}
		})
	}
}
