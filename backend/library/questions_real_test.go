package library

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/papertree/papertree/backend/eval"
	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/papertree"
)

// TestQuestionSetRealPDFs asks the real-PDF question set
// (backend/eval/testdata/questions-single.json) of the development PDFs,
// scoped and library-wide, offline, and guards the trust figures against
// regressions (docs/measurements.md has the measured values; the floors here sit a
// little below them).
func TestQuestionSetRealPDFs(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the real-PDF question set in -short mode")
	}
	pdfs := shareddata.Dir(t, "pdfs")
	set, err := eval.LoadQuestions(filepath.Join("..", "eval", "testdata", "questions-single.json"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// OCR off: the two Type 3 papers would take minutes of OCR on every
	// run, and this set's figures are those of the text pipeline.
	l, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db"), OCR: OCRConfig{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	// The set's papers: the development PDFs, and the few it asks about
	// from the other folders (named files, so the library stays the 44
	// plus those).
	paths := []string{pdfs}
	for _, q := range set.Questions {
		if q.Paper == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(pdfs, q.Paper)); err == nil {
			continue
		}
		for _, dir := range []string{filepath.Join(pdfs, "..", "silver", "pdfs"), filepath.Join(pdfs, "..", "library")} {
			if f := filepath.Join(dir, q.Paper); !slices.Contains(paths, f) {
				if _, err := os.Stat(f); err == nil {
					paths = append(paths, f)
				}
			}
		}
	}
	if _, err := l.Index(ctx, paths, nil); err != nil {
		t.Fatal(err)
	}
	infos, err := l.Papers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	papers := map[string]int64{}
	for _, p := range infos {
		if p.Status == "ready" {
			papers[filepath.Base(p.Path)] = p.ID
		}
	}
	rep, err := eval.RunQuestions(ctx, set, eval.QuestionsOptions{Papers: papers,
		Ask: func(ctx context.Context, q string, ids []int64) (*papertree.Answer, error) {
			return l.Ask(ctx, AskRequest{Question: q, PaperIDs: ids})
		}})
	if err != nil {
		t.Fatal(err)
	}
	floors := []struct {
		name string
		got  float64
		min  float64
	}{
		{"scoped paper hit", rep.Scoped.PaperHit, 1},
		{"scoped support hit", rep.Scoped.SupportHit, 0.5},
		{"library paper hit", rep.Library.PaperHit, 0.8},
		{"library support hit", rep.Library.SupportHit, 0.4},
		{"library not found on unanswerable", rep.Library.NotFoundUnanswerable, 0.4},
		{"scoped verdict precision", rep.Scoped.VerdictPrecision, 0.6},
	}
	for _, f := range floors {
		if f.got < f.min {
			t.Errorf("%s = %.3f, below %.2f", f.name, f.got, f.min)
		}
	}
	for _, c := range []struct {
		name string
		got  float64
	}{{"scoped", rep.Scoped.NotFoundAnswerable}, {"library", rep.Library.NotFoundAnswerable}} {
		if c.got > 0.15 {
			t.Errorf("%s: not found on %.3f of answerable questions", c.name, c.got)
		}
	}
	t.Logf("scoped %+v", rep.Scoped)
	t.Logf("library %+v", rep.Library)
}
