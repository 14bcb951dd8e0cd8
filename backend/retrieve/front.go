package retrieve

import (
	"context"
	"regexp"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// maxFrontLeaves bounds the front matter shown as evidence.
const maxFrontLeaves = 3

// FrontPage is paper id's front matter as evidence: its first leaves whose
// role is front matter (title, author and affiliation lines), else the
// first leaf under its root. It is what an answer read from the paper's
// details (who wrote it, when it appeared) points at: the lines those
// details are printed in, not passages that happened to match the
// question's words.
func FrontPage(ctx context.Context, ix Index, id int64) ([]papertree.Evidence, error) {
	d, err := ix.Paper(ctx, id)
	if err != nil {
		return nil, err
	}
	return frontPage(d), nil
}

func frontPage(d *PaperData) []papertree.Evidence {
	var out []papertree.Evidence
	for o, n := range d.Nodes {
		if len(out) < maxFrontLeaves && n.IsLeaf() && n.Role == papertree.RoleFrontMatter && strings.TrimSpace(n.Text) != "" {
			out = append(out, evidenceFor(d, o, n.Text, 0))
		}
	}
	if len(out) > 0 {
		return out
	}
	for o, n := range d.Nodes {
		if o > 0 && n.IsLeaf() && d.Parent[o] == 0 && strings.TrimSpace(n.Text) != "" {
			return []papertree.Evidence{evidenceFor(d, o, n.Text, 0)}
		}
	}
	return nil
}

// Abstract is paper id's abstract as evidence: the leaves of its abstract
// section (role abstract), in order, else the abstract the tree left in
// its front matter after an "Abstract—" label (inlineAbstract); nil when it
// has none. It is what a question asking for the paper's gist ("What does
// the GloVe paper propose?") is answered from.
func Abstract(ctx context.Context, ix Index, id int64) ([]papertree.Evidence, error) {
	d, err := ix.Paper(ctx, id)
	if err != nil {
		return nil, err
	}
	var out []papertree.Evidence
	for o, n := range d.Nodes {
		if n.IsLeaf() && strings.TrimSpace(n.Text) != "" && inAbstract(d, o) {
			out = append(out, evidenceFor(d, o, n.Text, 0))
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	for o, n := range d.Nodes {
		if n.IsLeaf() {
			if abs, ok := inlineAbstract(d, o); ok {
				return []papertree.Evidence{evidenceFor(d, o, abs, 0)}, nil
			}
		}
	}
	return nil, nil
}

// abstractLabelRE is an abstract's label run into the text before it
// ("... Security & Privacy '21 Abstract—Double-fetch bugs are ...": the
// IEEE style, which the tree can leave in the front matter).
var abstractLabelRE = regexp.MustCompile(`(?:^|\s)(?:Abstract|ABSTRACT)\s*[—–:.-]\s*`)

// inlineAbstract is the text after an abstract label in front-matter leaf
// o, whose sentences are the paper's own; ok false when o is not such a
// leaf.
func inlineAbstract(d *PaperData, o int) (string, bool) {
	if othersSection(d, o) || !underRole(d, o, papertree.RoleFrontMatter) {
		return "", false
	}
	t := d.Nodes[o].Text
	loc := abstractLabelRE.FindStringIndex(t)
	if loc == nil || len(t)-loc[1] < 80 {
		return "", false
	}
	return t[loc[1]:], true
}
