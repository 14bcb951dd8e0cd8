package retrieve

// How the searched papers use the question's words: the per-paper signals
// the answer step weighs to decide "not in these papers". A question that
// names a paper and asks it for a detail it never gives ("What dropout rate
// does GloVe apply?") shares all but one word with the paper; what gives it
// away is that its most specific word is absent from the paper's text, or
// only in its bibliography (a cited title), or in a passage or two only.

import (
	"context"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
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
func QuestionTermUse(ctx context.Context, ix Index, question *query.Question, paperIDs []int64) ([]TermUse, error) {
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

func termUse(question *query.Question, ds []*PaperData) []TermUse {
	m := embedding.ShippedModel()
	cs := make([]*termCounts, len(ds))
	for i, d := range ds {
		cs[i] = countsOf(d)
	}
	focus := map[string]bool{}
	for _, w := range question.Focus {
		focus[w] = true
	}
	joined := subscripts(question.Text)
	var out []TermUse
	seen := map[string]bool{}
	for _, tok := range embedding.Tokenize(question.Text) {
		st := embedding.QueryTerms(tok.Word)
		if len(st) == 0 || st[0] == embedding.NumTerm || len(st[0]) < 2 || query.IsScaffold(st[0]) || seen[st[0]] {
			continue
		}
		t := st[0]
		seen[t] = true
		u := TermUse{Stem: t, Focus: focus[tok.Word]}
		if m != nil {
			u.IDF = float64(m.IDF(t))
		}
		for _, c := range cs {
			n := c.bodyCount(tok.Word)
			if j := joined[tok.Word]; j != "" {
				n = max(n, c.bodyCount(j))
			}
			u.Body += n
			u.Refs += c.refs[t]
		}
		out = append(out, u)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].IDF > out[b].IDF })
	return out
}

// subscriptRE matches a symbol typed with an underscore subscript
// ("x_max", "d_model").
var subscriptRE = regexp.MustCompile(`[\p{L}\p{N}]+_[\p{L}\p{N}]+`)

// subscripts maps the subscript of each symbol the question types with an
// underscore ("max" of "x_max") to the one word papers print for the
// symbol ("xmax": the subscript is extracted glued to it), which is a use
// of the question's word.
func subscripts(q string) map[string]string {
	out := map[string]string{}
	for _, m := range subscriptRE.FindAllString(strings.ToLower(q), -1) {
		sym, sub, _ := strings.Cut(m, "_")
		if !strings.Contains(sub, "_") {
			out[sub] = sym + sub
		}
	}
	return out
}

// irregular plurals whose singular also counts as a use here, beyond the
// classical plurals embedding.Stem already reads as their singular: words
// it leaves alone because they have other senses in running text.
var irregular = map[string]string{"data": "datum", "media": "medium"}

// boundPhrases are the phrases with which papers state a bound the
// question names with a noun: "What minimum amount of DNA ...?" is
// answered by "at least 250 ng of DNA".
var boundPhrases = map[string]string{"minimum": "at least ", "maximum": "at most "}

// bodyCount counts the body passages holding word in any of its usual
// spellings: the stem, an irregular plural's singular, British or
// American "-ise/-ize", another form of its word family, a bound's phrase
// ("minimum" as "at least") and a compound written apart ("dataset" as
// "data set", "pretraining" as "pre-training").
func (c *termCounts) bodyCount(word string) int {
	n := c.body[embedding.Stem(word)]
	if s, ok := irregular[word]; ok {
		n = max(n, c.body[embedding.Stem(s)])
	}
	for _, v := range SpellingVariants(word) {
		n = max(n, c.body[embedding.Stem(v)])
	}
	if n > 0 {
		return n
	}
	// Another form of the word's family (Related): a paper about
	// "detection" that calls its detector "the detection model" uses the
	// question's "detector"; Porter keeps the two apart.
	if rw := RootOfStem(embedding.Stem(word)); len(rw) >= 5 {
		for h, k := range c.body {
			if Related(rw, RootOfStem(h)) {
				n = max(n, k)
			}
		}
		if n > 0 {
			return n
		}
	}
	// A bound the question names with a noun ("the minimum amount")
	// that the paper states with a phrase ("at least 250 ng").
	if p, ok := boundPhrases[word]; ok && strings.Contains(c.bodyText(), p) {
		return 1
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

// spellingPairs are the British and American spellings of one suffix:
// "-ise/-ize" ("normalise", "factorisation"), "-yse/-yze", "-our/-or".
var spellingPairs = [][2]string{{"is", "iz"}, {"iz", "is"}, {"ys", "yz"}, {"our", "or"}}

// SpellingVariants returns a word in the other spellings of its suffix
// (spellingPairs, within the word's last eight letters):
// "factorisation" -> "factorization", "colour" -> "color". A paper prints
// one spelling; a reader types either. Nil when the word has none.
func SpellingVariants(word string) []string {
	var out []string
	for _, r := range spellingPairs {
		if i := strings.LastIndex(word, r[0]); i > 0 && len(word)-i <= 8 {
			out = append(out, word[:i]+r[1]+word[i+len(r[0]):])
		}
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
