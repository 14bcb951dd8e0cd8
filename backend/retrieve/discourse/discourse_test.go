package discourse

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
)

var paras = []Paragraph{
	{Ref: 2, Section: 1, Text: "We train a transformer encoder on Wikipedia. However, the model overfits on small data. For example, on SST it loses two points: this is the main weakness."},
	{Ref: 3, Section: 1, Text: "A single sentence paragraph about evaluation."},
	{Ref: 5, Section: 4, Text: "The dataset has 1,585 papers. It covers NLP venues. These papers come with 5,049 questions."},
	{Ref: 6, Section: 4, Text: "   "},
}

// checkTree verifies the acceptance checks of the spec (sec. 6.1, 6.2, 6.5).
func checkTree(t *testing.T, tr *DiscourseTree, paras []Paragraph) {
	t.Helper()
	var want []string
	for _, p := range paras {
		for _, sp := range sentenceSpans(p.Text) {
			want = append(want, p.Text[sp[0]:sp[1]])
		}
	}
	if len(tr.Sentences) != len(want) {
		t.Fatalf("%d sentences, want %d", len(tr.Sentences), len(want))
	}
	for i, s := range tr.Sentences {
		if s.Text != want[i] || paras[s.Para].Text[s.Start:s.End] != s.Text {
			t.Fatalf("sentence %d = %q, want %q", i, s.Text, want[i])
		}
	}
	if len(want) == 0 {
		return
	}
	if len(tr.Nodes) != 2*len(want)-1 || len(tr.Vecs) != len(tr.Nodes) {
		t.Fatalf("%d nodes / %d vectors for %d sentences: not a full binary tree", len(tr.Nodes), len(tr.Vecs), len(want))
	}
	roots := 0
	paraRoots := map[int]bool{}
	var leaves []int
	var walk func(i int)
	walk = func(i int) {
		n := tr.Nodes[i]
		if n.Leaf >= 0 {
			if n.Left != -1 || n.Right != -1 || n.Lo != n.Leaf || n.Hi != n.Leaf+1 {
				t.Fatalf("bad leaf %+v", n)
			}
			leaves = append(leaves, n.Leaf)
			return
		}
		if n.Left < 0 || n.Right < 0 {
			t.Fatalf("internal node %d lacks a child", i)
		}
		l, r := tr.Nodes[n.Left], tr.Nodes[n.Right]
		if n.Lo != l.Lo || n.Hi != r.Hi || l.Hi != r.Lo || l.Parent != i || r.Parent != i {
			t.Fatalf("node %d span [%d,%d) does not join [%d,%d) and [%d,%d)", i, n.Lo, n.Hi, l.Lo, l.Hi, r.Lo, r.Hi)
		}
		if strings.TrimSpace(n.Text) == "" {
			t.Fatalf("internal node %d has no text", i)
		}
		walk(n.Left)
		walk(n.Right)
	}
	for i, n := range tr.Nodes {
		if n.Parent == -1 {
			roots++
		}
		if n.Paragraph {
			paraRoots[i] = true
			// Paragraph integrity: a paragraph's sentences are exactly the
			// span of its root.
			for s := n.Lo; s < n.Hi; s++ {
				if tr.Sentences[s].Para != tr.Sentences[n.Lo].Para {
					t.Fatalf("paragraph root %d spans two paragraphs", i)
				}
			}
			if n.Lo > 0 && tr.Sentences[n.Lo-1].Para == tr.Sentences[n.Lo].Para || n.Hi < len(tr.Sentences) && tr.Sentences[n.Hi].Para == tr.Sentences[n.Lo].Para {
				t.Fatalf("paragraph root %d does not cover its whole paragraph", i)
			}
		}
	}
	if roots != 1 || tr.Nodes[tr.Root].Parent != -1 {
		t.Fatalf("%d roots", roots)
	}
	walk(tr.Root)
	for i, l := range leaves {
		if l != i {
			t.Fatalf("in-order leaves %v are not the sentence sequence", leaves)
		}
	}
}

