package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

// The "not in these papers" rules added to the missing-word ones: a word
// naming what the question asks for that the papers never use in their
// body text, and the words that only refer to a chosen paper.
func TestNotFoundRules(t *testing.T) {
	emb := embedding.NewBuiltin()
	glove := []papertree.Evidence{{Kind: papertree.KindSegment, Score: 0.5,
		Text: "We train the GloVe word vectors with AdaGrad and an initial learning rate of 0.05 for 50 iterations."}}
	use := func(stem string, body, refs int, focus bool) retrieve.TermUse {
		return retrieve.TermUse{Stem: stem, IDF: 5, Body: body, Refs: refs, Focus: focus}
	}
	tests := []struct {
		name     string
		in       Input
		opts     func(*Options)
		notFound bool
		reason   string
	}{
		{"focus word absent from the paper", Input{Question: "What dropout rate does GloVe apply to its word vectors?", Evidence: glove, Terms: 5,
			Missing: []string{"dropout"}, Uses: []retrieve.TermUse{use("dropout", 0, 0, true), use("glove", 14, 0, false), use("rate", 3, 0, true)}},
			nil, true, "dropout"},
		{"focus word only in the bibliography", Input{Question: "What dropout rate does GloVe apply?", Evidence: glove, Terms: 4,
			Uses: []retrieve.TermUse{use("dropout", 0, 2, true), use("rate", 3, 0, true)}},
			nil, true, "dropout"},
		{"focus words all in the paper", Input{Question: "What initial learning rate does GloVe use?", Evidence: glove, Terms: 4,
			Uses: []retrieve.TermUse{use("initi", 2, 0, true), use("learn", 5, 0, true), use("rate", 3, 0, true)}},
			nil, false, ""},
		{"an absent word outside the focus is no reason", Input{Question: "What initial learning rate does GloVe use on Wikipedia text?", Evidence: glove, Terms: 5,
			Missing: []string{"wikipedia"}, Uses: []retrieve.TermUse{use("wikipedia", 0, 0, false), use("rate", 3, 0, true)}},
			nil, false, ""},
		{"focus rule off", Input{Question: "What dropout rate does GloVe apply?", Evidence: glove, Terms: 4,
			Uses: []retrieve.TermUse{use("dropout", 0, 0, true)}},
			func(o *Options) { o.Focus = false }, false, ""},
		{"chosen paper's nickname is not missing", Input{Question: "In the seq2seq paper, what initial learning rate does the model use?", Evidence: glove,
			Terms: 4, Missing: []string{"seq2seq"}, MissingName: true, Scoped: true},
			nil, false, ""},
		// Library-wide, a paper's nickname is not said missing from the
		// library (the paper may be there without printing it), nor from
		// the papers that match best when only other papers print it: the
		// one it names may be among them and not print the name it is
		// called by ("the AKBC 2019 paper" prints "Automated Knowledge Base
		// Construction"; its passage answered, and the reply said none of
		// the best-matching papers mentions AKBC, which other papers cite).
		{"library-wide, a nickname no paper prints is not claimed", Input{Question: "In the seq2seq paper, what initial learning rate does the model use?", Evidence: glove,
			Terms: 4, Missing: []string{"seq2seq"}, MissingName: true, Claims: Claims{Holders: holders(nil), Searched: []int64{1}}},
			nil, false, ""},
		{"library-wide, a nickname only other papers print", Input{Question: "In the seq2seq paper, what initial learning rate does the model use?", Evidence: glove,
			Terms: 4, Missing: []string{"seq2seq"}, MissingName: true, Claims: Claims{Holders: holders(map[string][]int64{"seq2seq": {7}}), Searched: []int64{1}}},
			nil, false, ""},
		{"library-wide, a venue acronym only other papers print", Input{Question: "What initial learning rate does the EMNLP 2014 paper use?", Evidence: glove,
			Terms: 4, Missing: []string{"EMNLP"}, MissingName: true, Claims: Claims{Holders: holders(map[string][]int64{"emnlp": {7, 8}}), Searched: []int64{1}}},
			nil, false, ""},
		{"library-wide, a name that does not name the paper", Input{Question: "What BLEU score does AlphaFold2 reach in the GloVe paper?", Evidence: glove,
			Terms: 5, Missing: []string{"BLEU", "AlphaFold2"}, MissingName: true, Claims: Claims{Holders: holders(map[string][]int64{"alphafold2": {7}, "bleu": {7}}), Searched: []int64{1}}},
			nil, true, "AlphaFold2"},
		{"chosen paper named, another name missing", Input{Question: "In the GloVe paper, what BLEU score does AlphaFold2 reach?", Evidence: glove,
			Terms: 5, Missing: []string{"BLEU", "AlphaFold2"}, MissingName: true, Scoped: true},
			nil, true, "AlphaFold2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := DefaultOptions()
			if tc.opts != nil {
				tc.opts(&opts)
			}
			out, err := Compose(context.Background(), emb, tc.in, opts)
			if err != nil {
				t.Fatal(err)
			}
			if out.NotFound != tc.notFound || !strings.Contains(out.Reason, tc.reason) {
				t.Fatalf("notFound=%v reason %q, want %v with %q; text %q", out.NotFound, out.Reason, tc.notFound, tc.reason, out.Text)
			}
			if out.NotFound && !strings.Contains(out.Text, "not an answer") {
				t.Errorf("not-found text %q does not label the closest passage", out.Text)
			}
		})
	}
}

