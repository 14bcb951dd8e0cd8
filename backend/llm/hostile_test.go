package llm

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

const hostileKey = "sk-hostile-0123456789abcdef"

// hostileOp runs the operation that uses the call style under test:
// Summarize (non-streamed) or Answer (streamed). It returns the outcome
// and the text the caller saw (the result, or the streamed deltas).
func hostileOp(ctx context.Context, ops *Ops, stream bool, segment string) (Outcome, string) {
	if stream {
		var seen strings.Builder
		res, out := ops.Answer(ctx, AnswerInput{Question: "What does the section evaluate?",
			Evidence: []EvidenceRef{{PaperTitle: "P", Path: []string{"Results"}, Text: segment}}}, func(d string) { seen.WriteString(d) })
		return out, seen.String() + "\n" + res.Text
	}
	sum, out := ops.Summarize(ctx, SummaryInput{PaperTitle: "P", Path: []string{"Results"}, Segment: segment},
		func(SummaryInput) string { return "extractive summary" })
	return out, sum
}

// TestHostileServers: a server that never answers, one that never stops,
// one that sends 100 MB, and a web page where the API should be. Each call
// ends by the limit it names (read from the error, not from the wall clock,
// which a loaded machine can stretch; the slow servers answer only after
// 20 s and the endless ones never end, so any other ending fails), having
// read at most its cap, is not retried, and the operation falls back.
func TestHostileServers(t *testing.T) {
	cases := []struct {
		name   string
		reply  func(kind string) replyFunc
		stream bool
		limits func(*Config)
		want   string
		limit  bool // the error is ErrTimeLimit (the server missed a time limit)
	}{
		{"slow: no first byte within the limit", func(k string) replyFunc { return slowReply(k, 20*time.Second) }, false,
			func(c *Config) { c.FirstByteTimeout = 150 * time.Millisecond }, "did not start answering within the 0.15 s first-byte limit", true},
		{"slow streamed: no first byte within the limit", func(k string) replyFunc { return slowReply(k, 20*time.Second) }, true,
			func(c *Config) { c.FirstByteTimeout = 150 * time.Millisecond }, "did not start answering within the 0.15 s first-byte limit", true},
		{"endless trickle: the call limit ends it", func(k string) replyFunc { return endlessReply(k, 40*time.Millisecond) }, false,
			func(c *Config) { c.CallTimeout = 300 * time.Millisecond }, "did not finish one request within the 0.3 s limit per call", true},
		{"endless trickle streamed: the call limit ends it", func(k string) replyFunc { return endlessReply(k, 40*time.Millisecond) }, true,
			func(c *Config) { c.CallTimeout = 300 * time.Millisecond }, "did not finish one request within the 0.3 s limit per call", true},
		{"endless flood: the reply cap ends it", func(k string) replyFunc { return endlessReply(k, 0) }, false,
			func(c *Config) { c.MaxReplyBytes = 256 << 10 }, "sent a reply longer than the 256 KB limit", false},
		{"endless flood streamed: the reply cap ends it", func(k string) replyFunc { return endlessReply(k, 0) }, true,
			func(c *Config) { c.MaxReplyBytes = 256 << 10 }, "sent a reply longer than the 256 KB limit", false},
		{"huge: a 100 MB reply stops at the default cap", func(k string) replyFunc { return hugeReply(k, 100<<20) }, false,
			func(*Config) {}, "sent a reply longer than the 4 MB limit", false},
		{"HTML page", func(string) replyFunc { return htmlReply() }, false,
			func(*Config) {}, "a web page (HTML) instead of an API reply", false},
		{"HTML page streamed", func(string) replyFunc { return htmlReply() }, true,
			func(*Config) {}, "a web page (HTML) instead of an API reply", false},
	}
	for _, tc := range cases {
		for _, kind := range kinds {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				f := newFake(t, kind, tc.reply(kind))
				cfg := f.config()
				tc.limits(&cfg)
				ops := NewOps(newTestClient(t, cfg, nil))
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				start := time.Now()
				out, _ := hostileOp(context.Background(), ops, tc.stream, "The section evaluates the parser on 40 papers.")
				took := time.Since(start)
				runtime.ReadMemStats(&after)
				if !out.Fallback || papertree.ErrorCode(out.Err) != papertree.ELLM || !strings.Contains(out.Reason, tc.want) {
					t.Errorf("outcome %+v, want a fallback saying %q", out, tc.want)
				}
				if n := len(f.Calls()); n != 1 {
					t.Errorf("%d requests, want 1 (a limit that was hit is not retried)", n)
				}
				if errors.Is(out.Err, ErrTimeLimit) != tc.limit {
					t.Errorf("errors.Is(err, ErrTimeLimit) = %v, want %v: %v", !tc.limit, tc.limit, out.Err)
				}
				// Everything the call allocated (an upper bound of its peak
				// heap): the 100 MB reply must cost what the cap allows.
				alloc := after.TotalAlloc - before.TotalAlloc
				t.Logf("took %s, allocated %.1f MB", took.Round(time.Millisecond), float64(alloc)/(1<<20))
				if alloc > 48<<20 {
					t.Errorf("the call allocated %d MB", alloc>>20)
				}
			})
		}
	}
}

