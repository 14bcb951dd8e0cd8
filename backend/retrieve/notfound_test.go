package retrieve

import (
	querypkg "github.com/papertree/papertree/backend/query"
	"slices"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

func TestQuestionFocus(t *testing.T) {
	tests := []struct{ name, q, want string }{
		{"noun phrase after what", "What dropout rate does GloVe apply to its word vectors?", "dropout rate"},
		{"after what is the", "What is the carbon footprint of training the Universal Transformer?", "carbon footprint"},
		{"how many, names left out", "How many attention heads does the HOG pedestrian detector use?", "attention heads"},
		{"lead-in clause", "In the GloVe paper, what initial learning rate was used with AdaGrad?", "initial learning rate"},
		{"measure words are not the focus", "What percentage of WordPiece tokens does BERT mask at random?", ""},
		{"role nouns are answered by naming", "What baselines is the neural relation extractor compared to?", ""},
		{"stops at a verb", "What layer performed best?", "layer"},
		{"what else asks for another thing", "What else is needed besides the tagger?", ""},
		{"what is wrong asks for a property", "What is wrong with linear interpolation between points in PR space?", ""},
		{"a verb after what", "What explains that no automatic score tracks human ratings?", ""},
		{"a plural noun after what", "What datasets does the tagger use?", "datasets"},
		{"what does X do has no focus", "What does BEA stand for?", ""},
		{"how/why questions have no focus", "How does CRISPR gene editing affect the results?", ""},
		{"yes/no questions have no focus", "Does the model use a syntactic parser?", ""},
		{"which papers: what follows the verb", "Which papers study quantum error correction?", "quantum error correction"},
		{"which papers: the verb is not the focus", "Which papers address hate speech detection on social media?", "hate speech detection"},
		{"which papers are: no focus", "Which papers are about coreference?", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(QuestionFocus(tc.q), " "); got != tc.want {
				t.Errorf("QuestionFocus(%q) = %q, want %q", tc.q, got, tc.want)
			}
		})
	}
}

func TestPaperRefWords(t *testing.T) {
	tests := []struct {
		name, q string
		want    []string
	}{
		{"the X paper", "In the seq2seq paper, does the LSTM learn better?", []string{"seq2seq"}},
		{"possessive paper", "How long did the AlexNet paper's network take to train?", []string{"alexnet"}},
		{"et al.", "Does Lee et al.'s end-to-end coreference model use a parser?", []string{"lee"}},
		{"two authors et al.", "According to Davis and Goadrich et al., does it hold?", []string{"davis", "and", "goadrich"}},
		{"author possessive", "How does the dropout affect Kim's sentence classification CNN?", []string{"kim"}},
		{"author and year", "What filter sizes does Kim (2014) use?", []string{"kim"}},
		{"according to", "According to Davis and Goadrich, does an algorithm optimize PR area?", []string{"davis", "and", "goadrich"}},
		{"no reference", "What batch size did AlphaFold2 use during training?", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for w := range PaperRefWords(tc.q) {
				got = append(got, w)
			}
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("PaperRefWords(%q) = %v, want %v", tc.q, got, want)
			}
		})
	}
}

// termPaper is a small paper whose bibliography cites a dropout paper and
// whose body writes "data set", "initialized", "corpus", "detection", "success", "at least" and "xmax".
func termPaper() *PaperData {
	leaf := func(t string) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSegment, Text: t, Tokens: papertree.CountTokens(t)}
	}
	sec := func(t string, kids ...*papertree.Node) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSection, Title: t, Children: kids}
	}
	refs := sec("References", leaf("N. Srivastava, G. Hinton. 2014. Dropout: a simple way to prevent neural networks from overfitting. JMLR."))
	refs.Role = papertree.RoleReferences
	root := &papertree.Node{Kind: papertree.KindRoot, Title: "Word vectors", Children: []*papertree.Node{
		sec("1 Method", leaf("We train word vectors on a large corpus with a learning rate of 0.05."),
			leaf("The embeddings are initialized randomly and evaluated on a new data set of analogies."),
			leaf("The detection model builds on a region proposal network with success."),
			leaf("Each analogy needs at least two word pairs; counts are capped at xmax = 100.")),
		refs,
	}}
	return NewPaperData(&papertree.Paper{ID: 1, Title: "Word vectors", Root: root}, nil, nil, nil)
}

func TestTermUse(t *testing.T) {
	d := termPaper()
	tests := []struct {
		name, q, stem string
		body, refs    int
		focus         bool
	}{
		{"present in the body", "What learning rate trains the vectors?", "rate", 1, 0, true},
		{"only in the bibliography", "What dropout rate does the model apply?", "dropout", 0, 1, true},
		{"absent", "What image resolution does the model take?", "imag", 0, 0, true},
		{"compound written apart", "Which dataset of analogies is used?", "dataset", 1, 0, true},
		{"British spelling of the body's word", "How were the embeddings initialised?", "initialis", 1, 0, false},
		{"irregular plural of the body's word", "Which corpora were used for training?", "corpu", 1, 0, true},
		{"another form of the body's word family", "Which detector does the model build on?", "detector", 1, 0, true},
		{"a bound said with a phrase", "What minimum number of pairs does an analogy need?", "minimum", 1, 0, true},
		{"another bound's phrase", "What maximum number of pairs does an analogy take?", "maximum", 0, 0, true},
		{"a subscript printed glued to its symbol", "What cutoff x_max caps the counts?", "max", 1, 0, true},
		{"a word of another family", "Which successor of the model is trained?", "successor", 0, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			uses := termUse(querypkg.Parse(tc.q), []*PaperData{d})
			i := slices.IndexFunc(uses, func(u TermUse) bool { return u.Stem == tc.stem })
			if i < 0 {
				t.Fatalf("no use of %q in %+v", tc.stem, uses)
			}
			if u := uses[i]; u.Body != tc.body || u.Refs != tc.refs || u.Focus != tc.focus {
				t.Errorf("use of %q = %+v, want body %d refs %d focus %v", tc.stem, u, tc.body, tc.refs, tc.focus)
			}
			for k := 1; k < len(uses); k++ {
				if uses[k].IDF > uses[k-1].IDF {
					t.Errorf("uses not ordered by IDF: %+v", uses)
				}
			}
		})
	}
}

func TestEvidencePapers(t *testing.T) {
	if got := EvidencePapers([]papertree.Evidence{{PaperID: 3}, {PaperID: 1}, {PaperID: 3}}); !slices.Equal(got, []int64{3, 1}) {
		t.Errorf("EvidencePapers = %v, want [3 1]", got)
	}
}

func TestSpellingVariants(t *testing.T) {
	for word, want := range map[string]string{
		"factorisation": "factorization",
		"normalized":    "normalised",
		"analysed":      "analyzed",
		"colour":        "color",
	} {
		if got := SpellingVariants(word); !slices.Contains(got, want) {
			t.Errorf("SpellingVariants(%q) = %q, lacks %q", word, got, want)
		}
	}
	if got := SpellingVariants("ROC"); got != nil {
		t.Errorf("SpellingVariants(ROC) = %q, want none", got)
	}
}