func TestAnswerType(t *testing.T) {
	tests := []struct{ name, q, s, typ string }{
		{"rate asks for a number", "What dropout rate does the model apply?", "We apply dropout with rate 0.5.", "number"},
		{"how many asks for a number", "How many layers does the encoder have?", "The encoder has six layers.", "number"},
		{"which optimizer asks for a name", "Which optimizer does the paper use?", "We train with Adam and a warm-up.", "name"},
		{"how/why asks for neither", "Why does reversing help?", "Reversing shortens dependencies.", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := answerType(tc.q); got != tc.typ {
				t.Fatalf("answerType = %q, want %q", got, tc.typ)
			}
		})
	}
	if !hasType("number", "What rate?", "a rate of 0.05") || hasType("number", "What rate?", "a small rate") {
		t.Error("hasType(number) does not look for a numeral")
	}
	if !hasType("name", "Which optimizer?", "We train with Adam.") || hasType("name", "Which optimizer does Adam use?", "We train with Adam.") {
		t.Error("hasType(name) does not look for a name the question lacks")
	}
}

// The not-found reply says why, in words that fit what was searched: "the
// paper" when the question was asked of one paper, "the papers" otherwise.
func TestNotFoundReasonIsSaid(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := []papertree.Evidence{{PaperID: 7, Kind: papertree.KindSegment, Score: 0.9,
		Text: "We train the convolutional network with stochastic gradient descent and a batch size of 128."}}
	tests := []struct {
		name   string
		scoped bool
		want   string
	}{
		{"asked of one paper", true, "The paper never mentions AlphaFold2."},
		{"asked of the library", false, "The papers never mention AlphaFold2."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Compose(context.Background(), emb, Input{Question: "What batch size did AlphaFold2 use?", Evidence: ev,
				Missing: []string{"AlphaFold2"}, MissingName: true, Terms: 3, Scoped: tc.scoped}, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if !out.NotFound || !strings.HasPrefix(out.Text, NotFoundText+" "+tc.want) {
				t.Errorf("text %q, want it to open with %q", out.Text, NotFoundText+" "+tc.want)
			}
		})
	}
}

// A results table answers "What accuracy does CNN-static reach on MR?"
// though the paper never prints "accuracy": the row the question names
// holds every other word and the number. A name the paper never prints
// ("BLEU"), or a word the library never prints, stays evidence of
// absence, and so does a row that lacks another word of the question.
func TestTableRowMakesCommonWordMoot(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := []papertree.Evidence{{PaperID: 1, Kind: papertree.KindSegment, Role: papertree.RoleTable, Score: 0.6,
		Text: "Table 2: Results of our CNN models against other methods.\n| Model | MR | SST-1 | SST-2\nCNN-rand | 76.1 | 45.0 | 82.7\nCNN-static | 81.0 | 45.5 | 86.8"}}
	library := map[string][]int64{"accuracy": {2, 3}, "reach": {2}, "bleu": {3}}
	for _, tc := range []struct {
		name, q  string
		missing  []string
		idx      map[string][]int64
		notFound bool
	}{
		{"common word, named row", "What accuracy does CNN-static reach on MR?", []string{"accuracy", "reach"}, library, false},
		{"a name never printed", "What BLEU score does CNN-static reach on MR?", []string{"BLEU", "reach"}, library, true},
		{"a word no paper prints", "What accuracy does CNN-static reach on MR?", []string{"accuracy", "reach"}, map[string][]int64{}, true},
		{"the row lacks another word", "What dropout accuracy does CNN-static reach on MR?", []string{"accuracy", "reach"}, library, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Question: tc.q, Evidence: ev, Missing: tc.missing, MissingName: tc.name == "a name never printed", Terms: 4 + len(tc.missing) - 2,
				Scoped: true, Uses: []retrieve.TermUse{{Stem: "accuraci", IDF: 3, Focus: true}},
				Claims: Claims{Holders: holders(tc.idx), Scope: []int64{1}}}
			out, err := Compose(context.Background(), emb, in, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if out.NotFound != tc.notFound {
				t.Fatalf("not found = %v, want %v: %s", out.NotFound, tc.notFound, out.Text)
			}
			if !tc.notFound && !strings.Contains(out.Text, "81.0") {
				t.Errorf("the answer does not quote the named row: %s", out.Text)
			}
		})
	}
}

// A reason quotes the words the researcher typed: the stem of a part of a
// hyphenated word is said as that part ("hours" of "kilowatt-hours"), never
// as the stem ("hour"), which the question did not type.
func TestSurfaceWordsOfHyphenParts(t *testing.T) {
	q := "How many kilowatt-hours of electricity did pretraining the language model consume?"
	var stems []string
	for _, w := range []string{"hours", "electricity"} {
		stems = append(stems, embedding.QueryTerms(w)[0])
	}
	got := surfaceWords(q, stems)
	if strings.Join(got, ",") != "hours,electricity" {
		t.Errorf("surfaceWords(%v) = %v, want the typed words hours, electricity", stems, got)
	}
}
