package treebuild

import (
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
)

// Tables: a block of consecutive lines of one page and column whose runs
// fall into the same vertical bands (columns separated by gaps of about
// an em and more, where prose has word spaces of a third of one) becomes a
// table leaf (role "table"), its text the grid in papertree's table form
// (papertree.FormatTable: one row per line, cells split by " | "), so that
// the full-text index holds every cell and an answer can quote one row
// with its headers.
//
// Detection is conservative, because a false table turns prose into a grid
// of fragments: at least three rows and two columns, short cells, the
// columns confirmed by the rows (most rows fill most of them), and either a
// "Table N" caption right above or below the block or a block that is
// plainly tabular on its own (four rows, three columns, numbers in many
// cells). A block next to a "Figure N" caption is a plot's labels, never a
// table. Two-column body text is split into columns before this runs, so
// its lines hold no em-wide gaps.

// minCellGap is the gap, in ems of the line's size, that separates two
// cells; prose word spaces are about 0.25-0.6 em even when justified.
const minCellGap = 0.9

// minColumnGap is the narrowest gap (in ems) that separates two columns
// once a block is known to be a table: numbers are often set closer than
// an em apart, while the words of one cell are a third of an em apart.
const minColumnGap = 0.55

// maxTableTokens bounds a table leaf: a long table is cut into parts of a
// few rows, each with the caption and header, so that the part holding the
// asked row is a small, focused passage (retrieval packs its budget by
// relevance per token).
const maxTableTokens = 160

// maxTableStep is the largest baseline step (in ems) between two rows.
const maxTableStep = 2.6

var (
	tableCaptionRe  = regexp.MustCompile(`^(?i:table)\s*[\dIVX]+[a-z]?(?:\.\d+)?\s*[:.|—–]`)
	figureCaptionRe = regexp.MustCompile(`^(?i:figure|fig\.)\s*[\dIVX]+[a-z]?(?:\.\d+)?\s*[:.|—–]`)
	numericCellRe   = regexp.MustCompile(`^[\s(±+\-−–~≈<>]*[$€]?\d[\d.,]*\s*(?:%|[kKMBG]|x|×)?[)*†‡]*(?:\s*[±/(]\s*[\d.,]+\s*\)?%?)?$|^[-−–—]$`)
)

// cell is one cell of a row: its text and horizontal extent.
type cell struct {
	text   string
	x0, x1 float64
}

