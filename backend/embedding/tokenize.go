package embedding

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/papertree/papertree/backend/papertree"
)

// maxTokenLen bounds a token so that pathological input (base64, long URLs)
// cannot blow up feature hashing or n-gram generation.
const maxTokenLen = 40

// Token is one word of a text: its lowercased surface form and its stem.
type Token struct {
	Word string
	Stem string
}

// Tokenize splits text into lowercase word tokens (runs of letters and
// digits), drops extraction placeholders such as INLINEFORM3 or BIBREF12
// that PDF-to-text pipelines insert for formulas and citations, and stems
// each remaining word. Stopwords are kept: the caller decides, because
// documents and queries treat them differently.
func Tokenize(text string) []Token {
	out := make([]Token, 0, len(text)/6)
	eachWord(text, func(w string) {
		out = append(out, Token{Word: w, Stem: Stem(w)})
	})
	return out
}

// eachWord calls fn with every lowercase word of text, placeholders dropped.
func eachWord(text string, fn func(w string)) {
	ScanWords(text, func(b []byte) {
		if w, ok := token(string(b)); ok {
			fn(w)
		}
	})
}

// eachTermWord is eachWord for the query-time analyzers (QueryTerms,
// ContentStems): a word holding Chinese, Japanese or Korean characters,
// which ScanWords returns as a whole clause, gives its character bigrams
// (papertree.CJKBigrams, the words of the full-text index) and its other
// parts. Text without CJK characters gives exactly eachWord's words. The
// embedder's document analyzer (DocTerms) is left as it was, so stored
// vectors stay valid.
func eachTermWord(text string, fn func(w string)) {
	ScanWords(text, func(b []byte) {
		w := string(b)
		if !papertree.HasCJK(w) {
			if t, ok := token(w); ok {
				fn(t)
			}
			return
		}
		for _, p := range papertree.CJKParts(w) {
			if t, ok := token(p); ok {
				fn(t)
			}
		}
	})
}

// token is the word a scanned run becomes: none for an extraction
// placeholder, else the run cut to maxTokenLen bytes.
func token(w string) (string, bool) {
	if isPlaceholder(w) {
		return "", false
	}
	if len(w) > maxTokenLen {
		w = truncateUTF8(w, maxTokenLen)
	}
	return w, true
}

// ScanWords calls fn with every word of text: a run of letters and digits,
// lowercased, combining marks kept inside the word. The slice is reused
// between calls (valid only during fn), so callers that only inspect words
// allocate nothing. It is the one word splitter of the embedder and of the
// store's BM25 scoring, so both count the same words.
func ScanWords(text string, fn func(w []byte)) {
	var buf []byte
	flush := func() {
		if len(buf) > 0 {
			fn(buf)
			buf = buf[:0]
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
				buf = append(buf, c)
			case c >= 'A' && c <= 'Z':
				buf = append(buf, c+'a'-'A')
			default:
				flush()
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		i += n
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
		case unicode.Is(unicode.Mn, r) && len(buf) > 0:
			buf = utf8.AppendRune(buf, r) // combining marks stay inside the word
		default:
			flush()
		}
	}
	flush()
}

func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// placeholderPrefixes are the markers QASPER-style (S2ORC) extraction uses
// for formulas, citations and cross-references; followed by digits they
// carry no meaning and would otherwise look like rare, high-IDF words.
var placeholderPrefixes = []string{"inlineform", "displayform", "bibref", "tabref", "figref", "secref", "eqref"}

func isPlaceholder(w string) bool {
	for _, p := range placeholderPrefixes {
		if strings.HasPrefix(w, p) {
			rest := w[len(p):]
			if rest == "" {
				return false
			}
			for i := 0; i < len(rest); i++ {
				if rest[i] < '0' || rest[i] > '9' {
					return false
				}
			}
			return true
		}
	}
	return false
}

// IsStopword reports whether a lowercased word is a function word that
// carries no topical content (documents and queries both drop these).
func IsStopword(w string) bool {
	_, ok := stopwords[w]
	return ok
}

// isQueryStopword reports words that are content-free in a question but may
// be meaningful in a document ("what", "which", and question scaffolding
// like "authors" or "paper").
func isQueryStopword(w string) bool {
	if _, ok := stopwords[w]; ok {
		return true
	}
	_, ok := queryStopwords[w]
	return ok
}

var stopwords = makeSet(`a about above after again against all also am an and any are aren as at be because been
before being below between both but by can cannot could couldn did didn do does doesn doing don down during each
few for from further had hadn has hasn have haven having he her here hers herself him himself his how i if in into
is isn it its itself just let ll me more most mustn my myself no nor not now of off on once only or other ought our
ours ourselves out over own re s same shan she should shouldn so some such t than that the their theirs them
themselves then there these they this those through to too under until up ve very was wasn we were weren what when
where which while who whom why will with won would wouldn you your yours yourself yourselves d m o y
however thus therefore hence may might must shall etc ie eg via within without upon whether yet`)

var queryStopwords = makeSet(`author authors paper papers work propose proposed use used using kind kinds type
types example examples much many mention mentioned describe described report reported specific exactly main`)

