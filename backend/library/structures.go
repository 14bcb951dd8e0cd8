package library

// Index-time structures of the structure-aware strategies.
//
//	disretrieval: discourse trees (migration 0003), built once per paper and
//	  re-used by every question. Papers indexed before the strategy existed
//	  get theirs lazily: the first question that needs a paper builds its
//	  tree offline (tens of milliseconds a paper) inside the ask job, which
//	  never runs on the window's thread. BuildDiscourseTrees is the
//	  background job that builds the missing trees ahead of time, with
//	  progress, and with an LLM writes DISRetrieval's node summaries (one
//	  call per internal node, cached like segment summaries).
//	rdr2: needs nothing at index time (it routes the PaperTree itself); with
//	  an LLM, its router runs through Ops.Route (routeHook).

import (
	"context"
	"strings"

	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/retrieve/discourse"
	"github.com/papertree/papertree/backend/store"
)

// discourseSummaryVersion is part of every cached discourse summary key.
const discourseSummaryVersion = "discourse-summary-v1"

// routeHook is RDR²'s LLM router for retrieve.Request.Route: each call's
// outcome (and fallback) goes into the answer's diagnostics.
func routeHook(s *llmState, rec *opLog) func(ctx context.Context, question, subtree string) (string, error) {
	return func(ctx context.Context, question, subtree string) (string, error) {
		raw, out := s.ops.Route(ctx, question, subtree)
		rec.add(out)
		if out.Fallback {
			return "", papertree.Errorf(papertree.ELLM, "%s", out.Reason)
		}
		return raw, nil
	}
}

// StructureProgress reports a structure job: done of total papers.
type StructureProgress func(done, total int, paperID int64)

// StructureSummary is the outcome of BuildDiscourseTrees.
type StructureSummary struct {
	Built     int      `json:"built"`
	Summaries int      `json:"llm_summaries"`
	Fallbacks int      `json:"llm_fallbacks"` // node summaries that fell back to extraction
	Failed    []string `json:"failed,omitempty"`
}

// BuildDiscourseTrees builds the discourse trees that are missing or stale
// (built with other settings, another embedder, or extractively while an
// LLM is now on) for every ready paper. One failing paper is reported and
// the rest goes on; cancelling ctx stops between papers (and between LLM
// calls) and keeps what was built.
func (l *Library) BuildDiscourseTrees(ctx context.Context, p retrieve.DiscParams, progress StructureProgress) (StructureSummary, error) {
	var sum StructureSummary
	s := l.llmOn()
	summarizer := "extractive"
	var fLLM discourse.Summarizer
	if s != nil {
		summarizer = "llm:" + s.model
		fLLM = func(ctx context.Context, left, right string) (string, error) {
			key := store.LLMCacheKey(llm.OpDiscourseSummary, s.model, discourseSummaryVersion, left, right)
			if v, ok, err := l.store.CacheGet(ctx, key); err == nil && ok {
				return v, nil
			}
			out, o := s.ops.SummarizePair(ctx, left, right, nil)
			if o.Fallback {
				return "", papertree.Errorf(papertree.ELLM, "%s", o.Reason)
			}
			_ = l.store.CachePut(ctx, key, llm.OpDiscourseSummary, s.model, out)
			return out, nil
		}
	}
	ix := l.Retrieval()
	ids, err := l.store.PapersWithoutStructure(ctx, retrieve.DiscourseKind, func(paperID int64, key string) bool {
		d, err := ix.Paper(ctx, paperID)
		if err != nil {
			return false
		}
		base := retrieve.DiscourseKey(d, p.Tree, l.emb.Name(), "")
		return strings.HasPrefix(key, base) && (s == nil || !strings.HasSuffix(key, "|extractive"))
	})
	if err != nil {
		return sum, err
	}
	for i, id := range ids {
		if err := ctx.Err(); err != nil {
			return sum, papertree.Wrap(err, papertree.ECanceled, "Building discourse trees was cancelled.")
		}
		n, fb, err := retrieve.BuildDiscourse(ctx, ix, id, p, fLLM, summarizer)
		if err != nil {
			sum.Failed = append(sum.Failed, papertree.ErrorMessage(err))
		} else {
			sum.Built++
			sum.Summaries += n
			sum.Fallbacks += fb
		}
		if progress != nil {
			progress(i+1, len(ids), id)
		}
	}
	return sum, nil
}
