// Package query reads a researcher's question once: its kind (factual,
// how/why, yes/no), its content terms in the index's normalised form (stems),
// the words naming what it asks for (focus), the words with which it refers
// to a paper ("the GloVe paper", "Kim (2014)"), the proper names it uses
// (single words and multi-word names such as "Stable Diffusion"), whether
// it asks about citations, and its route (route.go): a which-papers list,
// a comparison or a single-paper question, with a list question's topic.
// Retrieval, the not-found decision and the answer read a *Question instead
// of tokenizing and stemming the question again.
//
// It sits below retrieve and answer (it imports only embedding and the
// standard library) and holds nothing about papers: every signal here holds
// for any question in English.
package query

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/papertree/papertree/backend/embedding"
)

var yearRE = regexp.MustCompile(`\b(19[5-9]\d|20[0-4]\d)[a-z]?\b`)

// Question kinds.
const (
	KindFactual = "factual"
	KindHowWhy  = "howwhy"
	KindYesNo   = "yesno"
)

// whWords open a question that asks for something other than yes or no.
var whWords = map[string]bool{"what": true, "which": true, "who": true, "whom": true, "whose": true, "when": true, "where": true, "why": true, "how": true}

var yesNoOpeners = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "do": true, "does": true, "did": true, "can": true,
	"could": true, "has": true, "have": true, "had": true, "will": true, "would": true, "should": true, "isn't": true,
	"doesn't": true, "don't": true, "aren't": true, "didn't": true, "may": true, "might": true, "must": true,
}

// KindOf classifies a question: yes/no questions open with an
// auxiliary verb (possibly after a short lead-in such as "In the BERT
// paper,"), how/why questions ask for a cause or a method, the rest ask
// for a fact.
func KindOf(q string) string {
	q = strings.TrimSpace(q)
	// Skip a lead-in clause ending in a comma ("According to X, does ...").
	if i := strings.Index(q, ","); i > 0 && i < len(q)/2 {
		lead := strings.ToLower(q[:i])
		if strings.HasPrefix(lead, "in ") || strings.HasPrefix(lead, "according to") || strings.HasPrefix(lead, "for ") {
			q = strings.TrimSpace(q[i+1:])
		}
	}
	// Other lead-ins ("After training, does ...", "In Hinton, Vinyals and
	// Dean's paper, is ...", "In the auction described by Varian (2009),
	// does ...", "When the net was shrunk to 30 units, did ..."): the
	// question's clause is the one an auxiliary opens after a comma, with
	// a subject and a predicate after it (not a tag: "..., is it?"),
	// however long the lead-in, unless a wh-word opens the question. A
	// leading "when" or "where" not followed by an auxiliary opens a
	// subordinate clause, not a wh-question.
	if first := strings.Fields(strings.ToLower(q)); len(first) > 1 {
		w0, w1 := strings.Trim(first[0], "\"'("), strings.Trim(first[1], ",")
		subordinate := (w0 == "when" || w0 == "where") && !yesNoOpeners[w1]
		if !whWords[w0] || subordinate {
			for i := strings.Index(q, ","); i > 0; {
				rest := strings.Fields(strings.ToLower(q[i+1:]))
				if len(rest) > 3 && yesNoOpeners[rest[0]] {
					q = strings.TrimSpace(q[i+1:])
					break
				}
				j := strings.Index(q[i+1:], ",")
				if j < 0 {
					break
				}
				i += j + 1
			}
		}
	}
	ws := strings.Fields(strings.ToLower(q))
	if len(ws) == 0 {
		return KindFactual
	}
	w := strings.Trim(ws[0], "\"'(")
	switch {
	case yesNoOpeners[w]:
		return KindYesNo
	case w == "why":
		return KindHowWhy
	case w == "how":
		if len(ws) > 1 {
			switch strings.Trim(ws[1], "?,") {
			case "many", "much", "large", "long", "big", "small", "often", "far", "fast", "old":
				return KindFactual
			}
		}
		return KindHowWhy
	}
	for _, x := range ws {
		if x == "why" || x == "how" {
			return KindHowWhy
		}
	}
	return KindFactual
}

