package query

import (
	"slices"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/embedding"
)

// WordPunct is the punctuation a question's word may carry on either side
// ("(Kim,", "“BERT”"): cut with strings.Trim to read the word as typed.
const WordPunct = ".,;:?!¿¡()[]\"'“”‘’"

// Question is a question read once.
type Question struct {
	Text string
	// Kind is KindFactual, KindHowWhy or KindYesNo.
	Kind string
	// Terms are the stems of its content words, distinct, in order (no
	// question scaffolding, no quantity pseudo-term).
	Terms []string
	// Focus are the lowercased words naming what a what/which question
	// asks for ("What dropout rate ..." -> dropout, rate).
	Focus []string
	// Refs are the lowercased words with which it refers to a paper ("the
	// seq2seq paper", "Lee et al.", "Kim (2014)").
	Refs map[string]bool
	// Names are the proper names it uses as typed: name-like words
	// ("AlphaFold2", "GPT-2") and runs of two to four capitalised words
	// inside the question ("Stable Diffusion", "Ring Attention").
	Names []string
	// Compounds are the noun compounds of a factual question
	// ("radiation dosage", "robot arm"; see Compounds).
	Compounds []Compound
	// Citations: it asks about citations, references or funding.
	Citations bool
	// Route is the kind of answer it asks for (RouteSingle, RouteList,
	// RouteCompare), RouteWhy the cue that decided it.
	Route, RouteWhy string
	// Topic is what a which-papers question asks about, one group per
	// alternative (ListTopic); empty for other routes.
	Topic []TopicGroup
	// Forms are the question's terms in another form the one searched
	// paper defines (an abbreviation and its long form, see Same).
	Forms []Form
	// Detail is the paper detail it asks for (DetailAuthors, DetailYear,
	// DetailVenue, DetailDOI: "Who wrote the BERT paper?"), answered from
	// the paper's details instead of its text; "" for other questions.
	Detail string
}

// Form says that a sentence holding every stem of As holds the question
// terms Terms: "IQR" holds "interquartile range", and back.
type Form struct {
	Terms, As []string
}

// Same is q with the forms of the abbreviations pairs defines (each pair
// the stems of a short form and of its long form) that q uses: a question
// that says one form has its terms found in a sentence that says the
// other. q itself when it uses none.
func (q *Question) Same(pairs [][2][]string) *Question {
	if q == nil || len(pairs) == 0 {
		return q
	}
	has := func(ts []string) bool { return len(ts) > 0 && ContainsAll(q.Terms, ts) }
	var forms []Form
	for _, p := range pairs {
		short, long := p[0], p[1]
		if has(short) && !has(long) {
			forms = append(forms, Form{Terms: short, As: long})
		} else if has(long) && !has(short) {
			forms = append(forms, Form{Terms: long, As: short})
		}
	}
	if len(forms) == 0 {
		return q
	}
	c := *q
	c.Forms = forms
	return &c
}

