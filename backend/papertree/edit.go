package papertree

import (
	"strings"
	"unicode"
)

// Heading corrections: a researcher's fixes of the tree that tree building
// read, replayed in order on the tree as read. They name their heading by its
// text (HeadingNorm), never by node id: ids change whenever the paper is
// stored again, and a re-read of a changed file keeps the corrections whose
// headings are still there.

// Heading correction operations.
const (
	OpRename     = "rename"      // new heading text (Arg)
	OpLevel      = "level"       // new level (Level): nests under the previous section or moves out
	OpMerge      = "merge"       // the section joins the previous one; its heading line becomes body text
	OpNotHeading = "not_heading" // the heading line becomes body text of the parent, its content the parent's
	OpPromote    = "promote"     // a line of a leaf (Target) becomes a heading one level below the leaf's section
)

// HeadingOp is one heading correction. Target is the heading text as shown
// when the correction was made (for OpPromote: the line of body text) and
// Nth which of the equal targets in document order (0: the first).
type HeadingOp struct {
	Op     string `json:"op"`
	Target string `json:"target"`
	Nth    int    `json:"nth,omitempty"`
	Arg    string `json:"arg,omitempty"`
	Level  int    `json:"level,omitempty"`
}

// HeadingNorm is the form in which headings are compared: case, spacing and
// punctuation at the ends do not count.
func HeadingNorm(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
}

// withoutNumber drops a leading section number ("3.2", "IV.", "A.1").
func withoutNumber(norm string) string {
	first, rest, ok := strings.Cut(norm, " ")
	if !ok {
		return norm
	}
	t := strings.TrimRight(first, ".)")
	if t == "" {
		return norm
	}
	for _, r := range t {
		if !(unicode.IsDigit(r) || r == '.' || strings.ContainsRune("ivxlc", r) || (len(t) <= 3 && r >= 'a' && r <= 'h')) {
			return norm
		}
	}
	return rest
}

// locate is a node with its parent.
type locate struct {
	n, parent *Node
}

// sections lists the titled sections of root in document order with their parents.
func sections(root *Node) []locate {
	var out []locate
	root.Walk(func(path []*Node) bool {
		n := path[len(path)-1]
		if n.Kind == KindSection && len(path) > 1 {
			out = append(out, locate{n, path[len(path)-2]})
		}
		return true
	})
	return out
}

// HeadingNth returns the position of section n among the sections of root
// with the same HeadingNorm (what HeadingOp.Nth records).
func HeadingNth(root, n *Node) int {
	want, k := HeadingNorm(n.Title), 0
	for _, s := range sections(root) {
		if s.n == n {
			return k
		}
		if HeadingNorm(s.n.Title) == want {
			k++
		}
	}
	return 0
}

// LineNth is HeadingNth for a promoted line: the position of leaf among the
// leaves that hold line.
func LineNth(root, leaf *Node, line string) int {
	want, k := HeadingNorm(line), 0
	found := -1
	root.Walk(func(path []*Node) bool {
		n := path[len(path)-1]
		if found >= 0 || !n.IsLeaf() {
			return found < 0
		}
		if n == leaf {
			found = k
		} else if lineIndex(n.Text, want) >= 0 {
			k++
		}
		return true
	})
	return max(found, 0)
}

// findSection finds the section an op names: the Nth with the same text,
// else (a renumbered paper) the Nth with the same text after its number;
// when fewer are left, the last one.
func findSection(root *Node, target string, nth int) (locate, bool) {
	want := HeadingNorm(target)
	all := sections(root)
	for _, strip := range []bool{false, true} {
		var hits []locate
		for _, s := range all {
			a, b := HeadingNorm(s.n.Title), want
			if strip {
				a, b = withoutNumber(a), withoutNumber(b)
			}
			if a == b && a != "" {
				hits = append(hits, s)
			}
		}
		if len(hits) > 0 {
			return hits[min(nth, len(hits)-1)], true
		}
	}
	return locate{}, false
}

// lineIndex returns the byte offset of the line of text whose HeadingNorm
// is want (-1 when none). Lines are what the text holds between newlines;
// a leaf without newlines is matched by its opening words.
func lineIndex(text, want string) int {
	if want == "" {
		return -1
	}
	off := 0
	for _, ln := range strings.SplitAfter(text, "\n") {
		if HeadingNorm(ln) == want {
			return off
		}
		off += len(ln)
	}
	// No such line: a heading read into a paragraph starts it, or a
	// sentence of it.
	norm := HeadingNorm(text)
	if strings.HasPrefix(norm, want) {
		return 0
	}
	return -1
}

