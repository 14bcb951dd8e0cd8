package papertree

import (
	"path/filepath"
	"regexp"
	"strings"
)

// Paths as evidence shows them.
//
// A section can have no title: the tree builder gives prose found after a
// reference list a section of its own, untitled because the paper prints
// none (treebuild's splitProseAfterReferences), and a heading can be
// edited away. Joined as it is, such a path read "Paper >  " with an empty
// segment. Evidence paths name every section instead; Path and PathIDs
// keep the same length, because the tree view opens the sections of
// PathIDs to show the leaf.

// UntitledSection and UntitledPaper name a section or a paper with no
// title, as the tree view does.
const (
	UntitledSection = "Untitled section"
	UntitledPaper   = "Untitled paper"
)

// PaperName is how a paper is named where it is listed or cited: its
// title, else (no title read from the PDF) its file name, never a blank;
// UntitledPaper only when it has neither.
func PaperName(title, path string) string {
	if t := strings.TrimSpace(title); t != "" {
		return t
	}
	if path != "" {
		return filepath.Base(path)
	}
	return UntitledPaper
}

// EvidencePath returns the display titles and the ids of the nodes on a
// root-to-leaf path (path ends at the leaf; the leaf itself is not part of
// the result). A section without a title is named by its number, else by
// the label of the table or figure the leaf is ("Table 3"), else
// UntitledSection: a segment is never empty.
func EvidencePath(path []*Node) ([]string, []int64) {
	if len(path) == 0 {
		return []string{}, []int64{}
	}
	leaf := path[len(path)-1]
	secs := path[:len(path)-1]
	titles := make([]string, len(secs))
	ids := make([]int64, len(secs))
	for i, s := range secs {
		ids[i] = s.ID
		t := strings.TrimSpace(s.Title)
		switch {
		case t != "":
		case i == 0:
			t = UntitledPaper
		case strings.TrimSpace(s.Number) != "":
			t = strings.TrimSpace(s.Number)
		case CaptionLabel(leaf) != "":
			t = CaptionLabel(leaf)
		default:
			t = UntitledSection
		}
		titles[i] = t
	}
	return titles, ids
}

// DisplayPath is a stored path (Evidence.Path) with its empty segments
// named as EvidencePath names them without the tree: UntitledPaper first,
// UntitledSection after. Answers saved before EvidencePath hold empty
// segments; every renderer shows them through DisplayPath.
func DisplayPath(titles []string) []string {
	out := make([]string, len(titles))
	for i, t := range titles {
		t = strings.TrimSpace(t)
		switch {
		case t != "":
		case i == 0:
			t = UntitledPaper
		default:
			t = UntitledSection
		}
		out[i] = t
	}
	return out
}

// captionLabelRe reads the label a caption opens with: "Table 3",
// "Figure 2b", "Fig. 4", "Table IV", "Algorithm 1".
var captionLabelRe = regexp.MustCompile(`^(?i:figure|fig\.|table|algorithm|listing)\s*(?:\d+[a-z]?(?:\.\d+)?|[IVX]+)\b`)

// CaptionLabel returns the label of the table or figure a leaf is: its
// caption's opening ("Table 3") for a table leaf or a caption leaf, or ""
// for any other leaf or a caption without a label.
func CaptionLabel(n *Node) string {
	if n == nil {
		return ""
	}
	var c string
	switch {
	case n.Role == RoleTable:
		c = ParseTable(n.Text).Caption
	case n.Kind == KindCaption:
		c, _, _ = strings.Cut(n.Text, "\n")
	default:
		return ""
	}
	return strings.Join(strings.Fields(captionLabelRe.FindString(strings.TrimSpace(c))), " ")
}

// JoinAnd writes a list as a sentence does: "A", "A and B", "A, B and C".
func JoinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}
