package eval

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

func TestNormText(t *testing.T) {
	cases := map[string]string{
		"3.2 Training Details": "32trainingdetails",
		"I. I NTRODUCTION":     "iintroduction",
		"Acknowledgments":      "acknowledgments",
		"  Über-Größe — 2 ":    "übergröße2",
		"":                     "",
	}
	for in, want := range cases {
		if got := NormText(in); got != want {
			t.Errorf("NormText(%q) = %q, want %q", in, got, want)
		}
	}
}

func gh(text string, level, page int) GoldHeading {
	return GoldHeading{Text: text, Level: level, Page: page}
}
func runin(text string, level, page int) GoldHeading {
	return GoldHeading{Text: text, Level: level, Page: page, RunIn: true}
}
func ph(text string, level, page int) papertree.Heading {
	return papertree.Heading{Text: text, Level: level, Page: page}
}

func TestScoreHeadings(t *testing.T) {
	base := []GoldHeading{
		gh("Abstract", 1, 1),
		gh("1 Introduction", 1, 1),
		gh("2 Method", 1, 2),
		gh("2.1 Model", 2, 2),
		runin("Training details", 3, 3),
		gh("2.2 Data", 2, 3),
		gh("3 Results", 1, 4),
		gh("References", 1, 5),
	}
	perfect := []papertree.Heading{
		ph("Abstract", 1, 1), ph("1 Introduction", 1, 1), ph("2 Method", 1, 2), ph("2.1 Model", 2, 2),
		ph("2.2 Data", 2, 3), ph("3 Results", 1, 4), ph("References", 1, 5),
	}
	type want struct {
		gold, pred, hits, runin, levelOK, parentOK int
	}
	cases := []struct {
		name string
		gold []GoldHeading
		pred []papertree.Heading
		want want
	}{
		{"perfect without run-in", base, perfect, want{7, 7, 7, 0, 7, 7}},
		{"run-in emitted is neither hit nor FP", base,
			[]papertree.Heading{ph("Abstract", 1, 1), ph("1 Introduction", 1, 1), ph("2 Method", 1, 2), ph("2.1 Model", 2, 2),
				ph("Training details.", 3, 3), ph("2.2 Data", 2, 3), ph("3 Results", 1, 4), ph("References", 1, 5)},
			want{7, 7, 7, 1, 7, 7}},
		{"page off by one still matches", base,
			[]papertree.Heading{ph("Abstract", 1, 2), ph("1 Introduction", 1, 2), ph("2 Method", 1, 3), ph("2.1 Model", 2, 1),
				ph("2.2 Data", 2, 4), ph("3 Results", 1, 3), ph("References", 1, 6)},
			want{7, 7, 7, 0, 7, 7}},
		{"page off by two does not match", base,
			[]papertree.Heading{ph("Abstract", 1, 3)},
			want{7, 1, 0, 0, 0, 0}},
		{"fuzzy text within 0.85 matches, below does not", base,
			[]papertree.Heading{ph("1 Introductions", 1, 1), ph("2 Methodology", 1, 2)},
			want{7, 2, 1, 0, 1, 1}},
		{"case and punctuation ignored", base,
			[]papertree.Heading{ph("ABSTRACT", 1, 1), ph("1. INTRODUCTION", 1, 1)},
			want{7, 2, 2, 0, 2, 2}},
		{"duplicate prediction is a false positive (one-to-one)", base,
			[]papertree.Heading{ph("Abstract", 1, 1), ph("Abstract", 1, 1)},
			want{7, 2, 1, 0, 1, 1}},
		{"wrong level, right parent", base,
			[]papertree.Heading{ph("2 Method", 1, 2), ph("2.1 Model", 3, 2)},
			want{7, 2, 2, 0, 1, 2}},
		{"subsection flattened to top level: level and parent wrong", base,
			[]papertree.Heading{ph("2 Method", 1, 2), ph("2.1 Model", 1, 2)},
			want{7, 2, 2, 0, 1, 1}},
		{"parent skips unmatched prediction ancestors", base,
			[]papertree.Heading{ph("2 Method", 1, 2), ph("Bogus", 2, 2), ph("2.1 Model", 3, 2)},
			want{7, 3, 2, 0, 1, 2}},
		{"unmatched gold ancestor: parent is the root", base,
			[]papertree.Heading{ph("2.1 Model", 2, 2)},
			want{7, 1, 1, 0, 1, 1}},
		{"unmatched gold ancestor but prediction nests under another hit", base,
			[]papertree.Heading{ph("1 Introduction", 1, 1), ph("2.1 Model", 2, 2)},
			want{7, 2, 2, 0, 2, 1}},
		{"empty prediction", base, nil, want{7, 0, 0, 0, 0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := ScoreHeadings(GoldTree{Headings: c.gold}, c.pred)
			got := want{s.Gold, s.Pred, s.Hits, s.RunInHits, s.LevelOK, s.ParentOK}
			if got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestScoreHeadingsGreedyOrder(t *testing.T) {
	// Two gold headings with the same text: each prediction takes the
	// earliest unmatched gold heading within the page window.
	gold := GoldTree{Headings: []GoldHeading{gh("Results", 2, 3), gh("Results", 2, 4)}}
	s := ScoreHeadings(gold, []papertree.Heading{ph("Results", 2, 4), ph("Results", 2, 4)})
	if s.Hits != 2 || s.Pred != 2 {
		t.Fatalf("hits %d pred %d, want 2 2", s.Hits, s.Pred)
	}
	if s.Pairs[0].Pred != 0 || s.Pairs[1].Pred != 1 {
		t.Fatalf("pairs %+v: first prediction must take the first gold heading", s.Pairs)
	}
	// A prediction outside the first gold's window skips it.
	s = ScoreHeadings(GoldTree{Headings: []GoldHeading{gh("Results", 2, 1), gh("Results", 2, 5)}}, []papertree.Heading{ph("Results", 2, 5)})
	if s.Hits != 1 || s.Pairs[0].Gold != 1 {
		t.Fatalf("got %+v, want the page-5 gold heading matched", s.Pairs)
	}
}

func TestScoreRatios(t *testing.T) {
	gold := GoldTree{Headings: []GoldHeading{gh("A", 1, 1), gh("B", 1, 1), gh("C", 1, 1), gh("D", 1, 1)}}
	s := ScoreHeadings(gold, []papertree.Heading{ph("A", 1, 1), ph("B", 2, 1), ph("X", 1, 1)})
	if math.Abs(s.Precision-2.0/3) > 1e-9 || math.Abs(s.Recall-0.5) > 1e-9 || math.Abs(s.F1-4.0/7) > 1e-9 {
		t.Fatalf("P %v R %v F1 %v", s.Precision, s.Recall, s.F1)
	}
	if s.LevelAcc != 0.5 {
		t.Fatalf("level acc %v, want 0.5", s.LevelAcc)
	}
	// B at level 2 under A: gold parent of B is the root, predicted is A.
	if s.ParentAcc != 0.5 {
		t.Fatalf("parent acc %v, want 0.5", s.ParentAcc)
	}
}

func TestFamilyOf(t *testing.T) {
	cases := map[string]string{
		"ACL Anthology camera-ready two-column A4":                       FamilyACL,
		"arXiv v3 NIPS single-column (Ghostscript)":                      FamilyNeurIPS,
		"SCANNED 600dpi page images + OCR layer; math badly OCR'd":       FamilyHard,
		"HARD CASE: Type 3 fonts with custom encoding":                   FamilyHard,
		"THESIS single-column letter, 164 pp, chapters/front matter/TOC": FamilyThesis,
		"IEEE CVPR two-column + HAL archive cover page prepended":        FamilyIEEE,
		"ACM acmart sigconf two-column letter":                           FamilyACM,
		"Elsevier elsarticle preprint single-column, 34 pp":              FamilyElsevier,
		"ICML two-column + ResearchGate cover page prepended":            FamilyICML,
		"AAAI two-column letter":                                         FamilyAAAI,
		"MIT Press journal single-column, dvips/Distiller, 28 pp":        FamilyJournal,
	}
	for style, want := range cases {
		if got := FamilyOf(style); got != want {
			t.Errorf("FamilyOf(%q) = %q, want %q", style, got, want)
		}
	}
}

func TestLoadGoldAndManifest(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("b.json", `{"file":"b.pdf","headings":[{"text":"1 Intro","level":1,"page":1}],"notes":"text layer is garbled"}`)
	write("a.json", `{"file":"a.pdf","headings":[]}`)
	write("MANIFEST.md", "| file | title | style | pages |\n|---|---|---|---|\n| a.pdf | A | ACL two-column | 3 |\n")
	gold, err := LoadGold(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(gold) != 2 || gold[0].File != "a.pdf" || !gold[1].Hard() || gold[0].Hard() {
		t.Fatalf("gold = %+v", gold)
	}
	fam, err := LoadManifestFamilies(dir)
	if err != nil || fam["a.pdf"] != FamilyACL {
		t.Fatalf("families %v err %v", fam, err)
	}
	if _, err := LoadGold(t.TempDir()); papertree.ErrorCode(err) != papertree.ENotFound {
		t.Fatalf("empty dir: err %v, want not_found", err)
	}
	write("bad.json", "{")
	if _, err := LoadGold(dir); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Fatalf("bad json: err %v, want invalid", err)
	}
}

func TestReportTable(t *testing.T) {
	gold := GoldTree{Headings: []GoldHeading{gh("1 Intro", 1, 1), gh("2 End", 1, 2)}}
	r := TreesReport{UseOutline: true, Files: []FileTreeScore{
		{File: "a.pdf", Family: FamilyACL, Score: ScoreHeadings(gold, []papertree.Heading{ph("1 Intro", 1, 1)})},
		{File: "b.pdf", Family: FamilyHard, Hard: true, Score: ScoreHeadings(gold, nil)},
	}}
	r.Summarise()
	if r.Overall.Files != 1 || r.Hard.Files != 1 || len(r.Families) != 2 {
		t.Fatalf("summary %+v", r)
	}
	if r.Overall.Score.Recall != 0.5 || r.Overall.Score.Precision != 1 {
		t.Fatalf("overall %+v", r.Overall.Score)
	}
	var buf bytes.Buffer
	if err := r.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"a.pdf", "*b.pdf", "ACL (1)", "all (excl. scanned/garbled) (1)"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}
	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back TreesReport
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Overall.Score.Hits != 1 || len(back.Files) != 2 {
		t.Fatalf("json round trip: %v %+v", err, back.Overall)
	}
}
