package embedding

import (
	"hash/maphash"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/porter"
)

// Stem reduces an English word (lowercase ASCII letters) to its Porter stem
// (M. F. Porter, "An algorithm for suffix stripping", 1980; PorterStem).
// Words that are shorter than three letters or contain anything but a-z are
// returned as is, so numbers, identifiers and non-English words keep their
// exact form.
//
// Porter rather than a lighter plural stripper because question and evidence
// wording in papers differs mostly in derivational endings ("evaluate" vs
// "evaluation", "annotated" vs "annotators"), which only a full stemmer merges.
//
// Latin and Greek plurals that research writing keeps ("corpora",
// "hypotheses", "matrices") are first read as their singular: Porter
// leaves "corpora" and "corpus" (or "analyses" / "analysis") with different
// stems, so a question about "corpora" missed the paper's "corpus".
func Stem(word string) string {
	if s, ok := classicalPlurals[word]; ok {
		word = s
	}
	return PorterStem(word)
}

// Singular is the singular of a classical plural ("corpora" -> "corpus"),
// or "" for any other word.
func Singular(word string) string { return classicalPlurals[word] }

// classicalPlurals maps plurals that keep their Latin or Greek form to
// their singular; only pairs whose Porter stems differ and whose singular
// is not itself another common word or form ("bases", "media", "data",
// "ellipses", "diagnoses" are left out: base/basis, medium/the media, "data"
// as a mass noun, the geometric ellipse, the verb "diagnose").
var classicalPlurals = map[string]string{
	"corpora": "corpus", "criteria": "criterion", "phenomena": "phenomenon", "indices": "index",
	"matrices": "matrix", "vertices": "vertex", "analyses": "analysis", "hypotheses": "hypothesis",
	"theses": "thesis", "syntheses": "synthesis", "appendices": "appendix",
	"schemata": "schema", "lemmata": "lemma", "stimuli": "stimulus", "radii": "radius", "nuclei": "nucleus",
	"loci": "locus", "curricula": "curriculum", "automata": "automaton", "taxa": "taxon", "genera": "genus",
	"apices": "apex", "simplices": "simplex", "parentheses": "parenthesis", "crises": "crisis", "axes": "axis",
	"foci": "focus",
}

// PorterStem is the plain Porter stem, as SQLite's FTS5 porter tokenizer
// computes it (the store's keyword scoring must count words as FTS5 does).
//
// The stemming is Snowball's Porter algorithm
// (github.com/blevesearch/snowballstem/porter), which follows the 1980
// paper. SQLite's tokenizer follows Porter's own C version instead, which
// departs from the paper in three places; fts5Departures applies them to the
// Snowball stem, so the result is the same as SQLite's (checked against
// SQLite itself by store.TestPorterStemMatchesFTS5, and against the former
// hand-written stemmer on the development corpus by
// TestPorterStemMatchesReference).
func PorterStem(word string) string {
	if !stemmable(word) {
		return word
	}
	sh := &stemMemo[maphash.String(stemSeed, word)%stemShards]
	sh.mu.RLock()
	s, ok := sh.m[word]
	sh.mu.RUnlock()
	if ok {
		return s
	}
	s = fts5Departures(word, snowballPorter(word))
	if sh.full.Load() { // no lock to wait for
		return s
	}
	sh.mu.Lock()
	if sh.m == nil {
		sh.m = make(map[string]string, 256)
	}
	// Copies: word may be a slice of a long text the memo must not keep.
	sh.m[strings.Clone(word)] = strings.Clone(s)
	sh.full.Store(len(sh.m) >= stemShardMax)
	sh.mu.Unlock()
	return s
}

// stemmable says whether PorterStem stems word: three or more letters a-z.
func stemmable(word string) bool {
	if len(word) < 3 {
		return false
	}
	for i := 0; i < len(word); i++ {
		if word[i] < 'a' || word[i] > 'z' {
			return false
		}
	}
	return true
}

