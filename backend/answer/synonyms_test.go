package answer

import (
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/answer/internal/wordnet"
)

// The committed WordNet table is read and restricted as its header says.
func TestWordnetTable(t *testing.T) {
	if len(wordnet.Synsets()) < 1000 || len(wordnet.Antonyms()) < 100 {
		t.Fatalf("table too small: %d sets, %d antonym pairs", len(wordnet.Synsets()), len(wordnet.Antonyms()))
	}
	for _, s := range append(wordnet.Synsets(), wordnet.Antonyms()...) {
		if s.POS != "v" && s.POS != "a" {
			t.Fatalf("set of part of speech %q: only verbs and adjectives belong", s.POS)
		}
	}
	held := func(a, b string) bool { ok, neg := wordnetHolds(a, b); return ok && !neg }
	if !held("continues", "keep") || !held("distinguishes", "differentiate") {
		t.Error("synonyms in their first senses not joined")
	}
	// "tell" is "distinguish" only in its 8th sense: not joined.
	if held("distinguish", "tell") {
		t.Error("a rare sense joined")
	}
	if ok, neg := wordnetHolds("unclear", "clear"); !ok || !neg {
		t.Error("antonym not read as the word negated")
	}
	if ok, _ := wordnetHolds("the", "keep"); ok {
		t.Error("a function word held a predicate")
	}
}

// A deciding sentence that says the predicate with a WordNet synonym or
// antonym is read by the polarity rules as if it said the word (own
// sentences).
func TestVerdictThroughWordnet(t *testing.T) {
	tests := []verdictCase{
		{"synonym holds the verb", "Does the loss keep falling after the warm-up?", "The loss continues to fall long after the warm-up ends.", VerdictYes},
		{"synonym negated", "Does the loss keep falling after the warm-up?", "The loss does not continue to fall after the warm-up.", VerdictNo},
		{"antonym says no", "Are the two sampled batches different?", "The two sampled batches are the same.", VerdictNo},
		{"antonym negated says yes", "Are the two sampled batches different?", "The two sampled batches are not the same.", VerdictYes},
		{"a negative predicate's antonym with no", "Do shallow parsers lack access to long-range context?", "Shallow parsers have no access to long-range context.", VerdictYes},
		{"a phrasal verb's synonym", "Can the probe tell the two isotopes apart?", "The probe distinguishes the two isotopes.", VerdictYes},
		{"a phrasal verb's synonym negated", "Can the probe tell the two isotopes apart?", "The probe does not differentiate between the two isotopes.", VerdictNo},
		{"the word itself first: family, not synonym", "Does the scheduler keep idle workers?", "The scheduler keeps idle workers.", VerdictYes},
		{"unrelated verb holds nothing", "Does the loss keep falling after the warm-up?", "The loss jumps after the warm-up.", VerdictUnclear},
	}
	checkVerdicts(t, tests)
	// The Decider that retrieval reads does not use the table.
	if v, held := newJudge("Does the loss keep falling after the warm-up?", false)("The loss continues to fall long after the warm-up ends."); held {
		t.Errorf("judge without WordNet held a synonym: %s", v)
	}
}

// The predicate's synonym counts in a deciding sentence's coverage.
func TestWithPredicateSynonym(t *testing.T) {
	p, k := predicateStem("Does the loss keep falling after the warm-up?")
	if p == "" {
		t.Fatal("no predicate stem")
	}
	have := stemSet("The loss continues to fall after the warm-up.")
	if got := withPredicateSynonym(have, p, k); !got[p] {
		t.Errorf("synonym not counted: %v", got)
	}
	if got := withPredicateSynonym(stemSet("The loss jumps after the warm-up."), p, k); got[p] {
		t.Error("an unrelated sentence counted the predicate")
	}
	ps, pk := predicateStem("Can the probe tell the two isotopes apart?")
	if got := withPredicateSynonym(stemSet("The probe distinguishes the two isotopes."), ps, pk); !got[ps] || !got["apart"] {
		t.Errorf("a phrasal verb's synonym not counted with its particle: %v", got)
	}
	if s, _ := predicateStem("Does the model use dropout?"); s != "" {
		t.Error("a light verb's synonyms counted")
	}
	if !strings.Contains(p, "keep") {
		t.Errorf("predicate stem %q", p)
	}
}
