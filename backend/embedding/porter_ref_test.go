package embedding

// refPorterStem is the hand-written Porter stemmer PaperTree used before the
// Snowball one (github.com/blevesearch/snowballstem/porter), kept here only
// as the reference the replacement is checked against
// (TestPorterStemMatchesReference): it follows Porter's own C version, as
// SQLite's FTS5 porter tokenizer does, including its two departures from
// the published algorithm (step 2 "bli" -> "ble" and "logi" -> "log").
func refPorterStem(word string) string {
	if len(word) < 3 {
		return word
	}
	for i := 0; i < len(word); i++ {
		if word[i] < 'a' || word[i] > 'z' {
			return word
		}
	}
	s := &refStemmer{b: []byte(word)}
	s.step1a()
	s.step1b()
	s.step1c()
	s.step2()
	s.step3()
	s.step4()
	s.step5()
	return string(s.b)
}

type refStemmer struct {
	b []byte
}

// isCons reports whether b[i] is a consonant in Porter's sense ('y' after a
// consonant is a vowel).
func (s *refStemmer) isCons(i int) bool {
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
func (s *refStemmer) measure(n int) int {
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

func (s *refStemmer) hasVowel(n int) bool {
	for i := 0; i < n; i++ {
		if !s.isCons(i) {
			return true
		}
	}
	return false
}

// doubleCons reports whether b[:n] ends in a double consonant.
func (s *refStemmer) doubleCons(n int) bool {
	return n >= 2 && s.b[n-1] == s.b[n-2] && s.isCons(n-1)
}

// cvc reports whether b[:n] ends consonant-vowel-consonant where the last
// consonant is not w, x or y (the *o condition).
func (s *refStemmer) cvc(n int) bool {
	if n < 3 || !s.isCons(n-1) || s.isCons(n-2) || !s.isCons(n-3) {
		return false
	}
	switch s.b[n-1] {
	case 'w', 'x', 'y':
		return false
	}
	return true
}

func (s *refStemmer) ends(suf string) bool {
	n := len(s.b)
	// Last-byte check first: most rules fail on it, and it is the hot path.
	return n >= len(suf) && s.b[n-1] == suf[len(suf)-1] && string(s.b[n-len(suf):]) == suf
}

// replace swaps suffix suf (known to be present) for rep.
func (s *refStemmer) replace(suf, rep string) {
	s.b = append(s.b[:len(s.b)-len(suf)], rep...)
}

// replaceIfM replaces suf by rep when the stem before suf has measure > m.
// It reports whether suf matched (whether or not it was replaced), so rule
// lists stop at the first matching suffix as the algorithm requires.
func (s *refStemmer) replaceIfM(suf, rep string, m int) bool {
	if !s.ends(suf) {
		return false
	}
	if s.measure(len(s.b)-len(suf)) > m {
		s.replace(suf, rep)
	}
	return true
}

func (s *refStemmer) step1a() {
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

func (s *refStemmer) step1b() {
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

func (s *refStemmer) step1c() {
	if s.ends("y") && s.hasVowel(len(s.b)-1) {
		s.b[len(s.b)-1] = 'i'
	}
}

var refStep2Rules = [][2]string{
	{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"},
	{"izer", "ize"}, {"bli", "ble"}, {"alli", "al"}, {"entli", "ent"},
	{"eli", "e"}, {"ousli", "ous"}, {"ization", "ize"}, {"ation", "ate"},
	{"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"}, {"fulness", "ful"},
	{"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
	{"logi", "log"},
}

func (s *refStemmer) step2() {
	// Longest match first: "ational" before "tional", "ization" before "ation".
	for _, r := range refStep2Rules {
		if s.ends(r[0]) {
			s.replaceIfM(r[0], r[1], 0)
			return
		}
	}
}

var refStep3Rules = [][2]string{
	{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"},
	{"ical", "ic"}, {"ful", ""}, {"ness", ""},
}

func (s *refStemmer) step3() {
	for _, r := range refStep3Rules {
		if s.replaceIfM(r[0], r[1], 0) {
			return
		}
	}
}

var refStep4Suffixes = []string{
	"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment",
	"ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
}

func (s *refStemmer) step4() {
	// Among matching suffixes the longest wins ("ement" over "ment" over "ent").
	best := ""
	for _, suf := range refStep4Suffixes {
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

func (s *refStemmer) step5() {
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
