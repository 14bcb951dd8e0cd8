package llm

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

func newTestClient(t *testing.T, cfg Config, usage Usage) *httpClient {
	t.Helper()
	c, err := New(cfg, usage)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c.(*httpClient)
}

// recordSleeps replaces the retry sleep with one that records the delays.
func recordSleeps(c *httpClient) *[]time.Duration {
	var mu sync.Mutex
	var d []time.Duration
	c.t.sleep = func(ctx context.Context, x time.Duration) error {
		mu.Lock()
		d = append(d, x)
		mu.Unlock()
		return ctx.Err()
	}
	return &d
}

func TestChat(t *testing.T) {
	const content = "Die Ergebnisse zeigen 67,09 F1 → besser als RAPTOR 🚀 (naïve café)."
	for _, kind := range kinds {
		for _, stream := range []bool{false, true} {
			for _, jsonMode := range []bool{false, true} {
				name := kind
				if stream {
					name += "/stream"
				}
				if jsonMode {
					name += "/json"
				}
				t.Run(name, func(t *testing.T) {
					f := newFake(t, kind, replyContent(kind, content))
					usage := NewMemoryUsage()
					c := newTestClient(t, f.config(), usage)
					req := ChatRequest{
						Messages:  []Message{{Role: "system", Content: "be brief"}, {Role: "user", Content: "what is PT-RAG?"}},
						MaxTokens: 77, JSON: jsonMode, Op: "probe", Temperature: Temp(0.3),
					}
					var deltas []string
					var resp ChatResponse
					var err error
					if stream {
						resp, err = c.ChatStream(context.Background(), req, func(s string) { deltas = append(deltas, s) })
					} else {
						resp, err = c.Chat(context.Background(), req)
					}
					if err != nil {
						t.Fatalf("chat: %v", err)
					}
					if resp.Content != content {
						t.Errorf("content %q, want %q", resp.Content, content)
					}
					if stream {
						if len(deltas) < 3 || strings.Join(deltas, "") != content {
							t.Errorf("deltas %q do not reassemble the content", deltas)
						}
					}
					if resp.PromptTokens != 100 || resp.CompletionTokens != 20 || resp.TokensEstimated {
						t.Errorf("tokens %d/%d estimated=%v, want the server's 100/20", resp.PromptTokens, resp.CompletionTokens, resp.TokensEstimated)
					}
					if resp.Model == "" {
						t.Error("no model in the response")
					}
					calls := f.Calls()
					if len(calls) != 1 {
						t.Fatalf("%d calls, want 1", len(calls))
					}
					checkChat(t, kind, calls[0], stream, jsonMode, "system: be brief", "user: what is PT-RAG?")
					b := calls[0].Body
					if kind == ProviderOpenAI {
						if b["max_tokens"] != 77.0 || b["temperature"] != 0.3 {
							t.Errorf("max_tokens/temperature not sent: %s", calls[0].Raw)
						}
					} else {
						o, _ := b["options"].(map[string]any)
						if o["num_predict"] != 77.0 || o["temperature"] != 0.3 {
							t.Errorf("options not sent: %s", calls[0].Raw)
						}
					}
					tot := usage.Totals()["probe"]
					if tot.Calls != 1 || tot.PromptTokens != 100 || tot.CompletionTokens != 20 || tot.Errors != 0 {
						t.Errorf("usage %+v, want one call with 100/20 tokens", tot)
					}
				})
			}
		}
	}
}

