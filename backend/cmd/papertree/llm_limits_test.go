package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// silentServer lists a model and never answers a chat request (it waits
// until the client hangs up): a server that is hung or overloaded.
func silentServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/models" {
			fmt.Fprint(w, `{"data":[{"id":"cli-chat"}]}`)
			return
		}
		io.Copy(io.Discard, r.Body) // the server notices a client hanging up only after the body was read
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestAskLLMLimits: against a server that never answers, ask returns the
// extractive answer and says the --llm-budget ran out; an interrupt (Ctrl+C)
// during an LLM call says "Cancelled." in plain words; a limit that is not a
// positive duration is a usage error.
//
// The budget is checked by what ask says, not by the wall clock (a loaded
// machine made a 2 s bound fail at 2.013 s): every LLM step that was still
// waiting must name the budget as its reason, and none may name a longer
// limit of its own (the 30 s first byte, the 45 s call, the router's 10 s).
// Were the budget not applied, the server's silence would end each step by
// one of those instead, or never, and the answer would not be extractive.
func TestAskLLMLimits(t *testing.T) {
	srv := silentServer(t)
	dir := t.TempDir()
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(dir, "a.pdf"))
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, errOut, code := cli(t, "index", "--db", db, "--quiet", dir); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	llmArgs := []string{"--llm", "openai", "--llm-url", srv.URL, "--chat-model", "cli-chat"}
	cases := []struct {
		name      string
		env       string // $PAPERTREE_LLM_BUDGET
		args      []string
		cancel    time.Duration // interrupt after this long (0: never)
		budget    time.Duration // the budget that must end the steps (0: the case never reaches it)
		shown     string        // the budget as ask words it
		code      int
		out, errs []string // wanted in stdout, stderr
		notErr    string
	}{
		{"a never-answering server: the budget ends the LLM steps", "", []string{"--llm-budget", "2s"}, 0, 2 * time.Second, "2 s", 0,
			[]string{"Answer (extractive", "fallback: llm: the time budget of one answer (2 s) ran out"}, nil, ""},
		{"the budget from the environment", "1500ms", nil, 0, 1500 * time.Millisecond, "2 s", 0,
			[]string{"Answer (extractive", "time budget of one answer (2 s) ran out"}, nil, ""},
		{"Ctrl+C during an LLM call", "", nil, 300 * time.Millisecond, 0, "", 1,
			nil, []string{"Cancelled. [canceled]"}, "embed query"},
		{"no budget", "", []string{"--llm-budget", "0s"}, 0, 0, "", 2,
			nil, []string{"llm.answer_budget_seconds"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("PAPERTREE_LLM_BUDGET", c.env)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.cancel > 0 {
				time.AfterFunc(c.cancel, cancel)
			}
			var out, errb bytes.Buffer
			args := append(append([]string{"ask", "--db", db}, llmArgs...), c.args...)
			start := time.Now()
			code := run(ctx, append(args, "How are glyphs grouped?"), &out, &errb)
			took := time.Since(start)
			t.Logf("exit %d after %s", code, took.Round(time.Millisecond))
			if code != c.code {
				t.Errorf("exit %d after %s, want %d\n%s\n%s", code, took, c.code, out.String(), errb.String())
			}
			if c.budget > 0 {
				checkBudgetEndedSteps(t, out.String(), c.budget, c.shown)
			}
			for _, w := range c.out {
				if !strings.Contains(out.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, out.String())
				}
			}
			for _, w := range c.errs {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, errb.String())
				}
			}
			if c.notErr != "" && strings.Contains(errb.String(), c.notErr) {
				t.Errorf("stderr has %q:\n%s", c.notErr, errb.String())
			}
		})
	}
}