// Terms are the stems of a question's content words (no question
// scaffolding, no quantity pseudo-term).
func Terms(q string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range embedding.QueryTerms(q) {
		if t == embedding.NumTerm || seen[t] || len(t) < 2 {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

// WantsCitations reports questions about citations, references or funding,
// the only ones for which bibliographies and acknowledgements are evidence.
// Words are matched whole or by their stem's start, never inside another
// word: "coreference" and "preference" are not about references, nor
// "fundamental" about funding.
func WantsCitations(q string) bool {
	l := strings.ToLower(q)
	if strings.Contains(l, "supported by") {
		return true
	}
	for _, w := range strings.FieldsFunc(l, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if citationWords[w] {
			return true
		}
		for _, p := range []string{"citation", "bibliograph", "acknowledg", "sponsor", "referenc"} {
			if strings.HasPrefix(w, p) {
				return true
			}
		}
	}
	return false
}

// citationWords are the whole words that ask about citations or funding.
var citationWords = map[string]bool{"cite": true, "cites": true, "cited": true, "citing": true, "fund": true, "funds": true,
	"funded": true, "funding": true, "funder": true, "funders": true, "grant": true, "grants": true, "thank": true,
	"thanks": true, "thanked": true}

// NameLike reports a word that looks like a proper name of a model, data
// set or system: an inner capital or a digit mixed with letters
// ("AlphaFold2", "GloVe", "YOLOv3", "GPT-2"), or an acronym of 3+ capitals.
func NameLike(w string) bool {
	// Most words hold no capital, digit or non-ASCII letter: never a name
	// (the identity cards ask this of every word of every title and
	// abstract of the library).
	plain := true
	for i := 0; i < len(w) && plain; i++ {
		c := w[i]
		plain = !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= utf8.RuneSelf)
	}
	return !plain && nameLike(w)
}

// nameLike is NameLike without its fast path for words that hold no
// capital, digit or non-ASCII letter (TestNameLike checks the two agree).
func nameLike(w string) bool {
	w = strings.Trim(w, ".,;:?!¿¡()\"'’")
	if len([]rune(w)) < 3 {
		return false
	}
	upper, lower, digit := 0, 0, 0
	inner := false
	prev := ' '
	for i, r := range w {
		switch {
		case unicode.IsUpper(r):
			upper++
			// "Zero-Shot", "Pre-Training": a capital after a hyphen is
			// title case, not a name's inner capital.
			if i > 0 && prev != '-' {
				inner = true
			}
		case unicode.IsLower(r):
			lower++
		case unicode.IsDigit(r):
			digit++
		}
		prev = r
	}
	if upper+lower == 0 || unicode.IsDigit([]rune(w)[0]) {
		return false // a quantity ("1.5B", "100M"), not a name
	}
	return inner || (digit > 0 && upper+lower > 0) || (upper >= 3 && lower == 0)
}

// scaffold are stems of general-English words that frame a question
// ("according to", "what matters", "does it help") rather than name its
// topic; a paper that never uses them can still answer.
var scaffold = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`according matter matters help helps decide decides meant mean take takes apply applies
	earlier ones one avoid avoids tell current kind way happen make makes give gives get gets say says need needs find finds
	show shows differ differs affect affects compare combine combines like likely reason reasons exactly actually`) {
		m[embedding.Stem(w)] = true
	}
	return m
}()

// questionNP are words that end the noun phrase after a wh-word besides
// function words.
var questionNP = map[string]bool{"per": true, "used": true, "use": true, "uses": true, "using": true, "like": true}

// askedForWorks are the words with which a question asks for papers
// themselves ("Which papers ...", "What studies ...").
var askedForWorks = map[string]bool{"paper": true, "papers": true, "work": true, "works": true, "study": true, "studies": true,
	"article": true, "articles": true, "publication": true, "publications": true, "authors": true}

// genericFocus are stems of words a paper can answer a question about
// without using them: measure and kind words ("what percentage" answered
// "15%", "which kind of"), comparatives and their adjectives ("how much
// better", "how much extra weight" answered "four times more weight"),
// evaluative adjectives ("what is wrong with linear interpolation" is
// answered by what the paper says fails), and the nouns
// for the role a thing plays in a study ("what baselines", "which
// metrics", "what architecture", "what tools" are answered by naming the
// models, metrics and tools).
var genericFocus = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`number percentage proportion fraction amount ratio share value kind type sort way part
	extent degree exact average total overall main different specific new other else best first final key major particular
	much many long large big small often far fast old size result role purpose name aspect thing one
	better worse higher lower larger smaller more less faster slower worst improvement gain gap extra additional further
	baseline metric measure architecture performance evaluation tool source approach method model system technique task
	application challenge definition motivation domain issue modification simplification setting state art work
	framework component module feature step stage setup strategy scheme structure design variant version
	package platform software hardware library toolkit device resource
	potential remaining existing usual previous current newly concrete typical standard common proposed main prior
	wrong right true false special unique novel interesting surprising unusual important possible necessary good bad`) {
		m[embedding.Stem(w)] = true
	}
	return m
}()

