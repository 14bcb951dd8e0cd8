package treebuild

import (
	"math"
	"strings"

	"github.com/papertree/papertree/backend/pdf"
)

// splitCaptionPairs separates captions set side by side under two figures
// or tables on a full-width line ("Figure 3: Transfer to ImageNet.   Figure
// 4: Linear few-shot ..."). The baseline clustering merges them into one
// line per row, which would interleave the two captions word row by word
// row. A caption line with a second caption start after a wide gap fixes a
// split x; it and the rows right below it that no run crosses at that x are
// cut there, and the left caption's rows are put before the right one's.
func splitCaptionPairs(ls []*line) []*line {
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		if !captionStartRe.MatchString(strings.TrimSpace(l.text)) {
			continue
		}
		splitX, ok := secondCaptionAt(l)
		if !ok {
			continue
		}
		end := i + 1
		for end < len(ls) {
			n, prev := ls[end], ls[end-1]
			if n.page != l.page || n.col != l.col || n.y-prev.y <= 0 || n.y-prev.y > 2*math.Max(n.size, prev.size) ||
				math.Abs(n.size-l.size) > 0.6 || crosses(n, splitX) {
				break
			}
			end++
		}
		var left, right []*line
		for _, g := range ls[i:end] {
			var a, b []pdf.Run
			for _, r := range g.runs {
				if r.X < splitX {
					a = append(a, r)
				} else {
					b = append(b, r)
				}
			}
			lc, rc := g.col, g.col
			if g.col == 0 {
				lc, rc = 1, 2
			}
			if la := makeLine(a, g.page, g.pageW, g.pageH); la != nil {
				la.col = lc
				left = append(left, la)
			}
			if lb := makeLine(b, g.page, g.pageW, g.pageH); lb != nil {
				lb.col = rc
				right = append(right, lb)
			}
		}
		repl := append(left, right...)
		out := make([]*line, 0, len(ls)-(end-i)+len(repl))
		out = append(out, ls[:i]...)
		out = append(out, repl...)
		out = append(out, ls[end:]...)
		ls = out
		i += len(repl) - 1
	}
	return ls
}

// secondCaptionAt finds a caption start ("Figure 4:", "Table 17.") that
// begins a run after a gap of at least an em, in the right part of a line.
func secondCaptionAt(l *line) (float64, bool) {
	for k := 1; k < len(l.runs); k++ {
		r, prev := l.runs[k], l.runs[k-1]
		if r.X < l.x0+0.25*(l.x1-l.x0) || r.X-(prev.X+runWidth(prev)) < 0.8*r.Size {
			continue
		}
		var rest []string
		for _, q := range l.runs[k:min(k+4, len(l.runs))] {
			rest = append(rest, q.Text)
		}
		if captionStartRe.MatchString(strings.TrimSpace(cleanText(strings.Join(rest, " ")))) {
			return r.X - 0.1*r.Size, true
		}
	}
	return 0, false
}

// crosses reports a line with a run spanning x.
func crosses(l *line, x float64) bool {
	for _, r := range l.runs {
		if r.X < x && r.X+runWidth(r) > x {
			return true
		}
	}
	return false
}
