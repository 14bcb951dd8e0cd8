package retrieve

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// MultiHop holds the LLM steps of multi-hop retrieval (PT-RAG sec. 3.4.1).
// The steps are plain functions so that this package never talks to a
// model: the caller (library) wraps llm.Ops and records their fallbacks.
type MultiHop struct {
	// Decompose splits a query into at most max sub-queries, in answer
	// order. It returns at least one query (its fallback is the query, or
	// the LLM's whole output).
	Decompose func(ctx context.Context, query string, max int) []string
	// Entities returns the high-confidence entities of text that matter for
	// the next sub-query; nil (its fallback) keeps the next sub-query
	// unchanged. May be nil.
	Entities func(ctx context.Context, text, next string) []string
}

// Hop is one step of a multi-hop retrieval, for diagnostics.
type Hop struct {
	Query    string   `json:"query"`              // as retrieved, with carried entities
	Budget   int      `json:"budget"`             // the token share this hop was given
	Added    int      `json:"added"`              // new evidence items (not seen in earlier hops)
	Tokens   int      `json:"tokens"`             // tokens of the new evidence
	Entities []string `json:"entities,omitempty"` // new entities carried into the next hop
}

// RetrieveMultiHop answers req with up to req.Params.Hops sub-queries run
// through s. Invariants:
//   - All hops share the global budget T = req.Budget: hop k of n gets
//     remaining/(n-k) tokens, and only evidence new to the merged result
//     counts against the remainder, so the merged evidence never exceeds T.
//   - After hop k, the entities of its new evidence that Entities finds
//     (and that no earlier hop carried) are appended to sub-query k+1.
//   - It stops when H sub-queries ran, the budget is spent, or two
//     consecutive hops brought no new entities.
//   - The merged evidence is de-duplicated by node (the better score wins)
//     and grouped by paper in document order; Context is rebuilt from it.
//
// With a single sub-query this is exactly one call of s.Retrieve.
func RetrieveMultiHop(ctx context.Context, s Strategy, ix Index, req Request, h MultiHop) (Result, []Hop, error) {
	if err := checkRequest(&req); err != nil {
		return Result{}, nil, err
	}
	maxHops := req.Params.Hops
	subs := []string{req.Query}
	if h.Decompose != nil && maxHops > 1 {
		if d := h.Decompose(ctx, req.Query, maxHops); len(d) > 0 {
			subs = d
		}
	}
	if len(subs) > maxHops {
		subs = subs[:maxHops]
	}
	if len(subs) == 1 {
		one := req
		one.Query = strings.TrimSpace(subs[0])
		if one.Query == "" {
			one.Query = req.Query
		}
		res, err := s.Retrieve(ctx, ix, one)
		if err != nil {
			return Result{}, nil, err
		}
		return res, []Hop{{Query: one.Query, Budget: req.Budget, Added: len(res.Evidence), Tokens: res.Diag.TokensUsed}}, nil
	}

	var (
		hops      []Hop
		parts     []Result
		seen      = map[[2]int64]bool{}
		carried   = map[string]bool{}
		remaining = req.Budget
		quiet     = 0 // consecutive hops without new entities
	)
	for k := 0; k < len(subs) && remaining > 0; k++ {
		if err := ctx.Err(); err != nil {
			return Result{}, hops, papertree.Wrap(err, papertree.ECanceled, "The question was cancelled.")
		}
		q := strings.TrimSpace(subs[k])
		if q == "" {
			continue
		}
		share := remaining / (len(subs) - k)
		if share <= 0 {
			break
		}
		hr := req
		hr.Query, hr.Budget = q, share
		res, err := s.Retrieve(ctx, ix, hr)
		if err != nil {
			return Result{}, hops, fmt.Errorf("hop %d: %w", k+1, err)
		}
		hop := Hop{Query: q, Budget: share}
		var fresh []papertree.Evidence
		for _, e := range res.Evidence {
			key := [2]int64{e.PaperID, e.NodeID}
			if seen[key] {
				continue
			}
			seen[key] = true
			fresh = append(fresh, e)
			hop.Added++
			hop.Tokens += e.Tokens
		}
		remaining -= hop.Tokens
		res.Evidence = fresh
		parts = append(parts, res)
		if k+1 < len(subs) {
			var newEnts []string
			if h.Entities != nil && len(fresh) > 0 {
				var b strings.Builder
				for _, e := range fresh {
					b.WriteString(e.Text)
					b.WriteString("\n\n")
				}
				for _, ent := range h.Entities(ctx, b.String(), subs[k+1]) {
					key := strings.ToLower(strings.TrimSpace(ent))
					if key == "" || carried[key] {
						continue
					}
					carried[key] = true
					newEnts = append(newEnts, strings.TrimSpace(ent))
				}
			}
			if len(newEnts) > 0 {
				quiet = 0
				subs[k+1] = strings.TrimSpace(subs[k+1]) + " (" + strings.Join(newEnts, "; ") + ")"
				hop.Entities = newEnts
			} else {
				quiet++
			}
		}
		hops = append(hops, hop)
		if quiet >= 2 {
			break
		}
	}
	merged := MergeResults(parts, req.Budget)
	return merged, hops, nil
}