// lineCells splits a line's runs into cells at gaps of gapEm ems.
func lineCells(l *line, gapEm float64) []cell {
	// Most lines are prose with no gap wide enough: one cell, without
	// building a line per cell.
	minSize := math.Inf(1)
	for _, r := range l.runs {
		minSize = math.Min(minSize, r.Size)
	}
	if l.maxGap < gapEm*math.Max(minSize, 1) {
		if strings.TrimSpace(l.text) == "" {
			return nil
		}
		return []cell{{text: strings.TrimSpace(l.text), x0: l.x0, x1: l.x1}}
	}
	var out []cell
	var cur []pdf.Run
	flush := func() {
		if len(cur) == 0 {
			return
		}
		c := makeLine(cur, l.page, l.pageW, l.pageH)
		if c != nil && strings.TrimSpace(c.text) != "" {
			out = append(out, cell{text: strings.TrimSpace(c.text), x0: c.x0, x1: c.x1})
		}
		cur = nil
	}
	for i, r := range l.runs {
		if i > 0 {
			prev := l.runs[i-1]
			gap := r.X - (prev.X + runWidth(prev))
			if gap >= gapEm*math.Max(math.Min(r.Size, prev.Size), 1) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// tableBlock is a detected table: its lines and its grid.
type tableBlock struct {
	first, last int // indexes into the section's lines: the header's (last) line, the last row
	from        int // the first line of the table (above first when the header spans lines)
	caption     int // the line its "Table N" caption starts on; -1 = none
	rows        [][]string
	header      bool // rows[0] is a header row
}

// findTables returns the tables among a section's body lines, in order.
func findTables(ls []*line) []tableBlock {
	cells := make([][]cell, len(ls))
	for i, l := range ls {
		if captionStartRe.MatchString(strings.TrimSpace(l.text)) {
			continue
		}
		cells[i] = lineCells(l, minCellGap)
	}
	var out []tableBlock
	for i := 0; i < len(ls); {
		if len(cells[i]) < 2 {
			i++
			continue
		}
		// grow the block over rows of two or more cells
		j := i
		for j+1 < len(ls) && len(cells[j+1]) >= 2 && sameBlock(ls[j], ls[j+1]) {
			j++
		}
		lo := i
		// a short header line of one cell right above (a spanning group
		// header such as "LM Perplexity & (Accuracy)") joins the block
		if lo > 0 && len(cells[lo-1]) == 1 && sameBlock(ls[lo-1], ls[lo]) && wordCount(ls[lo-1].text) <= 6 &&
			!captionStartRe.MatchString(strings.TrimSpace(ls[lo-1].text)) && !strings.ContainsAny(lastRune(ls[lo-1].text), ".,;:!?") {
			lo--
		}
		if t, ok := makeTable(ls, cells, lo, j); ok {
			out = append(out, t)
		}
		i = j + 1
	}
	return out
}

// sameBlock reports whether b can be the row after a in one table.
func sameBlock(a, b *line) bool {
	if a.page != b.page || a.col != b.col {
		return false
	}
	step := b.y - a.y
	return step > 0 && step <= maxTableStep*math.Max(a.size, b.size)
}

// makeTable checks the block lo..hi and builds its grid.
func makeTable(ls []*line, cells [][]cell, lo, hi int) (tableBlock, bool) {
	var rowsWith []int
	for k := lo; k <= hi; k++ {
		if len(cells[k]) >= 2 {
			rowsWith = append(rowsWith, k)
		}
	}
	if len(rowsWith) < 3 {
		return tableBlock{}, false
	}
	// Column bands: the horizontal projection of the runs of the rows
	// that have the most cells (a spanning header cell would bridge two
	// columns), cut where a gap of minColumnGap ems is empty in all of them.
	fine := make([][]cell, hi-lo+1)
	most := 0
	for k := lo; k <= hi; k++ {
		fine[k-lo] = lineCells(ls[k], minColumnGap)
		most = max(most, len(fine[k-lo]))
	}
	type band struct{ x0, x1 float64 }
	var spans []band
	em := 0.0
	for k := lo; k <= hi; k++ {
		if float64(len(fine[k-lo])) >= 0.6*float64(most) {
			for _, c := range fine[k-lo] {
				spans = append(spans, band{c.x0, c.x1})
			}
			em = math.Max(em, ls[k].size)
		}
	}
	sort.Slice(spans, func(a, b int) bool { return spans[a].x0 < spans[b].x0 })
	var bands []band
	for _, s := range spans {
		if n := len(bands); n > 0 && s.x0 < bands[n-1].x1+minColumnGap*em {
			bands[n-1].x1 = math.Max(bands[n-1].x1, s.x1)
			continue
		}
		bands = append(bands, s)
	}
	ncol := len(bands)
	if ncol < 2 || ncol > 20 {
		return tableBlock{}, false
	}
	// Assign every line's cells to bands; a row fills the bands its cells
	// overlap (a cell over several bands goes to the first).
	var grid [][]string
	filledRows, cellsAll, numeric, longCells := 0, 0, 0, 0
	for k := lo; k <= hi; k++ {
		row := make([]string, ncol)
		cs := fine[k-lo]
		if len(cs) == 0 {
			cs = []cell{{text: strings.TrimSpace(ls[k].text), x0: ls[k].x0, x1: ls[k].x1}}
		}
		filled := 0
		for _, c := range cs {
			col := -1
			for b, bd := range bands {
				if c.x1 > bd.x0 && c.x0 < bd.x1 {
					col = b
					break
				}
			}
			if col < 0 { // in a gutter between bands: the nearest band
				d := math.Inf(1)
				for b, bd := range bands {
					if dd := math.Min(math.Abs(c.x0-bd.x1), math.Abs(bd.x0-c.x1)); dd < d {
						d, col = dd, b
					}
				}
			}
			if row[col] == "" {
				filled++
				row[col] = c.text
			} else {
				row[col] += " " + c.text
			}
			cellsAll++
			if numericCellRe.MatchString(c.text) {
				numeric++
			}
			if wordCount(c.text) > 8 {
				longCells++
			}
		}
		if filled*3 >= ncol*2 {
			filledRows++
		}
		grid = append(grid, row)
	}
	rows := hi - lo + 1
	// The columns must be confirmed by most rows, and the cells must be
	// short: prose that happens to have a wide gap never is.
	if filledRows*4 < rows*3 || longCells*10 > cellsAll {
		return tableBlock{}, false
	}
	numShare := float64(numeric) / float64(max(cellsAll, 1))
	capt, ci := nearCaption(ls, lo, hi)
	switch {
	case capt == "figure":
		return tableBlock{}, false
	case capt == "table":
		if ncol == 2 && numShare < 0.25 {
			return tableBlock{}, false
		}
	default:
		if rows < 4 || ncol < 3 || numShare < 0.4 {
			return tableBlock{}, false
		}
	}
	// Header rows: the leading rows of words (at most three: "Dev Set" over
	// "MNLI-m" over "(Acc)"), joined per column into one header row.
	from, nh := lo, 0
	for nh < min(3, len(grid)-2) && rowNumericShare(grid[nh]) < 0.5 {
		nh++
	}
	if nh > 1 {
		head := make([]string, ncol)
		for _, r := range grid[:nh] {
			for c, v := range r {
				if v != "" {
					head[c] = strings.TrimSpace(head[c] + " " + v)
				}
			}
		}
		grid = append([][]string{head}, grid[nh:]...)
		lo += nh - 1 // the leaf's first line is the header's last
	}
	t := tableBlock{first: lo, last: hi, rows: grid, header: nh > 0, from: from, caption: -1}
	if capt == "table" {
		t.caption = ci
	}
	return t, true
}

// nearCaption says whether a "Table N" or "Figure N" caption starts within
// a few lines above or below lines lo..hi on the same page ("" if none).
func nearCaption(ls []*line, lo, hi int) (string, int) {
	kind := func(l *line) string {
		t := strings.TrimSpace(l.text)
		switch {
		case tableCaptionRe.MatchString(t):
			return "table"
		case figureCaptionRe.MatchString(t):
			return "figure"
		}
		return ""
	}
	near := func(a, b *line) bool {
		return a.page == b.page && math.Abs(a.y-b.y) < 6*math.Max(a.size, b.size)
	}
	for k := hi + 1; k < len(ls) && k <= hi+3; k++ {
		if !near(ls[hi], ls[k]) {
			break
		}
		if c := kind(ls[k]); c != "" {
			return c, k
		}
	}
	// above: the caption may run over several lines
	for k := lo - 1; k >= 0 && k >= lo-14; k-- {
		if ls[k].page != ls[lo].page || ls[lo].y-ls[k].y > 20*ls[lo].size || ls[k].y > ls[lo].y {
			break
		}
		if c := kind(ls[k]); c != "" {
			return c, k
		}
	}
	return "", -1
}

func rowNumericShare(row []string) float64 {
	n, num := 0, 0
	for _, c := range row {
		if c == "" {
			continue
		}
		n++
		if numericCellRe.MatchString(c) {
			num++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(num) / float64(n)
}

// captionLines returns the lines of the caption that starts at ci: the
// lines that follow it in the same place at its size and spacing.
func captionLines(ls []*line, ci int, t tableBlock) []*line {
	if ci < 0 {
		return nil
	}
	out := []*line{ls[ci]}
	for k := ci + 1; k < len(ls) && len(out) < 10; k++ {
		prev, l := ls[k-1], ls[k]
		if k >= t.from && k <= t.last || l.page != prev.page || math.Abs(l.size-prev.size) > 0.6 ||
			l.y <= prev.y || l.y-prev.y > 1.6*math.Max(l.size, prev.size) || captionStartRe.MatchString(strings.TrimSpace(l.text)) {
			break
		}
		out = append(out, l)
	}
	return out
}

// tableLeaves turns a table into leaves of at most maxTokens each: the
// caption and the header row are repeated at the top of every leaf so that
// each part reads (and is found) on its own.
func tableLeaves(t tableBlock, ls []*line, capLines []*line, maxTokens int) []*papertree.Node {
	var header []string
	body := t.rows
	if t.header {
		header, body = t.rows[0], t.rows[1:]
	}
	caption := ""
	if len(capLines) > 0 {
		var texts []string
		for _, l := range capLines {
			texts = append(texts, l.text)
		}
		caption = joinLines(texts)
		if papertree.CountTokens(caption) > maxTokens/3 {
			caption = truncateTokens(caption, maxTokens/3)
		}
	}
	format := func(rows [][]string) string {
		return papertree.Table{Caption: caption, Header: header, Rows: rows}.Format()
	}
	var out []*papertree.Node
	start := 0
	for start < len(body) || start == 0 && len(body) == 0 {
		end := start
		for end < len(body) {
			txt := format(body[start : end+1])
			if end > start && papertree.CountTokens(txt) > maxTokens {
				break
			}
			end++
		}
		if end == start {
			end = start + 1
		}
		end = min(end, len(body))
		txt := format(body[start:end])
		if papertree.CountTokens(txt) > maxTokens {
			txt = truncateTokens(txt, maxTokens)
		}
		var lines []*line
		off := 0
		if t.header {
			lines, off = []*line{ls[t.first]}, 1
		}
		lines = append(lines, ls[t.first+off+start:t.first+off+end]...)
		if start == 0 {
			lines = append(lines, capLines...)
		}
		n := leaf(papertree.KindSegment, txt, lines)
		n.Role = papertree.RoleTable
		out = append(out, n)
		if len(body) == 0 {
			break
		}
		start = end
	}
	return out
}

// splitTables adds the leaves of a section's body lines when they hold a
// table: the text before, each table, and the text after, in order. It
// reports false (nothing added) when there is no table.
func (b *builder) splitTables(sec *papertree.Node, ls []*line) bool {
	if b.inTables {
		return false
	}
	vs, src := mergeAcrossColumns(ls)
	ts := findTables(vs)
	if len(ts) == 0 {
		return false
	}
	b.inTables = true
	defer func() { b.inTables = false }()
	// The lines each table takes (a row merged across the column gutter
	// takes both halves); the text is the other lines in reading order,
	// cut where a table's first line was.
	owner := map[*line]int{}
	caps := make([][]*line, len(ts))
	for ti, t := range ts {
		caps[ti] = captionLines(vs, t.caption, t)
		for _, v := range append(caps[ti][:len(caps[ti]):len(caps[ti])], vs[t.from:t.last+1]...) {
			if parts, ok := src[v]; ok {
				for _, l := range parts {
					owner[l] = ti + 1
				}
			} else {
				owner[v] = ti + 1
			}
		}
	}
	var text []*line
	done := map[int]bool{}
	for _, l := range ls {
		ti := owner[l]
		if ti == 0 {
			text = append(text, l)
			continue
		}
		if done[ti] {
			continue
		}
		done[ti] = true
		if len(text) > 0 {
			b.addLeaves(sec, text)
			text = nil
		}
		for _, n := range tableLeaves(ts[ti-1], vs, caps[ti-1], min(b.opts.MaxSegmentTokens, maxTableTokens)) {
			n.Level = sec.Level + 1
			sec.Children = append(sec.Children, n)
		}
	}
	if len(text) > 0 {
		b.addLeaves(sec, text)
	}
	return true
}

// mergeAcrossColumns undoes the column split for the rows of a table that
// spans both columns of a two-column page: a left-column line and a
// right-column line on the same baseline whose cells are all short, one of
// them with two cells or more, become one line (returned in the left
// line's place, with its two halves in src). Prose lines of two columns
// hold long runs of words without em-wide gaps, so they never pair.
func mergeAcrossColumns(ls []*line) ([]*line, map[*line][]*line) {
	short := func(cs []cell) bool {
		for _, c := range cs {
			if wordCount(c.text) > 6 {
				return false
			}
		}
		return len(cs) > 0
	}
	type key struct{ page int }
	right := map[key][]*line{}
	for _, l := range ls {
		if l.col == 2 {
			right[key{l.page}] = append(right[key{l.page}], l)
		}
	}
	if len(right) == 0 {
		return ls, nil
	}
	src := map[*line][]*line{}
	used := map[*line]bool{}
	out := make([]*line, 0, len(ls))
	for _, l := range ls {
		if used[l] {
			continue
		}
		if l.col != 1 {
			out = append(out, l)
			continue
		}
		var m *line
		for _, r := range right[key{l.page}] {
			if !used[r] && math.Abs(r.y-l.y) <= 0.25*l.size && math.Abs(r.size-l.size) <= 0.6 {
				m = r
				break
			}
		}
		if m == nil {
			out = append(out, l)
			continue
		}
		lc, mc := lineCells(l, minCellGap), lineCells(m, minCellGap)
		if !short(lc) || !short(mc) || len(lc) < 2 && len(mc) < 2 {
			out = append(out, l)
			continue
		}
		runs := append(append([]pdf.Run(nil), l.runs...), m.runs...)
		v := makeLine(runs, l.page, l.pageW, l.pageH)
		if v == nil {
			out = append(out, l)
			continue
		}
		v.col, v.index = 0, l.index
		used[m] = true
		src[v] = []*line{l, m}
		out = append(out, v)
	}
	return out, src
}

func lastRune(s string) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) == 0 {
		return ""
	}
	return string(r[len(r)-1])
}
