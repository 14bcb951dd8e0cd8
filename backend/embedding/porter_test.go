package embedding

import (
	"sync"
	"testing"
)

func TestStem(t *testing.T) {
	// Expected stems from Porter's published vocabulary/output lists, plus
	// words typical of QASPER questions.
	cases := []struct{ name, in, want string }{
		{"sses", "caresses", "caress"},
		{"ies", "ponies", "poni"},
		{"short ies", "ties", "ti"},
		{"plural s", "cats", "cat"},
		{"eed m0", "feed", "feed"},
		{"eed m1", "agreed", "agre"},
		{"ed", "plastered", "plaster"},
		{"ed no vowel", "bled", "bled"},
		{"ing", "motoring", "motor"},
		{"ing no vowel", "sing", "sing"},
		{"at+e", "conflated", "conflat"},
		{"bl+e", "troubled", "troubl"},
		{"iz+e", "sized", "size"},
		{"double consonant", "hopping", "hop"},
		{"double n", "tanned", "tan"},
		{"keep ll", "falling", "fall"},
		{"keep ss", "hissing", "hiss"},
		{"keep zz", "fizzed", "fizz"},
		{"cvc no e", "failing", "fail"},
		{"cvc add e", "filing", "file"},
		{"y to i", "happy", "happi"},
		{"y kept", "sky", "sky"},
		{"ational", "relational", "relat"},
		{"tional", "conditional", "condit"},
		{"tional m", "rational", "ration"},
		{"izer", "digitizer", "digit"},
		{"ator", "operator", "oper"},
		{"alism", "feudalism", "feudal"},
		{"iveness", "decisiveness", "decis"},
		{"fulness", "hopefulness", "hope"},
		{"ousness", "callousness", "callous"},
		{"aliti", "formaliti", "formal"},
		{"iviti", "sensitiviti", "sensit"},
		{"biliti", "sensibiliti", "sensibl"},
		{"icate", "triplicate", "triplic"},
		{"ative", "formative", "form"},
		{"alize", "formalize", "formal"},
		{"iciti", "electriciti", "electr"},
		{"ical", "electrical", "electr"},
		{"ful", "hopeful", "hope"},
		{"ness", "goodness", "good"},
		{"al", "revival", "reviv"},
		{"ance", "allowance", "allow"},
		{"ence", "inference", "infer"},
		{"er", "airliner", "airlin"},
		{"able", "adjustable", "adjust"},
		{"ible", "defensible", "defens"},
		{"ant", "irritant", "irrit"},
		{"ement", "replacement", "replac"},
		{"ment", "adjustment", "adjust"},
		{"ent", "dependent", "depend"},
		{"tion", "adoption", "adopt"},
		{"ism", "communism", "commun"},
		{"ate", "activate", "activ"},
		{"ive", "effective", "effect"},
		{"ize", "bowdlerize", "bowdler"},
		{"final e m1 cvc", "rate", "rate"},
		{"final e", "cease", "ceas"},
		{"ll m>1", "controlling", "control"},
		{"chain", "generalizations", "gener"},
		{"ators", "oscillators", "oscil"},
		{"question word", "annotators", "annot"},
		{"evaluation", "evaluation", "evalu"},
		{"evaluate", "evaluate", "evalu"},
		{"too short", "is", "is"},
		{"digits kept", "bert2", "bert2"},
		{"non-ascii kept", "café", "café"},
		{"empty", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Stem(c.in); got != c.want {
				t.Errorf("Stem(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// TestStemClassicalPlurals: a plural that keeps its Latin or Greek form
// stems as its singular, while PorterStem (FTS5's stemmer) keeps them apart.
func TestStemClassicalPlurals(t *testing.T) {
	for _, tc := range []struct{ plural, singular string }{
		{"corpora", "corpus"}, {"hypotheses", "hypothesis"}, {"matrices", "matrix"}, {"criteria", "criterion"},
		{"analyses", "analysis"}, {"indices", "index"}, {"stimuli", "stimulus"}, {"axes", "axis"},
	} {
		t.Run(tc.plural, func(t *testing.T) {
			if Stem(tc.plural) != Stem(tc.singular) {
				t.Errorf("Stem(%q) = %q, Stem(%q) = %q", tc.plural, Stem(tc.plural), tc.singular, Stem(tc.singular))
			}
			if PorterStem(tc.plural) == PorterStem(tc.singular) {
				t.Errorf("PorterStem merges %q and %q; the table entry is not needed", tc.plural, tc.singular)
			}
			if Singular(tc.plural) != tc.singular || Singular(tc.singular) != "" {
				t.Errorf("Singular(%q) = %q", tc.plural, Singular(tc.plural))
			}
		})
	}
	// Every table entry is a real difference for Porter.
	for p, s := range classicalPlurals {
		if PorterStem(p) == PorterStem(s) {
			t.Errorf("%q and %q already share a Porter stem", p, s)
		}
	}
}

// The stem memo gives what stemming gives, from any number of goroutines,
// for words seen before and words past its bound (run with -race).
func TestPorterStemMemo(t *testing.T) {
	var words []string
	for i := range 6 {
		ScanWords(segment512(i), func(w []byte) { words = append(words, string(w)) })
	}
	for i := range stemShards * stemShardMax * 5 / 4 { // more distinct words than the memo keeps
		b := []byte("zq....ing")
		for j, k := 2, i; j < 6; j, k = j+1, k/26 {
			b[j] = byte('a' + k%26)
		}
		words = append(words, string(b))
	}
	want := make([]string, len(words))
	for i, w := range words {
		if want[i] = w; stemmable(w) {
			want[i] = fts5Departures(w, snowballPorter(w))
		}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 2 {
				for i := g; i < len(words); i += 1 + round {
					if got := PorterStem(words[i]); got != want[i] {
						t.Errorf("PorterStem(%q) = %q, want %q", words[i], got, want[i])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	n := 0
	for i := range stemMemo {
		stemMemo[i].mu.RLock()
		n += len(stemMemo[i].m)
		stemMemo[i].mu.RUnlock()
	}
	if n > stemShards*(stemShardMax+4) {
		t.Errorf("memo holds %d words, bound %d", n, stemShards*stemShardMax)
	}
}
