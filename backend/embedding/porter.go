package embedding

// Stem reduces an English word (lowercase ASCII letters) to its Porter stem
// (M. F. Porter, "An algorithm for suffix stripping", 1980). Words that are
// shorter than three letters or contain anything but a-z are returned as is,
// so numbers, identifiers and non-English words keep their exact form.
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
func PorterStem(word string) string {
	if len(word) < 3 {
		return word
	}
	for i := 0; i < len(word); i++ {
		if word[i] < 'a' || word[i] > 'z' {
			return word
		}
	}
	s := &stemmer{b: []byte(word)}
	s.step1a()
	s.step1b()
	s.step1c()
	s.step2()
	s.step3()
	s.step4()
	s.step5()
	return string(s.b)
}

type stemmer struct {
	b []byte
}

// isCons reports whether b[i] is a consonant in Porter's sense ('y' after a
// consonant is a vowel).
func (s *stemmer) isCons(i int) bool {
	switch s.b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		if i == 0 {
			return true
		}
		return !s.isCons(i - 1)
	}
	return true
}

// measure returns m, the number of VC sequences in b[:n].
func (s *stemmer) measure(n int) int {
	m := 0
	i := 0
	for i < n && s.isCons(i) {
		i++
	}
	for i < n {
		for i < n && !s.isCons(i) {
			i++
		}
		if i >= n {
			break
		}
		for i < n && s.isCons(i) {
			i++
		}
		m++
	}
	return m
}

func (s *stemmer) hasVowel(n int) bool {
	for i := 0; i < n; i++ {
		if !s.isCons(i) {
			return true
		}
	}
	return false
}

// doubleCons reports whether b[:n] ends in a double consonant.
func (s *stemmer) doubleCons(n int) bool {
	return n >= 2 && s.b[n-1] == s.b[n-2] && s.isCons(n-1)
}

// cvc reports whether b[:n] ends consonant-vowel-consonant where the last
// consonant is not w, x or y (the *o condition).
func (s *stemmer) cvc(n int) bool {
	if n < 3 || !s.isCons(n-1) || s.isCons(n-2) || !s.isCons(n-3) {
		return false
	}
	switch s.b[n-1] {
	case 'w', 'x', 'y':
		return false
	}
	return true
}

func (s *stemmer) ends(suf string) bool {
	n := len(s.b)
	// Last-byte check first: most rules fail on it, and it is the hot path.
	return n >= len(suf) && s.b[n-1] == suf[len(suf)-1] && string(s.b[n-len(suf):]) == suf
}

// replace swaps suffix suf (known to be present) for rep.
func (s *stemmer) replace(suf, rep string) {
	s.b = append(s.b[:len(s.b)-len(suf)], rep...)
}

// replaceIfM replaces suf by rep when the stem before suf has measure > m.
// It reports whether suf matched (whether or not it was replaced), so rule
// lists stop at the first matching suffix as the algorithm requires.
func (s *stemmer) replaceIfM(suf, rep string, m int) bool {
	if !s.ends(suf) {
		return false
	}
	if s.measure(len(s.b)-len(suf)) > m {
		s.replace(suf, rep)
	}
	return true
}

func (s *stemmer) step1a() {
	switch {
	case s.ends("sses"):
		s.replace("sses", "ss")
	case s.ends("ies"):
		s.replace("ies", "i")
	case s.ends("ss"):
	case s.ends("s"):
		s.replace("s", "")
	}
}

func (s *stemmer) step1b() {
	if s.ends("eed") {
		if s.measure(len(s.b)-3) > 0 {
			s.replace("eed", "ee")
		}
		return
	}
	var cut int
	switch {
	case s.ends("ed") && s.hasVowel(len(s.b)-2):
		cut = 2
	case s.ends("ing") && s.hasVowel(len(s.b)-3):
		cut = 3
	default:
		return
	}
	s.b = s.b[:len(s.b)-cut]
	n := len(s.b)
	switch {
	case s.ends("at"), s.ends("bl"), s.ends("iz"):
		s.b = append(s.b, 'e')
	case s.doubleCons(n) && s.b[n-1] != 'l' && s.b[n-1] != 's' && s.b[n-1] != 'z':
		s.b = s.b[:n-1]
	case s.measure(n) == 1 && s.cvc(n):
		s.b = append(s.b, 'e')
	}
}

func (s *stemmer) step1c() {
	if s.ends("y") && s.hasVowel(len(s.b)-1) {
		s.b[len(s.b)-1] = 'i'
	}
}

var step2Rules = [][2]string{
	{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"},
	{"izer", "ize"}, {"bli", "ble"}, {"alli", "al"}, {"entli", "ent"},
	{"eli", "e"}, {"ousli", "ous"}, {"ization", "ize"}, {"ation", "ate"},
	{"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"}, {"fulness", "ful"},
	{"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
	{"logi", "log"},
}

func (s *stemmer) step2() {
	// Longest match first: "ational" before "tional", "ization" before "ation".
	for _, r := range step2Rules {
		if s.ends(r[0]) {
			s.replaceIfM(r[0], r[1], 0)
			return
		}
	}
}

var step3Rules = [][2]string{
	{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"},
	{"ical", "ic"}, {"ful", ""}, {"ness", ""},
}

func (s *stemmer) step3() {
	for _, r := range step3Rules {
		if s.replaceIfM(r[0], r[1], 0) {
			return
		}
	}
}

var step4Suffixes = []string{
	"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment",
	"ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
}

func (s *stemmer) step4() {
	// Among matching suffixes the longest wins ("ement" over "ment" over "ent").
	best := ""
	for _, suf := range step4Suffixes {
		if len(suf) > len(best) && s.ends(suf) {
			best = suf
		}
	}
	if best == "" {
		return
	}
	n := len(s.b) - len(best)
	if s.measure(n) <= 1 {
		return
	}
	if best == "ion" && (n == 0 || (s.b[n-1] != 's' && s.b[n-1] != 't')) {
		return
	}
	s.b = s.b[:n]
}

func (s *stemmer) step5() {
	n := len(s.b)
	if s.b[n-1] == 'e' {
		m := s.measure(n - 1)
		if m > 1 || (m == 1 && !s.cvc(n-1)) {
			s.b = s.b[:n-1]
		}
	}
	n = len(s.b)
	if n > 1 && s.b[n-1] == 'l' && s.doubleCons(n) && s.measure(n) > 1 {
		s.b = s.b[:n-1]
	}
}