func TestBuildWellFormed(t *testing.T) {
	emb := embedding.NewBuiltin()
	long := strings.Repeat("word ", 3000) + "end"
	tests := []struct {
		name  string
		paras []Paragraph
		o     Options
	}{
		{"default", paras, Options{}},
		{"bisection", paras, Options{Bisection: true}},
		{"every signal off", paras, Options{NoCohesion: true, NoConnectives: true, NoPunct: true, NoPosition: true, NoSections: true}},
		{"mean pool", paras, Options{MeanPool: true}},
		{"one paragraph one sentence", []Paragraph{{Ref: 1, Text: "Only this."}}, Options{}},
		{"one very long sentence", []Paragraph{{Ref: 1, Text: long}}, Options{}},
		{"empty", nil, Options{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Build(context.Background(), tt.paras, emb, nil, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			checkTree(t, tr, tt.paras)
			for _, n := range tr.Nodes {
				if n.Leaf < 0 && len(strings.Fields(n.Text)) > 200 {
					t.Fatalf("condensed text has %d words", len(strings.Fields(n.Text)))
				}
			}
		})
	}
}

func TestBisectionIsBalanced(t *testing.T) {
	var ps []Paragraph
	ps = append(ps, Paragraph{Ref: 1, Text: "One. Two. Three. Four. Five. Six. Seven."})
	tr, err := Build(context.Background(), ps, embedding.NewBuiltin(), nil, Options{Bisection: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range tr.Nodes {
		if n.Leaf < 0 {
			l, r := tr.Nodes[n.Left], tr.Nodes[n.Right]
			if d := (l.Hi - l.Lo) - (r.Hi - r.Lo); d < -1 || d > 1 {
				t.Fatalf("unbalanced split %d vs %d", l.Hi-l.Lo, r.Hi-r.Lo)
			}
		}
	}
}

func TestParserSignals(t *testing.T) {
	tests := []struct {
		name       string
		text       string
		o          Options
		firstJoin  [2]int // sentences [lo, hi) of the first internal node built
		wantRelSub string
	}{
		// The topic sentence attaches last; the connective "However" ties
		// sentence 2 to sentence 1.
		{"connective joins its sentence to the previous one", "Our parser is fast. It runs in linear time. However, it needs a GPU for training.", Options{NoCohesion: true},
			[2]int{1, 3}, "Contrast"},
		{"a colon announces what follows", "Results are mixed. The model has two parts: an encoder and a decoder. Training takes a day.", Options{NoCohesion: true, NoConnectives: true, NoPosition: true},
			[2]int{1, 3}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Build(context.Background(), []Paragraph{{Ref: 1, Text: tt.text}}, embedding.NewBuiltin(), nil, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			first := tr.Nodes[len(tr.Sentences)]
			if [2]int{first.Lo, first.Hi} != tt.firstJoin {
				t.Fatalf("first join [%d,%d), want %v", first.Lo, first.Hi, tt.firstJoin)
			}
			if tt.wantRelSub != "" && first.Relation != tt.wantRelSub {
				t.Fatalf("relation %q, want %q", first.Relation, tt.wantRelSub)
			}
		})
	}
}

func TestDocumentTreeRespectsSections(t *testing.T) {
	tr, err := Build(context.Background(), paras, embedding.NewBuiltin(), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Sections 1 (paragraphs 0, 1) and 4 (paragraph 2) are joined only at the root.
	root := tr.Nodes[tr.Root]
	l := tr.Nodes[root.Left]
	if tr.Sentences[l.Hi-1].Para != 1 {
		t.Fatalf("root's left child ends in paragraph %d, want the end of section 1", tr.Sentences[l.Hi-1].Para)
	}
}

func TestSummarizerAndFallback(t *testing.T) {
	calls := 0
	sum := func(ctx context.Context, left, right string) (string, error) {
		calls++
		if calls%2 == 0 {
			return "", errors.New("server down")
		}
		return "LLM: " + left[:min(10, len(left))], nil
	}
	tr, err := Build(context.Background(), paras, embedding.NewBuiltin(), sum, Options{})
	if err != nil {
		t.Fatal(err)
	}
	internal := len(tr.Nodes) - len(tr.Sentences)
	if calls != internal || tr.Summaries+tr.Fallbacks != internal || tr.Summaries == 0 || tr.Fallbacks == 0 {
		t.Fatalf("calls %d, summaries %d, fallbacks %d, internal nodes %d", calls, tr.Summaries, tr.Fallbacks, internal)
	}
	checkTree(t, tr, paras)
}

func TestEncodeDecode(t *testing.T) {
	tr, err := Build(context.Background(), paras, embedding.NewBuiltin(), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := Encode(tr)
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, len(paras))
	for i, p := range paras {
		texts[i] = p.Text
	}
	got, err := Decode(data, texts)
	if err != nil {
		t.Fatal(err)
	}
	checkTree(t, got, paras)
	for i := range tr.Vecs {
		if c := cosine(tr.Vecs[i], got.Vecs[i]); c < 0.99 {
			t.Fatalf("node %d vector cosine %.4f after quantisation", i, c)
		}
	}
	if _, err := Decode(data, texts[:1]); err == nil {
		t.Fatal("decode against other paragraphs succeeded")
	}
	if _, err := Decode([]byte("not gzip"), texts); err == nil {
		t.Fatal("decode of garbage succeeded")
	}
}