// foreignFunctionWords are the function words of the other languages the
// library's papers and questions are written in (German, French, Spanish):
// articles, pronouns, prepositions, conjunctions, question words and
// auxiliaries. In a question they carry no content, yet few papers use them,
// so they looked like a question's rarest words ("Wann ... eine ... dass").
// Only words that are no English word, name, symbol or citation word are
// listed ("die", "man", "plus", "als", "sin", "im", "et", "al" and single
// letters are left out), and one typed in capitals is an abbreviation
// ("NE", "WER"), kept (capitalWords). Query side only: documents keep them.
var foreignFunctionWords = func() map[string]struct{} {
	m := makeSet(`le la les un une du ou mais est sont été être avoir ont il elle ils elles nous vous je ce cette ces qui que quoi
quel quelle quels quelles dans sur pour par avec sans sous comment pourquoi quand où au aux leur leurs sa ses se ne
pas moins très peut peuvent qu
el los las unos unas y pero fue ser estar está están ha para sobre qué cuál cuáles cómo cuándo
dónde cuántos cuántas cuánto su sus lo este esta estos estas ese esa cada muy más menos otro otra otros`)
	for w := range germanFunctionWords {
		m[w] = struct{}{}
	}
	return m
}()

// germanFunctionWords are foreignFunctionWords' German words.
var germanFunctionWords = makeSet(`der das den dem des ein eine einer eines einem einen und oder aber nicht kein keine
ist sind wird werden wurde wurden sein haben ich du er sie es wir ihr mit von zu zum zur bei nach aus für über unter
auf ins vom wie wo wann warum welche welcher welches welchen welchem wer dass daß sich auch nur noch schon sehr mehr diese
dieser dieses diesen diesem jede jeder jedes jedem jeden ob wenn weil durch gegen ohne um bis seit zwischen andere anderen anderer
anderes kann können muss müssen soll sollen`)

// GermanText reports whether text is written in German: two or more of
// its words are German function words ("Wie nutzen ... die ... zur ...").
// German capitalises every noun, so a capitalised word there is no sign
// of a name.
func GermanText(text string) bool {
	n := 0
	seen := map[string]bool{}
	eachWord(text, func(w string) {
		if _, ok := germanFunctionWords[w]; ok && !seen[w] {
			seen[w] = true
			n++
		}
	})
	return n >= 2
}

func makeSet(words string) map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(words) {
		m[w] = struct{}{}
	}
	return m
}

// capitalWords returns, lowercased, the words of text typed in capitals (at
// least two letters): abbreviations ("NE" tags, "WER", "DES", "MIT"), never
// the foreign function words they are spelled like.
func capitalWords(text string) map[string]bool {
	var out map[string]bool
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if utf8.RuneCountInString(f) >= 2 && strings.ToUpper(f) == f && strings.ToLower(f) != f {
			if out == nil {
				out = map[string]bool{}
			}
			out[strings.ToLower(f)] = true
		}
	}
	return out
}

// NumTerm is the pseudo-term that stands for "a number is here": documents
// get it after every numeral, and questions that ask for a quantity ("how
// many", "how big", "number of", "size") get it once, so that quantity
// questions lean towards paragraphs that report numbers.
const NumTerm = "#num"

func isNumeral(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}

// DocTerms returns the stems of a document's content words, in order.
// Stopwords are dropped before stemming, which is most of the cost.
func DocTerms(text string) []string {
	out := make([]string, 0, len(text)/8)
	eachWord(text, func(w string) {
		if !IsStopword(w) {
			out = append(out, Stem(w))
			if isNumeral(w) {
				out = append(out, NumTerm)
			}
		}
	})
	return out
}

// wordTerms remembers, per scanned word, the terms DocTerms makes of it
// (none for a stopword or placeholder; its stem; NumTerm after a numeral),
// so that a batch of texts stems each distinct word once.
type wordTerms map[string]wordTerm

type wordTerm struct {
	stem      string
	keep, num bool // keep: the word makes a term
}

// docTerms appends DocTerms(text) to out.
func (m *wordTerms) docTerms(text string, out []string) []string {
	if *m == nil {
		*m = make(wordTerms, 256)
	}
	ScanWords(text, func(b []byte) {
		t, ok := (*m)[string(b)]
		if !ok {
			if w, keep := token(string(b)); keep && !IsStopword(w) {
				t = wordTerm{stem: Stem(w), keep: true, num: isNumeral(w)}
			}
			(*m)[string(b)] = t
		}
		if t.keep {
			out = append(out, t.stem)
			if t.num {
				out = append(out, NumTerm)
			}
		}
	})
	return out
}

// ContentStems returns the stems of a text's non-stopwords without NumTerm:
// the analyzer of the BM25 baseline the embedder is measured against.
func ContentStems(text string) []string {
	out := make([]string, 0, len(text)/8)
	eachTermWord(text, func(w string) {
		if !IsStopword(w) {
			out = append(out, Stem(w))
		}
	})
	return out
}

// QueryTerms returns the stems of a question's content words: DocTerms
// minus question scaffolding ("what", "authors", "propose", ...), plus
// NumTerm once when the question asks for a quantity.
func QueryTerms(text string) []string {
	abbrev := capitalWords(text)
	out := []string{}
	prev := ""
	quantity := false
	eachTermWord(text, func(w string) {
		switch {
		case prev == "how" && (w == "many" || w == "much" || w == "big" || w == "large" || w == "long" || w == "small"),
			w == "number" || w == "size" || w == "percentage" || w == "amount":
			quantity = true
		}
		prev = w
		if _, foreign := foreignFunctionWords[w]; !isQueryStopword(w) && (!foreign || abbrev[w]) {
			out = append(out, Stem(w))
		}
	})
	if quantity {
		out = append(out, NumTerm)
	}
	return out
}