// Focus returns the lowercased words naming what a "what / which /
// how many" question asks for: the noun phrase after the wh-word ("What
// dropout rate does GloVe apply?" -> dropout, rate; "What is the carbon
// footprint of ..." -> carbon, footprint), without measure words
// ("percentage", "number") or names. A paper that never uses such a word
// cannot state the thing asked for. How/why and yes/no questions have no
// focus.
func Focus(q string) []string {
	var raw []string // surface words, for names
	for _, f := range strings.FieldsFunc(q, func(r rune) bool { return unicode.IsSpace(r) || r == '-' || r == '/' }) {
		raw = append(raw, strings.Trim(f, ".,;:?!()\"'’"))
	}
	for i, w := range raw[:max(len(raw)-2, 0)] {
		if lw := strings.ToLower(w); (lw == "which" || lw == "what") && askedForWorks[strings.ToLower(raw[i+1])] {
			// "Which papers study quantum error correction?" asks for papers
			// about what follows the verb: a paper that never uses
			// "quantum" is not one of them, but "study" says nothing.
			if yesNoOpeners[strings.ToLower(raw[i+2])] {
				return nil // "Which papers are ...", "What works have ..."
			}
			return Focus("what " + strings.Join(raw[i+3:], " "))
		}
	}
	toks := embedding.Tokenize(q)
	name := map[string]bool{}
	for _, w := range raw {
		if NameLike(w) {
			for _, t := range embedding.Tokenize(w) {
				name[t.Word] = true
			}
		}
	}
	start := -1
	for i, t := range toks {
		switch t.Word {
		case "what", "which":
			start = i + 1
		case "how":
			if i+1 < len(toks) {
				switch toks[i+1].Word {
				case "many", "much":
					start = i + 2
				}
			}
		}
		if start >= 0 {
			break
		}
	}
	if start < 0 || start >= len(toks) {
		return nil
	}
	i := start
	switch toks[i].Word {
	case "does", "do", "did", "can", "could", "would", "should", "will":
		return nil // "what does X mean": the wh-word is the object
	case "is", "are", "was", "were", "has", "have", "had":
		i++
	default:
		if w := toks[i].Word; i+1 < len(toks) && len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && verbObject[toks[i+1].Word] {
			// "What explains that ...", "What causes the gap": the wh-word
			// is the subject of a verb, which names nothing asked for.
			return nil
		}
	}
	for i < len(toks) && (toks[i].Word == "the" || toks[i].Word == "a" || toks[i].Word == "an" || toks[i].Word == "their" ||
		toks[i].Word == "its" || toks[i].Word == "his" || toks[i].Word == "her" || toks[i].Word == "our" || toks[i].Word == "kind" ||
		toks[i].Word == "type" || toks[i].Word == "of") {
		i++
	}
	var out []string
	for ; i < len(toks) && len(out) < 4; i++ {
		w := toks[i].Word
		if embedding.IsStopword(w) || questionNP[w] {
			break
		}
		if len(out) > 0 && len(w) > 4 && strings.HasSuffix(w, "ed") {
			break // a verb ("what layer gave", "the issues identified")
		}
		if len(out) > 0 && out[len(out)-1] == toks[i-1].Word && pluralNoun(toks[i-1].Word) && i+1 < len(toks) && verbFollower[toks[i+1].Word] {
			// A plural noun's verb ("which neurons count as afferents",
			// "which gates control the flow"): a noun phrase goes on with a
			// noun, not with a preposition or an article right after it.
			break
		}
		if genericFocus[embedding.Stem(w)] || superlativeOfGeneric(w) || name[w] || len(w) < 3 || len(out) == 0 && strings.HasSuffix(w, "ing") || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			// A leading participle ("existing systems") only qualifies.
			continue
		}
		out = append(out, w)
	}
	return out
}

// superlativeOfGeneric reports a superlative whose comparative or
// positive is a generic focus word ("smallest" of "smaller", "largest"
// of "large", "lowest" of "lower"): genericFocus lists the positives
// and comparatives, and a superlative qualifies what is asked for as
// they do ("the smallest amount of DNA" is answered by "as low as 40ng").
func superlativeOfGeneric(w string) bool {
	if len(w) < 6 || !strings.HasSuffix(w, "est") {
		return false
	}
	base := w[:len(w)-3]
	for _, f := range []string{base, base + "er", base + "e", base + "er"[1:]} {
		if genericFocus[embedding.Stem(f)] {
			return true
		}
	}
	if n := len(base); n >= 2 && base[n-1] == base[n-2] { // "biggest" of "big"
		return genericFocus[embedding.Stem(base[:n-1])]
	}
	return false
}