// TestStreamSplitAnywhere feeds the stream one byte at a time: every UTF-8
// sequence and every JSON object is split.
func TestStreamSplitAnywhere(t *testing.T) {
	const content = "Ünïcödé ✓ 数据集 ImageNet-21k {\"json\": [1, 2]} done"
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			f := newFake(t, kind, func(w http.ResponseWriter, r *http.Request, c call, n int) {
				writeChunked(w, streamBody(kind, splitRunes(content, 3), 11, 7), 1)
			})
			c := newTestClient(t, f.config(), nil)
			var got strings.Builder
			resp, err := c.ChatStream(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "x"}}}, func(s string) { got.WriteString(s) })
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != content || resp.Content != content {
				t.Errorf("streamed %q / content %q, want %q", got.String(), resp.Content, content)
			}
			if resp.PromptTokens != 11 || resp.CompletionTokens != 7 {
				t.Errorf("usage %d/%d, want 11/7 from the final chunk", resp.PromptTokens, resp.CompletionTokens)
			}
		})
	}
}

// A server that ignores "stream": true and sends one JSON body still works.
func TestStreamIgnoredByServer(t *testing.T) {
	f := newFake(t, ProviderOpenAI, func(w http.ResponseWriter, r *http.Request, c call, n int) {
		writeJSON(w, 200, oaCompletion("whole answer", 5, 2))
	})
	c := newTestClient(t, f.config(), nil)
	var deltas []string
	resp, err := c.ChatStream(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "x"}}}, func(s string) { deltas = append(deltas, s) })
	// The content arrives whole; the deltas may be cut at whitespace (the
	// client's redaction holds back text up to a word boundary).
	if err != nil || resp.Content != "whole answer" || strings.Join(deltas, "") != "whole answer" || resp.PromptTokens != 5 {
		t.Errorf("%+v %v deltas %q", resp, err, deltas)
	}
}

func TestStreamBroken(t *testing.T) {
	cases := []struct {
		name, kind, body, want string
	}{
		{"openai no DONE and no finish", ProviderOpenAI, "data: {\"choices\":[{\"delta\":{\"content\":\"half\"}}]}\n\n", "ended before the answer was finished"},
		{"openai bad event", ProviderOpenAI, "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]\n\n", "not valid JSON"},
		{"openai error event", ProviderOpenAI, "data: {\"error\":{\"message\":\"model overloaded\"}}\n\n", "model overloaded"},
		{"ollama no done", ProviderOllama, "{\"message\":{\"content\":\"half\"},\"done\":false}\n", "ended before the answer was finished"},
		{"ollama error line", ProviderOllama, "{\"error\":\"out of memory\"}\n", "out of memory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.kind, func(w http.ResponseWriter, r *http.Request, c call, n int) { writeChunked(w, tc.body, 4) })
			c := newTestClient(t, f.config(), nil)
			_, err := c.ChatStream(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "x"}}}, func(string) {})
			if papertree.ErrorCode(err) != papertree.ELLM || !strings.Contains(papertree.ErrorMessage(err), tc.want) {
				t.Errorf("err %v, want ELLM containing %q", err, tc.want)
			}
		})
	}
}

