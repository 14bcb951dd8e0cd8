package library

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/store"
)

// answerSettings is what an answer was made with, saved beside it (never
// the API key).
type answerSettings struct {
	Strategy string          `json:"strategy"`
	Budget   int             `json:"budget"`
	Params   retrieve.Params `json:"params"`
	LLM      *answerLLM      `json:"llm,omitempty"`
	Trace    *trace          `json:"trace,omitempty"`
}

type answerLLM struct {
	Provider  string `json:"provider"`
	BaseURL   string `json:"base_url"`
	ChatModel string `json:"chat_model"`
}

// saveAnswer stores a and sets a.ID. The save ignores the caller's
// cancellation: the answer was already produced and must not be lost.
func (l *Library) saveAnswer(ctx context.Context, a *papertree.Answer, req AskRequest, s *llmState, tr *trace) error {
	// What is returned is shown and exported too: no secrets in it.
	a.Text = papertree.Redact(a.Text)
	for i, f := range a.Diag.Fallbacks {
		a.Diag.Fallbacks[i] = papertree.Redact(f)
	}
	if l.store.ReadOnly() {
		return nil // a read-only library answers but keeps no history (ID 0)
	}
	set := answerSettings{Strategy: a.Strategy, Budget: a.Diag.Budget, Params: req.Params}
	if s != nil {
		set.LLM = &answerLLM{Provider: s.status.Provider, BaseURL: papertree.RedactURL(s.status.BaseURL), ChatModel: s.model}
	}
	if tr != nil && (tr.MultiDocQuery != "" || len(tr.Hops) > 0 || len(tr.Route) > 0) {
		set.Trace = tr
	}
	b, err := json.Marshal(set)
	if err != nil {
		return fmt.Errorf("save answer: %w", err)
	}
	id, err := l.store.SaveAnswerSettings(context.WithoutCancel(ctx), a, b)
	if err != nil {
		return err
	}
	a.ID = id
	return nil
}

// Answers lists saved answers, newest first (limit <= 0: 50).
func (l *Library) Answers(ctx context.Context, limit, offset int) ([]store.AnswerInfo, error) {
	return l.store.ListAnswers(ctx, limit, offset)
}

// Answer loads a saved answer.
func (l *Library) Answer(ctx context.Context, id int64) (*papertree.Answer, error) {
	return l.store.Answer(ctx, id)
}

// DeleteAnswer removes a saved answer.
func (l *Library) DeleteAnswer(ctx context.Context, id int64) error {
	return l.store.DeleteAnswer(ctx, id)
}
