package eval

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
	"github.com/papertree/papertree/backend/treebuild"
)

func ev(paper int64, path []string, text string) papertree.Evidence {
	return papertree.Evidence{PaperID: paper, Path: path, Text: text}
}

func TestSectionAndSupportHit(t *testing.T) {
	evs := []papertree.Evidence{
		ev(1, []string{"Paper", "4 Experiments", "4.2 SQuAD v1.1"}, "We use Adam with learning rate of 1e-4, β1 = 0.9."),
		ev(1, []string{"Paper"}, "Front matter text."),
	}
	tests := []struct {
		name, section, support string
		sec, sup               bool
	}{
		{"numbered heading", "4.2 SQuAD v1.1", "We use Adam with learning rate of 1e-4", true, true},
		{"number ignored", "SQuAD v1.1", "use  Adam with\nlearning-rate of 1e-4", true, true},
		{"parent heading counts", "4 Experiments", "", true, false},
		{"front matter", "", "Front matter text.", true, true},
		{"other section", "5 Results", "Adam with momentum", false, false},
		{"roman numeral", "IV. Experiments", "", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sectionHit(evs, tt.section); got != tt.sec {
				t.Errorf("sectionHit(%q) = %v, want %v", tt.section, got, tt.sec)
			}
			if got := supportHit(evs, tt.support); got != tt.sup {
				t.Errorf("supportHit(%q) = %v, want %v", tt.support, got, tt.sup)
			}
		})
	}
}

func TestScoreLibrary(t *testing.T) {
	qs := []LibQuestion{
		{Question: "q1", Gold: []LibGold{{File: "/x/a.pdf", Section: "2 Data", Support: "We collect tweets."}, {File: "b.pdf", Section: "Model", Support: "Logistic regression."}}},
		{Question: "q2", Gold: []LibGold{{File: "missing.pdf", Section: "X", Support: "Y"}}},
		{Question: "q3"},
		{Question: "q4"},
	}
	files := map[string]int64{"a.pdf": 1, "b.pdf": 2}
	answers := map[string]*papertree.Answer{
		"q1": {Evidence: []papertree.Evidence{ev(1, []string{"A", "2 Data"}, "Intro. We collect tweets. More."), ev(3, []string{"C", "Model"}, "Logistic regression.")}},
		"q3": {NotFound: true},
		"q4": {Evidence: []papertree.Evidence{ev(2, []string{"B"}, "noise")}},
	}
	s, err := ScoreLibrary(context.Background(), qs, files, func(_ context.Context, q string) (*papertree.Answer, error) {
		if a := answers[q]; a != nil {
			return a, nil
		}
		return &papertree.Answer{}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.Answerable != 2 || s.Unanswerable != 2 || s.Missing != 1 {
		t.Fatalf("counts %+v", s)
	}
	if s.PaperHit != 0.5 || s.SectionHit != 0.5 || s.SupportHit != 0.5 || s.PaperAny != 1 || s.NotFoundRate != 0.5 || s.FalseNotFound != 0 {
		t.Errorf("scores %+v", s)
	}
}

// TestLibraryQuestionSet checks the committed question set: enough
// questions of each kind, and every supporting sentence verbatim (letters
// and digits) in the leaves of its PDF as PaperTree parses it.
func TestLibraryQuestionSet(t *testing.T) {
	qs, err := LoadLibQuestions(filepath.Join("testdata", "library_questions.json"))
	if err != nil {
		t.Fatal(err)
	}
	answerable, multi, none := 0, 0, 0
	for _, q := range qs {
		switch {
		case len(q.Gold) == 0:
			none++
		case len(q.Gold) > 1:
			multi++
			answerable++
		default:
			answerable++
		}
		for _, g := range q.Gold {
			if g.File == "" || len(alnum(g.Support)) < 20 {
				t.Errorf("%q: gold without a file or a real supporting sentence: %+v", q.Question, g)
			}
		}
	}
	if answerable < 40 || none < 10 || multi < 20 {
		t.Errorf("%d answerable (%d multi-paper), %d unanswerable", answerable, multi, none)
	}
	dir := shareddata.Find()
	if dir == "" {
		t.Skip("../shared/data is absent: supports not checked against the PDFs")
	}
	if testing.Short() {
		t.Skip("-short: supports not checked against the PDFs")
	}
	texts := map[string]string{}
	for _, q := range qs {
		for _, g := range q.Gold {
			text, ok := texts[g.File]
			if !ok {
				doc, err := pdf.Open(context.Background(), filepath.Join(dir, "pdfs", g.File), pdf.Options{})
				if err != nil {
					t.Fatalf("%s: %v", g.File, err)
				}
				p, err := treebuild.Build(context.Background(), doc, treebuild.DefaultOptions())
				if err != nil {
					t.Fatalf("%s: %v", g.File, err)
				}
				var b strings.Builder
				p.Root.Walk(func(path []*papertree.Node) bool {
					if n := path[len(path)-1]; n.IsLeaf() {
						b.WriteString(alnum(n.Text))
					}
					return true
				})
				text = b.String()
				texts[g.File] = text
			}
			if !strings.Contains(text, alnum(g.Support)) {
				t.Errorf("%s: support not found verbatim: %q", g.File, g.Support)
			}
		}
	}
}
