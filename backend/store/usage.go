package store

import (
	"context"
	"fmt"
	"github.com/papertree/papertree/backend/papertree"
	"sync/atomic"
	"time"
)

// UsageRecorder persists every LLM and embedding call in llm_usage. It has
// the method set of llm.Usage (Record) without importing package llm.
// Recording never fails the call it describes: a write error is only
// counted (Dropped).
type UsageRecorder struct {
	s       *Store
	dropped atomic.Int64
}

// Usage returns a recorder writing to this store.
func (s *Store) Usage() *UsageRecorder { return &UsageRecorder{s: s} }

// Record writes one call. It runs on the request path, so it is one short
// INSERT that ignores the caller's cancellation (the call already happened).
func (u *UsageRecorder) Record(op, model string, promptTokens, completionTokens int, d time.Duration, err error) {
	msg := ""
	if err != nil {
		msg = papertree.Redact(err.Error())
	}
	if _, werr := u.s.w.ExecContext(context.Background(), `INSERT INTO llm_usage
		(op, model, prompt_tokens, completion_tokens, ms, error, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		op, model, promptTokens, completionTokens, float64(d.Microseconds())/1000, msg, time.Now().UnixMilli()); werr != nil {
		u.dropped.Add(1)
	}
}

// Dropped is the number of records that could not be written.
func (u *UsageRecorder) Dropped() int64 { return u.dropped.Load() }

// UsageTotal sums the recorded calls of one operation and model.
type UsageTotal struct {
	Op               string  `json:"op"`
	Model            string  `json:"model"`
	Calls            int     `json:"calls"`
	Errors           int     `json:"errors"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Ms               float64 `json:"ms"`
}

// UsageTotals sums llm_usage per (op, model) for calls at or after since
// (zero time = all), ordered by op and model.
func (s *Store) UsageTotals(ctx context.Context, since time.Time) ([]UsageTotal, error) {
	var from int64
	if !since.IsZero() {
		from = since.UnixMilli()
	}
	rows, err := s.r.QueryContext(ctx, `SELECT op, model, count(*), sum(error <> ''), sum(prompt_tokens),
		sum(completion_tokens), sum(ms) FROM llm_usage WHERE created_at >= ? GROUP BY op, model ORDER BY op, model`, from)
	if err != nil {
		return nil, fmt.Errorf("usage totals: %w", err)
	}
	defer rows.Close()
	out := []UsageTotal{}
	for rows.Next() {
		var t UsageTotal
		if err := rows.Scan(&t.Op, &t.Model, &t.Calls, &t.Errors, &t.PromptTokens, &t.CompletionTokens, &t.Ms); err != nil {
			return nil, fmt.Errorf("usage totals: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
