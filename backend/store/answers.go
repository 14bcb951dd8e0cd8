package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

// AnswerInfo is one saved answer as a list shows it (no evidence).
type AnswerInfo struct {
	ID        int64     `json:"answer_id"`
	Question  string    `json:"question"`
	Text      string    `json:"answer"`
	Mode      string    `json:"mode"`
	Strategy  string    `json:"strategy"`
	NotFound  bool      `json:"not_found"`
	PaperIDs  []int64   `json:"papers"`
	Model     string    `json:"model,omitempty"`
	Evidence  int       `json:"evidence"` // number of evidence items
	CreatedAt time.Time `json:"created_at"`
}

// SaveAnswer stores a; see SaveAnswerSettings.
func (s *Store) SaveAnswer(ctx context.Context, a *papertree.Answer) (int64, error) {
	return s.SaveAnswerSettings(ctx, a, nil)
}

// SaveAnswerSettings stores a with the settings it was made with (a JSON
// object; nil = "{}"; never put secrets in it) and returns its new id. It
// does not modify a: the caller sets a.ID.
func (s *Store) SaveAnswerSettings(ctx context.Context, a *papertree.Answer, settings json.RawMessage) (int64, error) {
	if a == nil {
		return 0, papertree.Errorf(papertree.EInvalid, "No answer to save.")
	}
	if len(settings) == 0 {
		settings = json.RawMessage("{}")
	}
	if !json.Valid(settings) {
		return 0, papertree.Errorf(papertree.EInvalid, "The answer's settings are not valid JSON.")
	}
	ev := a.Evidence
	if ev == nil {
		ev = []papertree.Evidence{}
	}
	ids := a.PaperIDs
	if ids == nil {
		ids = []int64{}
	}
	evJSON, err := json.Marshal(ev)
	if err != nil {
		return 0, fmt.Errorf("save answer: evidence: %w", err)
	}
	diagJSON, err := json.Marshal(a.Diag)
	if err != nil {
		return 0, fmt.Errorf("save answer: diagnostics: %w", err)
	}
	idsJSON, _ := json.Marshal(ids)
	created := a.CreatedAt
	if created.IsZero() {
		created = time.Now()
	}
	res, err := s.w.ExecContext(ctx, `INSERT INTO answers
		(question, answer, mode, strategy, budget, not_found, settings, evidence, diagnostics, papers, model, created_at, verdict)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		// Secrets (an API key echoed by a server into a fallback reason, a
		// password in a server URL) are removed from everything stored but
		// the papers' own evidence text.
		papertree.Redact(a.Question), papertree.Redact(a.Text), a.Mode, a.Strategy, a.Diag.Budget, boolInt(a.NotFound),
		papertree.Redact(string(settings)), string(evJSON), papertree.Redact(string(diagJSON)), string(idsJSON),
		papertree.Redact(a.Model), created.UnixMilli(), a.Verdict)
	if err != nil {
		return 0, papertree.Wrap(fmt.Errorf("save answer: %w", err), papertree.EInternal, "The answer could not be saved.")
	}
	return res.LastInsertId()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Answer loads a saved answer with its evidence and diagnostics.
func (s *Store) Answer(ctx context.Context, id int64) (*papertree.Answer, error) {
	a, _, err := s.answer(ctx, id)
	return a, err
}

// AnswerSettings returns the settings JSON an answer was saved with.
func (s *Store) AnswerSettings(ctx context.Context, id int64) (json.RawMessage, error) {
	_, set, err := s.answer(ctx, id)
	return set, err
}

func (s *Store) answer(ctx context.Context, id int64) (*papertree.Answer, json.RawMessage, error) {
	var a papertree.Answer
	var notFound int
	var settings, evJSON, diagJSON, idsJSON string
	var created int64
	err := s.r.QueryRowContext(ctx, `SELECT id, question, answer, mode, strategy, not_found, settings, evidence,
		diagnostics, papers, model, created_at, verdict FROM answers WHERE id = ?`, id).Scan(
		&a.ID, &a.Question, &a.Text, &a.Mode, &a.Strategy, &notFound, &settings, &evJSON, &diagJSON, &idsJSON, &a.Model, &created, &a.Verdict)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, papertree.Errorf(papertree.ENotFound, "Answer %d does not exist.", id)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("load answer %d: %w", id, err)
	}
	a.NotFound = notFound != 0
	a.CreatedAt = time.UnixMilli(created).UTC()
	// Answers saved before secrets were redacted on save are redacted on
	// the way out (URL credentials, bearer tokens, key-shaped strings and
	// any key this process knows), so no export or view shows them.
	a.Question, a.Text, a.Model = papertree.Redact(a.Question), papertree.Redact(a.Text), papertree.Redact(a.Model)
	settings, diagJSON = papertree.Redact(settings), papertree.Redact(diagJSON)
	if err := json.Unmarshal([]byte(evJSON), &a.Evidence); err != nil {
		return nil, nil, damagedAnswer(id, "evidence", err)
	}
	if err := json.Unmarshal([]byte(diagJSON), &a.Diag); err != nil {
		return nil, nil, damagedAnswer(id, "diagnostics", err)
	}
	if err := json.Unmarshal([]byte(idsJSON), &a.PaperIDs); err != nil {
		return nil, nil, damagedAnswer(id, "papers", err)
	}
	if len(a.PaperIDs) == 0 {
		a.PaperIDs = nil
	}
	if a.Diag.Route == papertree.RouteList && !a.NotFound {
		// A which-papers answer's list is its evidence, one passage a
		// paper with the stating sentence marked: rebuilt, not stored twice.
		a.Papers = papertree.FindingsFromEvidence(a.Evidence)
	}
	return &a, json.RawMessage(settings), nil
}

// damagedAnswer is the error of a saved answer whose stored JSON cannot be
// read (a damaged disk sector, a bit flip): coded, in plain words, never
// the JSON decoder's message.
func damagedAnswer(id int64, part string, err error) error {
	return papertree.Wrap(fmt.Errorf("load answer %d: %s: %w", id, part, err), papertree.ECorrupt, fmt.Sprintf(
		"Saved answer %d is damaged in the library (its %s cannot be read). The other answers and the papers are not affected.", id, part))
}

// ListAnswers lists saved answers, newest first. limit <= 0 means 50.
func (s *Store) ListAnswers(ctx context.Context, limit, offset int) ([]AnswerInfo, error) {
	if limit <= 0 {
		limit = 50
	}
	if offset < 0 {
		offset = 0
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, question, answer, mode, strategy, not_found, papers, model,
		json_array_length(evidence), created_at FROM answers ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, limit, offset)
	if err != nil {
		return nil, fmt.Errorf("list answers: %w", err)
	}
	defer rows.Close()
	out := []AnswerInfo{}
	for rows.Next() {
		var a AnswerInfo
		var notFound int
		var ids string
		var created int64
		if err := rows.Scan(&a.ID, &a.Question, &a.Text, &a.Mode, &a.Strategy, &notFound, &ids, &a.Model, &a.Evidence, &created); err != nil {
			return nil, fmt.Errorf("list answers: %w", err)
		}
		a.NotFound = notFound != 0
		a.CreatedAt = time.UnixMilli(created).UTC()
		if err := json.Unmarshal([]byte(ids), &a.PaperIDs); err != nil {
			return nil, damagedAnswer(a.ID, "papers", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// DeleteAnswer removes a saved answer.
func (s *Store) DeleteAnswer(ctx context.Context, id int64) error {
	res, err := s.w.ExecContext(ctx, `DELETE FROM answers WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("delete answer %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return papertree.Errorf(papertree.ENotFound, "Answer %d does not exist.", id)
	}
	return nil
}