// Expand returns stems, the distinct stems of a sentence, with the terms
// of q's forms that the sentence holds in their other form (stems itself
// when it holds none).
func (q *Question) Expand(stems []string) []string {
	if q == nil {
		return stems
	}
	out := stems
	for _, f := range q.Forms {
		if !ContainsAll(stems, f.As) {
			continue
		}
		for _, t := range f.Terms {
			if !slices.Contains(out, t) {
				if len(out) == len(stems) {
					out = append(stems[:len(stems):len(stems)], t)
				} else {
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// ContainsAll reports whether have holds every string of want (true for
// an empty want).
func ContainsAll(have, want []string) bool {
	for _, t := range want {
		if !slices.Contains(have, t) {
			return false
		}
	}
	return true
}

// Parse reads a question.
func Parse(text string) *Question {
	refs := RefWords(text)
	q := &Question{
		Text:      text,
		Kind:      KindOf(text),
		Terms:     Terms(text),
		Focus:     Focus(text),
		Refs:      refs,
		Names:     names(text, refs),
		Citations: WantsCitations(text),
		Detail:    DetailOf(text),
	}
	q.Compounds = Compounds(text, q.Kind, refs, q.Focus)
	q.Route, q.RouteWhy = RouteOf(text)
	if q.Route == RouteList {
		q.Topic = ListTopic(text)
	}
	return q
}

// Within is q as read inside one paper, titled title and written by
// authors: without the terms that name that paper (its title's words, its
// authors' names, the citation q names it with: CitationWords). Inside the
// paper those terms point at no passage in particular: they are what the
// whole paper is about ("the transformer model for multivariate time-series
// anomaly detection" of TranAD), so the abstract, introduction and
// conclusion match them all while the one sentence that answers ("We use
// the AdamW optimizer ... initial learning rate of 0.01") holds none; and
// an author's name ("Langdon et al."), rare in the paper's own text, points
// at its author line. When every term names the paper, the title's words
// are kept (they are its topic, all the question says) and the authors'
// names still go ("Which optimizer does Kingma and Ba's paper propose?":
// "optimizer", not the author line); q is returned as is when no term
// names the paper, or when its terms are all authors' names.
func (q *Question) Within(title string, authors []string) *Question {
	if q == nil {
		return q
	}
	people := authors
	for w := range CitationWords(q.Text) {
		people = append(people, w)
	}
	byTitle, byPeople := stemSet(title), stemSet(strings.Join(people, " "))
	var keep, topic []string
	for _, t := range q.Terms {
		if !byTitle[t] && !byPeople[t] {
			keep = append(keep, t)
		}
		if !byPeople[t] {
			topic = append(topic, t)
		}
	}
	if len(keep) == 0 {
		keep = topic
	}
	if len(keep) == 0 || len(keep) == len(q.Terms) {
		return q
	}
	c := *q
	c.Terms = keep
	return &c
}

// stemSet is the set of text's query terms.
func stemSet(text string) map[string]bool {
	out := map[string]bool{}
	for _, t := range embedding.QueryTerms(text) {
		out[t] = true
	}
	return out
}

// IsScaffold reports a stem of a general-English word that frames a
// question rather than names its topic.
func IsScaffold(stem string) bool { return scaffold[stem] }

// nameBreak are words that end a run of capitalised words: the nouns
// and citation words with which a question refers to a paper.
var nameBreak = map[string]bool{"paper": true, "papers": true, "report": true, "article": true, "study": true, "preprint": true,
	"et": true, "al": true}

// Names returns the proper names of q: name-like words, and runs of two to
// four capitalised words that are not the question's first word, not
// function words and not the words referring to a paper ("Stable
// Diffusion", "Ring Attention"; "Kim's" or "Vaswani et al." are references,
// not names of what is asked about), except in a German question.
func Names(q string) []string { return names(q, RefWords(q)) }

// names is Names with the question's reference words already read.
func names(q string, refs map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	var run []string
	// German capitalises every noun: a run of capitalised words in a
	// German question ("die Erfüllbarkeit Bool’scher Formeln") is a noun
	// phrase, not a name.
	german := embedding.GermanText(q)
	flush := func() {
		if len(run) >= 2 && len(run) <= 4 && !german {
			add(strings.Join(run, " "))
		}
		run = run[:0]
	}
	for i, f := range strings.Fields(q) {
		w := strings.Trim(f, WordPunct)
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		lw := strings.ToLower(w)
		r := []rune(w)
		capital := len(r) >= 2 && unicode.IsUpper(r[0]) && i > 0 && !embedding.IsStopword(lw) && !refs[lw] && !nameBreak[lw] &&
			strings.IndexFunc(w, unicode.IsDigit) < 0 && !yearRE.MatchString(w)
		if NameLike(w) && !refs[lw] {
			add(w)
		}
		if capital {
			run = append(run, w)
		} else {
			flush()
		}
		if strings.ContainsAny(f, ",;:?!()") {
			flush() // punctuation ends a name
		}
	}
	flush()
	return out
}
