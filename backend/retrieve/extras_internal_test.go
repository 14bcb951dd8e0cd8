package retrieve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// bigPaper is a paper with enough leaf text for buildExtraN to split it:
// prose with numbers and causal language, a bibliography section and a
// reference list merged into a body section.
func bigPaper(seed uint64) *PaperData {
	rng := rand.New(rand.NewPCG(seed, 5))
	vocab := strings.Fields(`model models training trained data dataset corpus embedding embeddings vector vectors word words
	sentence sentences accuracy results improve improves because therefore reduces attention layer layers GPT-2 BERT
	XGBoost Zürich naïve co-occurrence ablation baseline baselines significantly however we propose evaluate table figure`)
	sentence := func() string {
		n := 4 + rng.IntN(18)
		w := make([]string, n)
		for i := range w {
			w[i] = vocab[rng.IntN(len(vocab))]
			if rng.IntN(12) == 0 {
				w[i] = fmt.Sprint(rng.IntN(3000))
			}
		}
		w[0] = strings.ToUpper(w[0][:1]) + w[0][1:]
		return strings.Join(w, " ") + "."
	}
	leaf := func(sents int) *papertree.Node {
		var b []string
		for i := 0; i < sents; i++ {
			b = append(b, sentence())
		}
		t := strings.Join(b, " ")
		return &papertree.Node{Kind: papertree.KindSegment, Text: t, Tokens: papertree.CountTokens(t)}
	}
	ref := func(i int) string {
		return fmt.Sprintf("A. Author%d and B. C. Writer. %d. Learning things %d. In Proceedings of the ACL, pages %d-%d, %d.", i, 1995+i%25, i, i, i+9, 2001+i%20)
	}
	root := &papertree.Node{Kind: papertree.KindRoot, Title: "Learning Word Vectors at Scale"}
	for s := 1; s <= 8; s++ {
		sec := &papertree.Node{Kind: papertree.KindSection, Title: fmt.Sprintf("%d %s", s, sentence())}
		for k := 0; k < 6; k++ {
			sec.Children = append(sec.Children, leaf(3+rng.IntN(10)))
		}
		if s == 8 {
			var refs []string
			for i := 0; i < 8; i++ {
				refs = append(refs, ref(i))
			}
			t := strings.Join(refs, " ")
			sec.Children = append(sec.Children, &papertree.Node{Kind: papertree.KindSegment, Text: t})
		}
		root.Children = append(root.Children, sec)
	}
	bib := &papertree.Node{Kind: papertree.KindSection, Title: "References", Role: papertree.RoleReferences}
	for i := 0; i < 20; i++ {
		bib.Children = append(bib.Children, &papertree.Node{Kind: papertree.KindSegment, Text: ref(i)})
	}
	root.Children = append(root.Children, bib)
	return NewPaperData(&papertree.Paper{ID: int64(seed), Title: root.Title, Root: root}, nil, nil, nil)
}

// TestBuildExtraSplitEqualsOnePass: splitting a paper's leaves between
// goroutines gives exactly the signals of one pass.
func TestBuildExtraSplitEqualsOnePass(t *testing.T) {
	d := bigPaper(1)
	size := 0
	for _, n := range d.Nodes {
		size += len(n.Text)
	}
	if size < 4*extraBytesPerWorker {
		t.Fatalf("the test paper has %d bytes of text, too few to be split 4 ways", size)
	}
	one := buildExtraN(d, 1)
	refs := 0
	for _, r := range one.refs {
		if r {
			refs++
		}
	}
	if refs < 21 || len(one.vocab) == 0 || len(one.words) == 0 {
		t.Fatalf("one pass: %d reference leaves, %d stems, %d words", refs, len(one.vocab), len(one.words))
	}
	for _, w := range []int{2, 3, 4} {
		t.Run(fmt.Sprintf("%d workers", w), func(t *testing.T) {
			got := buildExtraN(d, w)
			if !reflect.DeepEqual(got, one) {
				t.Errorf("split into %d differs from one pass", w)
			}
		})
	}
}

