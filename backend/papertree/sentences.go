package papertree

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// abbreviations that end with a period but rarely end a sentence in papers.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "et al": true, "al": true, "fig": true, "figs": true, "eq": true, "eqs": true,
	"sec": true, "secs": true, "tab": true, "vs": true, "cf": true, "resp": true, "approx": true, "no": true,
	"dr": true, "mr": true, "ms": true, "prof": true, "etc": true, "ref": true, "refs": true, "ch": true,
	"viz": true, "incl": true, "min": true, "max": true, "avg": true, "std": true, "vol": true, "pp": true,
	"st": true, "jr": true, "inc": true, "ltd": true, "co": true, "corp": true, "alg": true, "thm": true,
	"def": true, "prop": true, "lem": true, "appx": true, "app": true, "ex": true,
}

// SplitSentences splits text into sentences. It is tuned for scientific
// prose: it does not split after common abbreviations ("et al.", "Fig.",
// "e.g."), single capital initials ("J. Smith"), or inside numbers ("3.2"),
// and it keeps closing quotes/brackets with their sentence. Whitespace inside
// a sentence is preserved; surrounding whitespace is trimmed.
func SplitSentences(text string) []string {
	if IsTableText(text) {
		return tableSentences(text) // table.go: a table reads by rows
	}
	return splitProse(text)
}

