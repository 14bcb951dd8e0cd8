package treebuild

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json")

func TestParseNumbering(t *testing.T) {
	cases := []struct {
		name, in     string
		ok           bool
		number, kind string
		depth        int
		rest         string
	}{
		{"arabic", "3 Method", true, "3", "arabic", 1, "Method"},
		{"arabic with period", "3. Method", true, "3", "arabic", 1, "Method"},
		{"subsection", "3.2 Training Details", true, "3.2", "arabic", 2, "Training Details"},
		{"subsubsection", "3.2.1 Data", true, "3.2.1", "arabic", 3, "Data"},
		{"roman", "IV. EXPERIMENTS", true, "IV", "roman", 1, "EXPERIMENTS"},
		{"letter appendix", "A.1 Proofs", true, "A.1", "letter", 2, "Proofs"},
		{"letter with period", "B. Zero Shot Recognition", true, "B", "letter", 1, "Zero Shot Recognition"},
		{"bare appendix letter", "A Contextual Alignment", true, "A", "letter", 1, "Contextual Alignment"},
		{"chapter", "Chapter 2 Background", true, "2", "chapter", 1, "Background"},
		{"chapter upper", "CHAPTER 3 Using Free Text", true, "3", "chapter", 1, "Using Free Text"},
		{"appendix word", "Appendix A Detailed Schema", true, "A", "appendix", 1, "Detailed Schema"},
		{"year is not a number", "2019 was a good year", false, "", "", 0, ""},
		{"lowercase rest", "3 of the models", false, "", "", 0, ""},
		{"plain title", "Introduction", false, "", "", 0, ""},
		{"pronoun I", "I Think So", false, "", "", 0, ""},
		{"glued digits", "2018a Results", false, "", "", 0, ""},
		{"figure digits", "3 2", false, "", "", 0, ""},
		{"lowercase title after dotted number", "4.4.5 n-positional embeddings", true, "4.4.5", "arabic", 3, "n-positional embeddings"},
		{"decimal starting prose", "0.5 of the samples", false, "", "", 0, ""},
		{"bracketed title", "4.3 [D1] Discover Citations", true, "4.3", "arabic", 2, "[D1] Discover Citations"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, ok := ParseNumbering(c.in)
			if ok != c.ok {
				t.Fatalf("ParseNumbering(%q) ok=%v, want %v (%+v)", c.in, ok, c.ok, n)
			}
			if !ok {
				return
			}
			if n.Number != c.number || n.Kind != c.kind || n.Depth != c.depth || n.Rest != c.rest {
				t.Fatalf("ParseNumbering(%q) = %+v", c.in, n)
			}
		})
	}
}

func TestConventionalName(t *testing.T) {
	cases := []struct {
		in   string
		ok   bool
		role papertree.Role
	}{
		{"Abstract", true, papertree.RoleAbstract},
		{"ABSTRACT", true, papertree.RoleAbstract},
		{"6 Conclusions", true, ""},
		{"References", true, papertree.RoleReferences},
		{"Acknowledgements", true, papertree.RoleAcks},
		{"Acknowledgments", true, papertree.RoleAcks},
		{"2 Related Work", true, ""},
		{"Appendix", true, papertree.RoleAppendix},
		{"Our Proposed Encoder", false, ""},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			r, ok := ConventionalName(c.in)
			if ok != c.ok || r != c.role {
				t.Fatalf("ConventionalName(%q) = %q,%v want %q,%v", c.in, r, ok, c.role, c.ok)
			}
		})
	}
}

func TestDehyphenation(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		want  string
	}{
		{"broken word", []string{"the compu-", "tation is"}, "the computation is"},
		{"compound kept", []string{"a state-of-", "the-art model"}, "a state-of- the-art model"},
		{"known prefix kept", []string{"a self-", "attention layer"}, "a self- attention layer"},
		{"capital continuation kept", []string{"GPT-", "2 is large"}, "GPT- 2 is large"},
		{"no hyphen", []string{"one line", "two line"}, "one line two line"},
		{"dash kept", []string{"pages 3--", "5 and"}, "pages 3-- 5 and"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := joinLines(c.lines); got != c.want {
				t.Fatalf("joinLines(%q) = %q, want %q", c.lines, got, c.want)
			}
		})
	}
}