// TestConnectLimit: a server that takes the connection and never completes
// the TLS handshake is given up after the connect limit, named in the
// error, and not asked again. The call and first-byte limits are 20 s, so a
// connect limit not applied would end the call by one of them instead.
func TestConnectLimit(t *testing.T) {
	addr, conns := stalledListener(t)
	for _, stream := range []bool{false, true} {
		before := conns()
		cfg := Config{Provider: ProviderOpenAI, BaseURL: "https://" + addr, ChatModel: "test-chat", APIKey: testKey,
			RetryBaseDelay: time.Millisecond, RetryMaxDelay: 20 * time.Millisecond,
			ConnectTimeout: 150 * time.Millisecond, FirstByteTimeout: 20 * time.Second, CallTimeout: 20 * time.Second}
		out, _ := hostileOp(context.Background(), NewOps(newTestClient(t, cfg, nil)), stream, "The section evaluates the parser.")
		want := "cannot connect to the LLM server at https://" + addr + " within the 0.15 s connect limit"
		if !out.Fallback || papertree.ErrorCode(out.Err) != papertree.ELLM || !strings.Contains(out.Reason, want) {
			t.Errorf("stream %v: outcome %+v, want a fallback saying %q", stream, out, want)
		}
		if !errors.Is(out.Err, ErrTimeLimit) {
			t.Errorf("stream %v: %v is not ErrTimeLimit", stream, out.Err)
		}
		if n := conns() - before; n > 1 {
			t.Errorf("stream %v: %d connections, want 1 (a limit that was hit is not retried)", stream, n)
		}
	}
}

// TestDeadlineCauseNamed: a deadline set by the caller with a coded cause
// (the library's budget for one answer) is named in the error.
func TestDeadlineCauseNamed(t *testing.T) {
	f := newFake(t, ProviderOpenAI, slowReply(ProviderOpenAI, 20*time.Second))
	c := newTestClient(t, f.config(), nil)
	ctx, cancel := context.WithTimeoutCause(context.Background(), 50*time.Millisecond, papertree.Errorf(papertree.ELLM, "the answer's time budget ran out"))
	defer cancel()
	_, err := c.Chat(ctx, ChatRequest{Messages: []Message{{Role: "user", Content: "hi"}}})
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrTimeLimit) || papertree.ErrorMessage(err) != "the answer's time budget ran out" {
		t.Errorf("err %v", err)
	}
	// A spent deadline makes no request at all.
	n := len(f.Calls())
	if _, err := c.Chat(ctx, ChatRequest{Messages: []Message{{Role: "user", Content: "hi"}}}); err == nil || len(f.Calls()) != n {
		t.Errorf("a call after the deadline: err %v, %d more requests", err, len(f.Calls())-n)
	}
}

// recordingUsage keeps the model names the client reports.
type recordingUsage struct {
	mu     sync.Mutex
	models []string
}

func (u *recordingUsage) Record(op, model string, prompt, completion int, d time.Duration, err error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.models = append(u.models, model)
}

