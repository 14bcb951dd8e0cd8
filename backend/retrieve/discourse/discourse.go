// Package discourse builds DISRetrieval's index-time structure: a binary
// DiscourseTree whose leaves are a paper's sentences (EDU-like units, one per
// sentence, in document order) and whose internal nodes carry condensed text
// (DISRetrieval, "Beyond Chunking", sec. 3.1):
//
//  1. per paragraph, a sentence-level discourse parse (binary, order
//     preserving) -- Parse;
//  2. each paragraph tree condensed bottom-up (tau = 0: every internal node
//     gets a text: an LLM summary of its two children, or offline an
//     extractive condensation of the sentences it spans);
//  3. the same parser over the paragraph units (their root texts) gives the
//     document-level tree, condensed the same way;
//  4. integration: every document-level leaf is replaced by its paragraph
//     tree, so the leaves are sentences and every node has text;
//  5. every node (leaf and internal) gets an embedding of its text.
//
// "DiscourseTree" is named so it cannot be confused with RDR²'s retrieval
// subtree (both papers abbreviate theirs "RST").
//
// The paper's parser is a trained XLNet shift-reduce model (RST-DT); we have
// no trained model, so Parse is a deterministic adjacent-merge parser over
// signals any paper has: lexical cohesion between neighbouring units
// (embedding cosine), discourse connectives and anaphora at the start of the
// right unit, punctuation (a colon announcing what follows, enumerations,
// brackets), sentence position (a paragraph's first sentence is its topic
// and attaches last) and section boundaries (document level). It always
// yields a full binary, order-preserving tree. Options switch each signal
// off for ablations, and Bisection gives the paper's own structure-free
// baseline tree.
//
// This package is pure: text and an Embedder in, a tree out. Storage and
// retrieval live in the retrieve package.
package discourse

import (
	"context"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/papertree"
)

// Version changes whenever the parser, condensation or encoding changes, so
// stored trees are rebuilt.
const Version = "disc-v2"

// Options are the builder's settings. The zero value is the default.
type Options struct {
	Bisection     bool `json:"bisection,omitempty" desc:"disretrieval: balanced trees instead of the discourse parse (the paper's baseline)."`
	NoCohesion    bool `json:"no_cohesion,omitempty" desc:"disretrieval parser ablation: ignore lexical cohesion."`
	NoConnectives bool `json:"no_connectives,omitempty" desc:"disretrieval parser ablation: ignore connectives and anaphora."`
	NoPunct       bool `json:"no_punct,omitempty" desc:"disretrieval parser ablation: ignore punctuation cues."`
	NoPosition    bool `json:"no_position,omitempty" desc:"disretrieval parser ablation: ignore sentence position."`
	NoSections    bool `json:"no_sections,omitempty" desc:"disretrieval: the document tree ignores section boundaries (the paper's setting)."`
	MeanPool      bool `json:"mean_pool,omitempty" desc:"disretrieval: tree node vectors are the mean of their sentences' vectors."`
	// MaxWords bounds an internal node's condensed text (the paper's
	// summaries are at most 200 words).
	MaxWords int `json:"max_words,omitempty" desc:"disretrieval: words of a tree node's condensed text (0 = the paper's 200)."`
}

// Key identifies the settings a tree was built with.
func (o Options) Key() string {
	var b strings.Builder
	b.WriteString(Version)
	for _, f := range []struct {
		on   bool
		name string
	}{{o.Bisection, "bisect"}, {o.NoCohesion, "-coh"}, {o.NoConnectives, "-conn"}, {o.NoPunct, "-punct"}, {o.NoPosition, "-pos"}, {o.NoSections, "-sec"}, {o.MeanPool, "mean"}} {
		if f.on {
			b.WriteString("," + f.name)
		}
	}
	if o.maxWords() != 200 {
		b.WriteString(",w" + itoa(o.maxWords()))
	}
	return b.String()
}

func (o Options) maxWords() int {
	if o.MaxWords <= 0 {
		return 200
	}
	return o.MaxWords
}

// Paragraph is one input paragraph (a PaperTree leaf).
type Paragraph struct {
	Ref     int    // caller's reference (the leaf's document order)
	Section int    // caller's section reference (paragraphs of one section share it)
	Text    string // the paragraph's full text
}

