package llm

import (
	"context"
	"strings"
	"sync/atomic"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // "system", "user" or "assistant"
	Content string `json:"content"`
}

// ChatRequest is one chat completion.
type ChatRequest struct {
	Messages []Message
	// Temperature overrides Config.Temperature when non-nil (see Temp).
	Temperature *float64
	// MaxTokens caps the completion; 0 leaves it to the server.
	MaxTokens int
	// JSON asks for a single JSON object (OpenAI response_format
	// json_object, Ollama format "json"). The prompt must still say so:
	// servers that ignore the flag then usually comply anyway.
	JSON bool
	// Op names the operation for usage accounting ("chat" when empty).
	Op string
}

// Temp returns a pointer for ChatRequest.Temperature.
func Temp(t float64) *float64 { return &t }

// ChatResponse is a finished completion.
type ChatResponse struct {
	Content          string
	PromptTokens     int
	CompletionTokens int
	// TokensEstimated is true when the server reported no usage and the
	// counts come from papertree.CountTokens.
	TokensEstimated bool
	// Truncated is true when the server stopped at MaxTokens.
	Truncated bool
	Model     string
	Duration  time.Duration
}

// Client is a chat model. Implementations are safe for concurrent use and
// bound their own concurrency. Errors are *papertree.Error (ELLM, or
// ECanceled when ctx was cancelled).
type Client interface {
	Chat(ctx context.Context, req ChatRequest) (ChatResponse, error)
	// ChatStream is Chat that calls onDelta with each piece of content as it
	// arrives (never concurrently). If it fails after deltas were delivered,
	// the caller must discard them. Retries happen only before the first delta.
	ChatStream(ctx context.Context, req ChatRequest, onDelta func(string)) (ChatResponse, error)
}

// New returns a chat client for cfg. The provider must be "ollama" or
// "openai" (run Detect first to resolve auto-detection and model names) and
// ChatModel must be set. usage may be nil.
func New(cfg Config, usage Usage) (Client, error) {
	cfg = cfg.WithDefaults()
	if p := validateBaseURL(cfg.BaseURL); p != "" && cfg.Provider != ProviderNone {
		return nil, papertree.Errorf(papertree.ELLM, "%s", p)
	}
	switch cfg.Provider {
	case ProviderOllama, ProviderOpenAI:
	case ProviderNone:
		return nil, papertree.Errorf(papertree.ELLM, "the LLM is switched off (provider \"none\")")
	case ProviderAuto:
		return nil, papertree.Errorf(papertree.ELLM, "the LLM provider is not resolved yet: run Detect first")
	default:
		return nil, papertree.Errorf(papertree.ELLM, "unknown LLM provider %q (use \"ollama\", \"openai\" or \"none\")", cfg.Provider)
	}
	if cfg.ChatModel == "" {
		return nil, papertree.Errorf(papertree.ELLM, "no chat model is set for the LLM server at %s", cfg.BaseURL)
	}
	return &httpClient{cfg: cfg, t: newTransport(cfg, usage)}, nil
}

// httpClient implements Client for both wire protocols.
type httpClient struct {
	cfg Config
	t   *transport
	// noJSONMode is set after an OpenAI-compatible server rejected
	// response_format json_object (LM Studio does); the prompt still asks
	// for JSON and the parsers are tolerant.
	noJSONMode atomic.Bool
}

func (c *httpClient) Chat(ctx context.Context, req ChatRequest) (ChatResponse, error) {
	return c.chat(ctx, req, nil)
}

func (c *httpClient) ChatStream(ctx context.Context, req ChatRequest, onDelta func(string)) (ChatResponse, error) {
	if onDelta == nil {
		onDelta = func(string) {}
	}
	return c.chat(ctx, req, onDelta)
}

