package treebuild

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"

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

// maxStagger is the largest baseline step (in ems) between two lines of
// one row: two lines of text at one size are at least 1.1 em apart, so
// lines closer than this are the parts of one row that a table sets at
// staggered heights (a header cell of two lines beside a one-line cell,
// a two-line row label with its numbers centred between its lines).
const maxStagger = 0.7

// minDenseCells is the fewest cells (split at minColumnGap) that make a
// line with no em-wide gap a row of a dense table: most of them numbers
// ("96 0.255 0.339 0.365 0.453 ..."); a line of prose never is.
const minDenseCells = 3

var (
	tableCaptionRe  = regexp.MustCompile(`^(?i:table)\s*[\dIVX]+[a-z]?(?:\.\d+)?\s*[:.|—–]`)
	figureCaptionRe = regexp.MustCompile(`^(?i:figure|fig\.)\s*[\dIVX]+[a-z]?(?:\.\d+)?\s*[:.|—–]`)
	numericCellRe   = regexp.MustCompile(`^[\s(±+\-−–~≈<>]*[$€]?\d[\d.,]*\s*(?:%|[kKMBG]|x|×)?[)*†‡]*(?:\s*[±/(]\s*[\d.,]+\s*\)?%?)?$|^[-−–—]$`)
)

// tableTrace, when set (by TestDebugTables), hears why each candidate
// block was or was not taken as a table.
var tableTrace func(format string, args ...any)

func traceTable(format string, args ...any) {
	if tableTrace != nil {
		tableTrace(format, args...)
	}
}

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
	last     int // index into the section's lines: the table's last line
	from     int // the first line of the table
	caption  int // the line its "Table N" caption starts on; -1 = none
	rows     [][]string
	rowLines [][]*line // the lines each row of rows was read from
	header   bool      // rows[0] is a header row
}

// findTables returns the tables among a section's body lines, in order.
// With captioned, only tables with a "Table N" caption count (a table
// that floats into the bibliography, whose lines are otherwise entries).
//
// Two readings are made. The relaxed one also takes dense rows (numbers
// closer than an em apart), rows set as staggered lines (maxStagger) and
// group headers over several columns, but keeps only tables with a
// "Table N" caption: without one, a figure's labels (staggered, numeric)
// would read as a table. The strict one is the plain reading, whose
// tables without a caption must be plainly tabular (makeTable); where
// both find a table, the relaxed reading wins.
//
// side is where the document sets its table captions (captionSide), which
// decides between a caption right above and one right below a table.
func findTables(ls []*line, captioned bool, side int) []tableBlock {
	var relaxed []tableBlock
	// A caption names one table: of two relaxed blocks next to one
	// caption (a table, and a plot's labels set below it), the nearer.
	claimed := map[int]int{}
	dist := func(t tableBlock) float64 {
		if t.caption < t.from {
			return ls[t.from].y - ls[t.caption].y
		}
		return ls[t.caption].y - ls[t.last].y
	}
	for _, t := range findTablesIn(ls, scan{captioned: true, relaxed: true, side: side}) {
		if k, ok := claimed[t.caption]; ok {
			if dist(t) >= dist(relaxed[k]) {
				continue
			}
			relaxed[k] = t
			continue
		}
		claimed[t.caption] = len(relaxed)
		relaxed = append(relaxed, t)
	}
	out := relaxed
	for _, t := range findTablesIn(ls, scan{captioned: captioned, side: side}) {
		overlaps := false
		for _, r := range relaxed {
			if t.from <= r.last && r.from <= t.last {
				overlaps = true
				break
			}
		}
		if !overlaps {
			out = append(out, t)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].from < out[b].from })
	return out
}

// scan says how findTablesIn reads: only captioned tables, the relaxed
// reading, and the document's caption side.
type scan struct {
	captioned, relaxed bool
	side               int
}