// stemMemo remembers PorterStem per word for the life of the process (the
// stem is a function of the word alone). A first question stems the words
// of every passage it reads, most of which the warm-up's identity cards and
// earlier papers already stemmed; Snowball costs far more than a lookup.
// Sharded so that the goroutines of one question rarely wait on each
// other; bounded (at most stemShards*stemShardMax words, a few MB) so that
// indexing thousands of papers does not grow it without end: past the
// bound, new words are stemmed every time, as before.
var (
	stemSeed = maphash.MakeSeed()
	stemMemo [stemShards]stemShard
)

const (
	stemShards   = 64
	stemShardMax = 2048
)

type stemShard struct {
	mu   sync.RWMutex
	m    map[string]string
	full atomic.Bool
}

// envPool reuses Snowball environments: stemming is on the indexing and
// question hot paths, and an environment is the one allocation per word
// besides the stem itself.
var envPool = sync.Pool{New: func() any { return snowballstem.NewEnv("") }}

// snowballPorter is the bare Snowball Porter stem of a lowercase word.
func snowballPorter(word string) string {
	env := envPool.Get().(*snowballstem.Env)
	env.SetCurrent(word)
	porter.Stem(env)
	s := env.Current()
	envPool.Put(env)
	return s
}

// fts5Departures turns sb, the Snowball (1980 paper) Porter stem of word,
// into the stem of Porter's C version, which SQLite's FTS5 porter tokenizer
// implements. The two differ in three rules, all of which act on the word as
// step 1 leaves it, on endings that the paper's steps 2 to 5 never change;
// so where a rule applies, sb is that step-1 form, and the rest of the
// word's end is what step 1 removed.
//
//   - Step 1b undoubles any final double consonant but l, s and z left by
//     removing "ed" or "ing"; Snowball lists only bb dd ff gg mm nn pp rr tt.
//     ("revving": C "rev", Snowball "revv"; likewise "trekked" for kk, and
//     cc, hh, jj, qq, ww, xx.)
//   - Step 2 maps "-bli" to "-ble" where the paper maps only "-abli":
//     "possibly" is "possibl" with "possible", not "possibli".
//   - Step 2 maps "-logi" to "-log", a rule the paper lacks: "methodology"
//     is "methodolog" with "methodological", not "methodologi".
//
// The first two then continue through steps 2 to 5, which Snowball redoes on
// the corrected form (its step 1 leaves such a form as it is).
func fts5Departures(word, sb string) string {
	n := len(sb)
	switch {
	case n >= 3 && sb[n-1] == sb[n-2] && strings.IndexByte("chjkqvwx", sb[n-1]) >= 0 &&
		strings.HasPrefix(word, sb) && step1bTail[word[n:]]:
		return snowballPorter(sb[:n-1])
	case n >= 4 && strings.HasSuffix(sb, "bli") && hasVC(sb[:n-3]) && fromStep1y(word, sb):
		return snowballPorter(sb[:n-3] + "ble")
	case n >= 5 && strings.HasSuffix(sb, "logi") && hasVC(sb[:n-4]) && fromStep1y(word, sb):
		return sb[:n-1]
	}
	return sb
}

// step1bTail holds the endings step 1 removes before it undoubles: "ed" or
// "ing" (step 1b), after a plural "s" (step 1a).
var step1bTail = map[string]bool{"ed": true, "ing": true, "eds": true, "ings": true}

// fromStep1y reports whether stem, which ends in "i", is word as step 1
// leaves it: word is stem with its final "i" or a "y" and then nothing or
// an ending that step 1 removes ("s", "es" of "ies", "ed", "ing").
func fromStep1y(word, stem string) bool {
	n := len(stem)
	if len(word) < n || word[:n-1] != stem[:n-1] || (word[n-1] != 'i' && word[n-1] != 'y') {
		return false
	}
	switch word[n:] {
	case "", "s", "es", "ed", "ing", "eds", "ings":
		return true
	}
	return false
}

// hasVC reports whether s has Porter's measure m > 0: a vowel followed later
// by a consonant ('y' is a vowel after a consonant, a consonant otherwise).
func hasVC(s string) bool {
	vowel := false
	for i := 0; i < len(s); i++ {
		v := isVowelAt(s, i)
		if v {
			vowel = true
		} else if vowel {
			return true
		}
	}
	return false
}

func isVowelAt(s string, i int) bool {
	switch s[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return true
	case 'y':
		return i > 0 && !isVowelAt(s, i-1)
	}
	return false
}