func TestRetries(t *testing.T) {
	ok := func(kind string) replyFunc { return replyContent(kind, "fine") }
	cases := []struct {
		name      string
		reply     func(kind string) replyFunc
		wantCalls int
		wantErr   string // "" = success
		wantSleep []time.Duration
	}{
		{"500 then success", func(k string) replyFunc { return sequence(errorReply(k, 500, "boom"), ok(k)) }, 2, "", nil},
		{"503 twice then success", func(k string) replyFunc {
			return sequence(errorReply(k, 503, "loading model"), errorReply(k, 503, "loading model"), ok(k))
		}, 3, "", nil},
		{"429 with Retry-After", func(k string) replyFunc {
			return sequence(func(w http.ResponseWriter, r *http.Request, c call, n int) {
				w.Header().Set("Retry-After", "0.015")
				errorReply(k, 429, "rate limit reached")(w, r, c, n)
			}, ok(k))
		}, 2, "", []time.Duration{15 * time.Millisecond}},
		{"429 Retry-After beyond limit", func(k string) replyFunc {
			return func(w http.ResponseWriter, r *http.Request, c call, n int) {
				w.Header().Set("Retry-After", "3600")
				errorReply(k, 429, "quota")(w, r, c, n)
			}
		}, 1, "asks to wait 1h0m0s", nil},
		{"500 forever", func(k string) replyFunc { return errorReply(k, 500, "internal error") }, 4, "failed (HTTP 500): internal error (gave up after 4 attempts)", nil},
		{"401 bad key is not retried", func(k string) replyFunc { return errorReply(k, 401, "Incorrect API key provided") }, 1, "rejected the API key (HTTP 401)", nil},
		{"404 model is not retried", func(k string) replyFunc {
			return errorReply(k, 404, "model 'test-chat' not found, try pulling it first")
		}, 1, `model "test-chat" not found`, nil},
		{"400 is not retried", func(k string) replyFunc { return errorReply(k, 400, "messages too long") }, 1, "refused the request (HTTP 400): messages too long", nil},
		{"connection reset then success", func(k string) replyFunc {
			return sequence(func(w http.ResponseWriter, r *http.Request, c call, n int) {
				conn, _, err := w.(http.Hijacker).Hijack()
				if err == nil {
					if tc, ok := conn.(*net.TCPConn); ok {
						tc.SetLinger(0) // RST instead of FIN
					}
					conn.Close()
				}
			}, ok(k))
		}, 2, "", nil},
	}
	for _, kind := range kinds {
		for _, tc := range cases {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				f := newFake(t, kind, tc.reply(kind))
				usage := NewMemoryUsage()
				c := newTestClient(t, f.config(), usage)
				sleeps := recordSleeps(c)
				resp, err := c.Chat(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "hi"}}, Op: "t"})
				if got := len(f.Calls()); got != tc.wantCalls {
					t.Errorf("%d calls, want %d", got, tc.wantCalls)
				}
				if len(*sleeps) != tc.wantCalls-1 && tc.wantErr == "" {
					t.Errorf("%d sleeps for %d calls", len(*sleeps), tc.wantCalls)
				}
				for i, want := range tc.wantSleep {
					if (*sleeps)[i] < want {
						t.Errorf("sleep %d = %v, want at least Retry-After %v", i, (*sleeps)[i], want)
					}
				}
				for _, d := range *sleeps {
					if d > 20*time.Millisecond {
						t.Errorf("sleep %v beyond RetryMaxDelay", d)
					}
				}
				tot := usage.Totals()["t"]
				if tot.Calls != 1 {
					t.Errorf("usage recorded %d calls, want 1 per Chat", tot.Calls)
				}
				if tc.wantErr == "" {
					if err != nil || resp.Content != "fine" {
						t.Fatalf("got %q, %v; want success", resp.Content, err)
					}
					return
				}
				if papertree.ErrorCode(err) != papertree.ELLM || !strings.Contains(papertree.ErrorMessage(err), tc.wantErr) {
					t.Errorf("err %q, want ELLM containing %q", papertree.ErrorMessage(err), tc.wantErr)
				}
				if !strings.Contains(papertree.ErrorMessage(err), f.srv.URL) {
					t.Errorf("error %q does not name the server URL", papertree.ErrorMessage(err))
				}
				if tot.Errors != 1 {
					t.Errorf("usage recorded %d errors, want 1", tot.Errors)
				}
			})
		}
	}
}

func TestBackoffGrowsWithJitter(t *testing.T) {
	tr := newTransport(Config{RetryBaseDelay: 100 * time.Millisecond, RetryMaxDelay: time.Second}.WithDefaults(), nil)
	for attempt, want := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		want *= time.Millisecond
		for range 50 {
			d := tr.backoff(attempt)
			if d < want/2 || d > want {
				t.Fatalf("attempt %d: backoff %v outside [%v, %v]", attempt, d, want/2, want)
			}
		}
	}
}

