package retrieve

import (
	"slices"
	"sort"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
)

// trimTableRows cuts a table leaf (papertree.FormatTable) to its header and
// the rows most likely to answer the question within budget tokens, in
// table order: a table is cut by rows, never by "sentences" glued into one
// line, so the cut evidence still reads (and renders) as a table. Rows are
// rated like sentences (SentenceScore) on their text with its headers.
// With matching, only the rows that hold one of the question's terms or
// that it names are kept (the best row when none does): what a table split
// into parts keeps of its other parts (mergeTableParts). Rows rated alike
// are kept in table order, except that the rows in own (those of the part
// that stands for a split table: the part retrieval rated most relevant)
// come first: as a part alone, it would have shown its own rows.
func trimTableRows(text string, question *query.Question, budget int, matching bool, own [][]string) string {
	t := papertree.ParseTable(text)
	header, rows := t.Header, t.Rows
	if len(rows) == 0 {
		return text
	}
	said := papertree.TableRowSentences(text)
	type rated struct {
		i     int
		s     float64
		own   bool
		tok   int
		match bool
	}
	rs := make([]rated, 0, len(rows))
	for i, r := range rows {
		s := ""
		if i < len(said) {
			s = said[i]
		}
		score := SentenceScore(question.Terms, question.Kind, s)
		named := papertree.RowNamed(question.Text, s)
		if named {
			score++ // the row the question names is kept first
		}
		match := named || SentenceScore(question.Terms, "", s) > 0
		mine := slices.ContainsFunc(own, func(o []string) bool { return slices.Equal(o, r) })
		rs = append(rs, rated{i, score, mine, papertree.CountTokens(papertree.FormatTable(nil, [][]string{r})), match})
	}
	sort.SliceStable(rs, func(a, b int) bool {
		if rs[a].s != rs[b].s {
			return rs[a].s > rs[b].s
		}
		return rs[a].own && !rs[b].own
	})
	used := papertree.CountTokens(papertree.Table{Caption: t.Caption, Header: header}.Format())
	keep := map[int]bool{}
	for k, r := range rs {
		if k > 0 && matching && !r.match {
			continue
		}
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

// A table longer than a leaf is cut by the tree builder into several
// leaves that each repeat its caption and header row (treebuild's
// tableLeaves), so that each part reads and is found on its own. As
// evidence, the parts are one table: chosen as separate passages, a
// 140-token caption was printed (and paid for) once per part, three times
// in a 512-token budget, while the text passage that answered was left
// out. tableGroup joins the parts back; retrieval keeps one candidate per
// table (mergeTableParts) and evidence shows it once (mergeTableEvidence).

// tableGroup is one table the tree builder split into parts.
type tableGroup struct {
	parts  []int  // the orders of its leaves, in document order
	text   string // the whole table: the caption and header once, every part's rows
	tokens int
	room   int // the longest part's tokens: the size of one table passage
	// rows are the rows of the whole table each part holds, by its order
	// (a block's own header row included).
	rows map[int][][]string
}

// tableGroups maps the order of every part of a split table to its group.
// Parts are consecutive table leaves of one section with the same caption;
// a block of a table whose header differs from the one before (a table
// printed in blocks, each under its own heading row, that the builder read
// as tables sharing the caption) adds that header as a row. Without a
// caption, parts must repeat the same header (a table with neither cannot
// be told apart from its neighbour and stays as it is). A table in one
// leaf has no group.
func (d *PaperData) tableGroups() map[int]*tableGroup {
	d.tabOnce.Do(func() {
		d.tabs = map[int]*tableGroup{}
		var cur *tableGroup
		var head papertree.Table // the group's caption and first header
		var last []string        // the header of the group's last part
		var rows [][]string
		flush := func() {
			if cur != nil && len(cur.parts) > 1 {
				cur.text = papertree.Table{Caption: head.Caption, Header: head.Header, Rows: rows}.Format()
				cur.tokens = papertree.CountTokens(cur.text)
				for _, o := range cur.parts {
					d.tabs[o] = cur
				}
			}
			cur, rows = nil, nil
		}
		for o, n := range d.Nodes {
			if n == nil || !n.IsLeaf() || n.Role != papertree.RoleTable {
				flush()
				continue
			}
			t := papertree.ParseTable(n.Text)
			same := cur != nil && o == cur.parts[len(cur.parts)-1]+1 && d.Parent[o] == d.Parent[cur.parts[0]] &&
				(t.Caption != "" && t.Caption == head.Caption ||
					t.Caption == "" && head.Caption == "" && len(t.Header) > 0 && slices.Equal(t.Header, head.Header))
			from := len(rows)
			if !same {
				from = 0
			}
			switch {
			case same && !slices.Equal(t.Header, last) && len(t.Header) > 0:
				rows = append(rows, t.Header)
			case !same:
				flush()
				if t.Caption == "" && len(t.Header) == 0 {
					continue
				}
				cur, head = &tableGroup{rows: map[int][][]string{}}, t
			}
			last = t.Header
			cur.parts = append(cur.parts, o)
			cur.room = max(cur.room, n.Tokens)
			rows = append(rows, t.Rows...)
			cur.rows[o] = rows[from:len(rows):len(rows)]
		}
		flush()
	})
	return d.tabs
}

// leafText is the text a candidate at order o stands for, and its tokens:
// the whole table for a part of a split table, else the leaf's own text.
func (d *PaperData) leafText(o int) (string, int) {
	if g := d.tableGroups()[o]; g != nil {
		return g.text, max(g.tokens, 1)
	}
	n := d.Nodes[o]
	return n.Text, max(n.Tokens, 1)
}

// mergeTableParts keeps one candidate per split table: the most relevant
// part stands for the table (its score, its place), holding the caption
// and header once and the table's rows that best answer the question
// (trimTableRows) within the size of one part, so the table costs what
// one passage costs and the rest of the budget goes to other passages.
// Candidates of other leaves are kept as they are, in their order.
func mergeTableParts(cs []cand, question *query.Question) []cand {
	type key struct {
		d *PaperData
		g *tableGroup
	}
	best := map[key]int{}
	for i, c := range cs {
		if c.d == nil {
			continue
		}
		if g := c.d.tableGroups()[c.o]; g != nil {
			k := key{c.d, g}
			if b, ok := best[k]; !ok || c.S > cs[b].S {
				best[k] = i
			}
		}
	}
	if len(best) == 0 {
		return cs
	}
	out := make([]cand, 0, len(cs))
	for i, c := range cs {
		if c.d == nil {
			out = append(out, c)
			continue
		}
		g := c.d.tableGroups()[c.o]
		if g == nil {
			out = append(out, c)
			continue
		}
		if best[key{c.d, g}] != i {
			continue
		}
		c.text, c.cost, c.trim = g.text, max(g.tokens, 1), false
		if c.cost > g.room {
			c.text = trimTableRows(g.text, question, g.room, true, g.rows[c.o])
			c.cost, c.trim = papertree.CountTokens(c.text), true
		}
		out = append(out, c)
	}
	return out
}
