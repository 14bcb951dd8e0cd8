package treebuild

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/pdf"
)

// line is one visual text line of one column of one page, in reading order.
type line struct {
	page    int // 1-based
	runs    []pdf.Run
	text    string  // cleaned text (ligatures, whitespace); hyphens kept
	x0, x1  float64 // horizontal extent
	y       float64 // baseline (top-left origin)
	size    float64 // dominant font size (by characters)
	font    string  // dominant font
	bold    float64 // share of letters in bold runs
	italic  float64 // share of letters in italic runs
	col     int     // 0 full width / single column, 1 left, 2 right
	maxGap  float64 // widest gap between two runs, in points (tables have large ones)
	capSize float64 // largest size of a run with letters (the initials of small caps)
	index   int     // position in the document's reading order
	pageW   float64
	pageH   float64
}

func (l *line) top() float64    { return l.y - l.size*0.8 }
func (l *line) bottom() float64 { return l.y + l.size*0.25 }

// sane reports whether a run has usable geometry; anything else (NaN, inf,
// zero size, off-page garbage) is dropped before layout so that no later
// computation can be poisoned by it.
func sane(r pdf.Run, w, h float64) bool {
	for _, v := range []float64{r.X, r.Y, r.W, r.Size} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	if r.Size <= 0.5 || r.Size > 200 || r.W < 0 {
		return false
	}
	if r.Rotated || strings.TrimSpace(r.Text) == "" {
		return false
	}
	slack := 50.0
	return r.X > -slack && r.X < w+slack && r.Y > -slack && r.Y < h+slack
}

// pageDims returns usable page dimensions, falling back to the runs' extent
// (and to US letter) when the page reports none.
func pageDims(p pdf.Page) (float64, float64) {
	w, h := p.Width, p.Height
	if !(w > 10 && w < 10000) || math.IsNaN(w) {
		w = 612
	}
	if !(h > 10 && h < 10000) || math.IsNaN(h) {
		h = 792
	}
	return w, h
}

// runWidth estimates a run's width when the PDF gave none.
func runWidth(r pdf.Run) float64 {
	if r.W > 0 {
		return r.W
	}
	return float64(len([]rune(r.Text))) * r.Size * 0.5
}

