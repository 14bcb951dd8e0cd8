package app

import (
	"context"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

// Paper returns one paper's whole tree for the paper view.
func (a *App) Paper(id string) (PaperDetail, error) {
	lib, err := a.ready()
	if err != nil {
		return PaperDetail{}, err
	}
	d, err := lib.Paper(a.context(), id)
	if err != nil {
		return PaperDetail{}, asCoded(err, "The paper could not be loaded.")
	}
	return d, nil
}

// ready returns the library or a coded error saying why there is none.
func (a *App) ready() (Library, error) {
	lib, libErr := a.library()
	if libErr != nil {
		return nil, asCoded(libErr, "The library could not be opened.")
	}
	if lib == nil {
		return nil, papertree.Errorf(papertree.EConflict, "The library is not available in this build.")
	}
	return lib, nil
}

// Strategies lists the retrieval strategies, the default (pt-rag) first.
func (a *App) Strategies() []string { return retrieve.Names() }

// maxQuestion bounds a question (characters); longer input is a mistake.
const maxQuestion = 2000

// Ask answers a question as the one ask job: a second question while one
// runs fails with EConflict and CancelAsk stops it (ECanceled). With an LLM
// the answer text streams as throttled EventAskDelta events carrying the
// whole text so far (so a dropped event loses nothing); the returned answer
// is final (it replaces what was streamed). Strategy and budget default to
// the settings; the retrieval parameters always come from the settings.
func (a *App) Ask(in AskInput) (AnswerView, error) {
	lib, err := a.ready()
	if err != nil {
		return AnswerView{}, err
	}
	a.flushRemovals() // an answer never cites a paper being removed
	in.Question = strings.TrimSpace(in.Question)
	if in.Question == "" {
		return AnswerView{}, papertree.Errorf(papertree.EInvalid, "Type a question first.")
	}
	if utf8.RuneCountInString(in.Question) > maxQuestion {
		return AnswerView{}, papertree.Errorf(papertree.EInvalid, "The question is too long (at most %d characters).", maxQuestion)
	}
	if in.Budget < 0 || in.Budget > 1<<20 {
		return AnswerView{}, papertree.Errorf(papertree.EInvalid, "The token budget must be between 1 and %d.", 1<<20)
	}
	s := a.loadSettings()
	if in.Strategy == "" {
		in.Strategy = s.Retrieval.Strategy
	}
	if in.Budget == 0 {
		in.Budget = s.Retrieval.Budget
	}

	a.mu.Lock()
	if a.askCancel != nil {
		a.mu.Unlock()
		return AnswerView{}, papertree.Errorf(papertree.EConflict, "A question is already being answered.")
	}
	ctx, cancel := context.WithCancel(a.ctx)
	a.askCancel = cancel
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.askCancel = nil
		a.mu.Unlock()
		cancel()
	}()

	st := &deltaStream{interval: 80 * time.Millisecond, emit: func(text string) {
		a.rt.EventsEmit(ctx, EventAskDelta, AskDelta{Text: text})
	}}
	start := time.Now()
	ans, err := lib.Ask(ctx, in, s.Retrieval.Params, st.add)
	st.flush()
	if err != nil {
		if ctx.Err() != nil && papertree.ErrorCode(err) != papertree.ECanceled {
			err = papertree.Wrap(err, papertree.ECanceled, "The question was cancelled.")
		}
		a.log.Error("ask", "err", err)
		return AnswerView{}, asCoded(err, "The question could not be answered.")
	}
	a.log.Info("asked", "evidence", len(ans.Evidence), "mode", ans.Mode, "not_found", ans.NotFound, "ms", time.Since(start).Milliseconds())
	return ans, nil
}

// AskDelta is the payload of EventAskDelta: the streamed text so far.
type AskDelta struct {
	Text string `json:"text"`
}

// deltaStream accumulates streamed text and emits it at most once per
// interval (plus once at flush).
type deltaStream struct {
	interval time.Duration
	emit     func(string)

	mu      sync.Mutex
	text    strings.Builder
	last    time.Time
	pending bool
}

func (d *deltaStream) add(s string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.text.WriteString(s)
	d.pending = true
	if now := time.Now(); now.Sub(d.last) >= d.interval {
		d.last, d.pending = now, false
		d.emit(d.text.String())
	}
}

func (d *deltaStream) flush() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pending {
		d.pending = false
		d.emit(d.text.String())
	}
}

// CancelAsk stops the running question; it reports whether one was running.
func (a *App) CancelAsk() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.askCancel == nil {
		return false
	}
	a.askCancel()
	return true
}

// History lists saved answers, newest first (limit <= 0: 100).
func (a *App) History(limit int) ([]HistoryItem, error) {
	lib, err := a.ready()
	if err != nil {
		return nil, err
	}
	if limit <= 0 || limit > 1000 {
		limit = 100
	}
	items, err := lib.History(a.context(), limit)
	if err != nil {
		return nil, asCoded(err, "The history could not be read.")
	}
	if items == nil {
		items = []HistoryItem{}
	}
	return items, nil
}

// Answer reopens a saved answer with its evidence.
func (a *App) Answer(id string) (AnswerView, error) {
	lib, err := a.ready()
	if err != nil {
		return AnswerView{}, err
	}
	v, err := lib.Answer(a.context(), id)
	if err != nil {
		return AnswerView{}, asCoded(err, "The answer could not be loaded.")
	}
	return v, nil
}

// DeleteAnswer removes a saved answer from the history.
func (a *App) DeleteAnswer(id string) error {
	lib, err := a.ready()
	if err != nil {
		return err
	}
	if err := lib.DeleteAnswer(a.context(), id); err != nil {
		return asCoded(err, "The answer could not be deleted.")
	}
	return nil
}
