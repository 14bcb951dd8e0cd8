package library

// LLM wiring. The library works the same with and without a language
// model: every LLM step has a fallback (PT-RAG Table 5) and every fallback
// that happened is listed in the answer's Diagnostics.Fallbacks.
//
//	ConfigureLLM: Detect -> (chat model usable?) -> Client + Ops, or LLM off
//	Index:   segment summaries via Ops.Summarize, cached in llm_cache by
//	         input hash (fallback: extractive summaries)
//	Ask:     F_sec via Ops.TitleRelevance (fallback: embeddings only)
//	         one paper / library: multi-hop (Decompose, ExtractEntitiesFor)
//	         several papers: TransformMultiDoc -> per-paper retrieval -> merge
//	         answer via Ops.Answer, streamed (fallback: extractive answer)

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/papertree/papertree/backend/answer"
	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/store"
	"github.com/papertree/papertree/backend/summarize"
)

// StatusSummarizing is the indexing state of a file whose segment
// summaries are being written by the LLM (only with an LLM: extractive
// summaries are part of "embedding").
const StatusSummarizing FileStatus = "summarizing"

// DefaultLLMDetectTimeout bounds the server detection Open runs when
// Config.LLM is set, so a hanging server cannot stall the app's start.
const DefaultLLMDetectTimeout = 5 * time.Second

// EntityThreshold is tau_ent: the confidence an entity needs to be carried
// into the next sub-query of a multi-hop question.
const EntityThreshold = 0.7

// summaryPromptVersion is part of every summary cache key: changing the
// summary prompt or its parameters must change it, so old outputs are not
// reused.
const summaryPromptVersion = "summary-v1"

// llmState is the switched-on LLM. It is immutable; ConfigureLLM swaps it.
type llmState struct {
	status llm.Status
	ops    *llm.Ops
	model  string
	// budget is the time one answer's LLM steps may take (the settings'
	// llm.answer_budget_seconds, llm.Config.AnswerBudget).
	budget time.Duration
}

// budgetReserve is the share of an answer's budget kept for what follows
// the LLM steps (the extractive answer when they fell back, saving): a
// tenth, at most 5 s, so the answer comes within the budget.
func budgetReserve(budget time.Duration) time.Duration { return min(budget/10, 5*time.Second) }

// withBudget returns s whose LLM calls all end by start+budget-reserve;
// a call still waiting then fails with a message naming the budget, and its
// step falls back. Only the LLM calls are bounded: retrieval and the
// extractive answer run on the caller's ctx, so the answer still comes.
func (s *llmState) withBudget(start time.Time) *llmState {
	deadline := start.Add(s.budget - budgetReserve(s.budget))
	cause := papertree.Wrap(errAnswerBudget, papertree.ELLM, "the time budget of one answer ("+secondsWords(s.budget)+") ran out")
	ops := *s.ops
	ops.Client = budgeted{Client: s.ops.Client, deadline: deadline, cause: cause}
	b := *s
	b.ops = &ops
	return &b
}