// pluralNoun reports a word shaped like a plural noun ("neurons",
// "gates"), not a "-ss" singular ("loss").
func pluralNoun(w string) bool {
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us")
}

// verbFollower are words that follow a verb, never the next word of a
// noun phrase: prepositions and articles ("count as", "control the").
var verbFollower = map[string]bool{"as": true, "the": true, "a": true, "an": true, "to": true, "into": true, "onto": true,
	"their": true, "its": true, "this": true, "these": true, "those": true}

// verbObject are the words that open a verb's object or clause right after
// it ("explains that", "causes the"); a plural noun after a wh-word is
// followed by a verb or a preposition instead ("what features does").
var verbObject = map[string]bool{"that": true, "the": true, "a": true, "an": true, "this": true, "these": true, "those": true,
	"its": true, "their": true, "it": true, "them": true, "some": true, "such": true}

// refNouns are what a question calls a paper ("the GloVe paper").
var refNouns = map[string]bool{"paper": true, "papers": true, "report": true, "article": true, "study": true, "preprint": true}

// IsRefNoun reports whether w (lowercased) is a noun with which a question
// calls a paper ("paper", "study", "article"): it refers to a paper as a
// paper, so it tells no paper from another, whatever title holds it ("in
// the study of" is in the title "Environmental biases in the study of
// ecological networks" and in "In the study of visual gravity, ...").
func IsRefNoun(w string) bool { return refNouns[w] }

// RefWords returns the lowercased words with which a question refers
// to the paper it asks ("In the seq2seq paper", "the AlexNet paper's
// network", "Lee et al.'s model", "Kim's CNN", "Kim (2014)"): they name the
// paper, not what is asked, and a paper need not use its nickname.
func RefWords(q string) map[string]bool {
	var ws []string
	for _, f := range strings.Fields(q) {
		ws = append(ws, strings.Trim(f, ".,;:?!()\"“”"))
	}
	out := map[string]bool{}
	add := func(w string) {
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		if w != "" {
			out[strings.ToLower(w)] = true
		}
	}
	for i, w := range ws {
		lw := strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s"))
		switch {
		case lw == "according" && i+1 < len(ws) && strings.EqualFold(ws[i+1], "to"):
			// "According to Davis and Goadrich, ...": the names up to the comma.
			for j := i + 2; j < len(ws) && j-i <= 6; j++ {
				if r := []rune(ws[j]); len(r) > 0 && (unicode.IsUpper(r[0]) || ws[j] == "and") {
					add(ws[j])
				}
				if strings.HasSuffix(strings.Fields(q)[j], ",") {
					break
				}
			}
		case refNouns[lw]:
			// Back to the determiner: "the [Sutskever et al.'s sequence to sequence] paper".
			// A preposition on the way makes "paper" a common noun
			// ("effective for complex fine-grained paper search"):
			// nothing is added.
			// A possessive is a determiner too: "Kingma and Ba's paper"
			// ends, walking back, with the names joined to it, not at
			// "Which optimizer does".
			var named []string
			possessive := false
			for j := i - 1; j >= 0 && i-j <= 5; j-- {
				l := strings.ToLower(ws[j])
				if l == "the" || l == "a" || l == "this" || l == "in" || l == "of" || l == "by" {
					break
				}
				if refBreaks[l] {
					named = nil
					break
				}
				if r := []rune(ws[j]); possessive && l != "and" && l != "&" && l != "et" && l != "al" && l != "al." && (len(r) == 0 || !unicode.IsUpper(r[0])) {
					break
				}
				named = append(named, ws[j])
				possessive = possessive || strings.HasSuffix(l, "'s") || strings.HasSuffix(l, "’s")
			}
			for _, w := range named {
				add(w)
			}
		case lw == "et" && i+1 < len(ws) && strings.HasPrefix(strings.ToLower(ws[i+1]), "al"):
			for j := i - 1; j >= 0 && i-j <= 3; j-- {
				if r := []rune(ws[j]); len(r) == 0 || ws[j] != "and" && (!unicode.IsUpper(r[0]) || embedding.IsStopword(strings.ToLower(ws[j]))) {
					break
				}
				add(ws[j])
			}
		case (strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "’s")) && i > 0 && len([]rune(w)) > 3 && unicode.IsUpper([]rune(w)[0]):
			add(w) // "Kim's sentence classification CNN"
		case i+1 < len(ws) && citeYearRE.MatchString(ws[i+1]):
			if r := []rune(w); len(r) > 1 && unicode.IsUpper(r[0]) {
				add(w) // "Kim (2014)", "Casimir (1948)"
			}
		}
	}
	return out
}