func splitProse(text string) []string {
	var out []string
	start := 0
	n := len(text)
	for i := 0; i < n; {
		r, size := utf8.DecodeRuneInString(text[i:])
		if cjkTerminator(r) {
			// Chinese and Japanese end a sentence with 。！？ and start
			// the next without a space; closing quotes and brackets stay
			// with their sentence.
			end := i + size
			for end < n {
				r2, s2 := utf8.DecodeRuneInString(text[end:])
				if !cjkTerminator(r2) && !strings.ContainsRune(cjkClosers, r2) {
					break
				}
				end += s2
			}
			if s := strings.TrimSpace(text[start:end]); s != "" {
				out = append(out, s)
			}
			start, i = end, end
			continue
		}
		if r != '.' && r != '?' && r != '!' {
			i += size
			continue
		}
		end := i + size
		// absorb runs of terminators and closing punctuation
		for end < n {
			r2, s2 := utf8.DecodeRuneInString(text[end:])
			if r2 == '.' || r2 == '?' || r2 == '!' || r2 == '"' || r2 == '\'' || r2 == ')' || r2 == ']' || r2 == '’' || r2 == '”' {
				end += s2
				continue
			}
			break
		}
		if end < n {
			r2, _ := utf8.DecodeRuneInString(text[end:])
			if !unicode.IsSpace(r2) {
				i = end
				continue // "3.2", "e.g.x", URL
			}
		}
		if r == '.' && !sentenceBreakAfterPeriod(text[start:i], text[end:]) {
			i = end
			continue
		}
		if s := strings.TrimSpace(text[start:end]); s != "" {
			out = append(out, s)
		}
		start = end
		i = end
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// cjkTerminator reports the full stop, exclamation and question marks of
// Chinese and Japanese (ideographic and full-width forms).
func cjkTerminator(r rune) bool { return r == '。' || r == '！' || r == '？' }

// cjkClosers are the closing quotes and brackets that may follow a CJK
// terminator inside its sentence.
const cjkClosers = "”’」』）】〕》〉\"')]"

// sentenceBreakAfterPeriod decides whether a period ends the sentence given
// the text before it (same sentence so far) and after it.
func sentenceBreakAfterPeriod(before, after string) bool {
	after = strings.TrimLeftFunc(after, unicode.IsSpace)
	if after == "" {
		return true
	}
	next, _ := utf8.DecodeRuneInString(after)
	// Find the last word before the period.
	j := strings.LastIndexFunc(before, func(r rune) bool { return unicode.IsSpace(r) || r == '(' || r == '[' })
	word := before[j+1:]
	lw := strings.ToLower(word)
	if abbreviations[lw] {
		return false // "et al." ends on "al", which is listed
	}
	// Single capital initial: "J. Smith".
	if utf8.RuneCountInString(word) == 1 {
		r, _ := utf8.DecodeRuneInString(word)
		if unicode.IsUpper(r) {
			return false
		}
	}
	// A lowercase continuation rarely starts a sentence.
	if unicode.IsLower(next) {
		return false
	}
	return true
}

// Readability of a sentence to quote.
//
// A passage extracted from a PDF mixes prose with pseudo-code ("for i = 1
// to n do", "σ ← perm(n)"), flattened table rows ("BLEU 28.4 41.0 2.3
// 10^19"), equations ("h_t = σ(W x_t + b)") and garbled or OCR-mangled
// text (glyph-mapping noise, U+FFFD). Such a "sentence" is evidence, but
// it does not read as an answer. WordShare measures it in one way: the
// share of its tokens that are ordinary words - letters only (a hyphen or
// apostrophe inside), two letters or more ("a" and "I" aside), with a
// vowel, not shouting in capitals. Numerals, symbols, letters glued to
// math symbols and single letters are not words; acronyms ("BERT",
// "LSTM") and names with digits ("GPT-2") are neither, so they do not
// count either way; parenthetical asides are left out. A sentence reads
// as prose when most of its counted tokens are words, it shows no
// pseudo-code syntax, and it holds no replacement or private-use
// characters (a glyph the extractor could not map).

// WordShare is the share of s's counted tokens that are ordinary words
// (see above); 0 when none counts.
func WordShare(s string) float64 {
	// Parenthetical asides (citations, "(M = 0.72, SD = 0.40)", equation
	// numbers) are not what the sentence says.
	if t := asideRE.ReplaceAllString(s, " "); strings.TrimSpace(t) != "" {
		s = t
	}
	words, other := 0, 0
	for _, f := range strings.Fields(s) {
		if HasCJK(f) {
			w, o := cjkField(f)
			words += w
			other += o
			continue
		}
		switch tokenClass(f) {
		case classWord:
			words++
		case classOther:
			other++
		}
	}
	if words+other == 0 {
		return 0
	}
	return float64(words) / float64(words+other)
}

// cjkField counts the words of a field that holds CJK characters
// (Chinese, Japanese and Korean put no space between words, so a field
// is often a clause): each CJK run counts as one word per two characters
// (the length of a common Chinese word), and the text between runs,
// split at punctuation, is counted as other fields are ("LSTM", "100",
// "xt").
func cjkField(f string) (words, other int) {
	run := 0
	var rest strings.Builder
	flushRest := func() {
		for _, g := range strings.FieldsFunc(rest.String(), func(r rune) bool {
			return unicode.IsPunct(r) && !strings.ContainsRune("-'’", r) || unicode.IsSpace(r)
		}) {
			switch tokenClass(g) {
			case classWord:
				words++
			case classOther:
				other++
			}
		}
		rest.Reset()
	}
	for _, r := range f {
		if IsCJK(r) {
			if rest.Len() > 0 {
				flushRest()
			}
			run++
			continue
		}
		words += (run + 1) / 2
		run = 0
		rest.WriteRune(r)
	}
	words += (run + 1) / 2
	flushRest()
	return words, other
}

const (
	classNeutral = iota
	classWord
	classOther
)

// edgePunct is the punctuation that may stand around a word.
const edgePunct = ".,;:!?()[]{}\"'“”‘’«»…"

func tokenClass(f string) int {
	core := strings.TrimFunc(f, func(r rune) bool { return strings.ContainsRune(edgePunct, r) })
	if core == "" {
		return classNeutral
	}
	letters, digits, upper, vowel, other := 0, 0, 0, false, false
	for _, r := range core {
		switch {
		case unicode.IsLetter(r):
			letters++
			if unicode.IsUpper(r) {
				upper++
			}
			if strings.ContainsRune("aeiouyAEIOUY", r) || r > unicode.MaxASCII && unicode.In(r, unicode.Latin) {
				vowel = true
			}
		case unicode.IsDigit(r):
			digits++
		case r == '-' || r == '\'' || r == '’':
		default:
			other = true
		}
	}
	switch {
	case other || letters == 0:
		return classOther // numerals, symbols, letters glued to math
	case digits > 0:
		return classNeutral // a name: "GPT-2", "word2vec", "ResNet-50"
	case letters == 1:
		if core == "a" || core == "A" || core == "I" {
			return classWord
		}
		return classOther
	case upper == letters:
		if letters <= 6 {
			return classNeutral // an acronym
		}
		return classOther
	case !vowel:
		return classOther // "rnd", "thc": OCR noise
	}
	return classWord
}

// asideRE matches a parenthetical aside.
var asideRE = regexp.MustCompile(`\([^()]*\)`)

// pseudoCodeRE matches the syntax of pseudo-code: assignment arrows,
// "end for", "for i = 1 to n do", "while ... do".
var pseudoCodeRE = regexp.MustCompile(`(?i):=|←|⟵|(?:^|[\s;:])end\s+(?:for|if|while|procedure|function|loop)\b|\bfor\s+(?:each\s+|all\s+)?[A-Za-z_][\w']{0,2}\s*(?:=|∈|←|in\b)[^.;]{0,40}?\bdo\b|\bwhile\b[^.;]{0,60}?\bdo\s*$|^\s*(?:procedure|function|input|output|require|ensure)\s*:`)

// Cut ends a sentence that retrieval cut to fit its token budget.
const Cut = "…"

// Readable reports whether s reads as a sentence of prose (see WordShare):
// most of its counted tokens are words, and it holds no pseudo-code syntax
// and no replacement or private-use characters. A sentence ended by Cut is
// not: what its missing words said is unknown.
func Readable(s string) bool {
	if strings.HasSuffix(strings.TrimSpace(s), Cut) {
		return false
	}
	for _, r := range s {
		if r == utf8.RuneError || unicode.Is(unicode.Co, r) {
			return false
		}
	}
	return WordShare(s) >= 0.5 && !pseudoCodeRE.MatchString(s) && !labelBlock(s) && !labelList(s)
}

// labelList reports a run of six or more words with no function word of
// English, German, French or Spanish among them: a table's header row, a
// figure's labels read on one line, an author list or a reference's title
// ("Epochs ImageNet ImageNet ReaL CIFAR-10 CIFAR-100 Pets Flowers
// exaFLOPs name"). Prose of six words always holds an article, a
// preposition, a pronoun or an auxiliary. Its words are ordinary words, so
// WordShare passes it; it is evidence, but no sentence to quote.
func labelList(s string) bool {
	n := 0
	for _, f := range strings.Fields(s) {
		w := strings.ToLower(strings.TrimFunc(f, func(r rune) bool { return strings.ContainsRune(edgePunct, r) }))
		if strings.IndexFunc(w, unicode.IsLetter) < 0 {
			continue
		}
		if _, ok := functionWords[w]; ok {
			return false
		}
		if strings.ContainsAny(w, cjkFunctionChars) {
			return false
		}
		n++
	}
	return n >= 6
}

// functionWords are closed-class words (articles, prepositions, pronouns,
// conjunctions, auxiliaries) of the languages the library's papers are
// written in; labelList only asks whether a text holds any.
var functionWords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`a an the of in on at to for with by from as and or but nor not no is are was were be
been being it its this that these those we our us they their them he she his her which who whom whose what when where
how why if than then there here can could may might must shall should will would do does did has have had also into
onto over under between through via per each all any both such only more most very so thus i you one
der das den dem des ein eine einer eines einem einen und oder aber nicht kein keine ist sind wird werden wurde wurden
sein haben ich er sie es wir mit von zu zum zur bei nach aus für über unter auf im am vom wie wo wenn dass sich auch
nur noch diese dieser dieses als
le la les un une du de des et ou mais est sont il elle ils nous vous je ce cette ces qui que dans sur pour par avec
sans au aux leur se ne pas en
el los las unos unas y pero fue ser está para sobre su sus lo este esta del con por`) {
		m[w] = struct{}{}
	}
	return m
}()

