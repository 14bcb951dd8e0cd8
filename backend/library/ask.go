package library

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/papertree/papertree/backend/answer"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/store"
)

// AskRequest is one question to the library.
type AskRequest struct {
	Question string
	PaperIDs []int64 // empty = whole library
	Strategy string  // "" = pt-rag
	Budget   int     // tokens; 0 = default
	Params   retrieve.Params
	// OnDelta, when set, receives the LLM answer's text as it streams
	// (never concurrently; citation markers already checked). If the
	// generation fails midway, the returned Answer (extractive) replaces
	// what was streamed. Not called for extractive answers.
	OnDelta func(string)
	// NoHistory: the answer is not saved (ID stays 0). Evaluations ask
	// hundreds of questions; kept, they grew the 44-paper library from
	// 9 MB to 32 MB of answer history nobody reads.
	NoHistory bool
	// Unnamed: do not read the question as naming a paper (the researcher
	// saw "Read as a question about ..." and said it was wrong): every
	// paper is ranked by its text (retrieve.Request.Unnamed).
	Unnamed bool
}

// Retrieval returns the retrieval index over this library (cached papers).
func (l *Library) Retrieval() *retrieve.StoreIndex {
	l.ixOnce.Do(func() { l.ix = retrieve.NewStoreIndex(l.store, l.emb, 0) })
	return l.ix
}