// refBreaks are prepositions that do not stand inside a paper's
// nickname: met walking back from "paper", they make it a common noun.
var refBreaks = map[string]bool{"for": true, "on": true, "with": true, "from": true, "about": true, "over": true, "across": true, "into": true, "than": true}

// citeYearRE matches a publication year in a citation, old papers
// included ("Turing (1936)").
var citeYearRE = regexp.MustCompile(`^(1[6-9]\d\d|20[0-4]\d)[a-z]?$`)

// CitationWords returns RefWords and the rest of the citation with which
// a question names its paper: "et al.", the year, and every author of a
// list ("McCulloch and Pitts (1943)", "According to Hinton, Osindero and
// Teh,", "Sharp et al. (2016)"). A deciding sentence of a yes/no answer
// need not hold them: a paper does not cite itself.
func CitationWords(q string) map[string]bool {
	out := RefWords(q)
	fs := strings.Fields(q)
	ws := make([]string, len(fs))
	for i, f := range fs {
		ws[i] = strings.TrimSuffix(strings.TrimSuffix(strings.Trim(f, ".,;:?!()\"“”"), "'s"), "’s")
	}
	capital := func(w string) bool {
		r := []rune(w)
		return len(r) > 1 && unicode.IsUpper(r[0]) && !embedding.IsStopword(strings.ToLower(w))
	}
	// authors walks back from i over a list of capitalised names joined
	// by "and", "&" and commas.
	authors := func(i int) {
		for j := i; j >= 0 && i-j <= 6; j-- {
			l := strings.ToLower(ws[j])
			if l == "and" || l == "&" {
				continue
			}
			if !capital(ws[j]) {
				return
			}
			out[l] = true
		}
	}
	for i, w := range ws {
		l := strings.ToLower(w)
		switch {
		case l == "et" && i+1 < len(ws) && strings.HasPrefix(strings.ToLower(ws[i+1]), "al"):
			out["et"], out["al"] = true, true
			authors(i - 1)
		case citeYearRE.MatchString(w) && i > 0:
			out[l] = true
			k := i - 1
			if strings.EqualFold(ws[k], "al") && k >= 2 {
				k -= 2
			}
			authors(k)
		case l == "according" && i+2 < len(ws) && strings.EqualFold(ws[i+1], "to"):
			// "According to Hinton, Osindero and Teh, is ...": the list
			// up to the first lowercase word.
			for j := i + 2; j < len(ws); j++ {
				lj := strings.ToLower(ws[j])
				if lj != "and" && lj != "&" && !capital(ws[j]) {
					break
				}
				out[lj] = true
			}
		}
	}
	delete(out, "and")
	return out
}

// doAux are the auxiliaries of do-support.
var doAux = map[string]bool{"did": true, "does": true, "do": true}

// DoVerb returns the main verb of a wh-question that ends with it after
// do-support ("What accuracy on ImageNet did ResNeXt reach?" -> "reach",
// "Which optimizer did the capsule network paper use?" -> "use"), lower
// cased, or "". It is how the asker puts the question, not what it is
// about: the paper states the fact with its own verb ("achieves 22.2%
// top-1 error"), so a paper is not asked to print it.
func DoVerb(q string) string {
	f := strings.Fields(strings.TrimSpace(q))
	if len(f) < 4 || !strings.HasSuffix(f[len(f)-1], "?") || !whWords[strings.ToLower(strings.Trim(f[0], WordPunct))] {
		return ""
	}
	last := strings.ToLower(strings.Trim(f[len(f)-1], WordPunct))
	if strings.IndexFunc(last, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 || embedding.IsStopword(last) {
		return ""
	}
	// The auxiliary, then the subject (a noun phrase without a
	// preposition: "did the capsule network paper", not "did Karp show
	// about the clique"), then the verb, last.
	for i := len(f) - 2; i >= 1; i-- {
		lw := strings.ToLower(strings.Trim(f[i], WordPunct))
		switch {
		case doAux[lw]:
			if i == len(f)-2 {
				return "" // no subject between
			}
			return last
		case strings.ContainsAny(f[i], ",;:"), embedding.IsStopword(lw) && !determiners[lw] && !subjectPronouns[lw]:
			return ""
		}
	}
	return ""
}

// subjectPronouns may stand for the subject between a do-auxiliary and its
// verb ("What did they find?").
var subjectPronouns = map[string]bool{"they": true, "we": true, "it": true, "he": true, "she": true, "you": true}