func findTablesIn(ls []*line, sc scan) []tableBlock {
	relaxed := sc.relaxed
	cells := make([][]cell, len(ls))
	for i, l := range ls {
		if captionStartRe.MatchString(strings.TrimSpace(l.text)) {
			continue
		}
		cells[i] = lineCells(l, minCellGap)
		if relaxed && len(cells[i]) < 2 && l.maxGap >= minColumnGap*math.Max(l.size, 1) {
			// a dense row: numbers set closer than an em apart
			if fc := lineCells(l, minColumnGap); len(fc) >= minDenseCells && numericCells(fc)*2 >= len(fc) {
				cells[i] = fc
			}
		}
	}
	// staggered reports whether line k is part of a row with line k-1 or
	// k+1 (maxStagger); such a line may hold one cell only.
	staggered := func(k int) bool {
		return relaxed && (k > 0 && staggerStep(ls[k-1], ls[k]) || k+1 < len(ls) && staggerStep(ls[k], ls[k+1]))
	}
	var out []tableBlock
	for i := 0; i < len(ls); {
		if len(cells[i]) < 2 {
			i++
			continue
		}
		// grow the block over rows of two or more cells (and the one-cell
		// parts of staggered rows)
		j := i
		for j+1 < len(ls) && (len(cells[j+1]) >= 2 || len(cells[j+1]) == 1 && staggered(j+1)) && sameBlock(ls[j], ls[j+1]) {
			j++
		}
		lo := i
		// a short header line of one cell right above (a spanning group
		// header such as "LM Perplexity & (Accuracy)") joins the block
		if lo > 0 && len(cells[lo-1]) == 1 && sameBlock(ls[lo-1], ls[lo]) && wordCount(ls[lo-1].text) <= 6 &&
			!captionStartRe.MatchString(strings.TrimSpace(ls[lo-1].text)) && !strings.ContainsAny(lastRune(ls[lo-1].text), ".,;:!?") {
			lo--
		}
		if t, ok := makeTable(ls, cells, lo, j, sc); ok {
			out = append(out, t)
		}
		i = j + 1
	}
	return out
}

// staggerStep reports whether b follows a by less than maxStagger ems:
// two parts of one row.
func staggerStep(a, b *line) bool {
	step := b.y - a.y
	return a.page == b.page && a.col == b.col && step > 0 && step < maxStagger*math.Max(a.size, b.size)
}

