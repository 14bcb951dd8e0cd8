package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

// A focus word the paper never prints is no reason for "not found" when a
// passage found says it by a WordNet synonym; a name or a noun the table
// does not hold still is.
func TestFocusWordSaidBySynonym(t *testing.T) {
	emb := embedding.NewBuiltin()
	pr := []papertree.Evidence{{Kind: papertree.KindSegment, Score: 0.6,
		Text: "For example, in PR space it is incorrect to linearly interpolate between points."}}
	use := func(stem string, body int, focus bool) retrieve.TermUse {
		return retrieve.TermUse{Stem: stem, IDF: 5, Body: body, Focus: focus}
	}
	for _, tc := range []struct {
		name     string
		in       Input
		notFound bool
	}{
		{"adjective said by its synonym", Input{Question: "What is wrong with linear interpolation between points in PR space?", Evidence: pr, Terms: 5,
			Missing: []string{"wrong"}, Uses: []retrieve.TermUse{use("wrong", 0, true), use("interpol", 3, true), use("space", 4, false)}}, false},
		{"a name no passage prints", Input{Question: "What is incorrect about interpolation on the Caltech data?", Evidence: pr, Terms: 5,
			Missing: []string{"caltech"}, Uses: []retrieve.TermUse{use("caltech", 0, true), use("interpol", 3, true)}}, true},
		{"an antonym does not say the word", Input{Question: "What is correct about linear interpolation in PR space?", Evidence: pr, Terms: 5,
			Missing: []string{"correct"}, Uses: []retrieve.TermUse{use("correct", 0, true), use("interpol", 3, true)}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Compose(context.Background(), emb, tc.in, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if out.NotFound != tc.notFound {
				t.Errorf("notFound = %v, want %v: %q", out.NotFound, tc.notFound, out.Text)
			}
		})
	}
}

func TestSaidBySynonym(t *testing.T) {
	texts := []string{"For example, in PR space it is incorrect to linearly interpolate between points.",
		"On average, Midas shows a 3.4% overhead on diverse workloads."}
	for _, tc := range []struct {
		word string
		want bool
	}{
		{"wrong", true},      // WordNet: incorrect, wrong
		{"Wrong", true},      // as typed
		{"correct", false},   // antonym of "incorrect": not the same meaning
		{"slowdown", false},  // a noun: the table holds verbs and adjectives
		{"Caltech", false},   // a name
		{"incorrect", false}, // the word itself is no synonym (the index reads it)
	} {
		if got := saidBySynonym(tc.word, texts); got != tc.want {
			t.Errorf("saidBySynonym(%q) = %v, want %v", tc.word, got, tc.want)
		}
	}
	if strings.Contains(texts[0], "wrong") {
		t.Fatal("test text must not hold the word itself")
	}
}