// Sentence is a leaf of the tree: one sentence of one paragraph.
type Sentence struct {
	Para   int    `json:"p"` // index into the input paragraphs
	Ref    int    `json:"r"` // the paragraph's Ref
	Start  int    `json:"s"` // byte offsets of the sentence in the paragraph text
	End    int    `json:"e"` //
	Tokens int    `json:"t"` // papertree.CountTokens of the sentence
	Text   string `json:"-"` // the sentence (filled from the paragraph text)
}

// Node is one node of a DiscourseTree. Leaves have Left = Right = -1 and
// Leaf >= 0; internal nodes have exactly two children.
type Node struct {
	Left, Right int    // children (-1 for leaves)
	Parent      int    // -1 for the root
	Leaf        int    // index into Sentences, -1 for internal nodes
	Lo, Hi      int    // the sentences it spans: [Lo, Hi)
	Height      int    // leaf = 1
	Relation    string // the parser's relation guess (display only; not used by retrieval)
	Text        string // internal: condensed text (summary or extractive); leaves: "" (the sentence is in Sentences)
	Summary     bool   // Text came from an LLM
	Paragraph   bool   // the root of a paragraph tree
}

// DiscourseTree is a paper's integrated discourse tree.
type DiscourseTree struct {
	Sentences []Sentence
	Nodes     []Node
	Root      int
	Vecs      [][]float32 // one per node (unit length)
	Summaries int         // internal nodes whose text came from the LLM
	Fallbacks int         // LLM summaries that fell back to extraction
}

// Summarizer condenses two children's texts into one (DISRetrieval's f_LLM).
// An error falls back to extractive condensation for that node.
type Summarizer func(ctx context.Context, left, right string) (string, error)

