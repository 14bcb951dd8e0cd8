package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// chatServer is an OpenAI-compatible server (process boundary) that
// answers each PaperTree operation plausibly and counts them.
func chatServer(t *testing.T) (*httptest.Server, func() map[string]int) {
	var mu sync.Mutex
	ops := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer sk-cli" {
			t.Errorf("%s: Authorization %q", r.URL.Path, r.Header.Get("Authorization"))
		}
		if r.URL.Path == "/v1/models" {
			fmt.Fprint(w, `{"data":[{"id":"cli-chat"}]}`)
			return
		}
		raw, _ := io.ReadAll(r.Body)
		var body struct {
			Model    string                     `json:"model"`
			Messages []struct{ Content string } `json:"messages"`
		}
		if err := json.Unmarshal(raw, &body); err != nil || body.Model != "cli-chat" || len(body.Messages) == 0 {
			t.Errorf("bad chat request %s", raw)
		}
		sys := body.Messages[0].Content
		op, content := "other", `{}`
		switch {
		case strings.Contains(sys, "structure-anchored summaries"):
			op, content = "summary", "A model-written summary."
		case strings.Contains(sys, "You help search academic papers"):
			op, content = "title_relevance", `{"scores":[{"id":1,"score":0.5}]}`
		case strings.Contains(sys, "You split questions"):
			op, content = "decompose", `{"subqueries":["How are glyphs grouped into words?"]}`
		case strings.Contains(sys, "You answer questions"):
			op, content = "answer", "Glyphs on one baseline become words [1] [99]."
		}
		mu.Lock()
		ops[op]++
		mu.Unlock()
		b, _ := json.Marshal(content)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"model":"cli-chat","choices":[{"message":{"content":%s},"finish_reason":"stop"}],"usage":{"prompt_tokens":50,"completion_tokens":9}}`, b)
	}))
	t.Cleanup(srv.Close)
	return srv, func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		out := map[string]int{}
		for k, v := range ops {
			out[k] = v
		}
		return out
	}
}

func TestAskWithLLM(t *testing.T) {
	srv, counts := chatServer(t)
	t.Setenv("PAPERTREE_API_KEY", "sk-cli")
	dir := t.TempDir()
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(dir, "a.pdf"))
	db := filepath.Join(t.TempDir(), "lib.db")
	llmArgs := []string{"--llm", "openai", "--llm-url", srv.URL + "/v1", "--chat-model", "cli-chat"}
	if _, errOut, code := cli(t, append([]string{"index", "--db", db, "--quiet"}, append(llmArgs, dir)...)...); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	if counts()["summary"] == 0 {
		t.Error("index --llm wrote no LLM summaries")
	}
	out, errOut, code := cli(t, append([]string{"ask", "--db", db, "--json"}, append(llmArgs, "How are glyphs grouped?")...)...)
	if code != 0 {
		t.Fatalf("ask: %d %s", code, errOut)
	}
	var a struct {
		ID    int64  `json:"answer_id"`
		Text  string `json:"answer"`
		Mode  string `json:"mode"`
		Model string `json:"model"`
		Diag  struct {
			Dropped int            `json:"dropped_citations"`
			Tokens  map[string]int `json:"llm_tokens"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if a.ID == 0 || a.Mode != "llm" || a.Model != "cli-chat" || a.Text != "Glyphs on one baseline become words [1]." || a.Diag.Dropped != 1 || a.Diag.Tokens["answer.prompt"] != 50 {
		t.Errorf("answer %+v", a)
	}
	// Without --llm the same library answers extractively, and ids grow.
	out, _, code = cli(t, "ask", "--db", db, "--json", "How are glyphs grouped?")
	var b struct {
		ID   int64  `json:"answer_id"`
		Mode string `json:"mode"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &b) != nil || b.Mode != "extractive" || b.ID <= a.ID {
		t.Errorf("extractive ask: %d %s", code, out)
	}
	// A server that is down: a warning, then the extractive answer.
	srv.Close()
	out, errOut, code = cli(t, append([]string{"ask", "--db", db}, append(llmArgs, "How are glyphs grouped?")...)...)
	if code != 0 || !strings.Contains(errOut, "LLM unavailable") || !strings.Contains(out, "extractive") {
		t.Errorf("server down: %d\n%s\n%s", code, out, errOut)
	}
	if _, errOut, code := cli(t, "ask", "--db", db, "--llm", "gpt", "q"); code == 0 || !strings.Contains(errOut, "llm.provider") {
		t.Errorf("bad provider: %d %s", code, errOut)
	}
}