func secondsWords(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// breakerTrips and breakerPause: after breakerTrips calls in a row ended on
// a time limit, the server is not asked for breakerPause. Two: one slow
// call is not a dead server, and a job whose calls run one after another
// (structures) pays breakerTrips limits before it stops waiting.
const (
	breakerTrips = 2
	breakerPause = time.Minute
)

// breaker stops asking a server that keeps missing its time limits (down,
// hung, overloaded): each such call costs a whole limit (30 s for the first
// byte by default), and an index or structures job makes hundreds. After
// breakerTrips calls in a row ended on a limit (llm.ErrTimeLimit), calls
// fail at once for breakerPause, so the steps use their fallbacks at once;
// then one call at a time probes the server (the others still fail at
// once) until one gets an answer of any kind, which closes it. It is shared
// by every job and question of the library.
type breaker struct {
	llm.Client
	base string
	now  func() time.Time
	// sem bounds the calls in flight like the client's own semaphore, so
	// a call that waited for a slot checks the breaker after its wait (a
	// queue of calls would otherwise each spend a limit on a dead server).
	sem chan struct{}

	mu        sync.Mutex
	misses    int
	openUntil time.Time
	probing   bool
}

// allow says whether a call may go out; probe is true for the one call
// that re-checks a server after the pause.
func (b *breaker) allow() (probe bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.misses < breakerTrips {
		return false, nil
	}
	if b.now().Before(b.openUntil) || b.probing {
		return false, papertree.Errorf(papertree.ELLM, "the LLM server at %s missed its time limit %d times in a row, so it is asked again only once in %s",
			b.base, b.misses, secondsWords(breakerPause))
	}
	b.probing = true
	return true, nil
}

func (b *breaker) record(probe bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if probe {
		b.probing = false
	}
	switch {
	case errors.Is(err, llm.ErrTimeLimit):
		b.misses++
		if b.misses >= breakerTrips {
			b.openUntil = b.now().Add(breakerPause)
		}
	case err == nil || papertree.ErrorCode(err) == papertree.ELLM && !errors.Is(err, context.DeadlineExceeded):
		// The server answered (well or badly): it is alive. A cancel or
		// the caller's own deadline says nothing about it.
		b.misses = 0
	}
}

// acquire takes a slot; release gives it back.
func (b *breaker) acquire(ctx context.Context) error {
	select {
	case b.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		var pe *papertree.Error
		switch {
		case errors.As(context.Cause(ctx), &pe):
			return papertree.Wrap(ctx.Err(), papertree.ELLM, pe.Message) // the answer's budget
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			return papertree.Wrap(ctx.Err(), papertree.ELLM, "no slot for a request to the LLM server at "+b.base+" before the deadline")
		}
		return papertree.Wrap(ctx.Err(), papertree.ECanceled, "the request to the LLM server was cancelled")
	}
}

func (b *breaker) release() { <-b.sem }

func (b *breaker) Chat(ctx context.Context, req llm.ChatRequest) (llm.ChatResponse, error) {
	return b.guard(ctx, func() (llm.ChatResponse, error) { return b.Client.Chat(ctx, req) })
}

func (b *breaker) ChatStream(ctx context.Context, req llm.ChatRequest, onDelta func(string)) (llm.ChatResponse, error) {
	return b.guard(ctx, func() (llm.ChatResponse, error) { return b.Client.ChatStream(ctx, req, onDelta) })
}

// guard makes one chat call through the breaker: it waits for a slot, is
// refused while the breaker is open (but for a probe), and records how the
// call ended.
func (b *breaker) guard(ctx context.Context, call func() (llm.ChatResponse, error)) (llm.ChatResponse, error) {
	if err := b.acquire(ctx); err != nil {
		return llm.ChatResponse{}, err
	}
	defer b.release()
	probe, err := b.allow()
	if err != nil {
		return llm.ChatResponse{}, err
	}
	resp, err := call()
	b.record(probe, err)
	return resp, err
}

// errAnswerBudget is in the chain of a call that the answer's budget ended.
var errAnswerBudget = errors.New("the answer's LLM time budget ran out")

// budgeted is a Client whose calls end at deadline (with cause), whatever
// deadline the caller's ctx has.
type budgeted struct {
	llm.Client
	deadline time.Time
	cause    error
}

func (b budgeted) Chat(ctx context.Context, req llm.ChatRequest) (llm.ChatResponse, error) {
	ctx, cancel := context.WithDeadlineCause(ctx, b.deadline, b.cause)
	defer cancel()
	return b.Client.Chat(ctx, req)
}

func (b budgeted) ChatStream(ctx context.Context, req llm.ChatRequest, onDelta func(string)) (llm.ChatResponse, error) {
	ctx, cancel := context.WithDeadlineCause(ctx, b.deadline, b.cause)
	defer cancel()
	return b.Client.ChatStream(ctx, req, onDelta)
}

// ConfigureLLM detects the server described by cfg (within ctx) and
// switches the LLM operations on when its chat model is usable; otherwise
// they are switched off and the library answers extractively. Provider
// "none" switches them off without a probe. The returned Status says what
// was found; err (ELLM) says why the LLM is off. Papers indexed afterwards
// get LLM summaries (and papers indexed before are re-indexed on the next
// Index, because the fingerprint includes the summary model).
func (l *Library) ConfigureLLM(ctx context.Context, cfg llm.Config) (llm.Status, error) {
	if strings.EqualFold(strings.TrimSpace(cfg.Provider), llm.ProviderNone) {
		st := llm.Status{Provider: llm.ProviderNone}
		l.setLLM(nil, st)
		return st, nil
	}
	st, err := llm.Detect(ctx, cfg)
	if err != nil {
		l.setLLM(nil, st)
		return st, err
	}
	if !st.ChatUsable() {
		l.setLLM(nil, st)
		return st, papertree.Errorf(papertree.ELLM, "%s", st.Summary())
	}
	client, err := llm.New(st.Config, l.store.Usage())
	if err != nil {
		l.setLLM(nil, st)
		return st, err
	}
	client = &breaker{Client: client, base: st.BaseURL, now: time.Now, sem: make(chan struct{}, st.Config.WithDefaults().MaxConcurrency)}
	l.setLLM(&llmState{status: st, ops: llm.NewOps(client), model: st.ChatModel, budget: st.Config.WithDefaults().AnswerBudget}, st)
	return st, nil
}

func (l *Library) setLLM(s *llmState, st llm.Status) {
	l.llmMu.Lock()
	defer l.llmMu.Unlock()
	l.llm, l.llmStatus = s, st
}

func (l *Library) llmOn() *llmState {
	l.llmMu.RLock()
	defer l.llmMu.RUnlock()
	return l.llm
}

// LLMStatus is the last detection result; on reports whether LLM
// operations are switched on.
func (l *Library) LLMStatus() (st llm.Status, on bool) {
	l.llmMu.RLock()
	defer l.llmMu.RUnlock()
	return l.llmStatus, l.llm != nil
}

// LLMUsage sums the recorded LLM calls per operation and model since t
// (zero = all).
func (l *Library) LLMUsage(ctx context.Context, since time.Time) ([]store.UsageTotal, error) {
	return l.store.UsageTotals(ctx, since)
}

// summarizer names what writes segment summaries, for the fingerprint:
// "" for the extractive summarizer (so fingerprints without an LLM are
// unchanged), "llm:<model>" with an LLM.
func (l *Library) summarizer() string {
	if s := l.llmOn(); s != nil {
		return "llm:" + s.model
	}
	return ""
}

// partialSummaries marks a paper whose LLM summaries are incomplete (some
// calls failed): it differs from every real fingerprint, so the paper is
// indexed again next time and the missing summaries are retried.
const partialSummaries = "llm-partial"

// summarizePaper writes every segment's summary. Without an LLM it is
// summarize.Paper. With one, each section's chain of segments (a summary
// depends on the previous one) runs in order while sections run in
// parallel (Config.SummaryWorkers); each output is cached under the hash
// of (op, model, prompt version, title, path, segment, previous summary),
// so re-indexing an unchanged paper asks the model nothing. A call that
// fails falls back to the extractive summary and is not cached; complete
// is then false.
func (l *Library) summarizePaper(ctx context.Context, p *papertree.Paper) (complete bool) {
	s := l.llmOn()
	if s == nil || p == nil || p.Root == nil {
		summarize.Paper(p)
		return true
	}
	type chain struct {
		path []string
		segs []*papertree.Node
	}
	var chains []chain
	p.Root.Walk(func(path []*papertree.Node) bool {
		n := path[len(path)-1]
		if n.IsLeaf() {
			return false
		}
		c := chain{path: papertree.PathTitles(path)[1:]}
		for _, ch := range n.Children {
			if ch.Kind == papertree.KindSegment {
				c.segs = append(c.segs, ch)
			}
		}
		if len(c.segs) > 0 {
			chains = append(chains, c)
		}
		return true
	})
	var mu sync.Mutex
	complete = true
	g := errgroup.Group{}
	g.SetLimit(l.cfg.SummaryWorkers)
	for _, c := range chains {
		g.Go(func() error {
			prev := ""
			for _, seg := range c.segs {
				in := llm.SummaryInput{PaperTitle: p.Title, Path: c.path, Segment: seg.Text, PrevSummary: prev}
				key := store.LLMCacheKey(llm.OpSummary, s.model, summaryPromptVersion, p.Title, strings.Join(c.path, "\x1f"), seg.Text, prev)
				if v, ok, err := l.store.CacheGet(ctx, key); err == nil && ok {
					seg.Summary, prev = v, v
					continue
				}
				sum, out := s.ops.Summarize(ctx, in, extractiveSummary)
				if out.Fallback && out.Err != nil {
					mu.Lock()
					complete = false
					mu.Unlock()
				} else if strings.TrimSpace(in.Segment) != "" {
					// Deterministic outputs (temperature 0), including
					// content fallbacks such as a refusal, are cached.
					_ = l.store.CachePut(ctx, key, llm.OpSummary, s.model, sum)
				}
				seg.Summary, prev = sum, sum
			}
			return nil
		})
	}
	_ = g.Wait()
	return complete
}

func extractiveSummary(in llm.SummaryInput) string {
	return summarize.Extractive(summarize.Input{PaperTitle: in.PaperTitle, Path: in.Path, Segment: in.Segment, PrevSummary: in.PrevSummary})
}

// opLog collects the outcomes of one question's LLM operations for its
// diagnostics. Safe for concurrent use (per-paper retrievals run in
// parallel).
type opLog struct {
	mu        sync.Mutex
	fallbacks []string
	tokens    map[string]int
	// budgetHit: a step fell back because the answer's budget ran out.
	budgetHit bool
}

func (r *opLog) add(o llm.Outcome) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if errors.Is(o.Err, errAnswerBudget) {
		r.budgetHit = true
	}
	if o.Fallback {
		line := o.String()
		for _, f := range r.fallbacks {
			if f == line {
				line = ""
			}
		}
		if line != "" {
			r.fallbacks = append(r.fallbacks, line)
		}
	}
	if o.PromptTokens > 0 || o.CompletionTokens > 0 {
		if r.tokens == nil {
			r.tokens = map[string]int{}
		}
		r.tokens[o.Op+".prompt"] += o.PromptTokens
		r.tokens[o.Op+".completion"] += o.CompletionTokens
	}
}