// Build builds the DiscourseTree of paras. sum may be nil (offline).
func Build(ctx context.Context, paras []Paragraph, emb papertree.Embedder, sum Summarizer, o Options) (*DiscourseTree, error) {
	t := &DiscourseTree{Root: -1}
	var texts []string
	var paraSents [][]int
	for pi, p := range paras {
		var ids []int
		for _, sp := range sentenceSpans(p.Text) {
			s := Sentence{Para: pi, Ref: p.Ref, Start: sp[0], End: sp[1], Text: p.Text[sp[0]:sp[1]]}
			s.Tokens = papertree.CountTokens(s.Text)
			ids = append(ids, len(t.Sentences))
			t.Sentences = append(t.Sentences, s)
			texts = append(texts, s.Text)
		}
		paraSents = append(paraSents, ids)
	}
	if len(t.Sentences) == 0 {
		return t, nil
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	leafVec := vecs
	// Leaves first: node i is sentence i.
	for i := range t.Sentences {
		t.Nodes = append(t.Nodes, Node{Left: -1, Right: -1, Parent: -1, Leaf: i, Lo: i, Hi: i + 1, Height: 1})
	}
	// Phase 1 + 2a: paragraph trees.
	var units []unit
	for pi, ids := range paraSents {
		if len(ids) == 0 {
			continue
		}
		us := make([]unit, len(ids))
		for k, id := range ids {
			us[k] = unit{node: id, lo: id, hi: id + 1, vec: leafVec[id], first: t.Sentences[id].Text, last: t.Sentences[id].Text, section: paras[pi].Section, startsBlock: k == 0}
		}
		root := t.parse(us, o, false)
		t.Nodes[root].Paragraph = true
		units = append(units, unit{node: root, lo: t.Nodes[root].Lo, hi: t.Nodes[root].Hi, vec: meanVec(leafVec, t.Nodes[root].Lo, t.Nodes[root].Hi),
			first: t.Sentences[ids[0]].Text, last: t.Sentences[ids[len(ids)-1]].Text, section: paras[pi].Section})
	}
	// Phase 2b: the document-level tree over paragraph units; a unit starts
	// a block when it is the first paragraph of its section.
	for i := range units {
		units[i].startsBlock = i == 0 || units[i-1].section != units[i].section
	}
	t.Root = t.parse(units, o, true)
	// Phases 2a/2c: condense every internal node bottom-up (children are
	// always created before their parent, so index order is bottom-up).
	t.condense(ctx, leafVec, sum, o)
	// Phase 3: node encodings.
	t.Vecs = make([][]float32, len(t.Nodes))
	copy(t.Vecs, leafVec)
	var itexts []string
	var iids []int
	for i := len(t.Sentences); i < len(t.Nodes); i++ {
		if o.MeanPool {
			t.Vecs[i] = meanVec(leafVec, t.Nodes[i].Lo, t.Nodes[i].Hi)
			continue
		}
		itexts = append(itexts, t.Nodes[i].Text)
		iids = append(iids, i)
	}
	if len(itexts) > 0 {
		iv, err := emb.Embed(ctx, itexts)
		if err != nil {
			return nil, err
		}
		for k, i := range iids {
			t.Vecs[i] = iv[k]
		}
	}
	return t, nil
}

// unit is one element of a parse: a subtree built so far.
type unit struct {
	node        int
	lo, hi      int
	vec         []float32
	first, last string // first and last sentence of the unit
	section     int
	startsBlock bool // first sentence of its paragraph (or first paragraph of its section)
}

// parse builds a binary tree over us (in order) and returns its root.
// Adjacent merge: repeatedly join the neighbouring pair with the strongest
// attachment score; ties go to the rightmost pair (discourse trees of
// expository text lean right: later sentences elaborate earlier ones).
func (t *DiscourseTree) parse(us []unit, o Options, docLevel bool) int {
	if len(us) == 1 {
		return us[0].node
	}
	if o.Bisection {
		return t.bisect(us)
	}
	us = append([]unit(nil), us...)
	// score[i] is the attachment score of the pair (i, i+1); after a merge
	// only the two pairs next to the new unit change.
	score := make([]float64, len(us)-1)
	for i := range score {
		score[i] = attach(us[i], us[i+1], o, docLevel)
	}
	for len(us) > 1 {
		best, bi := math.Inf(-1), 0
		for i, s := range score {
			if s >= best {
				best, bi = s, i
			}
		}
		l, r := us[bi], us[bi+1]
		id := t.join(l.node, r.node, relation(r.first))
		m := unit{node: id, lo: l.lo, hi: r.hi, vec: addVec(l.vec, r.vec), first: l.first, last: r.last, section: l.section, startsBlock: l.startsBlock}
		if l.section != r.section {
			m.section = -1
		}
		us = append(append(us[:bi], m), us[bi+2:]...)
		score = append(score[:bi], score[bi+1:]...)
		if bi > 0 {
			score[bi-1] = attach(us[bi-1], us[bi], o, docLevel)
		}
		if bi < len(score) {
			score[bi] = attach(us[bi], us[bi+1], o, docLevel)
		}
	}
	return us[0].node
}

func (t *DiscourseTree) bisect(us []unit) int {
	if len(us) == 1 {
		return us[0].node
	}
	mid := (len(us) + 1) / 2
	return t.join(t.bisect(us[:mid]), t.bisect(us[mid:]), "")
}

func (t *DiscourseTree) join(l, r int, rel string) int {
	id := len(t.Nodes)
	t.Nodes = append(t.Nodes, Node{Left: l, Right: r, Parent: -1, Leaf: -1, Lo: t.Nodes[l].Lo, Hi: t.Nodes[r].Hi,
		Height: 1 + max(t.Nodes[l].Height, t.Nodes[r].Height), Relation: rel})
	t.Nodes[l].Parent, t.Nodes[r].Parent = id, id
	return id
}

// Signal weights of the attachment score. Cohesion is a cosine in [-1, 1]
// (in practice 0.1..0.9 between neighbouring sentences); a connective or an
// anaphor at the start of the right unit, or a colon at the end of the left
// one, is strong evidence of attachment; a topic sentence (or a section's
// first paragraph) attaches last; section boundaries are crossed last.
const (
	wCohesion   = 1.0
	wConnective = 0.35
	wPunct      = 0.3
	wPosition   = 0.25
	wSection    = 2.0
)

// attach scores joining l and r (adjacent, l before r).
func attach(l, r unit, o Options, docLevel bool) float64 {
	s := 0.0
	if !o.NoCohesion {
		s += wCohesion * cosine(l.vec, r.vec)
	}
	if !o.NoConnectives && relation(r.first) != "" {
		s += wConnective
	}
	if !o.NoPunct {
		s += wPunct * punct(l.last, r.first)
	}
	if !o.NoPosition && l.startsBlock && l.hi-l.lo == 1 {
		// The topic sentence (or a section's first paragraph) is the nucleus
		// its block elaborates: join it after the block has formed.
		s -= wPosition
	}
	if docLevel && !o.NoSections && (l.section != r.section || l.section < 0 || r.section < 0) {
		s -= wSection
	}
	return s
}

// connectives maps sentence openers to the relation they signal. Anaphoric
// openers ("This", "These", "It") tie a sentence to the previous one as an
// elaboration.
var connectives = []struct{ prefix, rel string }{
	{"however", "Contrast"}, {"but ", "Contrast"}, {"in contrast", "Contrast"}, {"by contrast", "Contrast"}, {"on the other hand", "Contrast"},
	{"although", "Contrast"}, {"nevertheless", "Contrast"}, {"nonetheless", "Contrast"}, {"yet ", "Contrast"}, {"whereas", "Contrast"}, {"instead", "Contrast"},
	{"unlike", "Contrast"}, {"still,", "Contrast"},
	{"for example", "Elaboration"}, {"for instance", "Elaboration"}, {"specifically", "Elaboration"}, {"in particular", "Elaboration"},
	{"namely", "Elaboration"}, {"e.g.", "Elaboration"}, {"i.e.", "Elaboration"}, {"that is", "Elaboration"}, {"such ", "Elaboration"},
	{"this ", "Elaboration"}, {"these ", "Elaboration"}, {"those ", "Elaboration"}, {"that ", "Elaboration"}, {"it ", "Elaboration"},
	{"its ", "Elaboration"}, {"they ", "Elaboration"}, {"their ", "Elaboration"}, {"here,", "Elaboration"}, {"here ", "Elaboration"},
	{"the former", "Elaboration"}, {"the latter", "Elaboration"}, {"both ", "Elaboration"}, {"each ", "Elaboration"},
	{"therefore", "Cause"}, {"thus", "Cause"}, {"hence", "Cause"}, {"as a result", "Cause"}, {"consequently", "Cause"}, {"so ", "Cause"},
	{"because", "Cause"}, {"since ", "Cause"}, {"accordingly", "Cause"}, {"to this end", "Cause"},
	{"moreover", "Joint"}, {"furthermore", "Joint"}, {"in addition", "Joint"}, {"additionally", "Joint"}, {"also", "Joint"},
	{"besides", "Joint"}, {"similarly", "Joint"}, {"likewise", "Joint"}, {"second", "Joint"}, {"third", "Joint"}, {"then", "Joint"},
	{"next", "Joint"}, {"finally", "Joint"}, {"lastly", "Joint"}, {"afterwards", "Joint"}, {"after that", "Joint"},
	{"in summary", "Summary"}, {"in short", "Summary"}, {"overall", "Summary"}, {"in conclusion", "Summary"}, {"to summarize", "Summary"},
}

// Continues reports whether sentence s opens with a connective or an
// anaphor that ties it to the sentence before it.
func Continues(s string) bool { return relation(s) != "" }

// relation returns the relation a sentence's opening signals ("" = none).
func relation(s string) string {
	s = strings.ToLower(strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }))
	for _, c := range connectives {
		if strings.HasPrefix(s, c.prefix) {
			return c.rel
		}
	}
	return ""
}

