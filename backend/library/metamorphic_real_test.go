package library

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/eval"
	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/papertree"
)

// The metamorphic suite over the ~150 development PDFs (../shared/data:
// pdfs/, silver/pdfs/ and the messy library/): properties a researcher
// relies on whatever the figures, checked on real papers.
//
//   - Adding one paper to a library does not change the top paper of
//     questions about other papers (at most 1 change in 50 question-paper
//     pairs), for papers of the odd classes above all (an all-capitals OCR
//     title with a colon and no authors, OCR noise, a garbled text layer,
//     an image-only scan, a thesis, slides).
//   - The same questions get the same top papers at 50, 100 and all papers
//     (at most 1 in 50 differ).
//   - Every word a reply says is never mentioned has no occurrence in the
//     papers the claim speaks of, checked against the papers' text by an
//     oracle independent of the full-text index.

// realQuestions are the answerable questions of the committed sets with
// their gold paper file names (an unanswerable question has no top paper
// to keep).
type realQuestion struct{ q, file string }

func realQuestions(t *testing.T) []realQuestion { return questionsOf(t, false) }

// questionsOf reads the committed sets; with unanswerable, their
// unanswerable questions too (file: the paper a question names, if any).
func questionsOf(t *testing.T, unanswerable bool) []realQuestion {
	var out []realQuestion
	for _, f := range []string{"questions-single.json", "questions-heldout.json", "questions-library150.json"} {
		p := filepath.Join("..", "eval", "testdata", f)
		if _, err := os.Stat(p); err != nil {
			continue
		}
		set, err := eval.LoadQuestions(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range set.Questions {
			if unanswerable || !q.Unanswerable {
				out = append(out, realQuestion{q.Question, q.Paper})
			}
		}
	}
	return out
}

// devPDFs lists the development PDFs, sorted by base name.
func devPDFs(t *testing.T) []string {
	var files []string
	for _, d := range [][]string{{"pdfs"}, {"silver", "pdfs"}, {"library"}} {
		dir := shareddata.Dir(t, d...)
		m, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
		files = append(files, m...)
	}
	sort.Slice(files, func(i, j int) bool { return filepath.Base(files[i]) < filepath.Base(files[j]) })
	return files
}

// topPaper is the paper of the answer's best-scored evidence (0: none).
func topPaper(a *papertree.Answer) int64 {
	var best *papertree.Evidence
	for i := range a.Evidence {
		if best == nil || a.Evidence[i].Score > best.Score {
			best = &a.Evidence[i]
		}
	}
	if best == nil {
		return 0
	}
	return best.PaperID
}

func openIndexed(t *testing.T, files []string) *Library {
	t.Helper()
	ctx := context.Background()
	// OCR off: the suite indexes the ~150 papers three times, and OCR of the
	// scans and garbled-font papers would take minutes each time; the
	// ranking properties hold for the papers that index either way.
	l, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db"), OCR: OCRConfig{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	if len(files) > 0 {
		if _, err := l.Index(ctx, files, nil); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

func idsByFile(t *testing.T, l *Library) map[string]int64 {
	infos, err := l.Papers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, p := range infos {
		if p.Status == "ready" {
			out[filepath.Base(p.Path)] = p.ID
		}
	}
	return out
}

func askTop(t *testing.T, l *Library, qs []realQuestion) []int64 {
	out := make([]int64, len(qs))
	for i, q := range qs {
		a, err := l.Ask(context.Background(), AskRequest{Question: q.q, NoHistory: true})
		if err != nil {
			t.Fatalf("ask %q: %v", q.q, err)
		}
		out[i] = topPaper(a)
	}
	return out
}

// oddPapers are the development PDFs of the classes that captured other
// papers' questions or read badly, plus some ordinary ones.
var oddPapers = []string{
	"pwl__turing1936_on_computable_numbers.pdf",          // all-capitals OCR title, no authors
	"jli05__mcculloch_pitts1943_logical_calculus.pdf",    // letter-spaced OCR
	"pwl__leveson1995_therac25_medical_devices.pdf",      // garbled born-digital layer
	"pwl__karp1972_reducibility_image_only.pdf",          // image-only scan
	"pwl__czaplicki2012_elm_thesis.pdf",                  // thesis
	"stat_inferenz__de_interventionen_slides.pdf",        // German slides
	"learningpapers__kingma_ba2015_adam.pdf",             // ordinary, widely cited
	"desigualdad__es_desigualdad_homicidios_ecuador.pdf", // Spanish
}

// sizeTolerance: at most 1 question in sizeTolerance may change its top
// paper when the library grows from 50 to 100 to all papers: the target, 1
// in 50. Measured in the tenth session: 0 of 83 (50 -> 100), 1 of 83
// (50 -> 148), 1 of 151 (100 -> 148); before it, 1, 2 and 2 (an authorless
// paper named by its venue words, a named paper searched alone without the
// question's rarest word; docs/measurements.md, "Paper ranking library-wide").
const sizeTolerance = 50

func TestMetamorphicAddOnePaper(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the metamorphic suite in -short mode")
	}
	files := devPDFs(t)
	var base []string
	added := map[string]string{}
	for _, f := range files {
		if slices.Contains(oddPapers, filepath.Base(f)) {
			added[filepath.Base(f)] = f
		} else {
			base = append(base, f)
		}
	}
	l := openIndexed(t, base)
	ids := idsByFile(t, l)
	var qs []realQuestion
	for _, q := range realQuestions(t) {
		if _, ok := ids[q.file]; ok {
			qs = append(qs, q)
		}
	}
	if len(qs) < 50 {
		t.Fatalf("only %d questions about indexed papers", len(qs))
	}
	before := askTop(t, l, qs)
	ctx := context.Background()
	changed, pairs := 0, 0
	for _, name := range oddPapers {
		f, ok := added[name]
		if !ok {
			t.Logf("skipping %s: not in the data set", name)
			continue
		}
		if _, err := l.Index(ctx, []string{f}, nil); err != nil {
			t.Fatal(err)
		}
		after := askTop(t, l, qs)
		var moved []string
		for i := range qs {
			pairs++
			if after[i] != before[i] {
				changed++
				moved = append(moved, fmt.Sprintf("%q: %d -> %d", qs[i].q, before[i], after[i]))
			}
		}
		if len(moved) > 0 {
			t.Logf("adding %s changed %d top papers: %s", name, len(moved), strings.Join(moved, "; "))
		}
		if id, ok := idsByFile(t, l)[name]; ok {
			if err := l.Store().DeletePaper(ctx, id); err != nil {
				t.Fatal(err)
			}
			l.Retrieval().Invalidate(id)
		}
	}
	t.Logf("adding one paper: %d of %d question-paper pairs changed their top paper", changed, pairs)
	if changed*50 > pairs {
		t.Errorf("adding one paper changed the top paper of %d of %d pairs (allowed: 1 in 50)", changed, pairs)
	}
}

func TestMetamorphicLibrarySize(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the metamorphic suite in -short mode")
	}
	// Nested libraries of 50, 100 and all papers, in a fixed order that
	// mixes the three folders (by a hash of the file name).
	files := devPDFs(t)
	h := func(s string) uint32 {
		x := uint32(2166136261)
		for i := 0; i < len(s); i++ {
			x = (x ^ uint32(s[i])) * 16777619
		}
		return x
	}
	sort.SliceStable(files, func(i, j int) bool { return h(filepath.Base(files[i])) < h(filepath.Base(files[j])) })
	sizes := []int{min(50, len(files)), min(100, len(files)), len(files)}
	qsAll := realQuestions(t)
	l := openIndexed(t, nil)
	tops := make([]map[string]int64, len(sizes))
	have := make([]map[string]bool, len(sizes))
	fileOf := map[int64]string{0: "(none)"}
	indexed := 0
	for k, n := range sizes {
		if _, err := l.Index(context.Background(), files[indexed:n], nil); err != nil {
			t.Fatal(err)
		}
		indexed = n
		ids := idsByFile(t, l)
		for f, id := range ids {
			fileOf[id] = f
		}
		have[k], tops[k] = map[string]bool{}, map[string]int64{}
		var qs []realQuestion
		for _, q := range qsAll {
			if _, ok := ids[q.file]; ok {
				qs = append(qs, q)
				have[k][q.q] = true
			}
		}
		for i, top := range askTop(t, l, qs) {
			tops[k][qs[i].q] = top
		}
	}
	for a := 0; a < len(sizes); a++ {
		for b := a + 1; b < len(sizes); b++ {
			diff, n := 0, 0
			for q := range have[a] {
				n++
				if tops[a][q] != tops[b][q] {
					diff++
					t.Logf("%d -> %d papers: %q moved %s -> %s", sizes[a], sizes[b], q, fileOf[tops[a][q]], fileOf[tops[b][q]])
				}
			}
			t.Logf("%d vs %d papers: %d of %d questions changed their top paper", sizes[a], sizes[b], diff, n)
			if diff*sizeTolerance > n {
				t.Errorf("%d vs %d papers: %d of %d questions changed their top paper (allowed: 1 in %d)", sizes[a], sizes[b], diff, n, sizeTolerance)
			}
		}
	}
}