// chat runs one call within the caller's ctx and the Config's call
// deadline. Every reply enters here, so here secrets leave it: the content
// (streamed deltas included) and the model name are redacted before anyone
// (caches, summaries, answers, usage rows, logs) sees them.
func (c *httpClient) chat(ctx context.Context, req ChatRequest, onDelta func(string)) (ChatResponse, error) {
	start := time.Now()
	ctx, cancel := c.t.callContext(ctx)
	defer cancel()
	var rs *streamRedactor
	if onDelta != nil {
		rs = &streamRedactor{out: onDelta}
		onDelta = rs.write
	}
	op := req.Op
	if op == "" {
		op = "chat"
	}
	temp := c.cfg.Temperature
	if req.Temperature != nil {
		temp = *req.Temperature
	}
	var resp ChatResponse
	var err error
	if len(req.Messages) == 0 {
		err = papertree.Errorf(papertree.EInvalid, "a chat request needs at least one message")
	} else if ctx.Err() != nil {
		// A spent deadline (the answer's budget) or a cancel: no request.
		err = ctxError(ctx, c.cfg.BaseURL)
	} else if c.cfg.Provider == ProviderOllama {
		resp, err = c.ollamaChat(ctx, req, temp, onDelta)
	} else {
		resp, err = c.openAIChat(ctx, req, temp, onDelta)
	}
	resp.Content, resp.Model = papertree.Redact(resp.Content), papertree.Redact(resp.Model)
	if err == nil && rs != nil {
		rs.flush()
	}
	resp.Duration = time.Since(start)
	if resp.Model == "" {
		resp.Model = c.cfg.ChatModel
	}
	if err == nil && resp.PromptTokens == 0 && resp.CompletionTokens == 0 {
		for _, m := range req.Messages {
			resp.PromptTokens += papertree.CountTokens(m.Content) + 4
		}
		resp.CompletionTokens = papertree.CountTokens(resp.Content)
		resp.TokensEstimated = true
	}
	c.t.usage.Record(op, resp.Model, resp.PromptTokens, resp.CompletionTokens, resp.Duration, err)
	if err != nil {
		return ChatResponse{Model: resp.Model, Duration: resp.Duration}, err
	}
	return resp, nil
}

// streamRedactor passes streamed text on without secrets. A secret may be
// split across deltas, so text is passed on only up to the last whitespace
// (registered secrets, URL credentials and key-shaped tokens contain none)
// and a trailing "Bearer"/"Basic" waits for the token after it. Each piece
// passed on is redacted whole; flush passes on the rest at the end.
type streamRedactor struct {
	out     func(string)
	pending []byte
}

func (r *streamRedactor) write(d string) {
	old := len(r.pending)
	r.pending = append(r.pending, d...)
	cut := -1
	for i := len(r.pending) - 1; i >= old; i-- { // only the new text can hold a new boundary
		if isSpace(r.pending[i]) {
			cut = i + 1
			break
		}
	}
	if cut < 0 {
		return
	}
	// The word before the whitespace run: hold back an auth scheme.
	end := cut
	for end > 0 && isSpace(r.pending[end-1]) {
		end--
	}
	if w := lastWord(r.pending[:end]); strings.EqualFold(w, "bearer") || strings.EqualFold(w, "basic") {
		cut = end - len(w)
	}
	if cut <= 0 {
		return
	}
	r.out(papertree.Redact(string(r.pending[:cut])))
	r.pending = append(r.pending[:0], r.pending[cut:]...)
}

func (r *streamRedactor) flush() {
	if len(r.pending) > 0 {
		r.out(papertree.Redact(string(r.pending)))
		r.pending = r.pending[:0]
	}
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\n' || b == '\t' || b == '\r' || b == '\f' || b == '\v'
}

// lastWord is the trailing run of letters of b (at most 7 bytes are
// looked at: only "bearer" and "basic" matter).
func lastWord(b []byte) string {
	i := len(b)
	for i > 0 && len(b)-i < 7 {
		c := b[i-1]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			break
		}
		i--
	}
	if i > 0 {
		if c := b[i-1]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' {
			return "" // part of a longer word
		}
	}
	return string(b[i:])
}
