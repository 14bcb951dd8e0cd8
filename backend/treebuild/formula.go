package treebuild

import (
	"math"
	"regexp"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/papertree"
)

// Display equations and pseudo-code become their own leaves (roles
// "formula" and "code"): they stay searchable, but a segment of prose no
// longer carries "J = sum_ij f(X_ij) ... (8)" in its middle, and an answer
// never quotes them as its sentence (answer checks the role).
//
// A formula is a run of lines of one column that read as mathematics, not
// words (papertree.WordShare below 0.4) and hold an operator or end with an
// equation number "(12)"; the stray one-or-two-symbol lines a display
// equation is broken into (sub- and superscripts, "i, j") join the run. A
// code block is a run of at least three lines of pseudo-code (keywords at
// the line start: "for", "end while", "return"; assignment arrows) with at
// least one line of unambiguous pseudo-code syntax (papertree.PseudoCode).

var (
	eqNumberRe = regexp.MustCompile(`\(\s*\d{1,3}[a-z]?\s*\)\s*$`)
	codeLineRe = regexp.MustCompile(`(?i)^\s*(?:\d{1,2}\s*[:.]\s*)?(?:for|for each|while|if|else|else if|elseif|end|endfor|endif|endwhile|return|repeat|until|input|output|require|ensure|procedure|function|initiali[sz]e|do|break|continue|let|set)\b`)
)

const mathOps = "=<>≤≥≈∼∝∑∏∫∈∉⊂⊆∀∃√±×·→←↦∂∇^_|‖"

// formulaLine reports a line that reads as mathematics.
func formulaLine(t string) bool {
	t = strings.TrimSpace(t)
	if t == "" || captionStartRe.MatchString(t) || strings.Contains(t, "http") || strings.Contains(t, "www.") {
		return false // a caption, or a footnote's URL
	}
	if !strings.ContainsAny(t, mathOps) && !strings.HasSuffix(t, ")") {
		return false // neither an operator nor an equation number: cheap exit for prose
	}
	num := eqNumberRe.MatchString(t)
	body := strings.TrimSpace(eqNumberRe.ReplaceAllString(t, ""))
	if body == "" {
		return num
	}
	if papertree.WordShare(body) >= 0.4 || wordCount(body) > 14 {
		return false
	}
	return num || strings.ContainsAny(body, mathOps)
}

// maybeCode is a cheap filter before papertree.PseudoCode: its patterns
// all need one of these.
func maybeCode(t string) bool {
	return strings.ContainsAny(t, ":=←⟵∈") || strings.Contains(t, "do") || strings.Contains(t, "end") || strings.Contains(t, "End")
}

// fragmentLine is a piece of a broken display equation: one or two
// symbols ("X", "i, j", "k").
func fragmentLine(t string) bool {
	t = strings.TrimSpace(t)
	n := 0
	for _, r := range t {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return t != "" && n <= 3 && len([]rune(t)) <= 8
}

// mathBlock is a run of formula or code lines.
type mathBlock struct {
	first, last int
	role        papertree.Role
}

// findMath returns the formula and code runs among a section's lines.
func findMath(ls []*line) []mathBlock {
	var out []mathBlock
	near := func(a, b *line) bool {
		return a.page == b.page && a.col == b.col && b.y > a.y && b.y-a.y <= 3*math.Max(a.size, b.size)
	}
	// code blocks first: they hold "x ← x + 1", which also reads as math
	code := make([]bool, len(ls))
	for i := 0; i < len(ls); {
		j := i
		strong := false
		for j < len(ls) && (j == i || near(ls[j-1], ls[j])) {
			pc := maybeCode(ls[j].text) && papertree.PseudoCode(ls[j].text)
			if !pc && !codeLineRe.MatchString(ls[j].text) {
				break
			}
			strong = strong || pc
			j++
		}
		if j-i >= 3 && strong {
			out = append(out, mathBlock{first: i, last: j - 1, role: papertree.RoleCode})
			for k := i; k < j; k++ {
				code[k] = true
			}
			i = j
			continue
		}
		i = max(j, i+1)
	}
	// A display equation is set apart: indented from the column's left
	// edge by an em (and from its right edge too unless it ends in an
	// equation number). Prose with "L=12, H=768" fills the column.
	type colKey struct{ page, col int }
	left, right := map[colKey]float64{}, map[colKey]float64{}
	for _, l := range ls {
		k := colKey{l.page, l.col}
		if v, ok := left[k]; !ok || l.x0 < v {
			left[k] = l.x0
		}
		right[k] = math.Max(right[k], l.x1)
	}
	displayed := func(l *line) bool {
		k := colKey{l.page, l.col}
		if l.x0 < left[k]+l.size || strings.HasSuffix(strings.TrimSpace(l.text), "-") {
			return false
		}
		return eqNumberRe.MatchString(l.text) || l.x1 <= right[k]-l.size
	}
	for i := 0; i < len(ls); i++ {
		if code[i] || !formulaLine(ls[i].text) || !displayed(ls[i]) || len([]rune(strings.Join(strings.Fields(ls[i].text), ""))) < 4 {
			continue
		}
		lo, hi := i, i
		for lo > 0 && !code[lo-1] && near(ls[lo-1], ls[lo]) && fragmentLine(ls[lo-1].text) {
			lo--
		}
		for hi+1 < len(ls) && !code[hi+1] && near(ls[hi], ls[hi+1]) && (formulaLine(ls[hi+1].text) && displayed(ls[hi+1]) || fragmentLine(ls[hi+1].text)) {
			hi++
		}
		if n := len(out); n > 0 && out[n-1].role == papertree.RoleFormula && out[n-1].last >= lo-1 {
			out[n-1].last = hi
		} else {
			out = append(out, mathBlock{first: lo, last: hi, role: papertree.RoleFormula})
		}
		i = hi
	}
	// keep document order
	for a := 1; a < len(out); a++ {
		for b := a; b > 0 && out[b].first < out[b-1].first; b-- {
			out[b], out[b-1] = out[b-1], out[b]
		}
	}
	return out
}

// splitMath adds the leaves of body lines that hold formulas or code: the
// prose between them as usual, each formula or code run as one leaf. It
// reports false (nothing added) when there is none.
func (b *builder) splitMath(sec *papertree.Node, ls []*line) bool {
	if b.inMath {
		return false
	}
	ms := findMath(ls)
	if len(ms) == 0 {
		return false
	}
	b.inMath = true
	defer func() { b.inMath = false }()
	prev := 0
	for _, m := range ms {
		if m.first < prev {
			continue
		}
		if m.first > prev {
			b.addLeaves(sec, ls[prev:m.first])
		}
		var texts []string
		for _, l := range ls[m.first : m.last+1] {
			texts = append(texts, strings.TrimSpace(l.text))
		}
		txt := strings.Join(texts, "\n")
		n := leaf(papertree.KindSegment, txt, ls[m.first:m.last+1])
		if n.Tokens > b.opts.MaxSegmentTokens {
			n.Text = truncateTokens(n.Text, b.opts.MaxSegmentTokens)
			n.Tokens = papertree.CountTokens(n.Text)
		}
		n.Role, n.Level = m.role, sec.Level+1
		sec.Children = append(sec.Children, n)
		prev = m.last + 1
	}
	if prev < len(ls) {
		b.addLeaves(sec, ls[prev:])
	}
	return true
}