// dropMarginNoise removes runs that are not part of the text flow: line
// numbers of review copies (columns of digit-only runs at one x near the page
// edges) and vertical stamps (arXiv identifiers set rotated in the margin,
// which arrive as stacks of one- or two-character runs at one x). A short
// run followed on its baseline by the next word of a line (within an em and
// a half of its end) is that line's first word, not a stamp: a column's
// left edge sits at one x near the page edge too, and pages with many
// lines opening with "a", "in", "of", "We" or an author's initial ("A.
// Krizhevsky") lost those words (528 on the 148 development PDFs).
func dropMarginNoise(runs []pdf.Run, w float64) []pdf.Run {
	digitsAt := map[int]int{}
	tinyAt := map[int]int{}
	for _, r := range runs {
		t := strings.TrimSpace(r.Text)
		x := int(math.Round(r.X / 3))
		if isDigits(t) && len(t) <= 4 {
			digitsAt[x]++
		}
		if len([]rune(t)) <= 2 {
			tinyAt[x]++
		}
	}
	out := runs[:0:0]
	for _, r := range runs {
		t := strings.TrimSpace(r.Text)
		x := int(math.Round(r.X / 3))
		edge := r.X < 0.14*w || r.X > 0.86*w
		if edge && isDigits(t) && len(t) <= 4 && digitsAt[x] >= 12 {
			continue
		}
		if edge && len([]rune(t)) <= 2 && tinyAt[x] >= 15 && !followedOnLine(r, runs) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// followedOnLine reports whether another run of runs starts on r's baseline
// right after r ends (within 1.5 em): the next word of r's line.
func followedOnLine(r pdf.Run, runs []pdf.Run) bool {
	end := r.X + runWidth(r)
	for _, o := range runs {
		if o.X > r.X && math.Abs(o.Y-r.Y) < 0.2*r.Size && o.X-end < 1.5*r.Size {
			return true
		}
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// findGutters looks for the vertical white strips between text columns and
// returns their x positions, left to right: none for a single-column page,
// one for two columns, two for a three-column grid (magazine and journal
// report pages such as Science or Nature letters). A strip must be crossed
// by few runs and have a substantial amount of text on each side; two strips
// make a three-column grid only when they cut the text area into three
// columns of about equal width, each holding a fair share of the text.
func findGutters(runs []pdf.Run, w float64) []float64 {
	if len(runs) < 20 {
		return nil
	}
	const step = gutterStep
	cover, minX, maxX := runCover(runs, w)
	n, total := len(cover), len(runs)
	// White strips: maximal stretches crossed by few runs, fewer than
	// 40% of the median crossing count over the text width (a narrow
	// gutter under a full-width caption or beside a figure is crossed by a
	// few runs, a column of text by many), and never more than the
	// two-column rule allows.
	limit := max(3, total/40)
	var crossing []float64
	for i := max(0, int(minX/step)); i < n && float64(i)*step <= maxX; i++ {
		crossing = append(crossing, float64(cover[i]))
	}
	if len(crossing) > 0 {
		limit = min(limit, max(3, int(0.4*median(crossing))))
	}
	type strip struct{ lo, hi int }
	var strips []strip
	for i := int(0.2 * w / step); i <= int(0.8*w/step) && i < n; {
		if cover[i] > limit {
			i++
			continue
		}
		j := i
		for j < n && j <= int(0.85*w/step) && cover[j] <= limit {
			j++
		}
		strips = append(strips, strip{i, j})
		i = j + 1
	}
	mid := func(s strip) float64 { return float64(s.lo+s.hi) / 2 * step }
	wide := func(s strip) bool { return float64(s.hi-s.lo)*step >= 6 }
	// text (characters) left of, between and right of the cuts
	shares := func(cuts ...float64) []float64 {
		out := make([]float64, len(cuts)+1)
		all := 0.0
		for _, r := range runs {
			c := float64(len(r.Text))
			all += c
			for k := 0; k <= len(cuts); k++ {
				lo, hi := math.Inf(-1), math.Inf(1)
				if k > 0 {
					lo = cuts[k-1]
				}
				if k < len(cuts) {
					hi = cuts[k]
				}
				if r.X >= lo-2 && r.X+runWidth(r) <= hi+2 {
					out[k] += c
					break
				}
			}
		}
		if all > 0 {
			for k := range out {
				out[k] /= all
			}
		}
		return out
	}
	// Three columns: two strips that cut [minX, maxX] into thirds of about
	// equal width (within 20% of a third of the text width), each third
	// holding at least 15% of the text.
	third := (maxX - minX) / 3
	if third > 0 {
		for a := 0; a < len(strips); a++ {
			if !wide(strips[a]) {
				continue
			}
			for b := a + 1; b < len(strips); b++ {
				if !wide(strips[b]) {
					continue
				}
				g1, g2 := mid(strips[a]), mid(strips[b])
				if math.Abs(g1-minX-third) > 0.2*third || math.Abs(g2-g1-third) > 0.2*third || math.Abs(maxX-g2-third) > 0.2*third {
					continue
				}
				sh := shares(g1, g2)
				if sh[0] >= 0.15 && sh[1] >= 0.15 && sh[2] >= 0.15 {
					return []float64{g1, g2}
				}
			}
		}
	}
	if g := findGutter(runs, cover, w); g > 0 {
		return []float64{g}
	}
	return nil
}

// gutterStep is the width, in points, of the strips gutters are found in.
const gutterStep = 1.0

// runCover counts, for each gutterStep-wide strip of a page w points wide,
// the runs that cross it, and returns the x extent of the runs.
func runCover(runs []pdf.Run, w float64) (cover []int, minX, maxX float64) {
	n := int(w/gutterStep) + 1
	cover = make([]int, n)
	minX, maxX = math.Inf(1), math.Inf(-1)
	for _, r := range runs {
		a := int(r.X / gutterStep)
		b := int((r.X + runWidth(r)) / gutterStep)
		if a < 0 {
			a = 0
		}
		if b >= n {
			b = n - 1
		}
		for i := a; i <= b; i++ {
			cover[i]++
		}
		minX, maxX = math.Min(minX, r.X), math.Max(maxX, r.X+runWidth(r))
	}
	return cover, minX, maxX
}

// findGutter looks for the vertical white strip between two text columns,
// given the runs' cover of the page (runCover). It returns the gutter's x,
// or 0 when the page is single-column. The strip must lie in the middle
// half of the page, be crossed by few runs, and have a substantial amount
// of text on both sides.
func findGutter(runs []pdf.Run, cover []int, w float64) float64 {
	const step = gutterStep
	n, total := len(cover), len(runs)
	var left, right int
	lo, hi := int(0.3*w/step), int(0.7*w/step)
	limit := max(3, total/40)
	bestLen, bestMid := 0, 0
	for i := lo; i <= hi && i < n; {
		if cover[i] > limit {
			i++
			continue
		}
		j := i
		for j < n && j <= int(0.75*w/step) && cover[j] <= limit {
			j++
		}
		if j-i > bestLen {
			bestLen, bestMid = j-i, (i+j)/2
		}
		i = j + 1
	}
	if float64(bestLen)*step < 6 {
		return 0
	}
	g := float64(bestMid) * step
	for _, r := range runs {
		if r.X+runWidth(r) <= g {
			left += len(r.Text)
		} else if r.X >= g {
			right += len(r.Text)
		}
	}
	all := left + right
	if all == 0 || float64(left) < 0.25*float64(all) || float64(right) < 0.25*float64(all) {
		return 0
	}
	return g
}

// pageRuns returns the page's usable runs (sane geometry, no margin noise).
func pageRuns(p pdf.Page) []pdf.Run {
	w, h := pageDims(p)
	runs := make([]pdf.Run, 0, len(p.Runs))
	for _, r := range p.Runs {
		if sane(r, w, h) {
			if !r.Bold || !r.Italic {
				b, it := suffixStyle(r.Font)
				r.Bold = r.Bold || b
				r.Italic = r.Italic || it
			}
			runs = append(runs, r)
		}
	}
	return dropMarginNoise(dropDrawnTwice(runs), w)
}

// dropDrawnTwice removes a run that repeats an earlier run of the page: the
// same text at the same size drawn again so that the copies overlap by more
// than half their width and lie within a fraction of an em (fake bold by
// overprinting, or a revised PDF that laid its new text layer over the old
// one: "5.6.5.6.AblationAblation"). Overlapping copies of one word are never
// two words on the printed page; adjacent equal glyphs ("11") do not overlap.
func dropDrawnTwice(runs []pdf.Run) []pdf.Run {
	type pos struct{ x, y, size float64 }
	seen := make(map[string][]pos, len(runs))
	out := runs[:0]
	for _, r := range runs {
		t := strings.TrimSpace(r.Text)
		if t == "" {
			out = append(out, r)
			continue
		}
		dup := false
		for _, p := range seen[t] {
			if math.Abs(p.size-r.Size) < 0.1 && math.Abs(p.x-r.X) < math.Min(0.6*r.Size, 0.5*r.W) && math.Abs(p.y-r.Y) < 0.4*r.Size {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		seen[t] = append(seen[t], pos{r.X, r.Y, r.Size})
		out = append(out, r)
	}
	return out
}

// suffixStyle reads weight and slant from a one- or two-letter style
// suffix of a font name, a naming scheme the PDF layer's full-word rules do
// not cover: "AdvGulliv-B" (bold), "AdvGulliv-I" (italic), "Foo-BI",
// "Foo-Bd", "Foo.B". Only the part after the last '-', ',' or '.' counts,
// and only when it is one of these exact codes.
func suffixStyle(font string) (bold, italic bool) {
	i := strings.LastIndexAny(font, "-,.")
	if i < 0 || i == len(font)-1 {
		return false, false
	}
	switch strings.ToLower(font[i+1:]) {
	case "b", "bd", "sb", "bol", "db":
		return true, false
	case "bi", "bdit", "bdi", "sbi", "bit", "ib":
		return true, true
	case "i", "it", "ri", "obl":
		return false, true
	}
	return false, false
}

// gutterFits reports whether the document's usual gutters gs also split
// this page: almost no run crosses any of them and there is text on each
// side. Sparse pages (a last page with a heading in each column) cannot show
// a gutter by themselves.
func gutterFits(runs []pdf.Run, gs []float64) bool {
	if len(gs) == 0 || len(runs) == 0 {
		return false
	}
	for _, g := range gs {
		if g <= 0 {
			return false
		}
		cross, left, right := 0, 0, 0
		for _, r := range runs {
			switch {
			case r.X+runWidth(r) <= g+2:
				left++
			case r.X >= g-2:
				right++
			default:
				cross++
			}
		}
		if left == 0 || right == 0 || cross*10 > len(runs) {
			return false
		}
	}
	return true
}

// sameGutters reports whether two gutter sets describe one column grid:
// as many gutters, each within 10pt.
func sameGutters(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if math.Abs(a[k]-b[k]) > 10 {
			return false
		}
	}
	return true
}

// columnOf returns the 1-based column of the span [x0, x1] between the
// gutters gs (left to right), or 0 when there are no gutters or the span
// crosses all of them (a full-width line). A span over some columns but not
// all (a caption under a figure two columns of three wide) reads with its
// first column, so that it does not cut the columns beside it.
func columnOf(x0, x1 float64, gs []float64) int {
	if len(gs) == 0 {
		return 0
	}
	first, last := 1, len(gs)+1
	for k, g := range gs {
		if x0 >= g-2 {
			first = k + 2
		}
	}
	for k := len(gs) - 1; k >= 0; k-- {
		if x1 <= gs[k]+2 {
			last = k + 1
		}
	}
	if last < first {
		last = first
	}
	if first == 1 && last == len(gs)+1 {
		return 0
	}
	return first
}

// pageLines turns one page's runs into lines in reading order; gs are the
// page's column gutters, left to right (none for a single column).
func pageLines(p pdf.Page, pageNo int, runs []pdf.Run, gs []float64) []*line {
	w, h := pageDims(p)
	if len(runs) == 0 {
		return nil
	}

	// Cluster runs by baseline, per side of the gutter.
	sort.SliceStable(runs, func(i, j int) bool {
		if runs[i].Y != runs[j].Y {
			return runs[i].Y < runs[j].Y
		}
		return runs[i].X < runs[j].X
	})
	// Each cluster keeps, besides its main baseline (that of its largest
	// text), the main baseline of its runs in each column. A run measures
	// itself against its own column's baseline, with room for scripts; a
	// cluster with no text yet in the run's column takes it only on the
	// same baseline (a full-width line), so that a superscript or a title
	// in one column is never pulled onto a neighbouring column's line.
	type cluster struct {
		runs []pdf.Run
		y    float64
		size float64
		colY []float64 // per column (index 0 = crossing a gutter)
		colS []float64
	}
	ncol := len(gs) + 2
	sideOf := func(r pdf.Run) int {
		if len(gs) == 0 {
			return 0
		}
		return columnOf(r.X, r.X+runWidth(r), gs)
	}
	var open []*cluster
	var done []*cluster
	for _, r := range runs {
		var best *cluster
		bestD := math.Inf(1)
		sd := sideOf(r)
		for _, c := range open {
			var d float64
			ok := false
			switch {
			case len(gs) == 0:
				// one column: the first cluster in reach, as always
				d = 0
				ok = best == nil && math.Abs(c.y-r.Y) <= 0.45*math.Max(c.size, r.Size)
			case sd == 0 || c.colS[sd] > 0:
				y, sz := c.y, c.size
				if sd != 0 {
					y, sz = c.colY[sd], c.colS[sd]
				}
				d = math.Abs(y - r.Y)
				ok = d <= 0.45*math.Max(sz, r.Size)
			default:
				d = math.Abs(c.y - r.Y)
				ok = d <= 0.2*math.Min(c.size, r.Size)
			}
			// with columns, the nearest baseline in reach wins (a
			// superscript's cluster must not take the rest of its line)
			if ok && d < bestD && !overlapsRun(c.runs, r) {
				best, bestD = c, d
			}
		}
		if best == nil {
			// close clusters that are now far above
			keep := open[:0]
			for _, c := range open {
				if r.Y-c.y > 2*math.Max(c.size, r.Size) {
					done = append(done, c)
				} else {
					keep = append(keep, c)
				}
			}
			open = keep
			best = &cluster{y: r.Y, size: r.Size, colY: make([]float64, ncol), colS: make([]float64, ncol)}
			open = append(open, best)
		}
		best.runs = append(best.runs, r)
		long := len(strings.TrimSpace(r.Text)) > 1
		if r.Size > best.size && long {
			// the main baseline is the one of the largest text, not of a superscript
			best.y, best.size = r.Y, r.Size
		}
		if best.colS[sd] == 0 || (r.Size > best.colS[sd] && long) {
			best.colY[sd], best.colS[sd] = r.Y, r.Size
		}
	}
	done = append(done, open...)
	done = mergeScripts(done, func(c *cluster) (float64, float64, []pdf.Run) { return c.y, c.size, c.runs },
		func(dst, src *cluster) { dst.runs = append(dst.runs, src.runs...) })

	var out []*line
	for _, c := range done {
		sort.SliceStable(c.runs, func(i, j int) bool { return c.runs[i].X < c.runs[j].X })
		// Split a baseline cluster at each gutter that nothing crosses and
		// where the text leaves a real column break.
		parts := splitAtGutters(c.runs, gs, c.size)
		for _, rs := range parts {
			ln := makeLine(rs, pageNo, w, h)
			if ln == nil {
				continue
			}
			ln.col = columnOf(ln.x0, ln.x1, gs)
			out = append(out, ln)
		}
	}
	return readingOrder(out)
}

// dominantSize is the font size (rounded to 0.5pt) that carries the most
// characters among the runs lying between x = lo and x = hi; 0 if none.
func dominantSize(rs []pdf.Run, lo, hi float64) float64 {
	chars := map[float64]int{}
	best, size := 0, 0.0
	for _, r := range rs {
		if r.X < lo-2 || r.X+runWidth(r) > hi+2 {
			continue
		}
		s := math.Round(r.Size*2) / 2
		chars[s] += len(r.Text)
		if chars[s] > best || (chars[s] == best && s > size) {
			best, size = chars[s], s
		}
	}
	return size
}

// overlapsRun reports whether r covers much of the same x range as a word
// of the cluster rs set on another baseline: two words at one x on two
// baselines are on two lines, however close (the lines of a column beside
// a title set in large type, whose wide tolerance would otherwise merge
// them word by word). Runs on one baseline may overlap (text drawn twice
// for a bold effect); single characters (accents, stacked scripts) never
// count, and very long clusters are not searched.
func overlapsRun(rs []pdf.Run, r pdf.Run) bool {
	if len(rs) > 400 || len([]rune(strings.TrimSpace(r.Text))) < 2 {
		return false
	}
	a0, a1 := r.X, r.X+runWidth(r)
	for _, o := range rs {
		if len([]rune(strings.TrimSpace(o.Text))) < 2 || math.Abs(o.Y-r.Y) <= 0.2*math.Min(o.Size, r.Size) {
			continue
		}
		b0, b1 := o.X, o.X+runWidth(o)
		if ov := math.Min(a1, b1) - math.Max(a0, b0); ov > 0 && ov >= 0.5*math.Min(a1-a0, b1-b0) {
			return true
		}
	}
	return false
}

// splitAtGutters cuts one baseline's runs (sorted by x) at every gutter that
// no run crosses and where the runs either side leave a wide gap: a real
// column break leaves one, a centred title whose word space happens to fall
// on a gutter does not.
func splitAtGutters(rs []pdf.Run, gs []float64, size float64) [][]pdf.Run {
	var cuts []float64
	for _, g := range gs {
		crosses := false
		for _, r := range rs {
			if r.X+runWidth(r) > g+2 && r.X < g-2 {
				crosses = true
				break
			}
		}
		if crosses {
			continue
		}
		gap := math.Inf(1)
		for k := 1; k < len(rs); k++ {
			if rs[k-1].X+runWidth(rs[k-1]) <= g+2 && rs[k].X >= g-2 {
				gap = rs[k].X - (rs[k-1].X + runWidth(rs[k-1]))
			}
		}
		// Text of two sizes either side (a column's last words beside a
		// title in large type) is two blocks: the gap need only be wide for
		// the smaller one.
		need := 0.9 * size
		if ls, rsz := dominantSize(rs, math.Inf(-1), g), dominantSize(rs, g, math.Inf(1)); ls > 0 && rsz > 0 && math.Max(ls, rsz) > 1.3*math.Min(ls, rsz) {
			need = 0.9 * math.Min(ls, rsz)
		}
		if gap >= need {
			cuts = append(cuts, g)
		}
	}
	if len(cuts) == 0 {
		return [][]pdf.Run{rs}
	}
	var parts [][]pdf.Run
	var cur []pdf.Run
	k := 0
	for _, r := range rs {
		for k < len(cuts) && r.X >= cuts[k]-2 {
			if len(cur) > 0 {
				parts = append(parts, cur)
			}
			cur = nil
			k++
		}
		cur = append(cur, r)
	}
	if len(cur) > 0 {
		parts = append(parts, cur)
	}
	return parts
}

// readingOrder sorts a page's lines: top to bottom in bands separated by
// full-width lines; within a band, the left column before the right one.
func readingOrder(ls []*line) []*line {
	sort.SliceStable(ls, func(i, j int) bool {
		if ls[i].y != ls[j].y {
			return ls[i].y < ls[j].y
		}
		return ls[i].x0 < ls[j].x0
	})
	var out []*line
	var band []*line
	flush := func() {
		sort.SliceStable(band, func(i, j int) bool {
			ci, cj := band[i].col, band[j].col
			if ci != cj {
				return ci < cj
			}
			return band[i].y < band[j].y
		})
		out = append(out, band...)
		band = band[:0]
	}
	hasCols := false
	for _, l := range ls {
		if l.col != 0 {
			hasCols = true
		}
	}
	for _, l := range ls {
		if hasCols && l.col == 0 {
			flush()
			out = append(out, l)
			continue
		}
		if l.col == 0 {
			l.col = 1 // a short line inside a column band reads with the left column
		}
		band = append(band, l)
	}
	flush()
	return out
}

// spaceBetween reports whether a word space separates run r from the run
// before it on its line: a gap wider than 0.15 em or a space in the text,
// except between the initial and the rest of a word in small capitals.
func spaceBetween(prev, r pdf.Run) bool {
	gap := r.X - (prev.X + runWidth(prev))
	sz := math.Min(prev.Size, r.Size)
	return !smallCapsTail(prev, r) && (gap > 0.15*sz || strings.HasSuffix(prev.Text, " ") || strings.HasPrefix(r.Text, " "))
}

// smallCapsTail reports a run that continues a word set in small capitals:
// a capital initial, then the rest in smaller capitals right after it.
func smallCapsTail(prev, r pdf.Run) bool {
	gap := r.X - (prev.X + runWidth(prev))
	return len([]rune(strings.TrimSpace(prev.Text))) == 1 && r.Size < prev.Size*0.95 && gap < 0.35*prev.Size && isAllCaps(strings.TrimSpace(prev.Text)+strings.TrimSpace(r.Text)+"XX")
}

// makeLine assembles one line from runs sorted by x.
func makeLine(rs []pdf.Run, pageNo int, w, h float64) *line {
	if len(rs) == 0 {
		return nil
	}
	ln := &line{page: pageNo, runs: rs, pageW: w, pageH: h}
	var b strings.Builder
	sizeChars := map[float64]int{}
	fontChars := map[string]int{}
	letters, boldL, italL := 0, 0, 0
	ln.x0 = rs[0].X
	ln.x1 = rs[0].X + runWidth(rs[0])
	for i, r := range rs {
		t := r.Text
		if i > 0 {
			prev := rs[i-1]
			gap := r.X - (prev.X + runWidth(prev))
			if gap > ln.maxGap {
				ln.maxGap = gap
			}
			if spaceBetween(prev, r) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(t)
		n := 0
		for _, c := range t {
			if unicode.IsLetter(c) || unicode.IsDigit(c) {
				n++
			}
		}
		letters += n
		if r.Bold {
			boldL += n
		}
		if r.Italic {
			italL += n
		}
		sizeChars[math.Round(r.Size*2)/2] += n + 1
		fontChars[r.Font] += n + 1
		if e := r.X + runWidth(r); e > ln.x1 {
			ln.x1 = e
		}
		if r.X < ln.x0 {
			ln.x0 = r.X
		}
		if n > 0 && r.Size > ln.capSize {
			ln.capSize = r.Size
		}
	}
	ln.text = cleanText(b.String())
	if ln.text == "" {
		return nil
	}
	best := -1
	for s, c := range sizeChars {
		if c > best || (c == best && s > ln.size) {
			best, ln.size = c, s
		}
	}
	best = -1
	for f, c := range fontChars {
		if c > best || (c == best && f < ln.font) {
			best, ln.font = c, f
		}
	}
	if letters > 0 {
		ln.bold = float64(boldL) / float64(letters)
		ln.italic = float64(italL) / float64(letters)
	}
	// baseline of the dominant-size text
	ln.y = rs[0].Y
	for _, r := range rs {
		if math.Round(r.Size*2)/2 == ln.size {
			ln.y = r.Y
			break
		}
	}
	return ln
}

// mergeScripts folds clusters of sub- and superscripts into the line they
// belong to: a cluster of small text (below 85% of the other's size, short
// runs) whose baseline lies within 0.8 em of a larger cluster's and whose
// runs sit inside that cluster's horizontal extent (give or take an em).
// Without this, a raised exponent or a lowered index set further from the
// baseline than usual becomes a "line" of its own and a paragraph of its
// own. Generic over the cluster type so the layout code keeps its own.
func mergeScripts[C any](cs []C, get func(C) (float64, float64, []pdf.Run), merge func(dst, src C)) []C {
	if len(cs) < 2 {
		return cs
	}
	type info struct {
		y, size, x0, x1 float64
		short           bool
	}
	inf := make([]info, len(cs))
	maxSize := 0.0
	for i, c := range cs {
		y, size, runs := get(c)
		in := info{y: y, size: size, x0: math.Inf(1), x1: math.Inf(-1), short: len(runs) <= 6}
		for _, r := range runs {
			in.x0, in.x1 = math.Min(in.x0, r.X), math.Max(in.x1, r.X+runWidth(r))
			if len([]rune(strings.TrimSpace(r.Text))) > 6 {
				in.short = false
			}
		}
		inf[i] = in
		maxSize = math.Max(maxSize, size)
	}
	// clusters by baseline, so that each small one looks only at the few
	// within reach (near-linear on pages with thousands of runs)
	order := make([]int, len(cs))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return inf[order[a]].y < inf[order[b]].y })
	gone := make([]bool, len(cs))
	for k, i := range order {
		a := inf[i]
		if !a.short {
			continue
		}
		best, bestD := -1, math.Inf(1)
		consider := func(j int) {
			o := inf[j]
			if j == i || gone[j] || a.size >= 0.85*o.size || math.Abs(o.y-a.y) > 0.8*o.size || a.x0 < o.x0-o.size || a.x1 > o.x1+o.size {
				return
			}
			if d := math.Abs(o.y - a.y); d < bestD {
				best, bestD = j, d
			}
		}
		for m := k - 1; m >= 0 && a.y-inf[order[m]].y <= 0.8*maxSize; m-- {
			consider(order[m])
		}
		for m := k + 1; m < len(order) && inf[order[m]].y-a.y <= 0.8*maxSize; m++ {
			consider(order[m])
		}
		if best >= 0 {
			merge(cs[best], cs[i])
			gone[i] = true
			// the merged cluster's extent does not change: scripts lie inside it
		}
	}
	out := cs[:0]
	for i, c := range cs {
		if !gone[i] {
			out = append(out, c)
		}
	}
	return out
}

// buildLines returns all lines of the document in reading order, with
// running headers/footers and page numbers removed.
func buildLines(pages []pdf.Page) []*line {
	runs := make([][]pdf.Run, len(pages))
	gutters := make([][]float64, len(pages))
	found := map[int][][]float64{} // gutter sets found, by number of gutters
	withText := 0
	for i, p := range pages {
		runs[i] = pageRuns(p)
		w, _ := pageDims(p)
		gutters[i] = findGutters(runs[i], w)
		if len(runs[i]) > 0 {
			withText++
		}
		if n := len(gutters[i]); n > 0 {
			found[n] = append(found[n], gutters[i])
		}
	}
	// The document's usual gutters: the most frequent layout (by number of
	// columns) when at least half the pages with text show it, each gutter
	// at its median position.
	var docGutters []float64
	bestN := 0
	for n, sets := range found {
		if len(sets) > len(found[bestN]) || (len(sets) == len(found[bestN]) && n < bestN) {
			bestN = n
		}
	}
	if sets := found[bestN]; bestN > 0 && 2*len(sets) >= withText {
		for k := 0; k < bestN; k++ {
			xs := make([]float64, len(sets))
			for i, s := range sets {
				xs[i] = s[k]
			}
			docGutters = append(docGutters, median(xs))
		}
	}
	var all [][]*line
	for i, p := range pages {
		n := p.Number
		if n <= 0 {
			n = i + 1
		}
		// A page follows the document's column grid whenever that grid
		// fits it: a page without a gutter of its own (sparse), or one
		// whose own white strip lies elsewhere (centred display equations
		// in one column leave a wider strip inside that column than the
		// real gutter).
		gs := gutters[i]
		if !sameGutters(gs, docGutters) && gutterFits(runs[i], docGutters) {
			gs = docGutters
		}
		all = append(all, splitCaptionPairs(pageLines(p, n, runs[i], gs)))
	}
	all = dropFurniture(all)
	var out []*line
	for _, ls := range all {
		for _, l := range ls {
			l.index = len(out)
			out = append(out, l)
		}
	}
	return out
}