// punct scores punctuation cues between the end of one unit and the start of
// the next: a colon (or a question) announces what follows; an enumeration
// item or a bracketed remark continues what precedes.
func punct(last, first string) float64 {
	last = strings.TrimSpace(last)
	first = strings.TrimSpace(first)
	s := 0.0
	if strings.HasSuffix(last, ":") {
		s = 1
	} else if strings.HasSuffix(last, "?") {
		s = 0.5
	}
	if first != "" {
		switch r := []rune(first)[0]; {
		case r == '(' || r == '[' || r == '•' || r == '-' || r == '–' || r == '*':
			s = max(s, 1)
		case unicode.IsDigit(r) && len(first) > 1 && (first[1] == ')' || first[1] == '.'):
			s = max(s, 1)
		case unicode.IsLower(r):
			s = max(s, 0.5) // a sentence split that kept going
		}
	}
	return s
}

// condense gives every internal node its text, bottom-up (tau = 0: every
// node is condensed). Offline: the sentences of the node's span closest to
// the span's centroid, in document order, up to MaxWords words. With sum:
// the LLM's summary of its two children's texts; an error falls back to the
// extractive text.
func (t *DiscourseTree) condense(ctx context.Context, leafVec [][]float32, sum Summarizer, o Options) {
	// picks[i] are the sentences node i's extractive text consists of: a
	// leaf picks itself; an internal node picks from its children's picks
	// (the extractive analogue of summarising the two children's texts),
	// which keeps the build linear in the number of sentences.
	picks := make([][]int, len(t.Nodes))
	for i := range t.Sentences {
		picks[i] = []int{i}
	}
	for i := len(t.Sentences); i < len(t.Nodes); i++ {
		n := &t.Nodes[i]
		picks[i] = t.extract(leafVec, append(append([]int(nil), picks[n.Left]...), picks[n.Right]...), n.Lo, n.Hi, o.maxWords())
		if sum != nil && ctx.Err() == nil {
			s, err := sum(ctx, t.text(n.Left), t.text(n.Right))
			if s = strings.TrimSpace(s); err == nil && s != "" {
				n.Text, n.Summary = clipWords(s, o.maxWords()), true
				t.Summaries++
				continue
			}
			t.Fallbacks++
		}
		parts := make([]string, len(picks[i]))
		for k, s := range picks[i] {
			parts[k] = t.Sentences[s].Text
		}
		n.Text = clipWords(strings.Join(parts, " "), o.maxWords())
	}
}

