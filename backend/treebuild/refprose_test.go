package treebuild

import (
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// Prose of a paper (Hinton and Salakhutdinov 2006 style, with a running
// header's year merged in) and bibliography entries in several styles.
var (
	proseLeaf = "Dimensionality reduction facilitates the classification, visualization, communication, and storage " +
		"of high-dimensional data. A simple and widely used method is principal components analysis, which finds the " +
		"directions of greatest variance in the data set and represents each data point by its coordinates along each " +
		"of these directions. We describe a nonlinear generalization that uses an adaptive network to transform the data."
	proseHeader = "504 28 JULY 2006 VOL 313 SCIENCE to transform the high-dimensional data into a low-dimensional code and " +
		"a similar decoder network to recover the data from the code. It is difficult to optimize the weights in nonlinear " +
		"autoencoders that have multiple hidden layers, because with large initial weights they find poor local minima."
	numbered = "12. M. W. Klein, C. Enkrich, M. Wegener, C. M. Soukoulis, S. Linden, Opt. Lett. 31, 1259 (2006), and " +
		"a long note that follows the entry and runs on for many more words to pass the short limit of the classifier."
	apa = "Meins, E., Fernyhough, C., Wainwright, R., Gupta, M. D., Fradley, E., & Tuckey, M. (2002). Maternal " +
		"mind-mindedness and attachment security as predictors of theory of mind understanding. Child Development, " +
		"73(6), 1715 to 1726, with a doi and a further remark about the data collection."
	longAuthors = "Rodney Kinney, Chloe Anastasiades, Russell Authur, Iz Beltagy, Jonathan Bragg, Alexandra Buraczynski, " +
		"Isabel Cachola, Stefan Candra, Yoganand Chandrasekhar, Arman Cohan, Miles Crawford, Doug Downey, Jason Dunkelberger, " +
		"Oren Etzioni, Rob Evans, Sergey Feldman, Joseph Gorney, David Graham, Fangzhou Hu, Regan Huff, Daniel King, " +
		"Sebastian Kohlmeier, Bailey Kuehl, Michael Langan, Daniel Lin. 2023. The Semantic Scholar Open Data Platform."
	capsAuthors = "WHITE, E. P., G. M. YENNI, S. D. TAYLOR, E. M. CHRISTENSEN, E. K. BLEDSOE, J. L. SIMONIS, AND " +
		"S. K. M. ERNEST. Developing an automated iterative near term forecasting system for an ecological study. " +
		"Methods in Ecology and Evolution 10: 332 to 344 with more words about it."
)

func TestClassifyRefLeaf(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       refLeafKind
	}{
		{"prose", proseLeaf, refLeafProse},
		{"prose with a running header's year", proseHeader, refLeafProse},
		{"numbered entry", numbered, refLeafEntry},
		{"APA entry", apa, refLeafEntry},
		{"long author list", longAuthors, refLeafEntry},
		{"all-capital authors", capsAuthors, refLeafEntry},
		{"short", "See supporting material on Science Online.", refLeafShort},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := classifyRefLeaf(tc.text); got != tc.want {
				t.Errorf("classifyRefLeaf = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestSplitProseAfterReferences(t *testing.T) {
	seg := func(text string, page int) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSegment, Text: text, Level: 2, PageStart: page, PageEnd: page}
	}
	cap := &papertree.Node{Kind: papertree.KindCaption, Text: "Fig. 1. Pretraining a stack of RBMs.", Level: 2}
	refs := func(kids ...*papertree.Node) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSection, Title: "References and Notes", Role: papertree.RoleReferences,
			Level: 1, Children: kids}
	}
	titles := func(root *papertree.Node) string {
		var out []string
		for _, c := range root.Children {
			out = append(out, c.Title+"/"+string(c.Role)+"/"+strings.Repeat("x", len(c.Children)))
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		name string
		sec  *papertree.Node
		want string
	}{
		{"prose resumes after the list", refs(seg(numbered, 1), seg(apa, 1), seg(proseLeaf, 1), cap, seg(proseHeader, 2), seg("short", 2), seg(proseLeaf, 2)),
			"Intro// References and Notes/references/xx /" + "/" + "xxxxx"},
		{"a list only", refs(seg(numbered, 1), seg(apa, 1), seg(longAuthors, 1), seg(capsAuthors, 2)),
			"Intro// References and Notes/references/xxxx"},
		{"an entry interrupts the prose", refs(seg(numbered, 1), seg(proseLeaf, 1), seg(proseLeaf, 1), seg(apa, 1), seg(proseLeaf, 2)),
			"Intro// References and Notes/references/xxxxx"},
		{"no entry before the prose", refs(seg(proseLeaf, 1), seg(proseLeaf, 1), seg(proseLeaf, 1)),
			"Intro// References and Notes/references/xxx"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := &papertree.Node{Kind: papertree.KindRoot, Children: []*papertree.Node{
				{Kind: papertree.KindSection, Title: "Intro", Level: 1}, tc.sec}}
			splitProseAfterReferences(root)
			if got := titles(root); got != tc.want {
				t.Errorf("sections %q, want %q", got, tc.want)
			}
			if len(papertree.Headings(root)) != 2 {
				t.Errorf("the untitled section counts as a heading: %+v", papertree.Headings(root))
			}
		})
	}
}