// apply adds the collected outcomes to d (after the retrieval's own).
func (r *opLog) apply(d *papertree.Diagnostics) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, f := range r.fallbacks {
		d.Fallbacks = append(d.Fallbacks, f)
	}
	if len(r.tokens) > 0 {
		if d.LLMTokens == nil {
			d.LLMTokens = map[string]int{}
		}
		for k, v := range r.tokens {
			d.LLMTokens[k] += v
		}
	}
}

// trace records how an LLM question was retrieved; it is saved with the
// answer's settings.
type trace struct {
	MultiDocQuery string         `json:"multidoc_query,omitempty"`
	Hops          []retrieve.Hop `json:"hops,omitempty"`
	// Route is rdr2's routing trace (subtrees, raw router output, actions).
	Route []retrieve.RouteStep `json:"route,omitempty"`
}

// retrieveLLM retrieves evidence for req with the LLM's help: section
// title judgment in every retrieval; the multi-document path when the
// scope names more than one paper, multi-hop otherwise.
func (l *Library) retrieveLLM(ctx context.Context, s *llmState, strat retrieve.Strategy, req AskRequest, q *query.Question, rec *opLog, tr *trace) (retrieve.Result, error) {
	judge := func(ctx context.Context, query string, titles []string) ([]float64, error) {
		scores, out := s.ops.TitleRelevance(ctx, query, titles)
		rec.add(out)
		if out.Fallback {
			return nil, papertree.Errorf(papertree.ELLM, "section title judgment unavailable: %s", out.Reason)
		}
		return scores, nil
	}
	base := retrieve.Request{Query: req.Question, PaperIDs: req.PaperIDs, Budget: req.Budget, Params: req.Params, SectionJudge: judge, Route: routeHook(s, rec),
		Unnamed: req.Unnamed, Decides: answer.Decider(q)}
	if base.Budget <= 0 {
		base.Budget = retrieve.DefaultBudget
	}
	if strat.Name() == "auto" {
		// The router first: a list, or a library-wide comparison, is
		// retrieved along its route (structrag with the model's steps); other
		// questions take pt-rag's LLM path below (title judgment,
		// multi-hop, the multi-document path for chosen papers).
		mctx := retrieve.WithMultiDocLLM(ctx, multiDocHooks(s, rec))
		r := retrieve.AutoRoute(mctx, l.Retrieval(), base)
		// Chosen papers to compare: each is searched for the question and
		// the model writes the comparison (the multi-document path below).
		if r.Route == query.RouteList || r.Route == query.RouteCompare && len(dedupeIDs(req.PaperIDs)) <= 1 {
			res, err := retrieve.RetrieveRoute(mctx, l.Retrieval(), base, r.Route, r.Why)
			if err == nil {
				r.Apply(&res.Diag)
			}
			return res, err
		}
		pt, err := retrieve.Get("pt-rag")
		if err != nil {
			return retrieve.Result{}, err
		}
		res, err := l.retrieveLLM(ctx, s, pt, req, q, rec, tr)
		if r.Route == query.RouteCompare {
			r.Why += "; with a model, each chosen paper is searched and the model compares them"
		}
		r.Apply(&res.Diag)
		return res, err
	}
	if multiDocStrategy(strat.Name()) {
		return strat.Retrieve(retrieve.WithMultiDocLLM(ctx, multiDocHooks(s, rec)), l.Retrieval(), base)
	}
	ids := dedupeIDs(req.PaperIDs)
	if len(ids) > 1 {
		q, out := s.ops.TransformMultiDoc(ctx, req.Question)
		rec.add(out)
		tr.MultiDocQuery = q
		parts := make([]retrieve.Result, len(ids))
		share := max(base.Budget/len(ids), 1)
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(4)
		for i, id := range ids {
			g.Go(func() error {
				r := base
				r.Query, r.PaperIDs, r.Budget = q, []int64{id}, share
				res, err := strat.Retrieve(gctx, l.Retrieval(), r)
				parts[i] = res
				return err
			})
		}
		if err := g.Wait(); err != nil {
			return retrieve.Result{}, err
		}
		return retrieve.MergeResults(parts, base.Budget), nil
	}
	hooks := retrieve.MultiHop{
		Decompose: func(ctx context.Context, q string, maxHops int) []string {
			subs, out := s.ops.Decompose(ctx, q, maxHops)
			rec.add(out)
			return subs
		},
		Entities: func(ctx context.Context, text, next string) []string {
			ents, out := s.ops.ExtractEntitiesFor(ctx, text, next, EntityThreshold)
			rec.add(out)
			return ents
		},
	}
	res, hops, err := retrieve.RetrieveMultiHop(ctx, strat, l.Retrieval(), base, hooks)
	tr.Hops = hops
	return res, err
}