// Ask retrieves evidence and answers. Without an LLM the answer is
// extractive and labelled so (Mode "extractive"). With one (ConfigureLLM),
// retrieval uses its section-title judgment and multi-hop decomposition,
// or the multi-document path when PaperIDs names several papers, and the
// answer is written by the model (Mode "llm", citations resolving to
// Evidence); every step that fell back is listed in Diag.Fallbacks and the
// answer is then extractive. Every answer is saved and gets its ID, unless
// NoHistory or the library is read-only (ID 0). When saving fails, the
// answer is returned (ID 0) together with the coded error.
//
// With an LLM, its steps share one time budget (llm.Config.AnswerBudget,
// default 60 s): a step still waiting when it runs out falls back, and the
// answer says so, so an answer comes within the budget whatever the server
// does. Cancelling ctx ends Ask with ECanceled ("Cancelled."), never with
// the message of the step it interrupted.
func (l *Library) Ask(ctx context.Context, req AskRequest) (a *papertree.Answer, err error) {
	defer func() {
		if err != nil && ctx.Err() != nil {
			err = stopped(ctx)
		}
		err = store.UserError(err)
	}()
	t0 := time.Now()
	defer l.Retrieval().Asking()() // the warm-up waits (see Warm)
	strat, err := retrieve.Get(req.Strategy)
	if err != nil {
		return nil, err
	}
	if err := l.checkAsk(ctx, req); err != nil {
		return nil, err
	}
	if len(req.PaperIDs) == 0 {
		if err := l.checkNotEmpty(ctx); err != nil {
			return nil, err
		}
	}
	// Evidence is found for the question as the papers spell it ("GPT2"
	// typed, "GPT-2" written); the answer keeps the question as typed.
	typed := req
	if q, err := l.store.SpellLikeLibrary(ctx, req.Question); err == nil {
		req.Question = q
	}
	// The question is read once, here: retrieval, the not-found
	// decision and the answer all use this reading.
	q := query.Parse(req.Question)
	s := l.llmOn()
	if s != nil {
		s = s.withBudget(t0)
	}
	rec, tr := &opLog{}, &trace{}
	var res retrieve.Result
	if s != nil {
		res, err = l.retrieveLLM(ctx, s, strat, req, q, rec, tr)
	} else {
		res, err = strat.Retrieve(ctx, l.Retrieval(), retrieve.Request{Query: req.Question, Question: q, PaperIDs: req.PaperIDs, Budget: req.Budget, Params: req.Params,
			Unnamed: req.Unnamed, Decides: answer.Decider(q)})
	}
	if err != nil {
		return nil, err
	}
	tr.Route = res.Route
	tr0 := time.Since(t0)
	a = &papertree.Answer{
		Question: typed.Question, Mode: "extractive", Strategy: strat.Name(),
		Evidence: res.Evidence, Diag: res.Diag, PaperIDs: req.PaperIDs,
	}
	a.Diag.Unnamed = req.Unnamed && len(req.PaperIDs) == 0
	if len(req.PaperIDs) == 0 && res.Identified != 0 {
		if p, err := l.store.PaperByID(ctx, res.Identified); err == nil {
			a.Diag.Named = &papertree.NamedPaper{ID: p.ID, Title: p.Title,
				Alone: len(res.Searched) == 1 && res.Searched[0] == res.Identified}
		}
	}
	// The one paper the question is about: the paper it is asked of, or
	// the one a library-wide question names (0: none).
	paper := detailPaper(req.PaperIDs, res.Identified)
	detail, gist := "", ""
	switch {
	case res.List:
	case q.Detail != "":
		if paper != 0 {
			detail, _ = l.detailAnswer(ctx, paper, q.Detail)
		}
	default:
		// What the paper proposes, its main contribution: its abstract
		// says it, quoted in its own words or, with a model, written from
		// it; not passages that matched "propose" or "summarize".
		if ev, ok := l.gistEvidence(ctx, q, paper); ok {
			if s != nil {
				a.Evidence = ev
			} else if gist, ok = quoteGist(ev); ok {
				a.Evidence = ev
			}
		}
	}
	if gist != "" {
		a.Text = gist
	} else if q.Detail != "" && !res.List && paper == 0 {
		var titles []string
		for _, e := range a.Evidence {
			if t := strings.TrimSpace(e.PaperTitle); t != "" && !slices.Contains(titles, t) && len(titles) < 3 {
				titles = append(titles, t)
				a.Diag.AskOf = append(a.Diag.AskOf, papertree.NamedPaper{ID: e.PaperID, Title: t})
			}
		}
		a.Text, a.NotFound = detailUnnamed(titles), true
	} else if detail != "" {
		// Who wrote a paper, when and where it appeared: its details say
		// it (corrected, imported from a reference manager, or read from
		// the PDF), not a passage; no model rewrites them. The evidence
		// shown is the paper's front matter, where they are printed (else
		// its own passages found).
		a.Text, a.Mode = detail, papertree.ModeDetails
		if front, err := retrieve.FrontPage(ctx, l.Retrieval(), paper); err == nil && len(front) > 0 {
			a.Evidence = front
		} else if own := slices.DeleteFunc(slices.Clone(a.Evidence), func(e papertree.Evidence) bool { return e.PaperID != paper }); len(own) > 0 {
			a.Evidence = own
		}
	} else if res.List {
		// A which-papers answer is the verified list itself: every line
		// is a paper's own sentence, checked against its text; a model
		// rewriting it could only add what was not checked.
		out := answer.ComposeList(res.Findings, res.Topic, res.Unread, l.claims(ctx, req.PaperIDs, res))
		a.Papers, a.Text, a.NotFound, a.Diag.Absent = res.Findings, out.Text, out.NotFound, out.Absent
	} else if s == nil || !generateLLM(ctx, s, a, req.OnDelta, rec) {
		if err := ctx.Err(); err != nil {
			return nil, err // cancelled: no answer, not even the extractive one
		}
		// How the papers use the question's words is read where the
		// reply's claims speak: the paper the question names, when it was
		// lifted among others, else the papers of the evidence.
		usedIn := retrieve.EvidencePapers(res.Evidence)
		if len(req.PaperIDs) == 0 && res.Identified != 0 {
			usedIn = []int64{res.Identified}
		}
		uses, err := retrieve.QuestionTermUse(ctx, l.Retrieval(), q, usedIn)
		if err != nil {
			return nil, err
		}
		// A reply that says the papers matching best lack a word speaks of
		// the papers its evidence comes from (where the question's words
		// were counted), not of every paper the search looked into.
		claims := l.claims(ctx, req.PaperIDs, res)
		if len(req.PaperIDs) == 0 && len(res.Evidence) > 0 {
			claims.Searched = retrieve.EvidencePapers(res.Evidence)
		}
		out, err := answer.Compose(ctx, l.emb, answer.Input{Question: req.Question, Q: q, Evidence: res.Evidence,
			Missing: res.Missing, MissingName: res.MissingName, Terms: res.Terms, Uses: uses, Scoped: len(req.PaperIDs) > 0,
			Claims: claims}, answer.DefaultOptions())
		if err != nil {
			return nil, err
		}
		a.Text, a.NotFound, a.Verdict, a.Mode = out.Text, out.NotFound, out.Verdict, "extractive"
		a.Diag.Absent = out.Absent
	}
	if a.Mode == "llm" && !a.NotFound && q.Kind == query.KindYesNo {
		// With an LLM the verdict is the model's, read off its answer's
		// first word; its citations are the answer's.
		a.Verdict = answer.LeadingVerdict(a.Text)
	}
	if s != nil {
		a.Model = s.model
		if rec.budgetHit {
			a.Diag.Fallbacks = append(a.Diag.Fallbacks, "llm: the time budget of one answer ("+secondsWords(s.budget)+") ran out; the steps still waiting used their offline fallbacks")
		}
		rec.apply(&a.Diag)
	}
	if a.Diag.Timings == nil {
		a.Diag.Timings = map[string]float64{}
	}
	a.Diag.Timings["retrieve"] = float64(tr0.Microseconds()) / 1000
	a.Diag.Timings["answer"] = float64((time.Since(t0) - tr0).Microseconds()) / 1000
	a.CreatedAt = time.Now().UTC()
	if req.NoHistory {
		return a, nil
	}
	if err := l.saveAnswer(ctx, a, typed, s, tr); err != nil {
		// The answer was made: the caller may still show it (ID 0) with
		// the reason it was not kept.
		return a, papertree.Wrap(err, papertree.ErrorCode(store.UserError(err)),
			"The answer was not saved: "+papertree.ErrorMessage(store.UserError(err)))
	}
	return a, nil
}

