package retrieve

// How the searched papers use the question's words: the per-paper signals
// the answer step weighs to decide "not in these papers". A question that
// names a paper and asks it for a detail it never gives ("What dropout rate
// does GloVe apply?") shares all but one word with the paper; what gives it
// away is that its most specific word is absent from the paper's text, or
// only in its bibliography (a cited title), or in a passage or two only.

import (
	"context"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// TermUse is how the searched papers use one of the question's content
// words (a stem).
type TermUse struct {
	Stem string  `json:"stem"`
	IDF  float64 `json:"idf"`  // the shipped embedder's IDF prior: how specific the word is
	Body int     `json:"body"` // body passages holding it (bibliography and acknowledgements excluded)
	Refs int     `json:"refs"` // bibliography or acknowledgement passages holding it
	// Focus: the word is part of what the question asks for (QuestionFocus).
	Focus bool `json:"focus,omitempty"`
}

// QuestionTermUse returns, for each of the question's content stems (no
// question scaffolding), how many body and bibliography passages of the
// papers hold it, most specific stem (highest IDF) first. Papers that
// cannot be loaded are skipped.
func QuestionTermUse(ctx context.Context, ix Index, question string, paperIDs []int64) ([]TermUse, error) {
	var ds []*PaperData
	for _, id := range paperIDs {
		d, err := ix.Paper(ctx, id)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		ds = append(ds, d)
	}
	return termUse(question, ds), nil
}

func termUse(question string, ds []*PaperData) []TermUse {
	m := embedding.ShippedModel()
	cs := make([]*termCounts, len(ds))
	for i, d := range ds {
		cs[i] = countsOf(d)
	}
	focus := map[string]bool{}
	for _, w := range QuestionFocus(question) {
		focus[w] = true
	}
	var out []TermUse
	seen := map[string]bool{}
	for _, tok := range embedding.Tokenize(question) {
		st := embedding.QueryTerms(tok.Word)
		if len(st) == 0 || st[0] == embedding.NumTerm || len(st[0]) < 2 || scaffold[st[0]] || seen[st[0]] {
			continue
		}
		t := st[0]
		seen[t] = true
		u := TermUse{Stem: t, Focus: focus[tok.Word]}
		if m != nil {
			u.IDF = float64(m.IDF(t))
		}
		for _, c := range cs {
			u.Body += c.bodyCount(tok.Word)
			u.Refs += c.refs[t]
		}
		out = append(out, u)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].IDF > out[b].IDF })
	return out
}

// irregular plurals whose singular also counts as a use here, beyond the
// classical plurals embedding.Stem already reads as their singular: words
// it leaves alone because they have other senses in running text.
var irregular = map[string]string{"data": "datum", "media": "medium"}

// bodyCount counts the body passages holding word in any of its usual
// spellings: the stem, an irregular plural's singular, British or
// American "-ise/-ize", and a compound written apart ("dataset" as "data
// set", "pretraining" as "pre-training").
func (c *termCounts) bodyCount(word string) int {
	n := c.body[embedding.Stem(word)]
	if s, ok := irregular[word]; ok {
		n = max(n, c.body[embedding.Stem(s)])
	}
	for _, r := range [][2]string{{"is", "iz"}, {"iz", "is"}, {"ys", "yz"}, {"our", "or"}} {
		if i := strings.LastIndex(word, r[0]); i > 0 && len(word)-i <= 8 {
			n = max(n, c.body[embedding.Stem(word[:i]+r[1]+word[i+len(r[0]):])])
		}
	}
	if n > 0 {
		return n
	}
	// A compound written apart or hyphenated in the paper.
	if len(word) >= 6 && !strings.ContainsAny(word, "0123456789") {
		low := c.bodyText()
		for i := 3; i+3 <= len(word); i++ {
			if strings.Contains(low, word[:i]+" "+word[i:]) || strings.Contains(low, word[:i]+"-"+word[i:]) {
				return 1
			}
		}
	}
	return 0
}

// questionNP are words that end the noun phrase after a wh-word besides
// function words.
var questionNP = map[string]bool{"per": true, "used": true, "use": true, "uses": true, "using": true, "like": true}

// askedForWorks are the words with which a question asks for papers
// themselves ("Which papers ...", "What studies ...").
var askedForWorks = map[string]bool{"paper": true, "papers": true, "work": true, "works": true, "study": true, "studies": true,
	"article": true, "articles": true, "publication": true, "publications": true, "authors": true}

// genericFocus are stems of words a paper can answer a question about
// without using them: measure and kind words ("what percentage" answered
// "15%", "which kind of"), comparatives ("how much better"), and the nouns
// for the role a thing plays in a study ("what baselines", "which
// metrics", "what architecture", "what tools" are answered by naming the
// models, metrics and tools).
var genericFocus = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`number percentage proportion fraction amount ratio share value kind type sort way part
	extent degree exact average total overall main different specific new other best first final key major particular
	much many long large big small often far fast old size result role purpose name aspect thing one
	better worse higher lower larger smaller more less faster slower worst improvement gain gap
	baseline metric measure architecture performance evaluation tool source approach method model system technique task
	application challenge definition motivation domain issue modification simplification setting state art work
	framework component module feature step stage setup strategy scheme structure design variant version
	package platform software hardware library toolkit device resource
	potential remaining existing usual previous current newly concrete typical standard common proposed main prior`) {
		m[embedding.Stem(w)] = true
	}
	return m
}()

