package retrieve

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
)

// Names a paper never prints. Researchers call papers by names their
// citers gave them ("the AlexNet paper": Krizhevsky et al. never write
// "AlexNet"), and the library's own papers say which paper such a name
// stands for where they cite it: "the AlexNet paper [24]", "ResNet (He et
// al., 2016)". A word a question uses to refer to a paper ("the AlexNet
// paper", query.Question.Refs) that no paper's card holds is looked up in
// those citing passages, and each citation right after it is resolved to
// a library paper: a numbered one through the citing paper's reference
// entry (its title words), an author-year one through the first author
// and year. The word names that paper when every citation resolved points
// at it.

const (
	// citingHits bounds the passages read for a name, citingPapers the
	// papers they come from (each loaded once, as retrieval would).
	citingHits   = 40
	citingPapers = 8
	// citeWindow is how far after the name its citation may stand (the
	// name's own words between: "the AlexNet paper [24]").
	citeWindow = 60
)

var (
	// numCiteAfter: a numbered citation after at most three words.
	numCiteAfter = regexp.MustCompile(`^[\s,]*(?:[\p{L}'’-]+\s+){0,3}?\[(\d{1,3})(?:\s*[,–-]\s*\d{1,3})*\]`)
	// authorYearAfter: "(Krizhevsky et al., 2012)", "by He et al. (2016)".
	authorYearAfter = regexp.MustCompile(`^[\s,]*(?:\(|(?:[\p{L}'’-]+\s+){0,2}?)([A-Z][\p{L}'’-]+)(?:\s+et\s+al\.?|\s+(?:and|&)\s+[A-Z][\p{L}'’-]+)?,?\s*\(?((?:19|20)\d\d)[a-z]?\b`)
)

// nicknames returns, for each word q refers to a paper with that names no
// paper directly, the paper the library's citations say it stands for.
//
// With bare, a one-word name the question uses as typed is looked up too: a
// researcher asks "What learning rate did AlexNet use?" as well as "... the
// AlexNet paper ...". Only its citations decide: a name that stands for no
// library paper (a data set, a method cited to papers outside the library)
// or for several resolves to none. identify asks for bare names only when
// the question names no paper otherwise: a model named beside its paper
// ("In the RoBERTa paper, what score does XLNetLARGE reach") is what is
// asked about, not another name of a paper.
func nicknames(ctx context.Context, ix Index, q *query.Question, set *cardSet, bare bool) map[string]int64 {
	var out map[string]int64
	words := make([]string, 0, len(q.Refs)+len(q.Names))
	for w := range q.Refs {
		words = append(words, w)
	}
	for _, n := range q.Names {
		if w := strings.ToLower(n); bare && !strings.Contains(n, " ") && !q.Refs[w] {
			words = append(words, w)
		}
	}
	for _, w := range words {
		if len([]rune(w)) < 3 || embedding.IsStopword(w) || set.named[w] {
			continue
		}
		if id := set.citedAs(ctx, ix, w); id != 0 {
			if out == nil {
				out = map[string]int64{}
			}
			out[w] = id
		}
	}
	return out
}