// ApplyHeading applies one correction to the tree at root and reports
// whether its heading (or line) was found; a correction whose target is gone
// leaves the tree as it was. Levels stay the depth of each node. The caller
// renumbers the tree.
func ApplyHeading(root *Node, op HeadingOp) (bool, error) {
	if op.Op == OpPromote {
		return promote(root, op)
	}
	loc, ok := findSection(root, op.Target, op.Nth)
	if !ok {
		return false, nil
	}
	s, parent := loc.n, loc.parent
	switch op.Op {
	case OpRename:
		t := strings.TrimSpace(op.Arg)
		if t == "" {
			return true, Errorf(EInvalid, "A heading needs some text.")
		}
		if s.Number != "" && !strings.HasPrefix(t, s.Number) {
			s.Number = ""
		}
		s.Title = t
	case OpLevel:
		return true, setLevel(root, s, parent, op.Level)
	case OpMerge:
		i := indexOf(parent, s)
		if i == 0 || parent.Children[i-1].Kind != KindSection {
			if parent.Kind != KindSection {
				return true, Errorf(EInvalid, "%q has no section before it to merge into.", s.Title)
			}
			// The first subsection joins the section it opens.
			return ApplyHeading(root, HeadingOp{Op: OpNotHeading, Target: op.Target, Nth: op.Nth})
		}
		prev := parent.Children[i-1]
		kids := bodyOf(s)
		shift(kids, prev.Level+1-(s.Level+1))
		prev.Children = append(prev.Children, kids...)
		widen(prev, s)
		parent.Children = append(parent.Children[:i], parent.Children[i+1:]...)
	case OpNotHeading:
		i := indexOf(parent, s)
		kids := bodyOf(s)
		shift(kids, -1)
		rest := append([]*Node{}, parent.Children[i+1:]...)
		parent.Children = append(append(parent.Children[:i], kids...), rest...)
	default:
		return false, Errorf(EInvalid, "Unknown heading correction %q.", op.Op)
	}
	return true, nil
}

// bodyOf returns the children of s with its heading line turned into body
// text: prepended to its first segment, or a segment of its own.
func bodyOf(s *Node) []*Node {
	kids := s.Children
	if len(kids) > 0 && kids[0].Kind == KindSegment {
		f := kids[0]
		f.Text = s.Title + "\n" + f.Text
		f.Tokens = CountTokens(f.Text)
		if s.PageStart > 0 && (f.PageStart == 0 || s.PageStart < f.PageStart) {
			f.PageStart = s.PageStart
		}
		return kids
	}
	seg := &Node{Kind: KindSegment, Text: s.Title, Level: s.Level + 1, PageStart: s.PageStart, PageEnd: s.PageStart,
		Boxes: s.Boxes, Tokens: CountTokens(s.Title)}
	return append([]*Node{seg}, kids...)
}

func indexOf(parent, n *Node) int {
	for i, c := range parent.Children {
		if c == n {
			return i
		}
	}
	return -1
}

// shift adds d to the level of every node of the subtrees.
func shift(ns []*Node, d int) {
	for _, n := range ns {
		n.Walk(func(path []*Node) bool {
			path[len(path)-1].Level += d
			return true
		})
	}
}

// widen makes dst's page range cover src's.
func widen(dst, src *Node) {
	if src.PageEnd > dst.PageEnd {
		dst.PageEnd = src.PageEnd
	}
	if src.PageStart > 0 && (dst.PageStart == 0 || src.PageStart < dst.PageStart) {
		dst.PageStart = src.PageStart
	}
}

// parentOf returns the parent of n under root.
func parentOf(root, n *Node) *Node {
	var p *Node
	root.Walk(func(path []*Node) bool {
		if p != nil {
			return false
		}
		if path[len(path)-1] == n && len(path) > 1 {
			p = path[len(path)-2]
		}
		return true
	})
	return p
}