// TestExtraOfOnce: concurrent first uses of a paper compute its signals
// once and all get the same result.
func TestExtraOfOnce(t *testing.T) {
	d := bigPaper(2)
	var wg sync.WaitGroup
	got := make([]*paperExtra, 8)
	for i := range got {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if i%2 == 0 {
				got[i] = extraOf(d)
			} else {
				cardOf(d)
				got[i] = extraOf(d)
			}
		}(i)
	}
	wg.Wait()
	for i, x := range got {
		if x == nil || x != got[0] {
			t.Fatalf("caller %d got %p, caller 0 %p", i, x, got[0])
		}
	}
	if got[0].card == nil {
		t.Error("card not kept with the signals")
	}
}

// TestMayBeReferencesIsNecessary: whenever ReferenceLike holds, the byte
// pre-check agrees, on texts mixing bibliography entries, numbers near and
// far from years, and prose, around ReferenceLike's thresholds.
func TestMayBeReferencesIsNecessary(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	parts := []string{"J. Smith", "A. B. Jones", "and", "In Proceedings of", "pp.", "vol.", "IEEE", "arXiv preprint", "the model",
		"we", "Table", "(", ")", ",", ".", "-", "a", "ACL", "pages", "Press", "Journal", "é", "—", "\xff"}
	var checked, refs, spared int
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		prose := rng.IntN(3) == 0
		for k := rng.IntN(120); k >= 0; k-- {
			if prose && rng.IntN(4) > 0 {
				b.WriteString(vocabWords[rng.IntN(len(vocabWords))] + " ")
				continue
			}
			switch rng.IntN(4) {
			case 0:
				fmt.Fprintf(&b, "%d", 1800+rng.IntN(300))
				if rng.IntN(4) == 0 {
					b.WriteByte(byte('a' + rng.IntN(3)))
				}
			case 1:
				fmt.Fprintf(&b, "%d", rng.IntN(100000))
			default:
				b.WriteString(parts[rng.IntN(len(parts))])
			}
			if rng.IntN(3) > 0 {
				b.WriteByte(' ')
			}
		}
		text := b.String()
		ref := ReferenceLike(text)
		may := mayBeReferences(text)
		if ref && !may {
			t.Fatalf("mayBeReferences is false on a reference-like text: %q", text)
		}
		if ref {
			refs++
		} else if may {
			checked++ // passed on to ReferenceLike, which says no
		} else if len(yearRE.FindAllStringIndex(text, -1)) >= 2 {
			spared++ // two years, yet spared the regular expressions
		}
	}
	if refs < 500 || checked < 500 || spared < 200 {
		t.Fatalf("tried %d reference-like texts, %d passed on and rejected, %d with two years spared", refs, checked, spared)
	}
	words := "one two three four five six seven eight nine ten eleven"
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"", false}, {"1999 2003 " + words, true}, {"1999 " + words, false}, {"1999 2003 one two", false},
		{"19992003 " + words, true}, {"In 1949 and 2050 " + words, false}, {"1950,\u00a02049 " + words, true},
		{"1950 2049 " + strings.Repeat("word ", 70), false}, {"1950 2049 " + strings.Repeat("word ", 60), true},
	} {
		if got := mayBeReferences(tc.text); got != tc.want {
			t.Errorf("mayBeReferences(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

var vocabWords = strings.Fields("the model is trained on a large corpus and evaluated on three tasks with results that improve over baselines")

// TestAddSurfaceWords: the one-pass word split gives the words of the
// split of the lowercased text it replaces, hyphenated words also without
// their hyphens.
func TestAddSurfaceWords(t *testing.T) {
	ref := func(text string) map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
		}) {
			w = strings.Trim(w, "-")
			m[w] = true
			if strings.Contains(w, "-") {
				m[strings.ReplaceAll(w, "-", "")] = true // "gpt-2" also as "gpt2"
			}
		}
		return m
	}
	for _, text := range []string{
		"", "GPT-2 and XGBoost", "-leading trailing- --- a--b", "İstanbul ÉCOLE Straße ǅemal", "naïve cafe\u0301",
		"bad \xff\xfe bytes", "x²+y³ ١٢٣ 中文字", "GloVe, BERT; (RoBERTa)...", strings.Repeat("Word-Word ", 50),
	} {
		got := map[string]bool{}
		addSurfaceWords(got, text)
		if want := ref(text); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %v, want %v", text, got, want)
		}
	}
}

