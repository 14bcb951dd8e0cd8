package papertree

import (
	"fmt"
	"strings"
	"testing"
)

// outline renders a tree as "title@level[child child]" with leaves as their text.
func outline(n *Node) string {
	var b strings.Builder
	var rec func(n *Node)
	rec = func(n *Node) {
		if n.IsLeaf() {
			fmt.Fprintf(&b, "%q@%d", n.Text, n.Level)
			return
		}
		fmt.Fprintf(&b, "%s@%d", n.Title, n.Level)
		if len(n.Children) > 0 {
			b.WriteString("[")
			for i, c := range n.Children {
				if i > 0 {
					b.WriteString(" ")
				}
				rec(c)
			}
			b.WriteString("]")
		}
	}
	rec(n)
	return b.String()
}

func sec(title string, level int, kids ...*Node) *Node {
	return &Node{Kind: KindSection, Title: title, Level: level, Children: kids}
}

func seg(text string, level int) *Node { return &Node{Kind: KindSegment, Text: text, Level: level} }

// sample: P[1 Intro[a] 2 Method[b 2.1 Data[c] 2.2 Model[d]] Results[e] 3 Results[f]]
func sample() *Node {
	return &Node{Kind: KindRoot, Title: "P", Children: []*Node{
		sec("1 Intro", 1, seg("a", 2)),
		sec("2 Method", 1, seg("b", 2), sec("2.1 Data", 2, seg("c", 3)), sec("2.2 Model", 2, seg("d", 3))),
		sec("Table 3 shows", 1, seg("e", 2)),
		sec("3 Results", 1, seg("f\nTraining details\ng", 2), seg("h", 2)),
	}}
}

