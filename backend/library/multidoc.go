package library

import (
	"context"
	"fmt"
	"strings"

	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

// multiDocStrategy reports whether a strategy selects papers itself and
// takes the multi-paper LLM hooks (instead of the per-paper multi-document
// path and multi-hop decomposition PT-RAG uses).
func multiDocStrategy(name string) bool { return name == "fable" || name == "structrag" }

// multiDocHooks wraps the LLM operations of FABLE and StructRAG for the
// retrieve package. Every outcome is recorded in rec (token counts, and the
// LLM step's fallback reason); a failed step returns an error so the
// strategy uses its offline stand-in and lists it.
func multiDocHooks(s *llmState, rec *opLog) *retrieve.MultiDocLLM {
	fail := func(out llm.Outcome) error {
		return papertree.Errorf(papertree.ELLM, "%s", out.Reason)
	}
	toc := func(docs []retrieve.DocToC) []llm.ToCDoc {
		out := make([]llm.ToCDoc, len(docs))
		for i, d := range docs {
			out[i] = llm.ToCDoc{ID: d.PaperID, Title: d.Title}
			for _, e := range d.Entries {
				out[i].Entries = append(out[i].Entries, llm.ToCEntry{ID: e.NodeID, Path: e.Path, Summary: e.Summary})
			}
		}
		return out
	}
	return &retrieve.MultiDocLLM{
		SelectDocs: func(ctx context.Context, q string, docs []retrieve.DocToC) ([]int64, string, error) {
			ids, reason, out := s.ops.FableSelect(ctx, q, toc(docs))
			rec.add(out)
			if out.Fallback {
				return nil, "", fail(out)
			}
			return ids, reason, nil
		},
		Navigate: func(ctx context.Context, q string, docs []retrieve.DocToC) ([]int64, error) {
			ids, out := s.ops.FableNavigate(ctx, q, toc(docs))
			rec.add(out)
			if out.Fallback {
				return nil, fail(out)
			}
			return ids, nil
		},
		Route: func(ctx context.Context, q string, titles []string) (string, string, error) {
			t, reason, out := s.ops.StructRoute(ctx, q, titles)
			rec.add(out)
			if out.Fallback {
				return "", "", fail(out)
			}
			if reason == "" {
				reason = "the LLM router's choice"
			}
			return t, reason, nil
		},
		AutoRoute: func(ctx context.Context, q string, titles []string) (string, string, error) {
			t, reason, out := s.ops.AutoRoute(ctx, q, titles)
			rec.add(out)
			if out.Fallback {
				return "", "", fail(out)
			}
			return t, reason, nil
		},
		// The router is one word in front of the answer: a sixth of the
		// answer's LLM time budget (10 s of the default 60 s), so a slow
		// server leaves the rules' route most of the budget to answer.
		RouteDeadline: s.budget / 6,
		Structurize: func(ctx context.Context, q, typ string, doc retrieve.StructDoc) (retrieve.StructOut, error) {
			src := make([]llm.StructSource, len(doc.Sources))
			for i, x := range doc.Sources {
				var ps []string
				for _, p := range x.Pages {
					ps = append(ps, fmt.Sprint(p))
				}
				src[i] = llm.StructSource{Tag: x.Tag, Path: x.Path, Pages: strings.Join(ps, ","), Text: x.Text}
			}
			desc, items, out := s.ops.Structurize(ctx, q, typ, doc.Title, src)
			rec.add(out)
			if out.Fallback {
				return retrieve.StructOut{}, fail(out)
			}
			res := retrieve.StructOut{Description: desc}
			for _, it := range items {
				res.Items = append(res.Items, retrieve.StructItem{Text: it.Text, Sources: it.Sources})
			}
			return res, nil
		},
		Decompose: func(ctx context.Context, q string, descs []string) ([]string, error) {
			subs, out := s.ops.StructDecompose(ctx, q, descs)
			rec.add(out)
			if out.Fallback {
				return nil, fail(out)
			}
			return subs, nil
		},
		Extract: func(ctx context.Context, sub, typ string, items []string) ([]int, error) {
			keep, out := s.ops.StructExtract(ctx, sub, typ, items)
			rec.add(out)
			if out.Fallback {
				return nil, fail(out)
			}
			return keep, nil
		},
	}
}