func TestRetryAfterParse(t *testing.T) {
	future := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	cases := []struct {
		in     string
		ok     bool
		lo, hi time.Duration
	}{
		{"2", true, 2 * time.Second, 2 * time.Second},
		{"0.5", true, 500 * time.Millisecond, 500 * time.Millisecond},
		{future, true, 80 * time.Second, 91 * time.Second},
		{"soon", false, 0, 0},
		{"", false, 0, 0},
	}
	for _, tc := range cases {
		d, ok := retryAfter(tc.in)
		if ok != tc.ok || d < tc.lo || d > tc.hi {
			t.Errorf("retryAfter(%q) = %v, %v", tc.in, d, ok)
		}
	}
}

func TestConnectionRefused(t *testing.T) {
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			f := newFake(t, kind, replyContent(kind, "x"))
			cfg := f.config()
			f.srv.Close()
			c := newTestClient(t, cfg, nil)
			sleeps := recordSleeps(c)
			_, err := c.Chat(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "hi"}}})
			msg := papertree.ErrorMessage(err)
			if papertree.ErrorCode(err) != papertree.ELLM || !strings.Contains(msg, "connection refused at "+cfg.BaseURL) {
				t.Errorf("err %q, want connection refused at %s", msg, cfg.BaseURL)
			}
			if len(*sleeps) != 0 {
				t.Errorf("refused connection was retried %d times", len(*sleeps))
			}
		})
	}
}

func TestDeadlineAndCancel(t *testing.T) {
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			release := make(chan struct{})
			defer close(release)
			f := newFake(t, kind, func(w http.ResponseWriter, r *http.Request, c call, n int) {
				select { // a server that is still thinking
				case <-r.Context().Done():
				case <-release:
				}
			})
			c := newTestClient(t, f.config(), nil)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
			defer cancel()
			_, err := c.Chat(ctx, ChatRequest{Messages: []Message{{Role: "user", Content: "hi"}}})
			if papertree.ErrorCode(err) != papertree.ELLM || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(papertree.ErrorMessage(err), "before the deadline") {
				t.Errorf("deadline: err %v", err)
			}
			ctx2, cancel2 := context.WithCancel(context.Background())
			go func() { time.Sleep(10 * time.Millisecond); cancel2() }()
			_, err = c.ChatStream(ctx2, ChatRequest{Messages: []Message{{Role: "user", Content: "hi"}}}, func(string) {})
			if papertree.ErrorCode(err) != papertree.ECanceled || !errors.Is(err, context.Canceled) {
				t.Errorf("cancel: err %v, want ECanceled", err)
			}
		})
	}
}

func TestMalformedResponse(t *testing.T) {
	cases := []struct{ name, ctype, want string }{
		{"HTML page labelled as such", "text/html; charset=utf-8", "a web page (HTML) instead of an API reply"},
		{"HTML page labelled JSON", "application/json", "not valid JSON"},
	}
	for _, tc := range cases {
		for _, kind := range kinds {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				f := newFake(t, kind, func(w http.ResponseWriter, r *http.Request, c call, n int) {
					w.Header().Set("Content-Type", tc.ctype)
					w.Write([]byte("<html>proxy login</html>"))
				})
				c := newTestClient(t, f.config(), nil)
				_, err := c.Chat(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "hi"}}})
				if papertree.ErrorCode(err) != papertree.ELLM || !strings.Contains(papertree.ErrorMessage(err), tc.want) {
					t.Errorf("err %v, want %q", err, tc.want)
				}
				if n := len(f.Calls()); n != 1 {
					t.Errorf("%d requests, want 1 (a web page is not retried)", n)
				}
			})
		}
	}
}

// LM Studio answers 400 to response_format json_object; the client must
// retry once without it and remember.
func TestJSONModeRejected(t *testing.T) {
	f := newFake(t, ProviderOpenAI, func(w http.ResponseWriter, r *http.Request, c call, n int) {
		if c.jsonMode() {
			writeJSON(w, 400, map[string]any{"error": "'response_format.type' must be 'json_schema' or 'text'"})
			return
		}
		replyContent(ProviderOpenAI, `{"ok": true}`)(w, r, c, n)
	})
	c := newTestClient(t, f.config(), nil)
	for i := range 2 {
		resp, err := c.Chat(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "json please"}}, JSON: true})
		if err != nil || resp.Content != `{"ok": true}` {
			t.Fatalf("call %d: %q %v", i, resp.Content, err)
		}
	}
	calls := f.Calls()
	if len(calls) != 3 || !calls[0].jsonMode() || calls[1].jsonMode() || calls[2].jsonMode() {
		t.Errorf("calls (json mode): want [true false false], got %d calls", len(calls))
	}
}

