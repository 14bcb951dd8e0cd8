package store

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

func TestAnswersRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	a := &papertree.Answer{
		Question: "What dataset?", Text: "SQuAD [1].", Mode: "llm", Strategy: "pt-rag", Model: "m1",
		Evidence: []papertree.Evidence{{PaperID: 3, NodeID: 9, Path: []string{"P", "Data"}, PathIDs: []int64{1, 2}, Text: "We use SQuAD.", Pages: []int{2}, Tokens: 4}},
		Diag:     papertree.Diagnostics{Budget: 256, TokensUsed: 4, Fallbacks: []string{"summary: fallback (x)"}, DroppedCitations: 2, LLMTokens: map[string]int{"answer_prompt": 10}},
		PaperIDs: []int64{3}, CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	}
	id, err := s.SaveAnswerSettings(ctx, a, json.RawMessage(`{"budget":256}`))
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.SaveAnswer(ctx, &papertree.Answer{Question: "Second?", Text: "x", Mode: "extractive", NotFound: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Answer(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	a.ID = id
	wantJSON, _ := json.Marshal(a)
	gotJSON, _ := json.Marshal(got)
	if string(wantJSON) != string(gotJSON) {
		t.Errorf("round trip:\n got %s\nwant %s", gotJSON, wantJSON)
	}
	set, err := s.AnswerSettings(ctx, id)
	if err != nil || string(set) != `{"budget":256}` {
		t.Errorf("settings = %s, %v", set, err)
	}
	list, err := s.ListAnswers(ctx, 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != second || list[1].ID != id || list[1].Evidence != 1 || !list[0].NotFound || list[1].PaperIDs[0] != 3 {
		t.Errorf("list = %+v", list)
	}
	if page, _ := s.ListAnswers(ctx, 1, 1); len(page) != 1 || page[0].ID != id {
		t.Errorf("page 2 = %+v", page)
	}
	if _, err := s.Answer(ctx, 999); papertree.ErrorCode(err) != papertree.ENotFound {
		t.Errorf("missing answer: %v", err)
	}
	if _, err := s.SaveAnswerSettings(ctx, a, json.RawMessage(`{bad`)); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Errorf("bad settings: %v", err)
	}
	if err := s.DeleteAnswer(ctx, id); err != nil {
		t.Fatal(err)
	}
	var pe *papertree.Error
	if err := s.DeleteAnswer(ctx, id); !errors.As(err, &pe) || pe.Code != papertree.ENotFound {
		t.Errorf("delete twice: %v", err)
	}
}

func TestLLMCache(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	k := LLMCacheKey("summary", "m", "ab", "c")
	if k == LLMCacheKey("summary", "m", "a", "bc") || k == LLMCacheKey("summary", "m2", "ab", "c") || len(k) != 64 {
		t.Fatalf("keys must separate inputs and models: %s", k)
	}
	if _, ok, err := s.CacheGet(ctx, k); ok || err != nil {
		t.Fatalf("empty cache: ok=%v err=%v", ok, err)
	}
	if err := s.CachePut(ctx, k, "summary", "m", "v1"); err != nil {
		t.Fatal(err)
	}
	if err := s.CachePut(ctx, k, "summary", "m", "v2"); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := s.CacheGet(ctx, k); !ok || err != nil || v != "v2" {
		t.Fatalf("get = %q %v %v", v, ok, err)
	}
	if err := s.CachePut(ctx, LLMCacheKey("answer", "m"), "answer", "m", "x"); err != nil {
		t.Fatal(err)
	}
	if n, err := s.CacheClear(ctx, "summary"); n != 1 || err != nil {
		t.Fatalf("clear summary = %d %v", n, err)
	}
	if _, ok, _ := s.CacheGet(ctx, LLMCacheKey("answer", "m")); !ok {
		t.Fatal("clearing one op removed another")
	}
}

func TestUsageRecorder(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	u := s.Usage()
	start := time.Now().Add(-time.Second)
	u.Record("answer", "m", 100, 20, 1500*time.Millisecond, nil)
	u.Record("answer", "m", 50, 0, time.Millisecond, errors.New("boom"))
	u.Record("summary", "m", 7, 3, 0, nil)
	tot, err := s.UsageTotals(ctx, start)
	if err != nil {
		t.Fatal(err)
	}
	want := []UsageTotal{
		{Op: "answer", Model: "m", Calls: 2, Errors: 1, PromptTokens: 150, CompletionTokens: 20, Ms: 1501},
		{Op: "summary", Model: "m", Calls: 1, PromptTokens: 7, CompletionTokens: 3},
	}
	if len(tot) != 2 || tot[0] != want[0] || tot[1] != want[1] {
		t.Errorf("totals = %+v", tot)
	}
	if future, _ := s.UsageTotals(ctx, time.Now().Add(time.Hour)); len(future) != 0 {
		t.Errorf("since filter: %+v", future)
	}
	if u.Dropped() != 0 {
		t.Errorf("dropped = %d", u.Dropped())
	}
}

// TestOldAnswersRedactedOnLoad: an answer stored with a URL password and a
// key-shaped token (by a build before redaction) comes back without them.
func TestOldAnswersRedactedOnLoad(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	res, err := s.w.ExecContext(ctx, `INSERT INTO answers(question, answer, settings, diagnostics, created_at)
		VALUES ('q', 'a', '{"llm":{"base_url":"http://bob:hunter2-pw@h/v1"}}',
		'{"fallbacks":["answer: HTTP 500: bad key sk-abcdefghijklmnopqrstuv"]}', 0)`)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := res.LastInsertId()
	a, err := s.Answer(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	set, _ := s.AnswerSettings(ctx, id)
	all := string(set) + strings.Join(a.Diag.Fallbacks, " ")
	if strings.Contains(all, "hunter2-pw") || strings.Contains(all, "sk-abcdefghijklmnopqrstuv") {
		t.Errorf("secrets came back: %s", all)
	}
}