func dedupeIDs(ids []int64) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// generateLLM writes a's text with the LLM from a.Evidence, answering the
// original question. It returns false (and records the fallback) when the
// caller must give the extractive answer instead.
func generateLLM(ctx context.Context, s *llmState, a *papertree.Answer, onDelta func(string), rec *opLog) bool {
	g, out, ok := answer.LLM(ctx, s.ops, a.Question, a.Evidence, onDelta)
	rec.add(out)
	if !ok {
		return false
	}
	a.Text, a.NotFound, a.Mode = g.Text, g.NotFound, "llm"
	a.Diag.DroppedCitations = g.Dropped
	return true
}

// RemoteEmbedder detects cfg's server and returns its embedding model as
// a papertree.Embedder for Config.Embedder (settings: "use server
// embeddings"). usage may be nil. On an error the caller must NOT open an
// existing library with a different embedder instead: the store would
// discard every vector and mark all papers for re-indexing. Tell the user
// and stop, or open with the same embedder as before.
func RemoteEmbedder(ctx context.Context, cfg llm.Config, usage llm.Usage) (*llm.Embedder, error) {
	st, err := llm.Detect(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if !st.EmbedModelOK {
		if strings.TrimSpace(cfg.EmbedModel) == "" {
			return nil, papertree.Errorf(papertree.ELLM, "No embedding model is set for the server at %s.", st.BaseURL)
		}
		return nil, papertree.Errorf(papertree.ELLM, "%s", st.Summary())
	}
	return llm.NewEmbedder(ctx, st.Config, usage)
}