func TestApplyHeading(t *testing.T) {
	cases := []struct {
		name  string
		ops   []HeadingOp
		want  string
		found bool
		err   bool
	}{
		{"rename", []HeadingOp{{Op: OpRename, Target: "2 method", Arg: "2 Methods"}},
			`P@0[1 Intro@1["a"@2] 2 Methods@1["b"@2 2.1 Data@2["c"@3] 2.2 Model@2["d"@3]] Table 3 shows@1["e"@2] 3 Results@1["f\nTraining details\ng"@2 "h"@2]]`, true, false},
		{"rename matches a renumbered heading", []HeadingOp{{Op: OpRename, Target: "4 Results", Arg: "Findings"}},
			`P@0[1 Intro@1["a"@2] 2 Method@1["b"@2 2.1 Data@2["c"@3] 2.2 Model@2["d"@3]] Table 3 shows@1["e"@2] Findings@1["f\nTraining details\ng"@2 "h"@2]]`, true, false},
		{"merge into the previous section", []HeadingOp{{Op: OpMerge, Target: "Table 3 shows"}},
			`P@0[1 Intro@1["a"@2] 2 Method@1["b"@2 2.1 Data@2["c"@3] 2.2 Model@2["d"@3] "Table 3 shows\ne"@2] 3 Results@1["f\nTraining details\ng"@2 "h"@2]]`, true, false},
		{"first subsection merges into its section", []HeadingOp{{Op: OpMerge, Target: "2.1 Data"}},
			`P@0[1 Intro@1["a"@2] 2 Method@1["b"@2 "2.1 Data\nc"@2 2.2 Model@2["d"@3]] Table 3 shows@1["e"@2] 3 Results@1["f\nTraining details\ng"@2 "h"@2]]`, true, false},
		{"not a heading: body of the parent", []HeadingOp{{Op: OpNotHeading, Target: "2.2 Model"}},
			`P@0[1 Intro@1["a"@2] 2 Method@1["b"@2 2.1 Data@2["c"@3] "2.2 Model\nd"@2] Table 3 shows@1["e"@2] 3 Results@1["f\nTraining details\ng"@2 "h"@2]]`, true, false},
		{"level deeper nests under the previous section", []HeadingOp{{Op: OpLevel, Target: "Table 3 shows", Level: 2}},
			`P@0[1 Intro@1["a"@2] 2 Method@1["b"@2 2.1 Data@2["c"@3] 2.2 Model@2["d"@3] Table 3 shows@2["e"@3]] 3 Results@1["f\nTraining details\ng"@2 "h"@2]]`, true, false},
		{"level shallower takes the following siblings", []HeadingOp{{Op: OpLevel, Target: "2.1 Data", Level: 1}},
			`P@0[1 Intro@1["a"@2] 2 Method@1["b"@2] 2.1 Data@1["c"@2 2.2 Model@2["d"@3]] Table 3 shows@1["e"@2] 3 Results@1["f\nTraining details\ng"@2 "h"@2]]`, true, false},
		{"level without a section before it is refused", []HeadingOp{{Op: OpLevel, Target: "1 Intro", Level: 2}},
			`P@0[1 Intro@1["a"@2] 2 Method@1["b"@2 2.1 Data@2["c"@3] 2.2 Model@2["d"@3]] Table 3 shows@1["e"@2] 3 Results@1["f\nTraining details\ng"@2 "h"@2]]`, true, true},
		{"promote a line", []HeadingOp{{Op: OpPromote, Target: "training details"}},
			`P@0[1 Intro@1["a"@2] 2 Method@1["b"@2 2.1 Data@2["c"@3] 2.2 Model@2["d"@3]] Table 3 shows@1["e"@2] 3 Results@1["f"@2 Training details@2["g"@3 "h"@3]]]`, true, false},
		{"promote a run-in heading", []HeadingOp{{Op: OpPromote, Target: "h"}},
			`P@0[1 Intro@1["a"@2] 2 Method@1["b"@2 2.1 Data@2["c"@3] 2.2 Model@2["d"@3]] Table 3 shows@1["e"@2] 3 Results@1["f\nTraining details\ng"@2 h@2]]`, true, false},
		{"a chain replays in order", []HeadingOp{{Op: OpRename, Target: "Table 3 shows", Arg: "2.3 Tables"}, {Op: OpLevel, Target: "2.3 tables", Level: 2}},
			`P@0[1 Intro@1["a"@2] 2 Method@1["b"@2 2.1 Data@2["c"@3] 2.2 Model@2["d"@3] 2.3 Tables@2["e"@3]] 3 Results@1["f\nTraining details\ng"@2 "h"@2]]`, true, false},
		{"a heading that is gone is not found", []HeadingOp{{Op: OpRename, Target: "5 Discussion", Arg: "x"}},
			`P@0[1 Intro@1["a"@2] 2 Method@1["b"@2 2.1 Data@2["c"@3] 2.2 Model@2["d"@3]] Table 3 shows@1["e"@2] 3 Results@1["f\nTraining details\ng"@2 "h"@2]]`, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := sample()
			found, err := true, error(nil)
			for _, op := range c.ops {
				var f bool
				f, err = ApplyHeading(root, op)
				found = found && f
			}
			if found != c.found || (err != nil) != c.err {
				t.Fatalf("found %v err %v, want found %v err %v", found, err, c.found, c.err)
			}
			if got := outline(root); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestHeadingNth(t *testing.T) {
	root := &Node{Kind: KindRoot, Children: []*Node{sec("Results", 1, sec("Setup", 2)), sec("Extra", 1, sec("Setup", 2))}}
	second := root.Children[1].Children[0]
	if n := HeadingNth(root, second); n != 1 {
		t.Fatalf("nth %d, want 1", n)
	}
	if ok, _ := ApplyHeading(root, HeadingOp{Op: OpRename, Target: "setup", Nth: 1, Arg: "Setup B"}); !ok || second.Title != "Setup B" || root.Children[0].Children[0].Title != "Setup" {
		t.Fatalf("renamed the wrong heading: %s", outline(root))
	}
}
