package eval

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
)

// The absence oracle: every word a reply says is never mentioned
// (papertree.Answer.Diag.Absent) is checked against what the library holds
// of the papers the claim speaks of — every node's title and text (table
// cells, captions and front matter included) and the paper's metadata
// (title, authors, venue, year, DOI, arXiv id, abstract, affiliations) —
// with the index's own normalisation (NFKC, lower case, diacritics
// folded, any other rune a separator, Porter stems, a word split at a line
// end or written together), in code written apart from the full-text index
// it checks. A claim is also false when its word is not one the researcher
// typed (a stem, "countri" for "countries") or when the question names the
// very paper it asks about with it ("Casimir (1948)", "Kim's CNN") and that
// paper is in the claim's scope: a paper's name is never a word it "never
// mentions".

// AbsenceOracle checks absence claims of the replies to a question set.
type AbsenceOracle struct {
	// Paper returns a paper with its tree and metadata.
	Paper func(ctx context.Context, id int64) (*papertree.Paper, error)
	// All are the library's ready papers: the scope of a claim that names
	// none.
	All []int64
	// Papers maps a question's gold paper file name to its id.
	Papers map[string]int64

	mu    sync.Mutex
	texts map[int64]*oracleText
}

// oracleText is a paper's text reduced to stems: seq is " s1 s2 ... ",
// joined holds the stems of every two neighbouring words written together
// ("pre training" read as "pretraining").
type oracleText struct {
	seq    string
	joined map[string]bool
	// compact is the text (NFKC) without white space, where a word of a
	// script written without spaces is looked up as printed: anywhere,
	// across the line breaks extraction leaves inside words.
	compact string
}

// Check returns "" when the claim is true, else why it is false.
func (o *AbsenceOracle) Check(ctx context.Context, q Question, c papertree.AbsenceClaim) (string, error) {
	if !typed(q.Question, c.Word) {
		return fmt.Sprintf("%q is not a word the question typed", c.Word), nil
	}
	scope := c.Papers
	if len(scope) == 0 {
		scope = o.All
	}
	if gold, ok := o.Papers[q.Paper]; ok && q.Paper != "" && query.CitationWords(q.Question)[strings.ToLower(c.Word)] {
		for _, id := range scope {
			if id == gold {
				return fmt.Sprintf("%q names the paper the question asks about (paper %d)", c.Word, gold), nil
			}
		}
	}
	for _, id := range scope {
		t, err := o.text(ctx, id)
		if err != nil {
			return "", err
		}
		if t.holds(c.Word) {
			return fmt.Sprintf("paper %d holds %q", id, c.Word), nil
		}
	}
	return "", nil
}

func (o *AbsenceOracle) text(ctx context.Context, id int64) (*oracleText, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if t, ok := o.texts[id]; ok {
		return t, nil
	}
	p, err := o.Paper(ctx, id)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(p.Title + "\n" + strings.Join(p.Authors, "\n") + "\n" + p.Venue + "\n" + p.DOI + "\n" + p.ArxivID + "\n" +
		p.Abstract + "\n" + strings.Join(p.Affiliations, "\n") + "\n")
	if p.Year > 0 {
		fmt.Fprintf(&b, "%d\n", p.Year)
	}
	var walk func(n *papertree.Node)
	walk = func(n *papertree.Node) {
		if n == nil {
			return
		}
		b.WriteString(n.Title + "\n" + n.Text + "\n")
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(p.Root)
	raw, seps := oracleSplit(b.String())
	t := &oracleText{joined: map[string]bool{}, compact: strings.Join(strings.Fields(norm.NFKC.String(b.String())), "")}
	var sb strings.Builder
	sb.WriteByte(' ')
	for i, w := range raw {
		sb.WriteString(embedding.PorterStem(w) + " ")
		if i+1 < len(raw) && hyphenated(seps[i]) {
			t.joined[embedding.PorterStem(w+raw[i+1])] = true
		}
	}
	t.seq = sb.String()
	if o.texts == nil {
		o.texts = map[int64]*oracleText{}
	}
	o.texts[id] = t
	return t, nil
}

// hyphenated reports a separator that joins two parts of one word: a
// hyphen, with or without a line break after it ("pre-\ntraining",
// "pre-training" for "pretraining").
func hyphenated(sep string) bool {
	s := strings.TrimSpace(sep)
	return s == "-" || s == "\u00ad" || s == "‐"
}

// holds reports whether the text holds word in a printed form: its words
// in a row, written together, or (one word) split in two at a hyphen.
func (t *oracleText) holds(word string) bool {
	if spaceless(word) {
		return strings.Contains(t.compact, norm.NFKC.String(word))
	}
	ws := oracleWords(word)
	if len(ws) == 0 {
		return false
	}
	stems := make([]string, len(ws))
	for i, w := range ws {
		stems[i] = embedding.PorterStem(w)
	}
	if strings.Contains(t.seq, " "+strings.Join(stems, " ")+" ") {
		return true
	}
	one := embedding.PorterStem(strings.Join(ws, ""))
	return len(ws) > 1 && strings.Contains(t.seq, " "+one+" ") || t.joined[one]
}

// oracleWords splits s as the index does: NFKC, lower case, diacritics
// folded, any rune but a letter or digit a separator.
func oracleWords(s string) []string {
	ws, _ := oracleSplit(s)
	return ws
}

// oracleSplit is oracleWords with the separator after each word.
func oracleSplit(s string) (words, seps []string) {
	s = norm.NFKC.String(strings.ToLower(s))
	var w, sep strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if sep.Len() > 0 && len(words) > 0 {
				seps[len(seps)-1] = sep.String()
			}
			sep.Reset()
			w.WriteRune(r)
		default:
			if w.Len() > 0 {
				words, seps = append(words, w.String()), append(seps, "")
				w.Reset()
			}
			sep.WriteRune(r)
		}
	}
	if w.Len() > 0 {
		words, seps = append(words, w.String()), append(seps, "")
	}
	return words, seps
}

// typed reports whether word is written in the question as the researcher
// typed it (case aside), between word boundaries.
func typed(question, word string) bool {
	w := strings.TrimSpace(word)
	if w == "" {
		return false
	}
	if spaceless(w) {
		// No spaces mark a Chinese or Japanese word's bounds: any run of
		// the question's characters may be one.
		return strings.Contains(strings.Join(strings.Fields(norm.NFKC.String(question)), ""), norm.NFKC.String(w))
	}
	re, err := regexp.Compile(`(?i)(^|[^\pL\pN])` + regexp.QuoteMeta(w) + `($|[^\pL\pN])`)
	return err == nil && re.MatchString(norm.NFKC.String(question))
}

// spaceless reports a word written only in Han, Hiragana or Katakana
// characters, scripts printed without spaces between words.
func spaceless(w string) bool {
	for _, r := range w {
		if !unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) {
			return false
		}
	}
	return w != ""
}