// claims is how the answer checks what it says is missing (answer.Claims):
// against the full-text index of the papers the question was asked of, of
// the paper it names, or of the whole library.
func (l *Library) claims(ctx context.Context, scope []int64, res retrieve.Result) answer.Claims {
	title := func(id int64) string {
		if p, err := l.store.PaperByID(ctx, id); err == nil && p.Title != "" {
			return p.Title
		}
		return fmt.Sprintf("paper %d", id)
	}
	c := answer.Claims{Holders: retrieve.WordHolders(ctx, l.Retrieval()), Together: retrieve.Together(ctx, l.Retrieval()),
		TogetherIn: retrieve.TogetherIn(ctx, l.Retrieval()), TogetherPrinted: retrieve.TogetherPrinted(ctx, l.Retrieval()),
		Dwell: retrieve.WordDwell(ctx, l.Retrieval()), Scope: scope,
		Searched: res.Searched, Title: title}
	if len(scope) == 0 && res.Identified != 0 {
		c.Scope, c.Name = []int64{res.Identified}, "“"+title(res.Identified)+"”"
	}
	// Counted once, and only if an answer weighs a focus word's absence.
	c.Library = sync.OnceValue(func() int {
		ids, err := l.store.ReadyPaperIDs(ctx)
		if err != nil {
			return 0
		}
		return len(ids)
	})
	c.Files = func() []string {
		var out []string
		if c.Scope != nil {
			for _, id := range c.Scope {
				if p, err := l.store.PaperByID(ctx, id); err == nil {
					out = append(out, p.Path)
				}
			}
			return out
		}
		ps, err := l.store.ListPapers(ctx)
		if err != nil {
			return nil
		}
		for _, p := range ps {
			if p.Status == store.StatusReady {
				out = append(out, p.Path)
			}
		}
		return out
	}
	return c
}

// checkNotEmpty refuses a library-wide question to a library without any
// indexed paper, in plain words instead of "the papers do not answer".
func (l *Library) checkNotEmpty(ctx context.Context) error {
	ids, err := l.store.ReadyPaperIDs(ctx)
	if err != nil || len(ids) > 0 {
		return err
	}
	ps, err := l.store.ListPapers(ctx)
	if err != nil {
		return err
	}
	if len(ps) > 0 {
		return papertree.Errorf(papertree.EConflict,
			"The library has no paper to ask: none of its %d files could be indexed (see papertree list).", len(ps))
	}
	return papertree.Errorf(papertree.EConflict,
		"The library is empty: index some papers first (papertree index --db FILE FOLDER).")
}

// stopped words why Ask ended early because of ctx: the caller cancelled
// (Ctrl+C, the Stop button), or the caller's own deadline passed.
func stopped(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return papertree.Wrap(context.DeadlineExceeded, papertree.ETimeout, "The question took longer than its time limit.")
	}
	return papertree.Wrap(context.Canceled, papertree.ECanceled, "Cancelled.")
}