func numericCells(cs []cell) int {
	n := 0
	for _, c := range cs {
		if numericCellRe.MatchString(c.text) {
			n++
		}
	}
	return n
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
func makeTable(ls []*line, cells [][]cell, lo, hi int, sc scan) (tableBlock, bool) {
	relaxed := sc.relaxed
	// Rows: lines closer than maxStagger ems are parts of one row.
	var groups [][]int
	for k := lo; k <= hi; k++ {
		if n := len(groups); relaxed && n > 0 && staggerStep(ls[groups[n-1][len(groups[n-1])-1]], ls[k]) {
			groups[n-1] = append(groups[n-1], k)
			continue
		}
		groups = append(groups, []int{k})
	}
	rowsWith := 0
	for _, g := range groups {
		n := 0
		for _, k := range g {
			n += len(cells[k])
		}
		if n >= 2 {
			rowsWith++
		}
	}
	if rowsWith < 3 {
		traceTable("p%d %q..: %d rows of cells", ls[lo].page, ls[lo].text, rowsWith)
		return tableBlock{}, false
	}
	// Column bands: the horizontal projection of the runs of the rows
	// that have the most cells (a spanning header cell would bridge two
	// columns), cut where a gap of minColumnGap ems is empty in all of them.
	lineFine := make([][]cell, hi-lo+1)
	most := 0
	for k := lo; k <= hi; k++ {
		lineFine[k-lo] = lineCells(ls[k], minColumnGap)
		most = max(most, len(lineFine[k-lo]))
	}
	fine := make([][]cell, len(groups)) // each row's cells, line by line
	for r, g := range groups {
		for _, k := range g {
			fine[r] = append(fine[r], lineFine[k-lo]...)
		}
	}
	// Header cells often span several columns ("ZSD" over four numbers):
	// when three rows or more are mostly numbers, they alone set the
	// columns.
	numRows := 0
	numRow := make([]bool, hi-lo+1)
	for k := lo; k <= hi; k++ {
		if cs := lineFine[k-lo]; relaxed && len(cs) >= 2 && numericCells(cs)*2 >= len(cs) {
			numRow[k-lo] = true
			numRows++
		}
	}
	type band struct{ x0, x1 float64 }
	var spans []band
	em := 0.0
	for k := lo; k <= hi; k++ {
		if numRows >= 3 && !numRow[k-lo] {
			continue
		}
		if float64(len(lineFine[k-lo])) >= 0.6*float64(most) {
			for _, c := range lineFine[k-lo] {
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
		traceTable("p%d %q..: %d columns", ls[lo].page, ls[lo].text, ncol)
		return tableBlock{}, false
	}
	// Assign every line's cells to bands; a row fills the bands its cells
	// overlap (a cell over several bands goes to the first). A group
	// header above the numbers ("Copy" over "char-acc" and "seq-acc": a
	// line of at most one cell per two columns) heads every column under
	// its reach, so each column's header reads in full ("Copy seq-acc").
	firstNum := hi + 1
	for k := lo; k <= hi; k++ {
		if numRows >= 3 && numRow[k-lo] {
			firstNum = k
			break
		}
	}
	colOf := func(c cell) int {
		for b, bd := range bands {
			if c.x1 > bd.x0 && c.x0 < bd.x1 {
				return b
			}
		}
		col, d := 0, math.Inf(1) // in a gutter between bands: the nearest band
		for b, bd := range bands {
			if dd := math.Min(math.Abs(c.x0-bd.x1), math.Abs(bd.x0-c.x1)); dd < d {
				d, col = dd, b
			}
		}
		return col
	}
	var grid [][]string
	var gridLines [][]*line
	filledRows, cellsAll, numeric, longCells := 0, 0, 0, 0
	figureInside := false
	for _, g := range groups {
		row := make([]string, ncol)
		var gl []*line
		filled := 0
		put := func(col int, text string) {
			if row[col] == "" {
				filled++
				row[col] = text
			} else {
				row[col] += " " + text
			}
		}
		for _, k := range g {
			gl = append(gl, ls[k])
			cs := lineFine[k-lo]
			if len(cs) == 0 {
				cs = []cell{{text: strings.TrimSpace(ls[k].text), x0: ls[k].x0, x1: ls[k].x1}}
			}
			// a group header line: its labels as set (split at em-wide gaps)
			gcs := lineCells(ls[k], minCellGap)
			group := relaxed && k < firstNum && len(gcs) >= 2 && len(gcs) == len(cs) && 2*len(gcs) <= ncol
			if group {
				for i, c := range gcs {
					under := reach(gcs, i, func(b int) float64 { return (bands[b].x0 + bands[b].x1) / 2 }, len(bands))
					if len(under) == 0 {
						under = []int{colOf(c)}
					}
					for _, b := range under {
						put(b, c.text)
					}
				}
			}
			for _, c := range cs {
				cellsAll++
				if numericCellRe.MatchString(c.text) {
					numeric++
				}
				if wordCount(c.text) > 8 {
					longCells++
				}
				if figureCaptionRe.MatchString(c.text) {
					figureInside = true // a figure set beside it: its labels are in the rows
				}
				if !group {
					put(colOf(c), c.text)
				}
			}
		}
		gridLines = append(gridLines, gl)
		if filled*3 >= ncol*2 {
			filledRows++
		}
		grid = append(grid, row)
	}
	rows := len(groups)
	// The columns must be confirmed by most rows, and the cells must be
	// short: prose that happens to have a wide gap never is.
	if filledRows*4 < rows*3 || longCells*10 > cellsAll {
		traceTable("p%d %q..: %d of %d rows filled, %d of %d cells long", ls[lo].page, ls[lo].text, filledRows, rows, longCells, cellsAll)
		return tableBlock{}, false
	}
	numShare := float64(numeric) / float64(max(cellsAll, 1))
	capt, ci := nearCaption(ls, lo, hi, sc.side)
	switch {
	case capt == "figure" || figureInside:
		traceTable("p%d %q..: next to a figure caption", ls[lo].page, ls[lo].text)
		return tableBlock{}, false
	case capt == "table":
		if ncol == 2 && numShare < 0.25 {
			traceTable("p%d %q..: two columns, %.2f numbers", ls[lo].page, ls[lo].text, numShare)
			return tableBlock{}, false
		}
	case sc.captioned || relaxed:
		traceTable("p%d %q..: no caption", ls[lo].page, ls[lo].text)
		return tableBlock{}, false
	default:
		if rows < 4 || ncol < 3 || numShare < 0.4 {
			traceTable("p%d %q..: no caption; %d rows, %d columns, %.2f numbers", ls[lo].page, ls[lo].text, rows, ncol, numShare)
			return tableBlock{}, false
		}
	}
	traceTable("p%d %q..: table of %d rows, %d columns (caption %q)", ls[lo].page, ls[lo].text, rows, ncol, capt)
	// Header rows: the leading rows of words (at most three: "Dev Set" over
	// "MNLI-m" over "(Acc)"), joined per column into one header row.
	nh := 0
	for nh < min(3, len(grid)-2) && rowNumericShare(grid[nh]) < 0.5 {
		nh++
	}
	if nh > 1 {
		head := make([]string, ncol)
		var hl []*line
		for i, r := range grid[:nh] {
			for c, v := range r {
				if v != "" {
					head[c] = strings.TrimSpace(head[c] + " " + v)
				}
			}
			hl = append(hl, gridLines[i]...)
		}
		grid = append([][]string{head}, grid[nh:]...)
		gridLines = append([][]*line{hl}, gridLines[nh:]...)
	}
	t := tableBlock{last: hi, rows: grid, rowLines: gridLines, header: nh > 0, from: lo, caption: -1}
	if capt == "table" {
		t.caption = ci
	}
	return t, true
}

// captionSide says where a document sets its table captions: -1 above
// the table, +1 below it, 0 unknown. Each "Table N" caption votes for the
// side where the line next to it (past the caption's own lines, on the
// same page and column) is a row of cells; the majority wins.
func captionSide(ls []*line) int {
	row := func(l *line) bool { return len(lineCells(l, minCellGap)) >= 2 }
	above, below := 0, 0
	for i, l := range ls {
		if !tableCaptionRe.MatchString(strings.TrimSpace(l.text)) {
			continue
		}
		before := i > 0 && ls[i-1].page == l.page && ls[i-1].col == l.col && ls[i-1].y < l.y && row(ls[i-1])
		caps := captionLines(ls, i, tableBlock{from: -1, last: -1})
		j := i + len(caps)
		after := j < len(ls) && ls[j].page == l.page && ls[j].col == l.col && ls[j].y > l.y && row(ls[j])
		switch {
		case before && !after:
			below++
		case after && !before:
			above++
		}
	}
	switch {
	case above > below:
		return -1
	case below > above:
		return 1
	}
	return 0
}

// reach returns the columns (of n, centred at center(b)) under cell i of
// a group header line cs: from halfway to its left neighbour to halfway
// to its right one (the outer cells reach as far out as they reach in).
func reach(cs []cell, i int, center func(int) float64, n int) []int {
	c := cs[i]
	left, right := math.NaN(), math.NaN()
	if i > 0 {
		left = (cs[i-1].x1 + c.x0) / 2
	}
	if i+1 < len(cs) {
		right = (c.x1 + cs[i+1].x0) / 2
	}
	if math.IsNaN(left) {
		left = c.x0 - (right - c.x1)
	}
	if math.IsNaN(right) {
		right = c.x1 + (c.x0 - left)
	}
	var out []int
	for b := 0; b < n; b++ {
		if x := center(b); x >= left && x <= right {
			out = append(out, b)
		}
	}
	return out
}

// nearCaption says whether a "Table N" or "Figure N" caption starts within
// a few lines above or below lines lo..hi on the same page ("" if none).
func nearCaption(ls []*line, lo, hi, side int) (string, int) {
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
	below, bk := "", -1
	for k := hi + 1; k < len(ls) && k <= hi+3; k++ {
		if !near(ls[hi], ls[k]) {
			break
		}
		if c := kind(ls[k]); c != "" {
			below, bk = c, k
			break
		}
	}
	// above: the caption may run over several lines
	above, ak := "", -1
	for k := lo - 1; k >= 0 && k >= lo-14; k-- {
		if ls[k].page != ls[lo].page || ls[lo].y-ls[k].y > 20*ls[lo].size || ls[k].y > ls[lo].y {
			break
		}
		if c := kind(ls[k]); c != "" {
			above, ak = c, k
			break
		}
	}
	switch {
	case above == "":
		return below, bk
	case below == "":
		return above, ak
	}
	// A caption on both sides (two tables one above the other): the side
	// where the document sets its captions, else the nearer one (from the
	// caption's last line above or first line below).
	switch {
	case side < 0:
		return above, ak
	case side > 0:
		return below, bk
	}
	last := ls[ak]
	for _, l := range captionLines(ls, ak, tableBlock{from: lo, last: hi}) {
		last = l
	}
	if ls[lo].y-last.y <= ls[bk].y-ls[hi].y {
		return above, ak
	}
	return below, bk
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
func tableLeaves(t tableBlock, capLines []*line, maxTokens int, vocab map[string]int) []*papertree.Node {
	var header []string
	body := t.rows
	caption := ""
	if len(capLines) > 0 {
		var texts []string
		for _, l := range capLines {
			texts = append(texts, l.text)
		}
		caption = joinLines(texts)
	}
	if t.header {
		header, body = expandAbbrevs(t.rows[0], caption, vocab), t.rows[1:]
	}
	if caption != "" {
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
			lines, off = t.rowLines[0], 1
		}
		for _, rl := range t.rowLines[off+start : off+end] {
			lines = append(lines, rl...)
		}
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
func (b *builder) splitTables(sec *papertree.Node, ls []*line, refs bool) bool {
	if b.inTables {
		return false
	}
	vs, src := mergeAcrossColumns(ls)
	vs, wrap := splitWrapped(vs)
	if b.capSide == nil {
		side := captionSide(b.lines)
		b.capSide = &side
	}
	ts := findTables(vs, refs, *b.capSide)
	if len(ts) == 0 {
		return false
	}
	b.inTables = true
	defer func() { b.inTables = false }()
	// The lines each table takes (a row merged across the column gutter
	// takes both halves); the text is the other lines in reading order,
	// cut where a table's first line was.
	owner := map[*line]int{}
	wrapOwner := map[*line]int{} // a line whose right piece (splitWrapped) a table took
	caps := make([][]*line, len(ts))
	for ti, t := range ts {
		caps[ti] = captionLines(vs, t.caption, t)
		for _, v := range append(caps[ti][:len(caps[ti]):len(caps[ti])], vs[t.from:t.last+1]...) {
			if parts, ok := src[v]; ok {
				for _, l := range parts {
					owner[l] = ti + 1
				}
			} else if orig, ok := wrap.rightOf[v]; ok {
				wrapOwner[orig] = ti + 1
			} else if orig, ok := wrap.leftOf[v]; ok {
				owner[orig] = ti + 1
			} else {
				owner[v] = ti + 1
			}
		}
	}
	var text []*line
	done := map[int]bool{}
	var pending []int // tables set beside the text, placed after it
	emit := func(ti int) {
		if done[ti] {
			return
		}
		done[ti] = true
		if len(text) > 0 {
			b.addLeaves(sec, text)
			text = nil
		}
		for _, n := range tableLeaves(ts[ti-1], caps[ti-1], min(b.opts.MaxSegmentTokens, maxTableTokens), b.vocabulary()) {
			n.Level = sec.Level + 1
			sec.Children = append(sec.Children, n)
		}
	}
	for _, l := range ls {
		if !wrap.zone[l] {
			for _, ti := range pending {
				emit(ti)
			}
			pending = nil
		}
		if ti := wrapOwner[l]; ti != 0 {
			// the text beside a table stays text; the table follows it
			if left := wrap.left[l]; left != nil {
				text = append(text, left)
			}
			pending = append(pending, ti)
			continue
		}
		ti := owner[l]
		if ti == 0 {
			text = append(text, l)
			continue
		}
		emit(ti)
	}
	for _, ti := range pending {
		emit(ti)
	}
	if len(text) > 0 {
		b.addLeaves(sec, text)
	}
	return true
}

// wrapped is splitWrapped's record of the lines it cut.
type wrapped struct {
	zone            map[*line]bool  // original lines of a zone of text beside a table
	left            map[*line]*line // original line -> its piece left of the gutter (nil: none)
	rightOf, leftOf map[*line]*line // a piece -> its original line
}

// minWrapGap is the narrowest gap (in ems) between text and a table set
// beside it (text wrapped around the table).
const minWrapGap = 1.5

// splitWrapped finds tables set beside the text of the same column (the
// text wraps around them, so each line holds a line of prose, a wide gap
// and a row of cells) and reads such a zone as two columns: the prose
// pieces first, then the pieces right of the gutter, where findTables sees
// the rows one after another. A zone starts at a line whose left part is
// prose (five words or more) and whose right part, past a gap of
// minWrapGap ems, is two short cells or more; it spans the neighbouring
// lines that keep clear of one common gutter (an em wide at least) and
// counts only when three of its right pieces are rows of cells and two of
// its lines are prose. Prose lines never have such a gap.
func splitWrapped(ls []*line) ([]*line, wrapped) {
	w := wrapped{zone: map[*line]bool{}, left: map[*line]*line{}, rightOf: map[*line]*line{}, leftOf: map[*line]*line{}}
	// seed: the gap of line l between prose and a row of cells
	seed := func(l *line) (g0, g1 float64, ok bool) {
		for i := 1; i < len(l.runs); i++ {
			prev, r := l.runs[i-1], l.runs[i]
			gap := r.X - (prev.X + runWidth(prev))
			if gap < minWrapGap*math.Max(l.size, 1) {
				continue
			}
			left := makeLine(l.runs[:i], l.page, l.pageW, l.pageH)
			right := makeLine(l.runs[i:], l.page, l.pageW, l.pageH)
			if left == nil || right == nil || wordCount(left.text) < 5 {
				return 0, 0, false
			}
			cs := lineCells(right, minCellGap)
			if len(cs) < 2 {
				return 0, 0, false
			}
			for _, c := range cs {
				if wordCount(c.text) > 6 {
					return 0, 0, false
				}
			}
			return prev.X + runWidth(prev), r.X, true
		}
		return 0, 0, false
	}
	// fits reports how l sits against the gutter g0..g1: the x its left
	// content ends at and its right content starts at (NaN: none), or
	// false when a run crosses the gutter.
	fits := func(l *line, g0, g1 float64) (float64, float64, bool) {
		lx, rx := math.NaN(), math.NaN()
		for _, r := range l.runs {
			x1 := r.X + runWidth(r)
			switch {
			case x1 <= g1 && r.X < g0+1:
				lx = math.Max(nanTo(lx, x1), x1)
			case r.X >= g0:
				rx = math.Min(nanTo(rx, r.X), r.X)
			default:
				return 0, 0, false
			}
		}
		return lx, rx, true
	}
	out := make([]*line, 0, len(ls))
	for i := 0; i < len(ls); {
		g0, g1, ok := seed(ls[i])
		if !ok {
			out = append(out, ls[i])
			i++
			continue
		}
		em := math.Max(ls[i].size, 1)
		near := func(a, b *line) bool {
			return a.page == b.page && a.col == b.col && math.Abs(b.y-a.y) <= maxTableStep*math.Max(a.size, b.size)
		}
		grow := func(k int) bool {
			lx, rx, ok := fits(ls[k], g0, g1)
			if !ok {
				return false
			}
			ng0, ng1 := g0, g1
			if !math.IsNaN(lx) {
				ng0 = math.Max(g0, lx)
			}
			if !math.IsNaN(rx) {
				ng1 = math.Min(g1, rx)
			}
			if ng1-ng0 < 0.8*em {
				return false
			}
			g0, g1 = ng0, ng1
			return true
		}
		lo, hi := i, i
		for hi+1 < len(ls) && near(ls[hi], ls[hi+1]) && grow(hi+1) {
			hi++
		}
		for lo > 0 && len(out) > 0 && out[len(out)-1] == ls[lo-1] && near(ls[lo-1], ls[lo]) && grow(lo-1) {
			lo--
		}
		var lefts, rights []*line
		var origL, origR []*line
		rows, prose, flush, alone := 0, 0, 0, 0
		for k := lo; k <= hi; k++ {
			l := ls[k]
			var lr, rr []pdf.Run
			for _, r := range l.runs {
				if r.X >= g0 {
					rr = append(rr, r)
				} else {
					lr = append(lr, r)
				}
			}
			if a := makeLine(lr, l.page, l.pageW, l.pageH); a != nil {
				a.col, a.index = l.col, l.index
				lefts, origL = append(lefts, a), append(origL, l)
				if wordCount(a.text) >= 5 {
					prose++
					if a.x1 >= g0-minWrapGap*em {
						flush++ // justified up to the gutter, as wrapped text is
						if len(rr) == 0 {
							alone++ // a line of that text with nothing beside it
						}
					}
				}
			}
			if z := makeLine(rr, l.page, l.pageW, l.pageH); z != nil {
				z.col, z.index = l.col, l.index
				rights, origR = append(rights, z), append(origR, l)
				if len(lineCells(z, minCellGap)) >= 2 {
					rows++
				}
			}
		}
		traceTable("p%d wrap zone %q..%q gutter %.1f-%.1f: %d rows, %d prose", ls[lo].page, ls[lo].text, ls[hi].text, g0, g1, rows, prose)
		// wrapped text runs up to the gutter; a table's long row labels
		// (words, a wide gap, numbers) end anywhere
		// (and some of its lines have nothing beside them; every row of a
		// table has its cells)
		if rows < 3 || prose < 2 || flush*3 < prose*2 || alone < 2 {
			out = append(out, ls[i])
			i++
			continue
		}
		out = out[:len(out)-(i-lo)] // the lines above the seed join the zone
		for k, a := range lefts {
			w.left[origL[k]] = a
			w.leftOf[a] = origL[k]
		}
		for k, z := range rights {
			w.rightOf[z] = origR[k]
		}
		for k := lo; k <= hi; k++ {
			w.zone[ls[k]] = true
		}
		out = append(append(out, lefts...), rights...)
		i = hi + 1
	}
	return out, w
}

func nanTo(v, d float64) float64 {
	if math.IsNaN(v) {
		return d
	}
	return v
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

// abbrevRe is a header word cut short with a period ("Tot.", "Dim.").
var abbrevRe = regexp.MustCompile(`^([A-Za-z]{2,5})\.$`)

// expandAbbrevs spells out the abbreviated words of a header ("Tot." reads
// "Tot. (total)") by the word of the paper's own text that they cut short,
// so that a question asking for the "total" finds the column: among the
// paper's words that start with the abbreviation, the family (words that
// share three more letters) used most often, preferring families the
// caption uses; none when no family is used twice or twice as often as
// the next. Cells keep what is printed; only the reading is added.
func expandAbbrevs(header []string, caption string, vocab map[string]int) []string {
	if len(vocab) == 0 {
		return header
	}
	capWords := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(caption), func(r rune) bool { return !unicode.IsLetter(r) }) {
		capWords[w] = true
	}
	out := make([]string, len(header))
	for i, h := range header {
		ws := strings.Fields(h)
		for j, w := range ws {
			m := abbrevRe.FindStringSubmatch(w)
			if m == nil {
				continue
			}
			if full := expansion(strings.ToLower(m[1]), vocab, capWords); full != "" {
				ws[j] = w + " (" + full + ")"
			}
		}
		out[i] = strings.Join(ws, " ")
	}
	return out
}

func expansion(a string, vocab map[string]int, capWords map[string]bool) string {
	type family struct {
		n, best int
		word    string
		inCap   bool
	}
	fams := map[string]*family{}
	for w, n := range vocab {
		if len(w) < len(a)+2 || !strings.HasPrefix(w, a) {
			continue
		}
		k := w[:min(len(w), len(a)+3)]
		f := fams[k]
		if f == nil {
			f = &family{}
			fams[k] = f
		}
		f.n += n
		if n > f.best || n == f.best && w < f.word {
			f.best, f.word = n, w
		}
		f.inCap = f.inCap || capWords[w]
	}
	var top, next *family
	anyCap := false
	for _, f := range fams {
		anyCap = anyCap || f.inCap
	}
	for _, f := range fams {
		if anyCap && !f.inCap {
			continue
		}
		switch {
		case top == nil || f.n > top.n || f.n == top.n && f.word < top.word:
			top, next = f, top
		case next == nil || f.n > next.n:
			next = f
		}
	}
	if top == nil || top.n < 2 || next != nil && top.n < 2*next.n {
		return ""
	}
	return top.word
}

// vocabulary counts the words of the paper's text (lower case, letters
// only, four letters or more), once.
func (b *builder) vocabulary() map[string]int {
	if b.vocab == nil {
		b.vocab = map[string]int{}
		for _, l := range b.lines {
			for _, w := range strings.FieldsFunc(strings.ToLower(l.text), func(r rune) bool { return !unicode.IsLetter(r) }) {
				if len(w) >= 4 {
					b.vocab[w]++
				}
			}
		}
	}
	return b.vocab
}
