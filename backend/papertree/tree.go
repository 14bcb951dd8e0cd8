package papertree

import "strings"

// Kind is the kind of a tree node.
type Kind string

const (
	KindRoot    Kind = "root"    // the paper; Title is the paper title
	KindSection Kind = "section" // a heading of the paper's own outline (any depth)
	KindSegment Kind = "segment" // a leaf: consecutive sentences of one section
	KindCaption Kind = "caption" // a leaf: a figure or table caption, kept in its section
)

// Role marks sections and leaves with a conventional function. It is a hint
// for retrieval and display, never required.
type Role string

const (
	RoleNone        Role = ""
	RoleAbstract    Role = "abstract"
	RoleReferences  Role = "references"
	RoleAppendix    Role = "appendix"
	RoleAcks        Role = "acknowledgements"
	RoleFrontMatter Role = "front_matter" // text before the first section that is not the abstract
	RoleFootnote    Role = "footnote"     // a leaf: a footnote, kept out of the body text around it
	RoleRunIn       Role = "run_in"       // a section opened by a run-in paragraph heading ("Training. We ...")
	RoleTable       Role = "table"        // a leaf: a table's grid in the text form of FormatTable
	RoleFormula     Role = "formula"      // a leaf: a display equation
	RoleCode        Role = "code"         // a leaf: pseudo-code or an algorithm listing
)

// Box is a rectangle on one page in PDF points, origin at the TOP-LEFT of the
// page (y grows downwards), so that it maps directly onto a rendered page.
type Box struct {
	Page int     `json:"page"` // 1-based physical page
	X0   float64 `json:"x0"`
	Y0   float64 `json:"y0"`
	X1   float64 `json:"x1"`
	Y1   float64 `json:"y1"`
}

// Node is one node of a PaperTree. Sections hold children; leaves hold text.
type Node struct {
	ID        int64   `json:"id,omitempty"` // assigned by the store; 0 before storing
	Kind      Kind    `json:"kind"`
	Title     string  `json:"title,omitempty"`  // heading text as printed (with its number), or the paper title for the root
	Number    string  `json:"number,omitempty"` // section number if any ("3.2", "A.1", "IV")
	Level     int     `json:"level"`            // 0 root, 1 top-level section, 2 subsection, ...; leaves: parent level + 1
	Role      Role    `json:"role,omitempty"`
	Text      string  `json:"text,omitempty"`    // leaf text (segments and captions)
	Summary   string  `json:"summary,omitempty"` // structure-anchored summary of a segment
	PageStart int     `json:"page_start"`        // 1-based
	PageEnd   int     `json:"page_end"`
	Boxes     []Box   `json:"boxes,omitempty"`
	Tokens    int     `json:"tokens,omitempty"` // token cost of Text (CountTokens)
	Order     int     `json:"order"`            // document order among all nodes of the paper (pre-order index)
	Children  []*Node `json:"children,omitempty"`
}

// IsLeaf reports whether n is a segment or caption.
func (n *Node) IsLeaf() bool { return n.Kind == KindSegment || n.Kind == KindCaption }

// Walk calls fn for n and its descendants in pre-order (document order) with
// the path from the root to the node (inclusive). Returning false from fn
// skips the node's children.
func (n *Node) Walk(fn func(path []*Node) bool) {
	var rec func(path []*Node)
	rec = func(path []*Node) {
		if !fn(path) {
			return
		}
		cur := path[len(path)-1]
		for _, c := range cur.Children {
			rec(append(path[:len(path):len(path)], c))
		}
	}
	rec([]*Node{n})
}

// Number assigns Order to every node in pre-order and returns the count.
func (n *Node) Renumber() int {
	i := 0
	n.Walk(func(path []*Node) bool {
		path[len(path)-1].Order = i
		i++
		return true
	})
	return i
}

// Paper is one indexed paper and its tree.
type Paper struct {
	ID       int64    `json:"id,omitempty"`
	Path     string   `json:"path"`           // absolute file path
	Hash     string   `json:"hash,omitempty"` // sha256 of the file content, hex
	Title    string   `json:"title"`
	Authors  []string `json:"authors,omitempty"`
	Abstract string   `json:"abstract,omitempty"`
	Year     int      `json:"year,omitempty"`
	// Front-matter metadata read from the first page and the PDF info
	// dictionary, checked against each other (treebuild). Empty when not
	// found; never guessed.
	Venue        string   `json:"venue,omitempty"`
	DOI          string   `json:"doi,omitempty"`
	ArxivID      string   `json:"arxiv_id,omitempty"`
	Affiliations []string `json:"affiliations,omitempty"`
	Pages        int      `json:"pages"`
	PageSizes    []Size   `json:"page_sizes,omitempty"` // width/height in points per page
	OutlineUsed  bool     `json:"outline_used"`
	Root         *Node    `json:"tree"`
	Warnings     []string `json:"warnings,omitempty"` // non-fatal problems found while parsing

	// OCRPages counts the pages whose text was read by OCR (a scan, or a
	// text layer too poor to keep); 0 for a born-digital paper.
	OCRPages int `json:"ocr_pages,omitempty"`
}

// Size is a page size in PDF points.
type Size struct {
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// Heading is a flat view of one section node, used by the CLI and the tree evaluator.
type Heading struct {
	Text  string `json:"text"`
	Level int    `json:"level"`
	Page  int    `json:"page"`
	RunIn bool   `json:"runin,omitempty"` // a run-in paragraph heading (RoleRunIn)
}

// Headings lists the section nodes of a tree in document order, except
// untitled ones: a section tree building made where the paper prints no
// heading (prose after a reference list) is not one of its headings.
func Headings(root *Node) []Heading {
	var out []Heading
	if root == nil {
		return nil
	}
	root.Walk(func(path []*Node) bool {
		n := path[len(path)-1]
		if n.Kind == KindSection && strings.TrimSpace(n.Title) != "" {
			out = append(out, Heading{Text: n.Title, Level: n.Level, Page: n.PageStart, RunIn: n.Role == RoleRunIn})
		}
		return true
	})
	return out
}

// PathTitles returns the titles along a root-to-node path ("Paper > 4 Experiments > 4.2 Ablation").
func PathTitles(path []*Node) []string {
	out := make([]string, 0, len(path))
	for _, n := range path {
		if n.IsLeaf() {
			continue
		}
		out = append(out, n.Title)
	}
	return out
}

// JoinPath renders path titles for display (empty segments named, see
// DisplayPath).
func JoinPath(titles []string) string { return strings.Join(DisplayPath(titles), " > ") }
