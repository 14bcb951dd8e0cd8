package answer

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
	"github.com/papertree/papertree/backend/retrieve"
)

// Signals are what the "not in these papers" decision weighs, reported with
// every extractive answer (diagnostics, calibration).
type Signals struct {
	BestScore    float64 `json:"best_score"`    // best evidence score
	BestCoverage float64 `json:"best_coverage"` // best sentence's share of the question's terms
	WCov         float64 `json:"wcov"`          // best sentence's IDF-weighted share of the question's terms
	PCov         float64 `json:"pcov"`          // best passage's IDF-weighted share
	MissShare    float64 `json:"miss_share"`    // share of the question's content words no searched paper uses
	MissName     bool    `json:"miss_name"`     // one of them is a name
	AbsentIDF    float64 `json:"absent_idf"`    // IDF share of the question's stems absent from the evidence papers' body text
	Absent       int     `json:"absent"`        // stems absent from the body text
	AbsentMax    float64 `json:"absent_max"`    // the highest IDF among them (0: none)
	Focus        int     `json:"focus"`         // words naming what the question asks for (retrieve.QuestionFocus)
	FocusAbsent  int     `json:"focus_absent"`  // ... absent from the evidence papers' body text
	FocusIDF     float64 `json:"focus_idf"`     // the highest IDF among the absent focus words
	KeyAbsent    bool    `json:"key_absent"`    // the most specific stem is absent from the body text
	KeyRefsOnly  bool    `json:"key_refs_only"` // ... and found only in the bibliography
	KeyBody      int     `json:"key_body"`      // body passages holding the most specific stem
	Key2Absent   bool    `json:"key2_absent"`   // one of the two most specific stems is absent from the body text
	KeyInEv      bool    `json:"key_in_ev"`     // the most specific stem is in the evidence
	Type         string  `json:"type"`          // the answer type the question asks for: "number", "name" or ""
	TypeOK       bool    `json:"type_ok"`       // a sentence holding the key terms also holds that type
}

// numberCue are question words that ask for a quantity.
var numberCue = []string{"how many", "how much", "how large", "how big", "how long", "how often", "how fast", "how old",
	"what percentage", "what proportion", "what fraction", "number of", " rate", " size", " score", " accuracy", " dimension",
	" latency", " price", " cost", " hours", " speed"}

// nameCue are question words that ask for a name (a model, data set,
// method, tool).
var nameCue = []string{"which model", "which dataset", "which data set", "which corpus", "which method", "which algorithm",
	"which optimizer", "which benchmark", "which database", "which library", "which language", "which architecture",
	"what model", "what dataset", "what data set", "what corpus", "what method", "what algorithm", "what optimizer",
	"what benchmark", "what database", "what library", "what architecture", "which baseline", "what baseline"}

// answerType is what a factual question asks for: "number", "name" or "".
func answerType(q string) string {
	l := " " + strings.ToLower(q)
	for _, c := range numberCue {
		if strings.Contains(l, c) {
			return "number"
		}
	}
	for _, c := range nameCue {
		if strings.Contains(l, c) {
			return "name"
		}
	}
	return ""
}

// hasType reports whether sentence holds an answer of the type: a numeral
// for "number", a name-like or capitalised word the question does not use
// for "name".
func hasType(typ, q, sentence string) bool {
	switch typ {
	case "number":
		return strings.IndexFunc(sentence, unicode.IsDigit) >= 0
	case "name":
		ql := strings.ToLower(q)
		for k, w := range strings.Fields(sentence) {
			w = strings.Trim(w, ".,;:?!()\"'’[]")
			if w == "" || strings.Contains(ql, strings.ToLower(w)) {
				continue
			}
			if retrieve.NameLike(w) || k > 0 && len(w) >= 3 && unicode.IsUpper([]rune(w)[0]) && !embedding.IsStopword(strings.ToLower(w)) {
				return true
			}
		}
	}
	return false
}