// TestAbsenceWordsAreTrue asks every question of every shipped question
// set (../eval/testdata/questions-*.json), scoped to its paper and
// library-wide, over the whole development library, and checks each word
// a reply says is never mentioned with eval.AbsenceOracle: against the
// text and metadata of the papers the claim speaks of (written apart from
// the full-text index it checks), as the researcher typed it, and never a
// word with which the question names the paper it asks about.
func TestAbsenceWordsAreTrue(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the absence check in -short mode")
	}
	sets, _ := filepath.Glob(filepath.Join("..", "eval", "testdata", "questions-*.json"))
	if len(sets) == 0 {
		t.Fatal("no shipped question set")
	}
	l := openIndexed(t, devPDFs(t))
	ids := idsByFile(t, l)
	ctx := context.Background()
	all := make([]int64, 0, len(ids))
	for _, id := range ids {
		all = append(all, id)
	}
	oracle := &eval.AbsenceOracle{All: all, Papers: ids, Paper: func(ctx context.Context, id int64) (*papertree.Paper, error) {
		return l.Paper(ctx, fmt.Sprint(id))
	}}
	claims, replies := 0, 0
	for _, f := range sets {
		set, err := eval.LoadQuestions(f)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := eval.RunQuestions(ctx, set, eval.QuestionsOptions{Papers: ids, Absence: oracle.Check,
			Ask: func(ctx context.Context, q string, scope []int64) (*papertree.Answer, error) {
				a, err := l.Ask(ctx, AskRequest{Question: q, PaperIDs: scope, NoHistory: true})
				if err == nil && a.NotFound {
					replies++
				}
				return a, err
			}})
		if err != nil {
			t.Fatal(err)
		}
		claims += rep.Scoped.AbsenceWords + rep.Library.AbsenceWords
		for _, m := range rep.Misses {
			if strings.HasPrefix(m.Reason, "false absence") {
				t.Errorf("%s %s (%s): %s", filepath.Base(f), m.ID, m.Mode, m.Reason)
			}
		}
	}
	t.Logf("%d sets, %d not-found replies, %d absence words checked", len(sets), replies, claims)
}
