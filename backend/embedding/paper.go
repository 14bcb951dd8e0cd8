package embedding

import (
	"context"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// PaperVectors holds one paper's vectors per space, keyed by Node.Order. It
// has the same shape as store.Vectors, so callers convert with
// store.Vectors(v).
type PaperVectors struct {
	Segment, Summary, Section map[int][]float32
	// Paper holds one vector for the whole paper, on the root (key 0).
	Paper map[int][]float32
}

// MaxSectionChars caps the text embedded for one section body: past this
// length a section's vector changes little and costs more.
const MaxSectionChars = 24000

// EmbedPaper embeds every leaf (segment space), every segment summary that
// is present (summary space) and every section body, title included (section
// space, used by PT-RAG's stage-1 E_sec). The tree is renumbered first so
// that keys are document-order indexes.
func EmbedPaper(ctx context.Context, emb papertree.Embedder, p *papertree.Paper) (PaperVectors, error) {
	v := PaperVectors{Segment: map[int][]float32{}, Summary: map[int][]float32{}, Section: map[int][]float32{}, Paper: map[int][]float32{}}
	if p == nil || p.Root == nil {
		return v, nil
	}
	p.Root.Renumber()
	var leafTexts, sumTexts, secTexts []string
	var leafOrd, sumOrd, secOrd []int
	p.Root.Walk(func(path []*papertree.Node) bool {
		n := path[len(path)-1]
		switch {
		case n.IsLeaf():
			leafTexts = append(leafTexts, n.Text)
			leafOrd = append(leafOrd, n.Order)
			if n.Summary != "" {
				sumTexts = append(sumTexts, n.Summary)
				sumOrd = append(sumOrd, n.Order)
			}
		case n.Kind == papertree.KindSection:
			secTexts = append(secTexts, SectionBody(n, MaxSectionChars))
			secOrd = append(secOrd, n.Order)
		}
		return true
	})
	for _, job := range []struct {
		texts []string
		ords  []int
		into  map[int][]float32
	}{{leafTexts, leafOrd, v.Segment}, {sumTexts, sumOrd, v.Summary}, {secTexts, secOrd, v.Section},
		{[]string{PaperText(p, MaxSectionChars)}, []int{p.Root.Order}, v.Paper}} {
		if len(job.texts) == 0 {
			continue
		}
		vecs, err := emb.Embed(ctx, job.texts)
		if err != nil {
			return v, err
		}
		if len(vecs) != len(job.texts) {
			return v, papertree.Errorf(papertree.EInternal, "The embedder returned %d vectors for %d texts.", len(vecs), len(job.texts))
		}
		for i, o := range job.ords {
			job.into[o] = vecs[i]
		}
	}
	return v, nil
}

// SectionBody is the text that represents a section for stage-1 selection:
// its title followed by the text of the leaves beneath it, capped at max
// bytes (on a rune boundary).
func SectionBody(n *papertree.Node, max int) string {
	var b strings.Builder
	b.WriteString(n.Title)
	return appendLeaves(&b, n, max)
}

// PaperText is the text that represents a whole paper when picking papers
// for a library-wide question: title, abstract, every section title, then
// the paper's text from the start, capped at max bytes.
func PaperText(p *papertree.Paper, max int) string {
	var b strings.Builder
	b.WriteString(p.Title)
	b.WriteString("\n")
	b.WriteString(p.Abstract)
	for _, h := range papertree.Headings(p.Root) {
		b.WriteString("\n")
		b.WriteString(h.Text)
	}
	return appendLeaves(&b, p.Root, max)
}

// appendLeaves appends the text of the leaves under n (one per line) until b
// holds max bytes, and returns b's text cut to max bytes on a rune boundary.
func appendLeaves(b *strings.Builder, n *papertree.Node, max int) string {
	n.Walk(func(path []*papertree.Node) bool {
		if b.Len() >= max {
			return false
		}
		if c := path[len(path)-1]; c.IsLeaf() {
			b.WriteString("\n")
			b.WriteString(c.Text)
		}
		return true
	})
	s := b.String()
	if len(s) > max {
		// Cutting mid-rune leaves a broken tail; drop it.
		s = strings.ToValidUTF8(s[:max], "")
	}
	return s
}