// text is a node's text: its sentence for a leaf, its condensed text else.
func (t *DiscourseTree) text(i int) string {
	if n := t.Nodes[i]; n.Leaf >= 0 {
		return t.Sentences[n.Leaf].Text
	}
	return t.Nodes[i].Text
}

// extract picks, among cand (sentences inside [lo, hi)), those closest to
// the centroid of cand, up to maxWords words (at least one), in document
// order.
func (t *DiscourseTree) extract(leafVec [][]float32, cand []int, lo, hi, maxWords int) []int {
	var c []float32
	for _, i := range cand {
		c = addVec(c, leafVec[i])
	}
	sim := make(map[int]float64, len(cand))
	for _, i := range cand {
		sim[i] = dotVec(c, leafVec[i])
	}
	sort.SliceStable(cand, func(a, b int) bool { return sim[cand[a]] > sim[cand[b]] })
	var keep []int
	words := 0
	for _, i := range cand {
		w := len(strings.Fields(t.Sentences[i].Text))
		if words+w > maxWords && len(keep) > 0 {
			continue
		}
		keep = append(keep, i)
		words += w
		if words >= maxWords {
			break
		}
	}
	sort.Ints(keep)
	return keep
}

// Text returns the text of node i (a leaf's sentence).
func (t *DiscourseTree) Text(i int) string { return t.text(i) }

// Leaves appends the leaf sentence indices under node i in order.
func (t *DiscourseTree) Leaves(i int) []int {
	n := t.Nodes[i]
	out := make([]int, 0, n.Hi-n.Lo)
	for s := n.Lo; s < n.Hi; s++ {
		out = append(out, s)
	}
	return out
}

// sentenceSpans splits a paragraph into sentences and returns their byte
// ranges in text (so evidence can cite exact substrings).
func sentenceSpans(text string) [][2]int {
	var out [][2]int
	at := 0
	for _, s := range papertree.SplitSentences(text) {
		i := strings.Index(text[at:], s)
		if i < 0 {
			continue
		}
		out = append(out, [2]int{at + i, at + i + len(s)})
		at += i + len(s)
	}
	return out
}

func clipWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) <= n {
		return s
	}
	return strings.Join(f[:n], " ")
}

// meanVec is the normalised centroid of vs[lo:hi].
func meanVec(vs [][]float32, lo, hi int) []float32 {
	if hi <= lo || len(vs[lo]) == 0 {
		return nil
	}
	out := make([]float32, len(vs[lo]))
	for i := lo; i < hi; i++ {
		for k, x := range vs[i] {
			if k < len(out) {
				out[k] += x
			}
		}
	}
	var s float64
	for _, x := range out {
		s += float64(x) * float64(x)
	}
	if s > 0 {
		inv := float32(1 / math.Sqrt(s))
		for k := range out {
			out[k] *= inv
		}
	}
	return out
}

// addVec returns the normalised sum of a and b (a may be nil).
func addVec(a, b []float32) []float32 {
	if len(a) == 0 {
		return append([]float32(nil), b...)
	}
	out := make([]float32, len(a))
	var s float64
	for i := range a {
		if i < len(b) {
			out[i] = a[i] + b[i]
		}
		s += float64(out[i]) * float64(out[i])
	}
	if s > 0 {
		inv := float32(1 / math.Sqrt(s))
		for i := range out {
			out[i] *= inv
		}
	}
	return out
}

// dotVec is the dot product (the cosine for unit vectors).
func dotVec(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return float64(s)
}

func cosine(a, b []float32) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	var s, na, nb float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return s / math.Sqrt(na*nb)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}