func TestCleanText(t *testing.T) {
	cases := map[string]string{
		"e\ufb03cient \ufb01ne":   "efficient fine",
		"  many   spaces\there ":  "many spaces here",
		"soft\u00adhyphen":        "softhyphen",
		"bad\ufffdchar\x01":       "badchar",
		"non\u00a0breaking space": "non breaking space",
	}
	for in, want := range cases {
		if got := cleanText(in); got != want {
			t.Errorf("cleanText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPlausibleNext(t *testing.T) {
	cases := []struct {
		name       string
		prev, next []int
		slack      int
		want       bool
	}{
		{"first section", nil, []int{1}, 0, true},
		{"first is 5", nil, []int{5}, 0, false},
		{"sibling", []int{3, 2}, []int{3, 3}, 0, true},
		{"first child", []int{3}, []int{3, 1}, 0, true},
		{"grandchild chain", []int{3}, []int{3, 1, 1}, 0, true},
		{"pop to top", []int{3, 2, 1}, []int{4}, 0, true},
		{"pop one", []int{3, 2, 1}, []int{3, 3}, 0, true},
		{"chapter jump with first child", []int{2, 3}, []int{3, 1}, 0, true},
		{"skip without slack", []int{2}, []int{4}, 0, false},
		{"skip with slack", []int{2}, []int{4}, 2, true},
		{"backwards", []int{4}, []int{2}, 2, false},
		{"list item inside section", []int{3, 2}, []int{1}, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := plausibleNext(c.prev, c.next, c.slack); got != c.want {
				t.Fatalf("plausibleNext(%v, %v, %d) = %v, want %v", c.prev, c.next, c.slack, got, c.want)
			}
		})
	}
}

func mkHeading(text string, size float64, bold bool) *heading {
	h := &heading{text: text, style: styleKey{size: size, bold: bold, caps: isAllCaps(stripNumber(text))}, strong: true}
	h.num, h.hasNum = ParseNumbering(text)
	h.role = roleFor(text)
	_, h.conv = ConventionalName(text)
	return h
}

func TestAssignLevels(t *testing.T) {
	type hd struct {
		text string
		size float64
		bold bool
	}
	cases := []struct {
		name string
		in   []hd
		want []int
	}{
		{"numbering depth", []hd{{"Abstract", 12, true}, {"1 Introduction", 12, true}, {"2 Method", 12, true}, {"2.1 Model", 11, true}, {"2.1.1 Encoder", 10, true}, {"3 Results", 12, true}, {"References", 12, true}},
			[]int{1, 1, 1, 2, 3, 1, 1}},
		{"style ladder from numbered headings", []hd{{"1 Introduction", 12, true}, {"1.1 Scope", 11, true}, {"Unnumbered Sub", 11, true}, {"2 Method", 12, true}},
			[]int{1, 2, 2, 1}},
		{"unnumbered paper ranks styles", []hd{{"Introduction", 12, true}, {"Related Work", 12, true}, {"Text Classification", 11, true}, {"Run-in Like", 10, true}, {"Model", 12, true}},
			[]int{1, 1, 2, 3, 1}},
		{"IEEE roman and letters", []hd{{"I. INTRODUCTION", 10, false}, {"II. RELATED WORK", 10, false}, {"A. Object Detection", 10, false}, {"B. Zero Shot", 10, false}, {"III. METHOD", 10, false}},
			[]int{1, 1, 2, 2, 1}},
		{"appendix letters after references", []hd{{"1 Introduction", 12, true}, {"References", 12, true}, {"A Proofs", 12, true}, {"A.1 Lemma One", 11, true}},
			[]int{1, 1, 1, 2}},
		{"no jump by two levels", []hd{{"1 Introduction", 12, true}, {"1.1.1 Deep", 10, true}},
			[]int{1, 2}},
		{"references typeset small stays top-level", []hd{{"1 Intro", 12, true}, {"1.1 Sub", 10, true}, {"References", 10, true}},
			[]int{1, 2, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var hs []*heading
			for _, h := range c.in {
				hs = append(hs, mkHeading(h.text, h.size, h.bold))
			}
			assignLevels(hs)
			var got []int
			for _, h := range hs {
				got = append(got, h.level)
			}
			if !equalInts(got, c.want) {
				t.Fatalf("levels %v, want %v", got, c.want)
			}
		})
	}
}

// linesOf builds lines from one hand-made page.
func linesOf(p *pageBuilder) []*line { return buildLines([]pdf.Page{p.page}) }

func TestClassifyLine(t *testing.T) {
	cases := []struct {
		name  string
		build func(p *pageBuilder) // the line to classify is the first one at y=200
		want  bool
	}{
		{"bold numbered section", func(p *pageBuilder) { p.text(72, 200, sec, "3 Experiments"); p.para(72, 216, 460, body, lorem(1, 4)) }, true},
		{"bold unnumbered conventional", func(p *pageBuilder) { p.text(72, 200, sec, "Acknowledgments"); p.para(72, 216, 460, body, lorem(1, 3)) }, true},
		{"body-font numbered heading with space around", func(p *pageBuilder) {
			p.text(72, 200, body, "4.2 Error Analysis")
			p.para(72, 222, 460, body, lorem(2, 4))
		}, true},
		{"figure caption", func(p *pageBuilder) {
			p.text(72, 200, boldB, "Figure 3: Results on the test set")
			p.para(72, 222, 460, body, lorem(2, 3))
		}, false},
		{"table caption", func(p *pageBuilder) {
			p.text(72, 200, sec, "Table 2. Ablations")
			p.para(72, 222, 460, body, lorem(2, 3))
		}, false},
		{"toc line", func(p *pageBuilder) {
			p.text(72, 200, body, "3.2 Training . . . . . . . . . . 14")
			p.para(72, 222, 460, body, lorem(2, 3))
		}, false},
		{"run-in paragraph heading", func(p *pageBuilder) {
			x := p.text(72, 200, boldB, "Implementation details.")
			p.text(x, 200, body, "We train for ten epochs with Adam and a small learning rate.")
			p.para(72, 212, 460, body, lorem(3, 3))
		}, false},
		{"sentence in bold", func(p *pageBuilder) {
			p.text(72, 200, boldB, "This is a sentence in bold that ends here.")
			p.para(72, 222, 460, body, lorem(2, 3))
		}, false},
		{"list item", func(p *pageBuilder) {
			p.para(72, 176, 460, body, lorem(4, 2))
			p.text(72, 200, body, "1. we first tokenise the text")
			p.text(72, 212, body, "2. then we parse it")
		}, false},
		{"theorem label", func(p *pageBuilder) { p.text(72, 200, boldB, "Theorem 1."); p.para(72, 212, 460, body, lorem(2, 3)) }, false},
		{"equation", func(p *pageBuilder) {
			p.text(72, 200, sec, "x = 2 + y / 3 ( 4 )")
			p.para(72, 222, 460, body, lorem(2, 3))
		}, false},
		{"table header row above numbers", func(p *pageBuilder) {
			p.text(72, 200, boldB, "Dataset Train Dev Test")
			p.text(72, 212, body, "20News 8000 2000 7000")
			p.text(72, 224, body, "Fudan 6000 1000 3000")
		}, false},
		{"bare number line", func(p *pageBuilder) { p.text(72, 200, sec, "50 model layers"); p.para(72, 222, 460, body, lorem(2, 3)) }, false},
		{"two-line heading merged", func(p *pageBuilder) {
			p.text(72, 200, sec, "5 A Very Long Heading About Structure and")
			p.text(72, 214, sec, "Hierarchy in Papers")
			p.para(72, 232, 460, body, lorem(5, 4))
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPage(1)
			// enough body text elsewhere on the page to fix the body style
			p.para(72, 400, 460, body, lorem(9, 12))
			c.build(p)
			ls := linesOf(p)
			st := computeStats(ls)
			idx := -1
			for i, l := range ls {
				if l.y == 200 {
					idx = i
				}
			}
			if idx < 0 {
				t.Fatal("no line at y=200")
			}
			h := classifyLine(ls, idx, st)
			if (h != nil) != c.want {
				t.Fatalf("classifyLine(%q) heading=%v, want %v", ls[idx].text, h != nil, c.want)
			}
			if c.name == "two-line heading merged" && h.text != "5 A Very Long Heading About Structure and Hierarchy in Papers" {
				t.Fatalf("merged text %q", h.text)
			}
		})
	}
}

func TestFurnitureRemoval(t *testing.T) {
	var pages []pdf.Page
	for i := 1; i <= 4; i++ {
		p := newPage(i)
		p.text(200, 40, small, "Journal of Examples, Vol. 3")
		p.para(72, 100, 460, body, lorem(i, 10))
		p.text(300, 760, body, strings.Repeat("", 0)+string(rune('0'+i)))
		pages = append(pages, p.page)
	}
	ls := buildLines(pages)
	for _, l := range ls {
		if strings.Contains(l.text, "Journal of Examples") {
			t.Fatalf("running header kept on page %d", l.page)
		}
		if isDigits(l.text) {
			t.Fatalf("page number %q kept on page %d", l.text, l.page)
		}
	}
	if len(ls) < 20 {
		t.Fatalf("body lines lost: %d", len(ls))
	}
}

func TestMarginNoise(t *testing.T) {
	p := newPage(1)
	p.para(72, 100, 460, body, lorem(1, 30))
	for i := 0; i < 40; i++ {
		p.text(20, 100+float64(i)*12, small, string(rune('0'+i%10))+"0"+string(rune('0'+i%7)))
	}
	p.page.Runs = append(p.page.Runs, pdf.Run{Text: "arXiv:1810.04805v2", Font: "Times", Size: 20, X: 32, Y: 600, W: 180, Rotated: true})
	for _, l := range linesOf(p) {
		if strings.Contains(l.text, "arXiv") || isDigits(strings.Fields(l.text)[0]) {
			t.Fatalf("margin noise kept: %q", l.text)
		}
	}
}

func TestReadingOrderTwoColumns(t *testing.T) {
	p := newPage(1)
	p.para(72, 100, 220, body, "LEFTSTART "+lorem(1, 20)+" LEFTEND")
	p.para(320, 100, 220, body, "RIGHTSTART "+lorem(2, 20)+" RIGHTEND")
	var all []string
	for _, l := range linesOf(p) {
		all = append(all, l.text)
	}
	text := strings.Join(all, " ")
	a, b := strings.Index(text, "LEFTEND"), strings.Index(text, "RIGHTSTART")
	if a < 0 || b < 0 || a > b {
		t.Fatalf("left column must be read before the right one:\n%s", text)
	}
}

func TestSegmentationBounds(t *testing.T) {
	for _, max := range []int{32, 64, 512} {
		opts := DefaultOptions()
		opts.MaxSegmentTokens = max
		p, err := Build(context.Background(), twoColumnPaper(), opts)
		if err != nil {
			t.Fatal(err)
		}
		var words int
		p.Root.Walk(func(path []*papertree.Node) bool {
			n := path[len(path)-1]
			if n.IsLeaf() {
				if n.Kind == papertree.KindSegment && n.Tokens > max {
					t.Errorf("max %d: segment has %d tokens", max, n.Tokens)
				}
				if n.Tokens != papertree.CountTokens(n.Text) {
					t.Errorf("tokens not filled")
				}
				if n.PageStart < 1 || n.PageEnd < n.PageStart || len(n.Boxes) == 0 {
					t.Errorf("bad leaf pages/boxes: %+v", n)
				}
				if n.Level != path[len(path)-2].Level+1 {
					t.Errorf("leaf level %d under %d", n.Level, path[len(path)-2].Level)
				}
				words += len(strings.Fields(n.Text))
			}
			return true
		})
		if words < 400 {
			t.Errorf("max %d: text lost, only %d words in leaves", max, words)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	if _, err := Build(context.Background(), nil, DefaultOptions()); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Fatalf("nil doc: %v", err)
	}
	if _, err := Build(context.Background(), &pdf.Document{Garbled: true, Pages: []pdf.Page{{Number: 1}}}, DefaultOptions()); papertree.ErrorCode(err) != papertree.EGarbled {
		t.Fatalf("garbled: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Build(ctx, twoColumnPaper(), DefaultOptions()); papertree.ErrorCode(err) != papertree.ECanceled {
		t.Fatalf("cancelled: %v", err)
	}
	p, err := Build(context.Background(), &pdf.Document{Pages: []pdf.Page{{Number: 1}}}, DefaultOptions())
	if err != nil || p.Root == nil || len(p.Warnings) == 0 {
		t.Fatalf("empty doc: %v %+v", err, p)
	}
}

// golden renders the parts of a paper a reviewer can check by eye.
func golden(p *papertree.Paper) []byte {
	type gnode struct {
		Kind   papertree.Kind `json:"kind"`
		Level  int            `json:"level"`
		Title  string         `json:"title,omitempty"`
		Number string         `json:"number,omitempty"`
		Role   papertree.Role `json:"role,omitempty"`
		Pages  [2]int         `json:"pages"`
		Tokens int            `json:"tokens,omitempty"`
		Text   string         `json:"text,omitempty"`
		Boxes  int            `json:"boxes,omitempty"`
	}
	var nodes []gnode
	p.Root.Walk(func(path []*papertree.Node) bool {
		n := path[len(path)-1]
		t := n.Text
		if len([]rune(t)) > 80 {
			t = string([]rune(t)[:80]) + "…"
		}
		nodes = append(nodes, gnode{n.Kind, n.Level, n.Title, n.Number, n.Role, [2]int{n.PageStart, n.PageEnd}, n.Tokens, t, len(n.Boxes)})
		return true
	})
	out := map[string]any{"title": p.Title, "authors": p.Authors, "pages": p.Pages, "outline_used": p.OutlineUsed,
		"abstract_words": len(strings.Fields(p.Abstract)), "warnings": p.Warnings, "nodes": nodes}
	b, _ := json.MarshalIndent(out, "", " ")
	return append(b, '\n')
}

func TestBuildGolden(t *testing.T) {
	fixtures := map[string]func(t *testing.T) *pdf.Document{
		"synthetic_twocolumn":  func(*testing.T) *pdf.Document { return twoColumnPaper() },
		"synthetic_unnumbered": func(*testing.T) *pdf.Document { return unnumberedPaper() },
		"synthetic_tables":     func(*testing.T) *pdf.Document { return tablePaper("spanning table") },
		"synthetic_formula":    func(*testing.T) *pdf.Document { return mathPaper("code") },
		"pdf_twocolumn": func(t *testing.T) *pdf.Document {
			doc, err := pdf.Open(context.Background(), filepath.Join("..", "pdf", "testdata", "twocolumn.pdf"), pdf.Options{})
			if err != nil {
				t.Skipf("pdf fixture unavailable: %v", err)
			}
			return doc
		},
	}
	for name, mk := range fixtures {
		t.Run(name, func(t *testing.T) {
			p, err := Build(context.Background(), mk(t), DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			got := golden(p)
			path := filepath.Join("testdata", name+".golden.json")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s differs from the golden file (go test ./backend/treebuild -update rewrites it):\n%s", name, got)
			}
		})
	}
}

func TestSyntheticStructure(t *testing.T) {
	p, err := Build(context.Background(), twoColumnPaper(), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range papertree.Headings(p.Root) {
		got = append(got, strings.Repeat(">", h.Level)+h.Text)
	}
	want := []string{">Abstract", ">1 Introduction", ">2 Method", ">>2.1 Segment Packing", ">>2.2 Hierarchy", ">3 Experiments", ">4 Conclusion", ">References"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("headings\n got %v\nwant %v", got, want)
	}
	if p.Title != "Structured Trees for Scientific Papers" {
		t.Fatalf("title %q", p.Title)
	}
	if p.Abstract == "" {
		t.Fatal("abstract not filled")
	}
	var refs, captions int
	var dehyph bool
	p.Root.Walk(func(path []*papertree.Node) bool {
		n := path[len(path)-1]
		if n.Kind == papertree.KindCaption {
			captions++
		}
		if len(path) > 1 && path[len(path)-2].Role == papertree.RoleReferences && n.Kind == papertree.KindSegment {
			refs++
		}
		if strings.Contains(n.Text, "computation is linear") {
			dehyph = true
		}
		return true
	})
	if refs != 3 || captions != 1 || !dehyph {
		t.Fatalf("refs %d captions %d dehyphenated %v", refs, captions, dehyph)
	}
}

func TestRunInHeadings(t *testing.T) {
	mk := func() *pdf.Document {
		p := newPage(1)
		p.text(150, 80, titleSt, "A Paper With Paragraph Headings")
		p.text(72, 130, sec, "1 Method")
		y := p.para(72, 146, 460, body, lorem(1, 3))
		y += 6
		x := p.text(72, y, boldB, "Implementation details.")
		p.text(x, y, body, "We train for ten epochs with a small learning rate and early stopping.")
		p.para(72, y+12, 460, body, lorem(2, 3))
		p.text(72, 400, sec, "2 Results")
		p.para(72, 416, 460, body, lorem(3, 3))
		return &pdf.Document{Pages: []pdf.Page{p.page}}
	}
	for _, on := range []bool{false, true} {
		opts := DefaultOptions()
		opts.RunInHeadings = on
		p, err := Build(context.Background(), mk(), opts)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range papertree.Headings(p.Root) {
			got = append(got, strings.Repeat(">", h.Level)+h.Text)
		}
		want := ">1 Method|>2 Results"
		if on {
			want = ">1 Method|>>Implementation details.|>2 Results"
		}
		if strings.Join(got, "|") != want {
			t.Fatalf("RunInHeadings=%v: headings %v, want %s", on, got, want)
		}
		kept := false
		p.Root.Walk(func(path []*papertree.Node) bool {
			if strings.Contains(path[len(path)-1].Text, "We train for ten epochs") {
				kept = true
			}
			return true
		})
		if !kept {
			t.Fatalf("RunInHeadings=%v: the run-in paragraph's text was lost", on)
		}
	}
}

func TestPruneCandidates(t *testing.T) {
	mk := func(text string, page int, y float64, size float64) *heading {
		h := mkHeading(text, size, true)
		h.page, h.y = page, y
		return h
	}
	cands := []*heading{
		mk("Jane Doe", 1, 100, 12),       // author line above the first anchor
		mk("1 Introduction", 1, 300, 12), // anchor
		mk("2 Method", 2, 100, 12),
		mk("Method", 2, 400, 12), // conventional word alone in a numbered paper
		mk("3 Results", 3, 100, 12),
		mk("3.1 Data", 3, 150, 12),
		mk("3.2 Setup", 3, 200, 12),
		mk("Context (passage)", 3, 300, 12), // repeated label
		mk("Context (passage)", 4, 300, 12),
		mk("Acknowledgments", 4, 500, 12), // stays unnumbered in numbered papers
		mk("References", 4, 600, 12),
	}
	var got []string
	for _, h := range pruneCandidates(cands, 10) {
		got = append(got, h.text)
	}
	want := "1 Introduction|2 Method|3 Results|3.1 Data|3.2 Setup|Acknowledgments|References"
	if strings.Join(got, "|") != want {
		t.Fatalf("kept %v, want %s", got, want)
	}
}