// A name written with or without its hyphen is the same name: neither
// spelling makes the question "not in these papers".
func TestMissingTermsHyphenatedNames(t *testing.T) {
	mk := func(text string) *PaperData {
		leaf := &papertree.Node{Kind: papertree.KindSegment, Text: text, Tokens: papertree.CountTokens(text)}
		root := &papertree.Node{Kind: papertree.KindRoot, Title: "P", Children: []*papertree.Node{{Kind: papertree.KindSection, Title: "1 Model", Children: []*papertree.Node{leaf}}}}
		return NewPaperData(&papertree.Paper{ID: 1, Title: "P", Root: root}, nil, nil, nil)
	}
	tests := []struct {
		name, text, q string
		missing       bool
	}{
		{"question without the paper's hyphen", "Our largest model, GPT-2, is a 1.5B parameter Transformer.", "How many parameters does GPT2 have?", false},
		{"question with a hyphen the paper lacks", "Our largest model, GPT2, is a 1.5B parameter Transformer.", "How many parameters does GPT-2 have?", false},
		{"another name is still missing", "Our largest model, GPT-2, is a 1.5B parameter Transformer.", "How many parameters does AlphaFold2 have?", true},
		{"a name with a plain modifier", "We adapt word2vec to items.", "Which papers adapt word2vec-style embeddings to items?", false},
		{"a name with another version", "Our largest model, GPT-2, is a 1.5B parameter Transformer.", "How many parameters does GPT-4 have?", true},
		{"names joined by or are alternatives", "We evaluate on the ILSVRC-2017 detection set and ILSVRC.", "Which papers evaluate detection on PASCAL VOC, MS COCO or ILSVRC?", false},
		{"every alternative missing", "We evaluate on CIFAR-10.", "Which papers evaluate detection on PASCAL VOC, MS COCO or ILSVRC?", true},
		{"or inside a title joins no names", "The Deal or No Deal agents negotiate a deal.", "What BLEU score do the Deal or No Deal negotiation agents reach?", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			missing, name, _ := missingTerms(tc.q, []*PaperData{mk(tc.text)})
			if got := len(missing) > 0 && name; got != tc.missing {
				t.Errorf("missing name = %v (%v), want %v", got, missing, tc.missing)
			}
		})
	}
}

// BenchmarkBuildExtra measures a paper's first-load signals (the bulk of a
// cold question's CPU) in one pass: over the first ten papers of the
// library named by $PAPERTREE_BENCH_DB when set, else over bigPaper.
func BenchmarkBuildExtra(b *testing.B) {
	var ds []*PaperData
	if db := os.Getenv("PAPERTREE_BENCH_DB"); db != "" {
		ctx := context.Background()
		st, err := store.Open(ctx, db)
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		ids, err := st.ReadyPaperIDs(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for _, id := range ids[:min(10, len(ids))] {
			p, err := st.LoadPaper(ctx, id)
			if err != nil {
				b.Fatal(err)
			}
			ds = append(ds, NewPaperData(p, nil, nil, nil))
		}
	} else {
		ds = []*PaperData{bigPaper(1), bigPaper(2)}
	}
	size := 0
	for _, d := range ds {
		for _, n := range d.Nodes {
			size += len(n.Text)
		}
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, d := range ds {
			buildExtraN(d, 1)
		}
	}
}

// referenceLikePlain is ReferenceLike as first written, every expression
// always run: the bound in ReferenceLike must not change one answer.
func referenceLikePlain(text string) bool {
	words := len(strings.Fields(text))
	if words < 12 {
		return false
	}
	years := len(yearRE.FindAllStringIndex(text, -1))
	if years < 2 {
		return false
	}
	marks := years + len(initialsRE.FindAllStringIndex(text, -1)) + len(venueRE.FindAllStringIndex(text, -1))
	return float64(marks)/float64(words) >= 0.12 && float64(years)/float64(words) >= 0.03
}

// TestReferenceLikeBound: the bound that spares the expressions gives
// ReferenceLike's plain answer on texts around its thresholds, including
// venue words run into other words, dotted abbreviations, the two
// non-ASCII letters that fold to ASCII and invalid UTF-8.
func TestReferenceLikeBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	parts := []string{"J. Smith", "A. B. Jones", "In Proceedings of", "Proc.", "Proc.ACL", "pp.", "pp.12", "vol.", "Vol.3", "IEEE",
		"ieeexplore", "arXiv preprint", "Association for Computational Linguistics", "association for", "ACM", "acmx",
		"Journal", "journals", "Press", "pages", "page", "workshop_", "Conference", "TRANSACTIONS", "\u212aelvin",
		"pre\u017fs", "é", "—", "\xff", "the model", "we", "X.", "U.S.", "et al.", ",", "("}
	var refs, both int
	for i := 0; i < 30000; i++ {
		var b strings.Builder
		// Each text draws on three of the parts, so that each part in
		// turn decides some texts.
		some := []string{parts[rng.IntN(len(parts))], parts[rng.IntN(len(parts))], parts[rng.IntN(len(parts))]}
		for k := 8 + rng.IntN(80); k >= 0; k-- {
			switch rng.IntN(6) {
			case 0:
				fmt.Fprintf(&b, "%d", 1940+rng.IntN(100))
			case 1, 2:
				b.WriteString(vocabWords[rng.IntN(len(vocabWords))])
			default:
				b.WriteString(some[rng.IntN(len(some))])
			}
			if rng.IntN(5) > 0 {
				b.WriteByte(' ')
			}
		}
		text := b.String()
		want := referenceLikePlain(text)
		if got := ReferenceLike(text); got != want {
			t.Fatalf("ReferenceLike = %v, plain = %v on %q", got, want, text)
		}
		if want {
			refs++
		} else if ini, ven := marksBound(text); ini+ven > 0 {
			both++
		}
	}
	if refs < 500 || both < 500 {
		t.Fatalf("too few texts near the thresholds: %d reference-like, %d bounded", refs, both)
	}
}