// QuestionFocus returns the lowercased words naming what a "what / which /
// how many" question asks for: the noun phrase after the wh-word ("What
// dropout rate does GloVe apply?" -> dropout, rate; "What is the carbon
// footprint of ..." -> carbon, footprint), without measure words
// ("percentage", "number") or names. A paper that never uses such a word
// cannot state the thing asked for. How/why and yes/no questions have no
// focus.
func QuestionFocus(q string) []string {
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
			return QuestionFocus("what " + strings.Join(raw[i+3:], " "))
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
		if genericFocus[embedding.Stem(w)] || name[w] || len(w) < 3 || len(out) == 0 && strings.HasSuffix(w, "ing") || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			// A leading participle ("existing systems") only qualifies.
			continue
		}
		out = append(out, w)
	}
	return out
}

// termCounts are a paper's passage frequencies: for each stem, how many
// body leaves and how many bibliography/acknowledgement leaves hold it
// (section titles count as body). Built from the sentence stems the
// paper's other signals already hold (no second pass over its words).
type termCounts struct {
	body, refs map[string]int
	d          *PaperData
	low        string // the body text lowercased, built on first need
}

// counts guards PaperData.counts and termCounts.low. The counts live on
// the paper (not in a process-wide table, which kept up to 512 papers
// alive after their library closed), so they go when it goes.
var counts sync.Mutex

func countsOf(d *PaperData) *termCounts {
	counts.Lock()
	c := d.counts
	counts.Unlock()
	if c != nil {
		return c
	}
	x := extraOf(d)
	c = &termCounts{body: map[string]int{}, refs: map[string]int{}, d: d}
	seen := map[string]bool{}
	addStems := func(to map[string]int, stems []string) {
		for _, t := range stems {
			if !seen[t] {
				seen[t] = true
				to[t]++
			}
		}
	}
	addStems(c.body, embedding.ContentStems(d.Paper.Title))
	for o, n := range d.Nodes {
		clear(seen)
		switch {
		case !n.IsLeaf():
			addStems(c.body, embedding.ContentStems(n.Title))
		case x.refs[o]:
			for _, g := range x.sents[o] {
				addStems(c.refs, g.stems)
			}
		default:
			for _, g := range x.sents[o] {
				addStems(c.body, g.stems)
			}
		}
	}
	counts.Lock()
	defer counts.Unlock()
	if d.counts == nil {
		d.counts = c
	}
	return d.counts
}

// bodyText is the paper's body text lowercased (titles and leaves outside
// the bibliography), for the rare look-ups stems cannot answer.
func (c *termCounts) bodyText() string {
	counts.Lock()
	defer counts.Unlock()
	if c.low == "" {
		x := extraOf(c.d)
		var b strings.Builder
		for o, n := range c.d.Nodes {
			if !n.IsLeaf() {
				b.WriteString(n.Title)
			} else if !x.refs[o] {
				b.WriteString(n.Text)
			}
			b.WriteByte('\n')
		}
		c.low = strings.ToLower(b.String())
	}
	return c.low
}

// EvidencePapers lists the papers evidence comes from, in first-seen order.
func EvidencePapers(ev []papertree.Evidence) []int64 {
	var ids []int64
	seen := map[int64]bool{}
	for _, e := range ev {
		if !seen[e.PaperID] {
			seen[e.PaperID] = true
			ids = append(ids, e.PaperID)
		}
	}
	return ids
}

// refNouns are what a question calls a paper ("the GloVe paper").
var refNouns = map[string]bool{"paper": true, "papers": true, "report": true, "article": true, "study": true, "preprint": true}

// PaperRefWords returns the lowercased words with which a question refers
// to the paper it asks ("In the seq2seq paper", "the AlexNet paper's
// network", "Lee et al.'s model", "Kim's CNN", "Kim (2014)"): they name the
// paper, not what is asked, and a paper need not use its nickname.
func PaperRefWords(q string) map[string]bool {
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
			for j := i - 1; j >= 0 && i-j <= 5; j-- {
				l := strings.ToLower(ws[j])
				if l == "the" || l == "a" || l == "this" || l == "in" || l == "of" || l == "by" {
					break
				}
				add(ws[j])
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
		case i+1 < len(ws) && yearRE.MatchString(ws[i+1]) && len(ws[i+1]) <= 5:
			if r := []rune(w); len(r) > 1 && unicode.IsUpper(r[0]) {
				add(w) // "Kim (2014)"
			}
		}
	}
	return out
}