// signalsOf computes the not-found signals of one question.
func signalsOf(in Input, sents []sentence, ev []float64, wcov []float64, bestCov float64) Signals {
	var s Signals
	for _, x := range ev {
		s.BestScore = max(s.BestScore, x)
	}
	s.BestCoverage = bestCov
	for _, c := range wcov {
		s.WCov = max(s.WCov, c)
	}
	qstems := retrieve.QuestionTerms(in.Question)
	for _, e := range in.Evidence {
		s.PCov = max(s.PCov, weightedCoverage(qstems, e.Text))
	}
	if in.Terms > 0 {
		s.MissShare = float64(len(in.Missing)) / float64(in.Terms)
	}
	s.MissName = in.MissingName
	tot, abs := 0.0, 0.0
	for i, u := range in.Uses {
		if u.Focus {
			s.Focus++
			if u.Body == 0 {
				s.FocusAbsent++
				s.FocusIDF = max(s.FocusIDF, u.IDF)
			}
		}
		tot += u.IDF
		if u.Body == 0 {
			abs += u.IDF
			s.Absent++
			s.AbsentMax = max(s.AbsentMax, u.IDF)
			if i < 2 {
				s.Key2Absent = true
			}
		}
	}
	if tot > 0 {
		s.AbsentIDF = abs / tot
	}
	if len(in.Uses) > 0 {
		k := in.Uses[0]
		s.KeyAbsent, s.KeyRefsOnly, s.KeyBody = k.Body == 0, k.Body == 0 && k.Refs > 0, k.Body
		for _, x := range sents {
			if hasStem(x.text, k.Stem) {
				s.KeyInEv = true
				break
			}
		}
	}
	s.Type = answerType(in.Question)
	if s.Type != "" {
		for i, x := range sents {
			if wcov[i] >= 0.5 && hasType(s.Type, in.Question, x.text) {
				s.TypeOK = true
				break
			}
		}
	}
	return s
}

func hasStem(text, stem string) bool {
	for _, t := range embedding.ContentStems(text) {
		if t == stem {
			return true
		}
	}
	return false
}

// focusAbsent returns the focus words (retrieve.QuestionFocus) that the
// evidence's papers never use in their body text.
func focusAbsent(uses []retrieve.TermUse) []string {
	var out []string
	for _, u := range uses {
		if u.Focus && u.Body == 0 {
			out = append(out, u.Stem)
		}
	}
	return out
}

// Claims checks absence claims against the full-text index before they
// are shown (DESIGN.md 4.14). A reply speaks of a scope: the papers the
// researcher chose, the paper the question names, or the whole library.
type Claims struct {
	// Holders lists the library's papers whose full-text index or
	// metadata (title, authors, venue, ...) holds a word in any printed
	// form (retrieve.WordHolders); ok false: it cannot
	// be checked, and nothing is claimed of it. Nil (unit tests without an
	// index): the missing words are taken as they are.
	Holders func(word string) (papers []int64, ok bool)
	// Scope: the papers the reply speaks of; nil = the whole library.
	Scope []int64
	// Name: how the reply names Scope ("“GloVe: Global Vectors ...”"); ""
	// keeps "the paper" / "the papers".
	Name string
	// Searched: the papers a library-wide question was searched in. A
	// word the library holds outside them is said to be absent from
	// them, with the papers that hold it.
	Searched []int64
	// Together reports whether one passage of the library holds two
	// typed words near each other (retrieve.Together); ok false: it
	// cannot tell. Nil: compounds are not checked.
	Together func(a, b string) (together, ok bool)
	// TogetherPrinted is Together with its first word as printed (as
	// typed, or its plural or singular), not through the index's stemmer
	// (retrieve.TogetherPrinted). Nil: not checked (offTopic).
	TogetherPrinted func(a, b string) (together, ok bool)
	// Dwell returns the largest number of passages one paper of the
	// library prints a word in, as typed or in its plural or singular,
	// not through the stemmer (retrieve.WordDwell); ok false: it cannot
	// tell. Nil: not weighed (offTopic).
	Dwell func(word string) (n int, ok bool)
	// TogetherIn lists the papers with a passage holding two typed words
	// near each other, and those with one outside their references
	// (retrieve.TogetherIn); ok false: it cannot tell. Nil: the numbers a
	// question types are not checked.
	TogetherIn func(a, b string) (papers, body []int64, ok bool)
	// Title names a paper in such a reason.
	Title func(id int64) string
	// RefsOnly reports a word the one paper of Scope uses only in its
	// reference list or acknowledgements (set by Compose from the term
	// counts, which are read over that paper).
	RefsOnly func(word string) bool

	// Files lists the file names of the papers of Scope (of the whole
	// library when Scope is nil); nil: unknown. A question word a file's
	// name holds ("Seltman" of "seltman_eda_chapter4.pdf") names a paper,
	// as a citation does (cites).
	Files func() []string

	// Library counts the papers in the library (0: unknown; nil: not
	// counted), for general: a word most of them print. It is called only
	// when a focus word's absence is weighed, which most answers never do.
	Library func() int

	// cites are the words with which the question names a paper
	// (query.CitationWords: "Casimir (1948)", "Hinton et al.", "Kim's
	// CNN"), set by Compose. They name a paper, they are not what it is
	// asked about: never said missing from the scope, whatever the index
	// holds (an OCR scan may print its author's name garbled, metadata
	// may lack it, a paper need not print its nickname). Library-wide,
	// "none of the papers that match best mentions AlexNet (it is in
	// ...)" is still said when the index shows it.
	cites map[string]bool
	// filed reports a question word (lowercased) a file name of the
	// scope holds (fileNamed over Files), set by Compose.
	filed func(word string) bool
	// otherLanguage: the question is written in another language than
	// the paper the reply speaks of (set by Compose); no word of it is
	// said missing from that paper.
	otherLanguage bool
	// german: the question is German (set by Compose); a word of it is
	// held where any of its inflected forms is (germanForms).
	german bool
	// romance: the question is French or Spanish (romanceText, set by
	// Compose); a word of it is held where any of its inflected forms is
	// (romanceForms).
	romance bool
}