// checkBudgetEndedSteps checks the fallback lines of a plain ask against a
// server that never answers: at least one LLM step fell back; every step
// that fell back for want of a reply names the answer's budget, except the
// router, whose share of the budget must be shorter than the budget; no step
// names a limit of its own that is longer than the budget (the 30 s first
// byte, the 45 s call).
func checkBudgetEndedSteps(t *testing.T, out string, budget time.Duration, shown string) {
	t.Helper()
	reason := "the time budget of one answer (" + shown + ") ran out"
	steps := 0
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "fallback: ") {
			continue
		}
		if i := strings.Index(line, "no reply within "); i >= 0 {
			d, err := time.ParseDuration(strings.TrimSuffix(line[i+len("no reply within "):], ")"))
			if err != nil || d >= budget {
				t.Errorf("the router waited %s (%v), not a share of the %s budget: %s", d, err, budget, line)
			}
			continue
		}
		if !strings.Contains(line, "LLM call failed") {
			continue
		}
		steps++
		if strings.HasPrefix(line, "fallback: auto_route: ") && strings.Contains(line, "before the deadline") {
			continue // the router's share, named on its own line above
		}
		if !strings.Contains(line, reason) {
			t.Errorf("a step ended by something else than the budget: %s", line)
		}
	}
	if steps == 0 || !strings.Contains(out, "fallback: llm: "+reason) {
		t.Errorf("no LLM step fell back for the budget:\n%s", out)
	}
	for _, own := range []string{"first-byte limit", "limit per call"} {
		if strings.Contains(out, own) {
			t.Errorf("a step waited for its own limit (%q), not the budget:\n%s", own, out)
		}
	}
}

// TestCLIKeyNeverShown: index, structures, ask and export against a server
// that echoes the API key into every reply: the key is in no output of the
// CLI (stdout, stderr), no export and not in the library file.
func TestCLIKeyNeverShown(t *testing.T) {
	const key = "sk-cli-echo-7d1e0b9c4a2f"
	var chats atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		if r.URL.Path == "/v1/models" {
			fmt.Fprint(w, `{"data":[{"id":"cli-chat"}]}`)
			return
		}
		chats.Add(1)
		body, _ := io.ReadAll(r.Body)
		content := "A summary that quotes " + auth + " and " + strings.TrimPrefix(auth, "Bearer ") + "."
		if strings.Contains(string(body), "You answer questions") {
			content = "Glyphs become words [1]. The key " + strings.TrimPrefix(auth, "Bearer ") + " was sent."
		}
		b, _ := json.Marshal(content)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"model":%q,"choices":[{"message":{"content":%s},"finish_reason":"stop"}]}`, strings.TrimPrefix(auth, "Bearer "), b)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("PAPERTREE_API_KEY", key)
	dir := t.TempDir()
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(dir, "a.pdf"))
	db := filepath.Join(t.TempDir(), "lib.db")
	report := filepath.Join(t.TempDir(), "answer.html")
	llmArgs := []string{"--llm", "openai", "--llm-url", srv.URL, "--chat-model", "cli-chat"}
	steps := []struct {
		name string
		args []string
	}{
		{"index", append([]string{"index", "--db", db}, append(llmArgs, dir)...)},
		{"structures", append([]string{"structures", "--db", db}, llmArgs...)},
		{"ask", append([]string{"ask", "--db", db, "--json"}, append(llmArgs, "How are glyphs grouped?")...)},
		{"ask text", append([]string{"ask", "--db", db}, append(llmArgs, "How are glyphs grouped?")...)},
		{"export", []string{"export", "--db", db, "--history", "--format", "html", "--out", report}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			out, errOut, code := cli(t, s.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if strings.Contains(out+errOut, key) {
				t.Errorf("the key is in the output:\n%s\n%s", out, errOut)
			}
			if s.name == "ask" && !strings.Contains(out, `"mode": "llm"`) {
				t.Errorf("the answer is not the model's (the echo must be redacted, not refused): %s", out)
			}
		})
	}
	if chats.Load() < 5 {
		t.Fatalf("only %d chat requests: the echo was not exercised", chats.Load())
	}
	t.Logf("%d chat requests", chats.Load())
	for _, f := range []string{report, db, db + "-wal"} {
		if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte(key)) {
			t.Errorf("the key is in %s", filepath.Base(f))
		}
	}
}