// MergeResults combines the results of several retrievals (hops, or papers of a
// multi-document question) into one: evidence de-duplicated by node (the
// higher score is kept), grouped by paper in order of first appearance and
// in document order within a paper, with each item's provenance intact;
// Context rebuilt in the strategies' format; diagnostics recomputed
// (TokensUsed, Sections, SectionEntropy), Budget set to budget, timings
// summed, fallbacks united and section scores concatenated.
func MergeResults(parts []Result, budget int) Result {
	type item struct {
		e     papertree.Evidence
		paper int // rank of the paper by first appearance
	}
	byKey := map[[2]int64]int{}
	paperRank := map[int64]int{}
	var items []item
	var out Result
	for _, r := range parts {
		for _, e := range r.Evidence {
			if _, ok := paperRank[e.PaperID]; !ok {
				paperRank[e.PaperID] = len(paperRank)
			}
			key := [2]int64{e.PaperID, e.NodeID}
			if i, ok := byKey[key]; ok {
				if e.Score > items[i].e.Score {
					items[i].e = e
				}
				continue
			}
			byKey[key] = len(items)
			items = append(items, item{e: e, paper: paperRank[e.PaperID]})
		}
		for k, v := range r.Diag.Timings {
			if out.Diag.Timings == nil {
				out.Diag.Timings = map[string]float64{}
			}
			out.Diag.Timings[k] += v
		}
		out.Sections = append(out.Sections, r.Sections...)
		for _, f := range r.Diag.Fallbacks {
			if !hasString(out.Diag.Fallbacks, f) {
				out.Diag.Fallbacks = append(out.Diag.Fallbacks, f)
			}
		}
	}
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].paper != items[j].paper {
			return items[i].paper < items[j].paper
		}
		return items[i].e.Order < items[j].e.Order
	})
	out.Evidence = make([]papertree.Evidence, len(items))
	for i, it := range items {
		out.Evidence[i] = it.e
		out.Diag.TokensUsed += it.e.Tokens
	}
	out.Context = ContextOf(out.Evidence)
	out.Diag.Budget = budget
	out.Diag.SectionEntropy, out.Diag.Sections = SectionEntropy(out.Evidence)
	return out
}

func hasString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// ContextOf renders evidence as the strategies' context: a "# paper title"
// line per paper, a "## path" header whenever the section path changes,
// then "[n] (summary) ..." and "[n] text" per item, n = position + 1.
func ContextOf(ev []papertree.Evidence) string {
	var b strings.Builder
	lastPaper, lastPath := int64(-1), ""
	for i, e := range ev {
		if e.PaperID != lastPaper {
			fmt.Fprintf(&b, "# %s\n", e.PaperTitle)
			lastPaper, lastPath = e.PaperID, ""
		}
		p := ""
		if len(e.Path) > 1 {
			p = strings.Join(e.Path[1:], " > ")
		}
		if p == "" {
			p = "(front matter)"
		}
		if p != lastPath {
			fmt.Fprintf(&b, "## %s\n", p)
			lastPath = p
		}
		if e.Summary != "" {
			fmt.Fprintf(&b, "[%d] (summary) %s\n", i+1, e.Summary)
		}
		fmt.Fprintf(&b, "[%d] %s\n\n", i+1, e.Text)
	}
	return b.String()
}