// citedAs is the paper the library's citations of name resolve to, 0 when
// none does or they point at different papers; an error when the index
// could not be searched or read (the answer is then unknown, not 0).
func citedAs(ctx context.Context, ix Index, name string, cards []*card) (int64, error) {
	hits, err := ix.SearchText(ctx, name, nil, citingHits)
	if err != nil || len(hits) == 0 {
		return 0, err
	}
	nameRE, err := regexp.Compile(`(?i)\b` + regexp.QuoteMeta(name) + `\b`)
	if err != nil {
		return 0, nil
	}
	byPaper := map[int64][]int64{}
	var order []int64
	for _, h := range hits {
		if _, ok := byPaper[h.PaperID]; !ok {
			if len(order) == citingPapers {
				continue
			}
			order = append(order, h.PaperID)
		}
		byPaper[h.PaperID] = append(byPaper[h.PaperID], h.NodeID)
	}
	// The passages' texts, read without loading their papers where the
	// index can (at 5,000 papers a paper is rarely loaded already, and
	// most passages that print the name cite nothing right after it): a
	// paper is loaded only for a numbered citation, whose reference entry
	// it holds.
	var texts map[int64]string
	if nt, ok := ix.(nodeTexter); ok {
		var ids []int64
		for _, pid := range order {
			ids = append(ids, byPaper[pid]...)
		}
		if texts, err = nt.NodeTexts(ctx, ids); err != nil {
			return 0, err
		}
	}
	found := int64(0)
	for _, pid := range order {
		var d *PaperData
		paper := func() *PaperData {
			if d == nil {
				if d, err = ix.Paper(ctx, pid); err != nil {
					d = nil
				}
			}
			return d
		}
		for _, nid := range byPaper[pid] {
			text, ok := texts[nid]
			if texts == nil {
				if paper() == nil {
					break
				}
				var o int
				if o, ok = d.byID[nid]; ok {
					text = d.Nodes[o].Text
				}
			}
			if !ok {
				continue
			}
			for _, m := range nameRE.FindAllStringIndex(text, -1) {
				id := resolveCitation(paper, text[m[1]:min(len(text), m[1]+citeWindow)], cards)
				switch {
				case id == 0:
				case found == 0:
					found = id
				case found != id:
					return 0, nil // the name stands for different papers
				}
			}
		}
	}
	return found, nil
}

// nodeTexter is implemented by indexes that can read passages' texts
// without loading their papers (StoreIndex).
type nodeTexter interface {
	NodeTexts(ctx context.Context, ids []int64) (map[int64]string, error)
}

// resolveCitation resolves the citation at the start of after (text
// following a name) to a library paper: a numbered one through the citing
// paper's reference entry (paper loads it; nil when it cannot be read), an
// author-year one through first author and year.
func resolveCitation(paper func() *PaperData, after string, cards []*card) int64 {
	if m := numCiteAfter.FindStringSubmatch(after); m != nil {
		d := paper()
		if d == nil {
			return 0
		}
		n, _ := strconv.Atoi(m[1])
		return byTitle(referenceEntry(d, n), cards)
	}
	if m := authorYearAfter.FindStringSubmatch(after); m != nil {
		sn := strings.ToLower(trimWord(m[1]))
		y, _ := strconv.Atoi(m[2])
		var id int64
		for _, c := range cards {
			if c.first == sn && c.year == y {
				if id != 0 {
					return 0 // two papers by that first author that year
				}
				id = c.id
			}
		}
		return id
	}
	return 0
}

// referenceEntry is entry n of d's reference list ("[24] A. Krizhevsky, I.
// Sutskever, and G. Hinton. Imagenet classification ..."), "" if none.
func referenceEntry(d *PaperData, n int) string {
	tag := "[" + strconv.Itoa(n) + "]"
	for o, node := range d.Nodes {
		if !node.IsLeaf() || !underRole(d, o, papertree.RoleReferences) {
			continue
		}
		for _, line := range strings.Split(node.Text, "\n") {
			if line = strings.TrimSpace(line); strings.HasPrefix(line, tag) {
				return line[len(tag):]
			}
		}
	}
	return ""
}

// underRole reports whether node o of d has role r or sits under a
// section of role r.
func underRole(d *PaperData, o int, r papertree.Role) bool {
	for a := o; a >= 0; a = d.Parent[a] {
		if d.Nodes[a].Role == r {
			return true
		}
	}
	return false
}

// byTitle is the one paper whose title's content words (at least three)
// a reference entry holds, 0 if none or several.
func byTitle(entry string, cards []*card) int64 {
	if entry == "" {
		return 0
	}
	low := " " + strings.ToLower(strings.Join(strings.FieldsFunc(entry, func(r rune) bool {
		return !(r == '-' || r == '\'' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r > 127)
	}), " ")) + " "
	var id int64
	for _, c := range cards {
		n, held := 0, 0
		for _, w := range c.words {
			if len(w) < 3 || embedding.IsStopword(w) {
				continue
			}
			n++
			if strings.Contains(low, " "+w+" ") {
				held++
			}
		}
		if n >= 3 && held == n {
			if id != 0 && id != c.id {
				return 0
			}
			id = c.id
		}
	}
	return id
}
