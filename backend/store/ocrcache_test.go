package store

import (
	"context"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// OCR readings are kept by content hash, languages and version, and dropped
// once no paper, failed file or removed file has their hash.
func TestOCRCache(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	p := synthPaper("/scan.pdf", 1, 1, 1, 2)
	p.Hash = "kept"
	if _, err := s.SavePaper(ctx, p, Vectors{}, "fp"); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordFailure(ctx, "/failed.pdf", "failed", "fp", papertree.Errorf(papertree.ETimeout, "slow")); err != nil {
		t.Fatal(err)
	}
	key := func(hash string) OCRKey { return OCRKey{Hash: hash, Langs: "eng", Version: "1"} }
	for _, h := range []string{"kept", "failed", "gone"} {
		for page := 1; page <= 2; page++ {
			if err := s.PutOCRPage(ctx, key(h), page, []byte(`[{"text":"w"}]`)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.PutOCRPage(ctx, key("kept"), 2, []byte(`[]`)); err != nil { // a page read again replaces its row
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		key   OCRKey
		pages int
	}{
		{"kept", key("kept"), 2},
		{"other languages", OCRKey{Hash: "kept", Langs: "deu", Version: "1"}, 0},
		{"other version", OCRKey{Hash: "kept", Langs: "eng", Version: "2"}, 0},
	} {
		got, err := s.OCRPages(ctx, tc.key)
		if err != nil || len(got) != tc.pages {
			t.Errorf("%s: %d pages, %v; want %d", tc.name, len(got), err, tc.pages)
		}
	}
	if got, _ := s.OCRPages(ctx, key("kept")); string(got[2]) != "[]" {
		t.Errorf("page 2 = %s, want the newer reading []", got[2])
	}
	n, err := s.DropUnusedOCR(ctx)
	if err != nil || n != 2 {
		t.Errorf("dropped %d, %v; want the 2 pages of the hash no file has", n, err)
	}
	for h, want := range map[string]int{"kept": 2, "failed": 2, "gone": 0} {
		if got, _ := s.OCRPages(ctx, key(h)); len(got) != want {
			t.Errorf("%s: %d pages after the drop, want %d", h, len(got), want)
		}
	}
}
