package retrieve

import (
	"sort"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
)

// trimTableRows cuts a table leaf (papertree.FormatTable) to its header and
// the rows most likely to answer the question within budget tokens, in
// table order: a table is cut by rows, never by "sentences" glued into one
// line, so the cut evidence still reads (and renders) as a table. Rows are
// rated like sentences (SentenceScore) on their text with its headers.
func trimTableRows(text string, question *query.Question, budget int) string {
	t := papertree.ParseTable(text)
	header, rows := t.Header, t.Rows
	if len(rows) == 0 {
		return text
	}
	said := papertree.TableRowSentences(text)
	type rated struct {
		i   int
		s   float64
		tok int
	}
	rs := make([]rated, 0, len(rows))
	for i, r := range rows {
		s := ""
		if i < len(said) {
			s = said[i]
		}
		score := SentenceScore(question.Terms, question.Kind, s) - 0.001*float64(i)
		if papertree.RowNamed(question.Text, s) {
			score++ // the row the question names is kept first
		}
		rs = append(rs, rated{i, score, papertree.CountTokens(papertree.FormatTable(nil, [][]string{r}))})
	}
	sort.SliceStable(rs, func(a, b int) bool { return rs[a].s > rs[b].s })
	used := papertree.CountTokens(papertree.Table{Caption: t.Caption, Header: header}.Format())
	keep := map[int]bool{}
	for k, r := range rs {
		if used+r.tok <= budget || k == 0 {
			keep[r.i] = true
			used += r.tok
		}
	}
	var out [][]string
	for i, r := range rows {
		if keep[i] {
			out = append(out, r)
		}
	}
	return papertree.Table{Caption: t.Caption, Header: header, Rows: out}.Format()
}