// TestEchoedKeyNeverLeavesTheClient: a server that echoes the API key into
// its content and model name. The key never reaches the caller: not in the
// result, not in a streamed delta (even when the key is split across
// deltas), not in the usage records, not in the model list of Detect.
func TestEchoedKeyNeverLeavesTheClient(t *testing.T) {
	cases := []struct {
		name   string
		stream bool
	}{
		{"non-streamed summary", false},
		{"streamed answer, key split across deltas", true},
	}
	for _, tc := range cases {
		for _, kind := range kinds {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				f := newFake(t, kind, echoReply(kind))
				cfg := f.config()
				cfg.APIKey = hostileKey
				usage := &recordingUsage{}
				ops := NewOps(newTestClient(t, cfg, usage))
				out, seen := hostileOp(context.Background(), ops, tc.stream, "The section evaluates the parser.")
				if out.Fallback {
					t.Fatalf("fell back: %+v", out)
				}
				if strings.Contains(seen, hostileKey) || strings.Contains(out.Model, hostileKey) || strings.Contains(strings.Join(usage.models, " "), hostileKey) {
					t.Errorf("key leaked: text %q model %q usage %q", seen, out.Model, usage.models)
				}
				if !strings.Contains(seen, "[redacted]") {
					t.Errorf("the echo was not redacted but lost: %q", seen)
				}
			})
		}
	}
	t.Run("model list", func(t *testing.T) {
		f := newFake(t, ProviderOpenAI, func(w http.ResponseWriter, r *http.Request, c call, n int) {
			writeJSON(w, 200, map[string]any{"data": []any{map[string]any{"id": "test-chat"}, map[string]any{"id": strings.TrimPrefix(c.Auth, "Bearer ")}}})
		})
		cfg := f.config()
		cfg.APIKey = hostileKey
		st, err := Detect(context.Background(), cfg)
		if err != nil || strings.Contains(strings.Join(st.Models, " "), hostileKey) {
			t.Errorf("models %q err %v", st.Models, err)
		}
	})
}

// TestStreamRedactorSplits: the key (or a bearer token) split anywhere
// across deltas is redacted, and text without secrets passes unchanged.
func TestStreamRedactorSplits(t *testing.T) {
	papertree.RegisterSecret(hostileKey)
	cases := []struct{ name, text, leak string }{
		{"registered key", "the key " + hostileKey + " was echoed", hostileKey},
		{"bearer token", "header Authorization: Bearer abcdefgh12345678 sent", "abcdefgh12345678"},
		{"plain text", "Headings carry the outline [1]. Glyphs are grouped by size [2].", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for n := 1; n <= len(tc.text); n++ {
				var got strings.Builder
				r := &streamRedactor{out: func(s string) { got.WriteString(s) }}
				for i := 0; i < len(tc.text); i += n {
					r.write(tc.text[i:min(i+n, len(tc.text))])
				}
				r.flush()
				if tc.leak != "" && strings.Contains(got.String(), tc.leak) {
					t.Fatalf("pieces of %d: %q", n, got.String())
				}
				if tc.leak == "" && got.String() != tc.text {
					t.Fatalf("pieces of %d: %q, want %q", n, got.String(), tc.text)
				}
			}
		})
	}
}

// TestInjectedOutputFallsBack: a well-formed reply carrying web markup or
// instructions for the next model falls back, unless the prompt (the
// paper's own text) contains them.
func TestInjectedOutputFallsBack(t *testing.T) {
	const plain = "The section evaluates the parser on 40 papers."
	cases := []struct {
		name, content, segment string
		stream, fallback       bool
	}{
		{"markup in a summary", injectedMarkup, plain, false, true},
		{"instructions in a summary", injectedInstructions, plain, false, true},
		{"instructions in a streamed answer", injectedInstructions + " [1]", plain, true, true},
		{"markup in a streamed answer", injectedMarkup + " [1]", plain, true, true},
		{"markup quoted from the paper", "The paper shows the payload <script>alert(1)</script> [1].", "XSS payloads such as <script>alert(1)</script> are filtered.", true, false},
		{"plain summary", "The parser is evaluated on 40 papers.", plain, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, ProviderOpenAI, replyContent(ProviderOpenAI, tc.content))
			ops := NewOps(newTestClient(t, f.config(), nil))
			out, _ := hostileOp(context.Background(), ops, tc.stream, tc.segment)
			if out.Fallback != tc.fallback {
				t.Errorf("fallback %v (%s), want %v", out.Fallback, out.Reason, tc.fallback)
			}
			if tc.fallback && !strings.Contains(out.Reason, "that the prompt did not") {
				t.Errorf("reason %q", out.Reason)
			}
		})
	}
}
