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
// which arrive as stacks of one- or two-character runs at one x).
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
		if edge && len([]rune(t)) <= 2 && tinyAt[x] >= 15 {
			continue
		}
		out = append(out, r)
	}
	return out
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

// findGutter looks for the vertical white strip between two text columns.
// It returns the gutter's x, or 0 when the page is single-column. The strip
// must lie in the middle half of the page, be crossed by few runs, and have
// a substantial amount of text on both sides.
func findGutter(runs []pdf.Run, w float64) float64 {
	if len(runs) < 20 {
		return 0
	}
	const step = 1.0
	n := int(w/step) + 1
	cover := make([]int, n)
	var left, right, total int
	for _, r := range runs {
		a := int(r.X / step)
		b := int((r.X + runWidth(r)) / step)
		if a < 0 {
			a = 0
		}
		if b >= n {
			b = n - 1
		}
		for i := a; i <= b; i++ {
			cover[i]++
		}
		total++
	}
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
	return dropMarginNoise(runs, w)
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

// gutterFits reports whether the document's usual gutter g also splits this
// page: almost no run crosses it. Sparse pages (a last page with a heading
// in each column) cannot show a gutter by themselves.
func gutterFits(runs []pdf.Run, g float64) bool {
	if g <= 0 || len(runs) == 0 {
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
	return left > 0 && right > 0 && cross*10 <= len(runs)
}

// pageLines turns one page's runs into lines in reading order; g is the
// page's column gutter (0 for a single column).
func pageLines(p pdf.Page, pageNo int, runs []pdf.Run, g float64) []*line {
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
	side := func(r pdf.Run) int {
		if g == 0 {
			return 0
		}
		if r.X+runWidth(r) <= g+2 {
			return 1
		}
		if r.X >= g-2 {
			return 2
		}
		return 0
	}
	type cluster struct {
		runs []pdf.Run
		y    float64
		size float64
	}
	var open []*cluster
	var done []*cluster
	for _, r := range runs {
		var best *cluster
		for _, c := range open {
			tol := 0.45 * math.Max(c.size, r.Size)
			if math.Abs(c.y-r.Y) <= tol {
				best = c
				break
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
			best = &cluster{y: r.Y, size: r.Size}
			open = append(open, best)
		}
		best.runs = append(best.runs, r)
		if r.Size > best.size && len(strings.TrimSpace(r.Text)) > 1 {
			// the main baseline is the one of the largest text, not of a superscript
			best.y, best.size = r.Y, r.Size
		}
	}
	done = append(done, open...)
	done = mergeScripts(done, func(c *cluster) (float64, float64, []pdf.Run) { return c.y, c.size, c.runs },
		func(dst, src *cluster) { dst.runs = append(dst.runs, src.runs...) })

	var out []*line
	for _, c := range done {
		sort.SliceStable(c.runs, func(i, j int) bool { return c.runs[i].X < c.runs[j].X })
		// Split a baseline cluster at the gutter when nothing crosses it.
		var parts [][]pdf.Run
		if g > 0 {
			crosses := false
			for _, r := range c.runs {
				if side(r) == 0 {
					crosses = true
					break
				}
			}
			if !crosses {
				// A real column break leaves a wide gap at the gutter; a
				// centred title whose word space happens to fall on the
				// gutter does not.
				gap := math.Inf(1)
				for k := 1; k < len(c.runs); k++ {
					if side(c.runs[k-1]) == 1 && side(c.runs[k]) == 2 {
						gap = c.runs[k].X - (c.runs[k-1].X + runWidth(c.runs[k-1]))
					}
				}
				crosses = gap < 0.9*c.size
			}
			if !crosses {
				var l, rr []pdf.Run
				for _, r := range c.runs {
					if side(r) == 1 {
						l = append(l, r)
					} else {
						rr = append(rr, r)
					}
				}
				if len(l) > 0 {
					parts = append(parts, l)
				}
				if len(rr) > 0 {
					parts = append(parts, rr)
				}
			}
		}
		if parts == nil {
			parts = [][]pdf.Run{c.runs}
		}
		for _, rs := range parts {
			ln := makeLine(rs, pageNo, w, h)
			if ln == nil {
				continue
			}
			if g > 0 {
				switch {
				case ln.x1 <= g+2:
					ln.col = 1
				case ln.x0 >= g-2:
					ln.col = 2
				}
			}
			out = append(out, ln)
		}
	}
	return readingOrder(out)
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
			sz := math.Min(prev.Size, r.Size)
			smallCaps := len([]rune(strings.TrimSpace(prev.Text))) == 1 && r.Size < prev.Size*0.95 && gap < 0.35*prev.Size && isAllCaps(strings.TrimSpace(prev.Text)+strings.TrimSpace(t)+"XX")
			if !smallCaps && (gap > 0.15*sz || strings.HasSuffix(prev.Text, " ") || strings.HasPrefix(t, " ")) {
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
	gutters := make([]float64, len(pages))
	var found []float64
	withText := 0
	for i, p := range pages {
		runs[i] = pageRuns(p)
		w, _ := pageDims(p)
		gutters[i] = findGutter(runs[i], w)
		if len(runs[i]) > 0 {
			withText++
		}
		if gutters[i] > 0 {
			found = append(found, gutters[i])
		}
	}
	docGutter := 0.0
	if len(found) > 0 && 2*len(found) >= withText {
		docGutter = median(found)
	}
	var all [][]*line
	for i, p := range pages {
		n := p.Number
		if n <= 0 {
			n = i + 1
		}
		g := gutters[i]
		if g == 0 && gutterFits(runs[i], docGutter) {
			g = docGutter
		}
		all = append(all, splitCaptionPairs(pageLines(p, n, runs[i], g)))
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