func TestConcurrencyBound(t *testing.T) {
	var inflight, peak atomic.Int32
	f := newFake(t, ProviderOpenAI, func(w http.ResponseWriter, r *http.Request, c call, n int) {
		cur := inflight.Add(1)
		for {
			p := peak.Load()
			if cur <= p || peak.CompareAndSwap(p, cur) {
				break
			}
		}
		time.Sleep(5 * time.Millisecond)
		inflight.Add(-1)
		replyContent(ProviderOpenAI, "ok")(w, r, c, n)
	})
	cfg := f.config()
	cfg.MaxConcurrency = 2
	c := newTestClient(t, cfg, nil)
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Chat(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "x"}}}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > 2 || p < 1 {
		t.Errorf("peak concurrency %d, want 1..2", p)
	}
	if len(f.Calls()) != 10 {
		t.Errorf("%d calls", len(f.Calls()))
	}
}

func TestUsageEstimatedWhenServerSendsNone(t *testing.T) {
	f := newFake(t, ProviderOpenAI, func(w http.ResponseWriter, r *http.Request, c call, n int) {
		writeJSON(w, 200, map[string]any{"model": "m", "choices": []any{map[string]any{"message": map[string]any{"content": "three small words"}, "finish_reason": "length"}}})
	})
	usage := NewMemoryUsage()
	c := newTestClient(t, f.config(), usage)
	resp, err := c.Chat(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "count these tokens please"}}, Op: "est"})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.TokensEstimated || resp.CompletionTokens != 3 || resp.PromptTokens == 0 || !resp.Truncated {
		t.Errorf("resp %+v, want estimated tokens and Truncated", resp)
	}
	recs := usage.Records()
	if len(recs) != 1 || recs[0].Op != "est" || recs[0].Model != "m" || recs[0].CompletionTokens != 3 {
		t.Errorf("records %+v", recs)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		want string
	}{
		{"none", Config{Provider: "none"}, "switched off"},
		{"auto unresolved", Config{ChatModel: "m"}, "run Detect first"},
		{"unknown provider", Config{Provider: "claude", BaseURL: "http://x", ChatModel: "m"}, "unknown LLM provider"},
		{"bad url", Config{Provider: "openai", BaseURL: "localhost:1234", ChatModel: "m"}, "not an http"},
		{"no model", Config{Provider: "ollama"}, "no chat model"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.cfg, nil)
			if papertree.ErrorCode(err) != papertree.ELLM || !strings.Contains(papertree.ErrorMessage(err), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
		})
	}
}

func TestConfigDefaults(t *testing.T) {
	c := Config{Provider: "OpenAI", BaseURL: " http://localhost:1234/v1/ "}.WithDefaults()
	if c.Provider != "openai" || c.BaseURL != "http://localhost:1234" || c.MaxConcurrency != 4 || c.MaxRetries != 3 {
		t.Errorf("%+v", c)
	}
	if c := (Config{}).WithDefaults(); c.BaseURL != DefaultOllamaURL {
		t.Errorf("auto default URL %q", c.BaseURL)
	}
	if c := (Config{Provider: "openai"}).WithDefaults(); c.BaseURL != DefaultOpenAIURL {
		t.Errorf("openai default URL %q", c.BaseURL)
	}
	if c := (Config{MaxRetries: -1}).WithDefaults(); c.MaxRetries != 0 {
		t.Errorf("MaxRetries -1 -> %d, want 0", c.MaxRetries)
	}
}