// holders is Holders over every form a word may be printed in: the other
// spelling of its suffix (retrieve.SpellingVariants: "factorisation"
// asked, "factorization" printed; the index's stemmer keeps the two
// apart); for a German question, each of its inflected forms
// (germanForms), since the case the question puts an adjective or noun in
// says nothing of the case the paper prints it in ("unvollständige"
// asked, "unvollständigen" printed), and the index's English stemmer keeps
// them apart; for a French or Spanish question, likewise each of its
// gender, number and participle forms (romanceForms: "algún" asked,
// "alguna" printed; "circulaire" asked, "circulaires" printed).
func (c Claims) holders(w string) ([]int64, bool) {
	ids, ok := c.Holders(w)
	if !ok {
		return ids, ok
	}
	forms := retrieve.SpellingVariants(strings.ToLower(w))
	switch {
	case c.german:
		forms = append(forms, germanForms(w)...)
	case c.romance:
		forms = append(forms, romanceForms(w)...)
	}
	forms = append(forms, koreanForms(w)...)
	for _, f := range forms {
		more, fok := c.Holders(f)
		if !fok {
			return nil, false
		}
		ids = append(ids, more...)
	}
	if len(ids) == 0 && c.german {
		// A German compound no paper prints whole is held by the papers
		// that print both its parts (germanParts).
		for _, p := range germanParts(w) {
			left, lok := c.Holders(p[0])
			if !lok {
				return nil, false
			}
			if len(left) == 0 {
				continue
			}
			right, rok := c.Holders(p[1])
			if !rok {
				return nil, false
			}
			for _, id := range left {
				if slices.Contains(right, id) {
					ids = append(ids, id)
				}
			}
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), true
}

// koreanParticles are the particles Korean attaches to a noun (topic,
// subject, object, genitive, locative, instrumental, comitative, ...),
// longest first.
var koreanParticles = []string{"에서는", "으로는", "에서", "에게", "으로", "로는", "까지", "부터", "보다", "처럼",
	"은", "는", "이", "가", "을", "를", "의", "에", "도", "만", "로", "과", "와"}

// koreanLightVerbs are the syllables with which "하다" and "되다" ("do",
// "become") make a verb of a noun (사용하는가, 사용되었는가, 설정했다).
const koreanLightVerbs = "하되했됐한된함됨"

// koreanForms returns the forms in which a Korean word's noun may be
// printed: without its particle ("학습률이" -> "학습률", printed
// "학습률은") and, for a verb made of a noun and 하다/되다, the noun
// ("사용되었는가" -> "사용"). Each keeps at least two syllables. Nil for a
// word that is not all Hangul.
func koreanForms(w string) []string {
	rs := []rune(w)
	if len(rs) < 3 {
		return nil
	}
	for _, r := range rs {
		if !unicode.Is(unicode.Hangul, r) {
			return nil
		}
	}
	for i := 2; i < len(rs); i++ {
		if strings.ContainsRune(koreanLightVerbs, rs[i]) {
			return []string{string(rs[:i])}
		}
	}
	for _, p := range koreanParticles {
		if st := strings.TrimSuffix(w, p); st != w && utf8.RuneCountInString(st) >= 2 {
			return []string{st}
		}
	}
	return nil
}

// koreanInterrogatives are the Korean question words ("what", "which",
// "how", "how much", "how many", "when", "where", "who"); a word opening
// with one asks (얼마인가, 무엇을, 어떻게, 몇인가), as "what" and "how" do
// in English. "왜" ("why") asks only alone: 왜곡 is "distortion".
var koreanInterrogatives = []string{"무엇", "무슨", "어떤", "어떻", "어느", "얼마", "언제", "어디", "누구", "누가", "몇"}

// koreanQuestionWord reports a Korean word that is how the question
// asks, not what it asks about.
func koreanQuestionWord(w string) bool {
	if w == "왜" {
		return true
	}
	for _, q := range koreanInterrogatives {
		if strings.HasPrefix(w, q) {
			return true
		}
	}
	return false
}

// romanceAuxiliary are the forms of the Spanish and French verbs a
// question is built with ("have", "there is", "do", "be": "¿Qué proporción
// tuvo ...?", "Qu'a-t-il fait ...?") that the query's function words
// (embedding) do not list: like English "had" and "did", they say how the
// question asks, never what the paper lacks.
var romanceAuxiliary = set(`tiene tienen tenía tenían tuvo tuvieron tenido tener hay había habían hubo hubieron habido
han hace hacen hacía hizo hicieron hecho era eran fueron sido siendo
avait avaient eu eut ont était étaient fut furent fait font faisait fit firent`)

// romanceEndings are the inflectional endings of French and Spanish
// adjectives, nouns and past participles (gender, number), longest first.
var romanceEndings = []string{"ados", "adas", "idos", "idas", "ées", "ado", "ada", "ido", "ida", "és", "ée",
	"os", "as", "es", "o", "a", "e", "é", "s", "x"}

// romanceVerbEndings are the forms a Spanish or French participle's verb
// shares its stem with ("estudiado" of "estudio", "estudia", "estudiar").
var romanceVerbEndings = []string{"ar", "er", "ir", "an", "en", "ación", "ation"}

// unaccent maps the stressed vowel Spanish writes before a final "-n" or
// "-s" ("algún", "proporción", "inglés") to the one its other forms print
// ("alguna", "proporciones", "inglesa").
var unaccent = strings.NewReplacer("á", "a", "é", "e", "í", "i", "ó", "o", "ú", "u")

// romanceForms returns the other inflected forms of a French or Spanish
// word of at least five letters: its stem (the word less one ending, or
// with the accent of a final stressed syllable dropped) bare and with each
// ending, and for a participle the forms of its verb ("estudiado" ->
// "estudio", "estudiar"; "algún" -> "alguna", "algunos"; "circulaire" ->
// "circulaires").
func romanceForms(w string) []string {
	lw := strings.ToLower(w)
	rs := []rune(lw)
	if len(rs) < 5 {
		return nil
	}
	stem := lw
	if n := len(rs); (rs[n-1] == 'n' || rs[n-1] == 's') && strings.ContainsRune("áéíóú", rs[n-2]) {
		stem = string(rs[:n-2]) + unaccent.Replace(string(rs[n-2])) + string(rs[n-1])
	} else {
		for _, e := range romanceEndings {
			if st := strings.TrimSuffix(lw, e); st != lw && utf8.RuneCountInString(st) >= 4 {
				stem = st
				break
			}
		}
	}
	var out []string
	add := func(f string) {
		if f != lw && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	add(stem)
	for _, e := range romanceEndings {
		add(stem + e)
	}
	if stem != lw && (strings.HasSuffix(lw, "ado") || strings.HasSuffix(lw, "ada") || strings.HasSuffix(lw, "ido") ||
		strings.HasSuffix(lw, "ida") || strings.HasSuffix(lw, "é") || strings.HasSuffix(lw, "ée")) {
		for _, e := range romanceVerbEndings {
			add(stem + e)
		}
	}
	return out
}

// romanceText reports a question written in French or Spanish: it opens
// with "¿" or "¡", or two or more of its words carry an accent those
// languages write (é, è, à, á, í, ó, ú, ñ, ç, ê, â, ô, û, ù). English
// questions type such a word rarely ("naïve", "café"), and one is not
// enough.
func romanceText(q string) bool {
	if strings.ContainsAny(q, "¿¡") {
		return true
	}
	n := 0
	for _, f := range strings.Fields(q) {
		if strings.ContainsAny(strings.ToLower(f), "éèàáíóúñçêâôûù") {
			n++
		}
	}
	return n >= 2
}

// germanEndings are the inflectional endings of German adjectives and
// nouns (case, number, strong and weak declension).
var germanEndings = []string{"en", "em", "er", "es", "e", "n", "s"}

// germanForms returns the other inflected forms of a German word of at
// least five letters: the word and its stem (the word less one ending),
// each bare and with each ending ("unvollständige" -> "unvollständig",
// "unvollständigen", "unvollständiger", ...).
func germanForms(w string) []string {
	lw := strings.ToLower(w)
	if utf8.RuneCountInString(lw) < 5 {
		return nil
	}
	stems := []string{lw}
	for _, e := range germanEndings {
		if st := strings.TrimSuffix(lw, e); st != lw && utf8.RuneCountInString(st) >= 4 {
			stems = append(stems, st)
			break
		}
	}
	var out []string
	add := func(f string) {
		if f != lw && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	for _, st := range stems {
		add(st)
		for _, e := range germanEndings {
			add(st + e)
		}
	}
	// A verb is printed in its other persons, its infinitive and its
	// participle ("nennt" asked, "nennen" printed), and a noun made of a
	// verb with "-ung" names the act the verb prints ("Bezeichnung"
	// asked, "bezeichnet" printed).
	var verb string
	switch {
	case strings.HasSuffix(lw, "ungen"):
		verb = strings.TrimSuffix(lw, "ungen")
	case strings.HasSuffix(lw, "ung"):
		verb = strings.TrimSuffix(lw, "ung")
	case strings.HasSuffix(lw, "et"):
		verb = strings.TrimSuffix(lw, "et")
	case strings.HasSuffix(lw, "t") && !strings.HasSuffix(lw, "st"):
		verb = strings.TrimSuffix(lw, "t")
	}
	if utf8.RuneCountInString(verb) >= 4 {
		for _, e := range []string{"en", "e", "t", "et"} {
			add(verb + e)
		}
		add("ge" + verb + "t")
	}
	return out
}

// germanParts returns the ways a German compound of at least ten letters
// splits into two words of at least four letters each, the first also
// without its linking "s" ("Erfüllbarkeitslöser" -> "erfüllbarkeits" +
// "löser", "erfüllbarkeit" + "löser"): German writes as one word what
// English writes as two, and a paper that prints both parts speaks of the
// compound ("SAT-Löser" and "Erfüllbarkeit").
func germanParts(w string) [][2]string {
	rs := []rune(strings.ToLower(w))
	if len(rs) < 10 {
		return nil
	}
	var out [][2]string
	for i := 4; i+4 <= len(rs); i++ {
		left, right := string(rs[:i]), string(rs[i:])
		out = append(out, [2]string{left, right})
		if rs[i-1] == 's' && i-1 >= 4 {
			out = append(out, [2]string{string(rs[:i-1]), right})
		}
	}
	return out
}

// citesWord reports a word with which the question names a paper.
func (c Claims) citesWord(w string) bool {
	w = strings.ToLower(strings.Trim(w, query.WordPunct))
	return c.cites[w] || c.filed != nil && c.filed(w)
}

// fileNamed returns the question's words (lowercased, as cites holds
// them) that the file names hold in any form of the word: how the
// researcher filed a paper ("Seltman - 2018 - EDA.pdf") often names its
// author where neither its text nor its metadata does, so "Why does
// Seltman recommend ...?" asked of it names the paper, not a thing it
// lacks. Folders are not read; only words of three letters or more.
func fileNamed(question string, files []string) map[string]bool {
	stems := map[string]bool{}
	for _, f := range files {
		base := filepath.Base(f)
		base = strings.TrimSuffix(base, filepath.Ext(base))
		for _, w := range strings.FieldsFunc(strings.ToLower(base), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if len([]rune(w)) >= 3 {
				stems[embedding.Stem(w)] = true
			}
		}
	}
	out := map[string]bool{}
	for _, f := range strings.Fields(question) {
		w := strings.ToLower(strings.Trim(f, query.WordPunct))
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		if len([]rune(w)) >= 3 && stems[embedding.Stem(w)] {
			out[w] = true
		}
	}
	return out
}

// general reports a word most papers of the library print (Holders, over
// Library papers): "properties", "results", "approach". A paper that
// never prints such a word is not thereby silent on what the question
// asks ("What properties does the model bring together?" is answered by
// "brings together the strengths of LSTMs and CNNs"); a specific word
// ("dropout", "LiDAR") is what absence speaks of.
func (c Claims) general(w string) bool {
	if c.Library == nil || c.Holders == nil {
		return false
	}
	n := c.Library()
	if n == 0 {
		return false
	}
	ids, ok := c.holders(w)
	return ok && 2*len(ids) > n
}

// minDwell is how many passages of one paper must print a word for that
// paper to be about it: a term a paper defines and works with recurs
// ("temperature", "dropout", "threshold"); a word of ordinary prose used
// in passing ("a chief weakness", "one caveat") does not.
const minDwell = 3

// offTopic reports a word that says how a library-wide question is put
// ("the main caveat", "which gate shields") rather than what it asks
// about, by the index: the library prints it (Holders), yet no paper
// dwells on it (none prints it, as typed, in minDwell passages: Dwell)
// and no passage prints it near what the question is about (within a
// sentence's span of any of topic, the question's most specific words
// that the papers matching best print: TogetherPrinted). Where the
// library prints such a word it is about other things, so that the papers
// matching best never print it is no reason to refuse their passage, and
// the papers that do are no better place to look. A word some paper is
// about ("temperature" asked of a simulation paper that never states one)
// or that the library prints beside the topic elsewhere ("dropout" beside
// "GloVe") still is: the thing asked may be missing, or in another paper.
// A word no paper prints at all is another reason's, checked as such. Any
// lookup that cannot tell keeps the word.
func (c Claims) offTopic(w string, topic []string) bool {
	if c.TogetherPrinted == nil || c.Dwell == nil || c.Holders == nil || len(topic) == 0 {
		return false
	}
	ids, ok := c.holders(w)
	if !ok || len(ids) == 0 {
		return false
	}
	if n, ok := c.Dwell(w); !ok || n >= minDwell {
		return false
	}
	for _, t := range topic {
		if strings.EqualFold(t, w) {
			return false
		}
		together, ok := c.TogetherPrinted(w, t)
		if !ok || together {
			return false
		}
	}
	return true
}

// prints reports whether paper prints every one of words (Holders, in
// any printed form); false when a lookup cannot tell.
func (c Claims) prints(paper int64, words []string) bool {
	if c.Holders == nil || len(words) == 0 {
		return false
	}
	for _, w := range words {
		ids, ok := c.holders(w)
		if !ok || !slices.Contains(ids, paper) {
			return false
		}
	}
	return true
}

// heldTopic returns the question's n most specific content stems (uses,
// most specific first) that the evidence papers print in their body text
// and that are not what the question asks for (its focus): what the
// question is about, as the papers matching best print it.
func heldTopic(uses []retrieve.TermUse, n int) []string {
	var out []string
	for _, u := range uses {
		if len(out) == n {
			break
		}
		if u.Body > 0 && !u.Focus {
			out = append(out, u.Stem)
		}
	}
	return out
}

// claimed is a checked absence claim.
type claimed struct {
	never     []string           // no occurrence in the scope
	refsOnly  []string           // one paper: only in its reference list or acknowledgements
	elsewhere []string           // library-wide: none in the searched papers, some in others
	where     map[string][]int64 // for elsewhere words: the papers that hold them
}

// claims lists the claim's words with the papers each speaks of.
func (cl claimed) claims(c Claims) []papertree.AbsenceClaim {
	var out []papertree.AbsenceClaim
	for _, w := range cl.never {
		out = append(out, papertree.AbsenceClaim{Word: w, Papers: c.Scope})
	}
	for _, w := range cl.elsewhere {
		out = append(out, papertree.AbsenceClaim{Word: w, Papers: c.Searched})
	}
	return out // refsOnly words are not absence claims: the paper holds them, in its references
}

func (cl claimed) words() []string {
	return append(append(append([]string(nil), cl.never...), cl.refsOnly...), cl.elsewhere...)
}

// libraryWide keeps the words the whole library never uses.
func libraryWide(cl claimed) claimed { return claimed{never: cl.never} }

// into stores check(words) in *dst and returns it.
func (c Claims) into(dst *claimed, words []string) claimed {
	*dst = c.check(words)
	return *dst
}

// check sorts words a reason would call missing.
func (c Claims) check(words []string) claimed {
	if c.otherLanguage {
		return claimed{}
	}
	if c.Holders == nil {
		return claimed{never: slices.DeleteFunc(slices.Clone(words), c.citesWord)}
	}
	out := claimed{where: map[string][]int64{}}
	for _, w := range words {
		if koreanQuestionWord(w) || c.romance && romanceAuxiliary[strings.ToLower(w)] {
			continue // "얼마인가", "tuvo": how the question asks, not what
		}
		holders, ok := c.holders(w)
		if !ok {
			continue
		}
		inScope := c.Scope == nil && len(holders) > 0
		for _, id := range c.Scope {
			inScope = inScope || slices.Contains(holders, id)
		}
		switch {
		case c.citesWord(w) && (!inScope || c.Scope != nil):
			// A word naming a paper is not said missing from the scope;
			// that the papers which match best lack it (and which papers
			// hold it) is still said: the question names a paper those
			// are not.
		case !inScope:
			out.never = append(out.never, w)
		case len(c.Scope) == 1 && c.RefsOnly != nil && c.RefsOnly(w):
			out.refsOnly = append(out.refsOnly, w)
		case c.Scope == nil && len(c.Searched) > 0 && !overlaps(holders, c.Searched):
			out.elsewhere = append(out.elsewhere, w)
			out.where[w] = holders
		}
	}
	return out
}

func overlaps(a, b []int64) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// say words the claim: lead + the words never mentioned + tail, then the
// words only the searched papers lack, with (up to three of) the papers
// that hold them, so the researcher can ask those.
func (cl claimed) say(lead, tail string, c Claims) string {
	var parts []string
	if len(cl.never) > 0 {
		parts = append(parts, lead+strings.Join(cl.never, ", ")+tail)
	}
	if len(cl.refsOnly) > 0 {
		who := "the paper"
		if c.Name != "" {
			who = c.Name
		}
		parts = append(parts, who+" mentions "+strings.Join(cl.refsOnly, ", ")+" only in its references")
	}
	if len(cl.elsewhere) > 0 {
		var ids []int64
		for _, w := range cl.elsewhere {
			for _, id := range cl.where[w] {
				if !slices.Contains(ids, id) {
					ids = append(ids, id)
				}
			}
		}
		part := fmt.Sprintf("none of the %d papers that match the question best mentions %s", len(c.Searched), strings.Join(cl.elsewhere, ", "))
		if len(c.Searched) == 1 {
			part = "the paper that matches the question best never mentions " + strings.Join(cl.elsewhere, ", ")
		}
		if c.Title != nil {
			var ts []string
			for _, id := range ids[:min(3, len(ids))] {
				ts = append(ts, "“"+c.Title(id)+"”")
			}
			more := ""
			if len(ids) > 3 {
				more = fmt.Sprintf(" and %d more", len(ids)-3)
			}
			part += " (it is in " + strings.Join(ts, "; ") + more + ")"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "; ")
}

// anyName reports whether one of the words is a name of question
// ("AlphaFold2", "Hopfield"): what MissingName says of the missing words.
func anyName(question string, words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return nameWord(question, w) })
}

// nameWord reports a missing word of question that is a name: name-like,
// or a capitalised word that is not a function word, typed so inside the
// question. A question's first word is capitalised whatever it is
// ("Instead of ..., where ...?", "Besides ..., what ...?"), so there a
// capital says nothing (as for retrieval's missing names).
func nameWord(question, w string) bool {
	r := []rune(w)
	if retrieve.NameLike(w) {
		return true
	}
	if len(r) < 3 || !unicode.IsUpper(r[0]) || embedding.IsStopword(strings.ToLower(w)) {
		return false
	}
	fields := strings.Fields(question)
	for k, f := range fields {
		f = strings.Trim(f, query.WordPunct)
		f = strings.TrimSuffix(strings.TrimSuffix(f, "'s"), "’s")
		if f == w && k > 0 && !strings.HasSuffix(fields[k-1], ".") {
			return true
		}
	}
	// Not found as typed inside the question (a word the caller took
	// from elsewhere, or a question of one word): its capital decides.
	return !slices.ContainsFunc(fields[:min(1, len(fields))], func(f string) bool {
		f = strings.Trim(f, query.WordPunct)
		return strings.TrimSuffix(strings.TrimSuffix(f, "'s"), "’s") == w
	})
}

// surfaceWords maps stems back to the question's words that carry them
// ("countri" to "countries"): a reason quotes what the researcher typed.
func surfaceWords(question string, stems []string) []string {
	var out []string
	for _, st := range stems {
		w := st
	fields:
		for _, f := range strings.Fields(question) {
			f = strings.Trim(f, query.WordPunct)
			// A part of a hyphenated word ("hours" of "kilowatt-hours")
			// is said as typed too, never as its stem ("hour").
			for _, part := range append([]string{f}, strings.Split(f, "-")...) {
				if ts := embedding.QueryTerms(strings.ToLower(part)); len(ts) > 0 && ts[0] == st {
					w = part
					break fields
				}
			}
		}
		out = append(out, w)
	}
	return out
}

// withoutPaperRefs drops from the missing words those with which the
// question refers to its paper (query.Question.Refs): a paper need not
// use its nickname ("seq2seq", "AlexNet"). It returns the remaining
// missing words, whether one of them is a name, and the question's
// content word count without the dropped ones.
func withoutPaperRefs(q *query.Question, missing []string, terms int) ([]string, bool, int) {
	var out []string
	name := false
	for _, w := range missing {
		if q.Refs[strings.ToLower(w)] {
			terms--
			continue
		}
		out = append(out, w)
		name = name || nameWord(q.Text, w)
	}
	return out, name, terms
}

// libraryNever reports whether a content word of a library-wide question
// is printed by no paper of the library (Claims.Holders: the full-text
// index, every printed form), and stores the checked claim in *dst. By the
// library's own counts such a word is the question's most specific one
// (no passage holds it), whatever a general-purpose IDF says: "metformin"
// and "dose" weigh alike there, but only one of them is in the library.
// The words with which the question refers to a paper ("the seq2seq
// paper") are left out: a paper need not print its nickname.
func libraryNever(in Input, q *query.Question, dst *claimed) bool {
	if len(in.Missing) == 0 {
		return false
	}
	missing, _, _ := withoutPaperRefs(q, in.Missing, in.Terms)
	*dst = libraryWide(in.Claims.check(missing))
	return len(dst.never) > 0
}

// tableAnswered returns the words of words (the question's missing and
// focus words) whose absence a table of the evidence makes moot: a paper
// reports accuracies in a results table without printing "accuracy", so
// "What accuracy does CNN-static reach on MR?" asked of it lacks a word
// and is answered by the row "CNN-static: MR 81.0, ...". A missing word
// is moot when it is a common word (not a name: a metric, data set or
// model named and never printed is strong evidence of absence) that the
// library prints (holders: the full-text index; a word no paper prints
// is the question's most specific one), and a table row the question
// names holds, with its headers and caption, every other content word of
// the question (the words naming its paper and the words framing the
// question, "get", aside) and the number it asks for. Prose never makes
// a word moot: "learning rate of 0.05" holds all of "What dropout rate
// does GloVe use?" but "dropout".
func tableAnswered(q string, words, rstems []string, sents []sentence, stems []map[string]bool, holders func(string) ([]int64, bool)) map[string]bool {
	if holders == nil || len(words) == 0 || answerType(q) != "number" {
		return nil
	}
	moot := map[string]bool{}
	skip := map[string]bool{}
	for _, w := range words {
		if moot[w] || nameWord(q, w) {
			continue
		}
		if ids, ok := holders(w); !ok || len(ids) == 0 {
			continue
		}
		moot[w] = true
		for _, t := range embedding.ContentStems(w) {
			skip[t] = true
		}
	}
	var rest []string
	for _, t := range rstems {
		if !skip[t] && !query.IsScaffold(t) {
			rest = append(rest, t)
		}
	}
	if len(moot) == 0 || len(rest) == 0 {
		return nil
	}
	for i, x := range sents {
		if x.role != papertree.RoleTable || !x.named || !hasType("number", q, x.text) {
			continue
		}
		all := true
		for _, t := range rest {
			all = all && stems[i][t]
		}
		if all {
			return moot
		}
	}
	return nil
}

// withoutWords drops the words in drop.
func withoutWords(words []string, drop map[string]bool) []string {
	var out []string
	for _, w := range words {
		if !drop[w] {
			out = append(out, w)
		}
	}
	return out
}

// scatteredCompounds returns the compounds of a library-wide factual
// question (query.Compounds: "radiation dosage", "robot arm", "PET
// imaging") that no passage of the library holds together, though the
// library prints each of their words: the words are scattered over
// passages and papers that are about other things ("robot" in a GUI
// paper, "arm" in an anatomy one), so no passage answers what is asked of
// the compound. A compound is checked when it is what the question asks
// for (its focus) or holds a word the evidence papers never use in their
// body text (uses): the evidence came from near-topic text without it.
func scatteredCompounds(q *query.Question, uses []retrieve.TermUse, c Claims) []string {
	if c.Together == nil || c.Holders == nil || len(q.Compounds) == 0 {
		return nil
	}
	absent := map[string]bool{}
	for _, u := range uses {
		if u.Body == 0 {
			absent[u.Stem] = true
		}
	}
	var out []string
	for _, k := range q.Compounds {
		checked := k.Focus
		for _, st := range k.Stems {
			checked = checked || absent[st]
		}
		if !checked {
			continue
		}
		if m, ok := c.Holders(k.Mod); !ok || len(m) == 0 {
			continue // a word the library never prints is another reason's
		}
		if h, ok := c.Holders(k.Head); !ok || len(h) == 0 {
			continue
		}
		if together, ok := c.Together(k.Mod, k.Head); ok && !together {
			out = append(out, k.Phrase())
		}
	}
	return out
}

// misread reports a library-wide question that names no paper (no name,
// citation or nickname: it describes one) taken to be about one paper
// (Claims.Scope, named by Claims.Name; the researcher chose none) whose
// best-scored passage (paper bestPaper) and closest sentence (evidence
// topEv) both come from another paper that, by the full-text index,
// prints every word the reason says the first lacks: "How is the
// characteristics component of cash on hand captured in the study of
// spending out of tax refunds?" read as about a study of ecological
// networks, while the tax-refund paper's passage states it. The words are then
// absent from the paper the question was taken to name, not from the one
// that answers it, and a reply that quotes that passage as "not an
// answer" says a falsehood. Nil Holders (no index): false.
func misread(in Input, q *query.Question, bestPaper int64, topEv int, ev []papertree.Evidence, words []string) bool {
	c := in.Claims
	if in.Scoped || len(c.Scope) != 1 || c.Holders == nil || len(words) == 0 || topEv < 0 || topEv >= len(ev) {
		return false
	}
	if len(q.Names) > 0 || len(c.cites) > 0 || len(q.Refs) > 0 ||
		slices.ContainsFunc(strings.Fields(in.Question), func(f string) bool {
			return nameWord(in.Question, strings.TrimSuffix(strings.TrimSuffix(strings.Trim(f, query.WordPunct), "'s"), "’s"))
		}) {
		// The question names a paper or a thing ("GloVe", "Autoformer",
		// "Nakamoto's paper", "Einaga et al."): the one it was read as
		// about is the one it asks, and another paper's passage holding
		// the words is about something else ("What dropout rate does
		// GloVe apply?" answered by a paper that applies dropout to GloVe
		// vectors).
		return false
	}
	other := ev[topEv].PaperID
	if other == c.Scope[0] || other != bestPaper {
		return false
	}
	for _, w := range words {
		ids, ok := c.holders(w)
		if !ok || !slices.Contains(ids, other) {
			return false
		}
	}
	return true
}
