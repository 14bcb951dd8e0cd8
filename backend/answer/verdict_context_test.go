package answer

import (
	"context"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// A sentence's subject refers back when it is a pronoun, a demonstrative
// or a quantifier over one, after leading connectives and a prepositional
// lead-in; an expletive "it" and a demonstrative naming the text itself do
// not.
func TestAnaphoric(t *testing.T) {
	tests := []struct {
		name, s string
		want    bool
	}{
		{"a demonstrative determiner", "These operations do not necessitate communication with other hosts.", true},
		{"a quantifier over a demonstrative after a connective and a lead-in", "But for categorical variables, none of these make any sense.", true},
		{"a personal pronoun", "He can't check the transaction for himself, but he can see that a node accepted it.", true},
		{"'they' after a connective and a comma", "However, they do not use the validation set.", true},
		{"'it' as a subject", "It uses a temperature of 1 after training.", true},
		{"control: an expletive 'it'", "It is possible to verify payments without running a full network node.", false},
		{"control: 'this paper' names the text itself", "This paper does not use the validation set.", false},
		{"control: a noun subject", "The median is highly robust.", false},
		{"control: a noun subject after a lead-in", "In the long run, the demon rotates counterclockwise.", false},
		{"control: a lead-in without its comma is no lead-in", "For these reasons we do not use it.", false},
		{"control: a pronoun inside the clause, not its subject", "The model uses them without change.", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := anaphoric(tc.s); got != tc.want {
				t.Errorf("anaphoric(%q) = %v, want %v", tc.s, got, tc.want)
			}
		})
	}
}

// A deciding sentence is weighed with its context: a sentence whose subject
// refers back with the sentence before it in its passage, and every
// sentence with its section's heading. The predicate and its polarity are
// still read off the sentence alone.
func TestComposeVerdictContext(t *testing.T) {
	emb := embedding.NewBuiltin()
	const title = "Ring Attention with Blockwise Transformers for Near-Infinite Context"
	ev := func(heading, text string) papertree.Evidence {
		return papertree.Evidence{Kind: papertree.KindSegment, PaperID: 1, PaperTitle: title, Path: []string{title, heading}, Text: text, Score: 0.9}
	}
	const ring = "In Ring Attention, does each host's outer-loop block computation require communicating with other hosts?"
	const spv = "In the Bitcoin paper, can the user of simplified payment verification check the transaction for himself?"
	tests := []struct {
		name, q string
		ev      papertree.Evidence
		want    string
	}{
		{"a demonstrative subject is weighed with the sentence before it", ring, ev("3 Method",
			"Each host is responsible for running one element of the outer loop of blockwise attention for its block. These operations do not necessitate communication with other hosts."), VerdictNo},
		{"control: without the sentence before it, it covers too little", ring, ev("3 Method",
			"Keys are rotated among the devices of the ring. These operations do not necessitate communication with other hosts."), VerdictUnclear},
		{"control: a noun subject is not weighed with the sentence before it", ring, ev("3 Method",
			"Each host is responsible for running one element of the outer loop of blockwise attention for its block. Softmax operations do not necessitate communication with other hosts."), VerdictUnclear},
		{"control: the sentence before it lends coverage, not the predicate", ring, ev("3 Method",
			"Each host's outer-loop block computation does not require communicating with other hosts, as we show. These operations are cheap."), VerdictNo},
		{"the section heading's words count as held", spv, ev("8. Simplified Payment Verification",
			"A full node stores every block. He can't check the transaction for himself, but he can see that a network node has accepted it."), VerdictNo},
		{"control: under another heading the sentence covers too little", spv, ev("9. Combining and Splitting Value",
			"A full node stores every block. He can't check the transaction for himself, but he can see that a network node has accepted it."), VerdictUnclear},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Question: tc.q, Evidence: []papertree.Evidence{tc.ev}, Terms: 5, Scoped: true}
			out, err := Compose(context.Background(), emb, in, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if out.Verdict != tc.want {
				t.Errorf("verdict %q, want %q; text %q", out.Verdict, tc.want, out.Text)
			}
		})
	}
}