// setLevel moves s to level (1 = top-level section). Deeper: s becomes the
// last child of the section before it, as often as needed. Shallower: s
// leaves its parent, directly after it, and takes along the parent's
// children that follow it (in reading order they come after its heading).
func setLevel(root, s, parent *Node, level int) error {
	if level < 1 || level > 9 {
		return Errorf(EInvalid, "A heading level is between 1 and 9.")
	}
	// Check first, so that a correction that cannot be made changes nothing.
	p, i := parent, indexOf(parent, s)
	for d := s.Level; d < level; d++ {
		if i <= 0 || p.Children[i-1].Kind != KindSection {
			return Errorf(EInvalid, "%q has no section before it to become a level-%d heading under.", s.Title, level)
		}
		p = p.Children[i-1]
		i = len(p.Children)
	}
	for s.Level < level {
		i := indexOf(parent, s)
		if i == 0 || parent.Children[i-1].Kind != KindSection {
			return Errorf(EInvalid, "%q has no section before it to become a level-%d heading under.", s.Title, level)
		}
		prev := parent.Children[i-1]
		parent.Children = append(parent.Children[:i], parent.Children[i+1:]...)
		shift([]*Node{s}, 1)
		prev.Children = append(prev.Children, s)
		widen(prev, s)
		parent = prev
	}
	for s.Level > level {
		grand := parentOf(root, parent)
		if grand == nil {
			return Errorf(EInvalid, "%q cannot move above the paper.", s.Title)
		}
		i := indexOf(parent, s)
		after := append([]*Node{}, parent.Children[i+1:]...)
		parent.Children = parent.Children[:i]
		shift([]*Node{s}, -1)
		s.Children = append(s.Children, after...)
		for _, a := range after {
			widen(s, a)
		}
		j := indexOf(grand, parent)
		rest := append([]*Node{}, grand.Children[j+1:]...)
		grand.Children = append(append(grand.Children[:j+1], s), rest...)
		parent = grand
	}
	return nil
}

// promote turns a line of a leaf into a heading one level below the
// leaf's section: the text before the line stays, the line is the new
// heading, and the rest of the leaf and the leaves after it (up to the next
// section) become its content.
func promote(root *Node, op HeadingOp) (bool, error) {
	want := HeadingNorm(op.Target)
	var leaf, parent *Node
	k := 0
	var fallback, fparent *Node
	root.Walk(func(path []*Node) bool {
		n := path[len(path)-1]
		if leaf != nil || !n.IsLeaf() || n.Kind != KindSegment || lineIndex(n.Text, want) < 0 {
			return leaf == nil
		}
		fallback, fparent = n, path[len(path)-2]
		if k == op.Nth {
			leaf, parent = n, path[len(path)-2]
		}
		k++
		return true
	})
	if leaf == nil {
		leaf, parent = fallback, fparent
	}
	if leaf == nil {
		return false, nil
	}
	off := lineIndex(leaf.Text, want)
	before := strings.TrimRight(leaf.Text[:off], "\n ")
	line, after := leaf.Text[off:], ""
	if nl := strings.IndexByte(line, '\n'); nl >= 0 {
		line, after = line[:nl], line[nl+1:]
	}
	if HeadingNorm(line) != want { // the heading opens a paragraph: cut after it
		cut := cutAfterNorm(line, want)
		for cut < len(line) && unicode.IsPunct(rune(line[cut])) { // the heading keeps its stop: no text is lost
			cut++
		}
		line, after = line[:cut], line[cut:]+"\n"+after
		after = strings.TrimLeftFunc(after, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
	}
	title := strings.TrimSpace(line)
	sec := &Node{Kind: KindSection, Title: title, Level: parent.Level + 1, PageStart: leaf.PageStart, PageEnd: leaf.PageEnd}
	i := indexOf(parent, leaf)
	var moved []*Node
	if strings.TrimSpace(after) != "" {
		moved = append(moved, &Node{Kind: KindSegment, Text: strings.TrimSpace(after), Level: sec.Level + 1,
			PageStart: leaf.PageStart, PageEnd: leaf.PageEnd, Boxes: leaf.Boxes, Tokens: CountTokens(after)})
	}
	j := i + 1
	for ; j < len(parent.Children) && parent.Children[j].Kind != KindSection; j++ {
		c := parent.Children[j]
		shift([]*Node{c}, 1)
		widen(sec, c)
		moved = append(moved, c)
	}
	sec.Children = moved
	rest := append([]*Node{}, parent.Children[j:]...)
	head := parent.Children[:i]
	if strings.TrimSpace(before) != "" {
		leaf.Text, leaf.Tokens = before, CountTokens(before)
		head = parent.Children[:i+1]
	}
	parent.Children = append(append(head, sec), rest...)
	return true, nil
}

// cutAfterNorm returns the byte offset in s after the words whose
// HeadingNorm is want (s starts with them).
func cutAfterNorm(s, want string) int {
	for i := range s {
		if HeadingNorm(s[:i]) == want && (i == len(s) || !unicode.IsLetter(rune(s[i])) && !unicode.IsDigit(rune(s[i]))) {
			return i
		}
	}
	return len(s)
}
