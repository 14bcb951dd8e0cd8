package llm

import (
	"context"
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

func (c *httpClient) chat(ctx context.Context, req ChatRequest, onDelta func(string)) (ChatResponse, error) {
	start := time.Now()
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
	} else if c.cfg.Provider == ProviderOllama {
		resp, err = c.ollamaChat(ctx, req, temp, onDelta)
	} else {
		resp, err = c.openAIChat(ctx, req, temp, onDelta)
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