// cjkFunctionChars are function words (particles, the copula,
// conjunctions, demonstratives) of Chinese, Japanese and Korean written as
// one character; a CJK field of prose nearly always holds one, a table
// header's or a figure's labels do not.
const cjkFunctionChars = "的了是在和与及或为对将被而以于其这该也都并之のはがをにでともた은는이가을를에의도"

// labelBlock reports the text of a figure or diagram read as one
// "sentence": four or more lines, at least three in four of them labels of
// three words or fewer ("Viterbi Graph", "Beam Search Transformer T",
// "Input gate Block gate tanh" ...). Its words are ordinary words, so
// WordShare passes it; it is evidence, but no sentence a reader can quote.
func labelBlock(s string) bool {
	lines, short := 0, 0
	for _, l := range strings.Split(s, "\n") {
		n := 0 // words: fields holding a letter or digit ("|", "}" are rules)
		for _, f := range strings.Fields(l) {
			if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
				n++
			}
		}
		if n == 0 {
			continue
		}
		lines++
		if n <= 3 {
			short++
		}
	}
	return lines >= 4 && 4*short >= 3*lines
}

// PseudoCode reports whether s holds the syntax of pseudo-code
// (assignment arrows, "end for", "for i = 1 to n do").
func PseudoCode(s string) bool { return pseudoCodeRE.MatchString(s) }

// othersRE marks text about other work: citation markers and the usual
// names for prior work.
var othersRE = regexp.MustCompile(`(?i)\bBIBREF\d|\bet al\b|\(\s*[A-Z][A-Za-z-]+[^()]{0,60}\b(19|20)\d\d[a-z]?\s*\)|\[\d+(\s*[,–-]\s*\d+)*\]|\b(previous|prior|earlier|existing|traditional|conventional) (work|works|studies|approaches|methods|models|systems)\b|\bstate[- ]of[- ]the[- ]art (models|methods|systems|approaches)\b|\bmost (existing |current |previous )?(models|methods|systems|approaches)\b|\b(several|many|numerous|some|a few|other|recent) (recent |other |previous |prior )?(works|studies|papers|authors|researchers)\b`)

// AboutOthers reports a sentence whose subject is other work than the
// paper's own: a citation or a name for prior work among its first words
// ("BIBREF10 proposed ...", "State-of-the-art models for X rely on ...");
// a citation further on only credits a tool or data set the sentence uses.
func AboutOthers(s string) bool {
	f := strings.Fields(s)
	return othersRE.MatchString(strings.Join(f[:min(len(f), 8)], " "))
}

// AlnumKey is what two texts share when they say the same thing in other
// spacing or punctuation: their letters and digits, lower-cased ("O(n2)."
// and "O(n2 ) ." are one sentence printed twice).
func AlnumKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