// TestHasCausalCue: the one-pass cue scan agrees with lowercasing the
// sentence and looking for each cue, on sentences built from pieces of the
// cues, capitals and letters whose lowercase is ASCII (the Kelvin sign,
// the dotted capital I).
func TestHasCausalCue(t *testing.T) {
	plain := func(s string) bool {
		low := strings.ToLower(s)
		for _, c := range causalCues {
			if strings.Contains(low, c) {
				return true
			}
		}
		return false
	}
	var pieces []string
	for _, c := range causalCues {
		pieces = append(pieces, c, strings.ToUpper(c), c[:len(c)/2], c[len(c)/2:])
	}
	pieces = append(pieces, " ", ",", "\u212a", "\u0130", "é", "model", "\xff", "T", "o")
	rng := rand.New(rand.NewPCG(23, 29))
	var yes, no int
	for i := 0; i < 50000; i++ {
		var b strings.Builder
		for k := rng.IntN(6); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		want := plain(s)
		if got := hasCausalCue(s); got != want {
			t.Fatalf("hasCausalCue(%q) = %v, want %v", s, got, want)
		}
		if want {
			yes++
		} else {
			no++
		}
	}
	if yes < 5000 || no < 5000 {
		t.Fatalf("unbalanced cases: %d with a cue, %d without", yes, no)
	}
}

// A question in a script written without spaces is one whitespace field
// per clause: its words are the clause's content words
// (papertree.CJKContentWords), each missing only when the papers print no
// piece covering one of its characters, beside the spaced words.
func TestMissingTermsReadsUnsegmentedContentWords(t *testing.T) {
	leaf := &papertree.Node{Kind: papertree.KindSegment, Text: "每次欠采样的个数为最少类的样本数，以随机\n欠采样得到 with LSTM models we train.", Tokens: 20}
	root := &papertree.Node{Kind: papertree.KindRoot, Title: "P", Children: []*papertree.Node{{Kind: papertree.KindSection, Title: "1 Model", Children: []*papertree.Node{leaf}}}}
	d := NewPaperData(&papertree.Paper{ID: 1, Title: "P", Root: root}, nil, nil, nil)
	for _, tc := range []struct {
		q       string
		missing []string
		terms   int
	}{
		// 每次欠采样 and 随机欠采样 (across a line break) are printed;
		// 不平衡情绪分类中 is not (中 may begin a word: 中文); 多次随机欠采样
		// lacks 多次.
		{"在不平衡情绪分类中，多次随机欠采样时每次欠采样的个数是多少？", []string{"不平衡情绪分类中", "多次随机欠采样"}, 3},
		{"随机欠采样的样本数是多少？", nil, 2},
		{"Which GRU 模型 did they train?", []string{"GRU", "模型"}, 3},
	} {
		missing, _, terms := missingTerms(tc.q, []*PaperData{d})
		if !slices.Equal(missing, tc.missing) || terms != tc.terms {
			t.Errorf("%s: missing %q of %d terms, want %q of %d", tc.q, missing, terms, tc.missing, tc.terms)
		}
	}
}
