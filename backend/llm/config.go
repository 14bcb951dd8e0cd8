package llm

import (
	"net/url"
	"strings"
	"time"
)

// Provider selects the wire protocol.
type Provider = string

// Providers. ProviderAuto ("") means: probe Ollama (at BaseURL, or its
// default port when BaseURL is empty), then an OpenAI-compatible server at
// BaseURL; Detect reports which one answered.
const (
	ProviderAuto   Provider = ""
	ProviderNone   Provider = "none"
	ProviderOllama Provider = "ollama"
	ProviderOpenAI Provider = "openai"
)

// Default server addresses: a local Ollama, and OpenAI itself when the
// provider is "openai" and no BaseURL is given.
const (
	DefaultOllamaURL = "http://127.0.0.1:11434"
	DefaultOpenAIURL = "https://api.openai.com"
)

// Defaults applied by Config.WithDefaults to zero fields.
const (
	DefaultMaxConcurrency = 4
	DefaultMaxRetries     = 3
	DefaultRetryBaseDelay = 500 * time.Millisecond
	DefaultRetryMaxDelay  = 30 * time.Second
	DefaultEmbedBatchSize = 32
	// The deadlines and the reply cap of one call, and the time budget of
	// one answer's LLM steps (the settings tree shows and edits them; these
	// are the values a zero field takes).
	DefaultConnectTimeout   = 5 * time.Second
	DefaultFirstByteTimeout = 30 * time.Second
	DefaultCallTimeout      = 45 * time.Second
	DefaultAnswerBudget     = 60 * time.Second
	DefaultMaxReplyBytes    = 4 << 20
)

// Config says which server to use and how hard to push it. The zero value
// means "auto-detect a local Ollama, 4 concurrent calls, 3 retries,
// temperature 0". It is plain data so the settings tree can store it.
type Config struct {
	Provider   Provider `json:"provider"`    // "none", "ollama", "openai" or "" (auto)
	BaseURL    string   `json:"base_url"`    // e.g. http://127.0.0.1:11434 or http://localhost:1234 (a trailing /v1 is accepted)
	ChatModel  string   `json:"chat_model"`  // model for chat operations; empty: Detect picks one the server has
	EmbedModel string   `json:"embed_model"` // model for embeddings; empty: no remote embedder
	APIKey     string   `json:"api_key,omitempty"`
	// MaxConcurrency bounds simultaneous requests per client (default 4).
	MaxConcurrency int `json:"max_concurrency"`
	// MaxRetries is the number of retries after the first attempt on
	// 429/5xx/dropped connections (default 3; negative means no retries).
	MaxRetries int `json:"max_retries"`
	// Temperature for requests that do not set their own (0 = reproducible).
	Temperature float64 `json:"temperature"`
	// RetryBaseDelay is the first backoff (default 500ms); it doubles per
	// retry, with jitter, up to RetryMaxDelay (default 30s). A Retry-After
	// longer than RetryMaxDelay ends the retries instead of sleeping.
	RetryBaseDelay time.Duration `json:"retry_base_delay"`
	RetryMaxDelay  time.Duration `json:"retry_max_delay"`
	// EmbedBatchSize is the number of texts per embedding request (default 32).
	EmbedBatchSize int `json:"embed_batch_size"`

	// Deadlines of one call (chat or embedding), set by the caller from
	// its settings: the client applies them to the HTTP transport (dial,
	// response headers) and as a context deadline over the call, so no
	// server can hold a call longer, however it misbehaves.
	//
	// ConnectTimeout bounds connecting to the server, TCP and TLS
	// (default 5s). A connection that times out is not retried.
	ConnectTimeout time.Duration `json:"connect_timeout"`
	// FirstByteTimeout bounds the wait for the reply to start (its HTTP
	// headers) after the request was sent (default 30s). A non-streamed
	// reply starts only once the whole completion is written, so it is
	// also the longest non-streamed completion. Not retried.
	FirstByteTimeout time.Duration `json:"first_byte_timeout"`
	// CallTimeout bounds one call in total: every attempt, the waits
	// between retries and reading the reply or stream (default 45s).
	CallTimeout time.Duration `json:"call_timeout"`
	// MaxReplyBytes caps the bytes read from one reply or one stream
	// (default 4 MiB); a longer reply fails the call (the step falls back)
	// instead of filling memory.
	MaxReplyBytes int64 `json:"max_reply_bytes"`
	// AnswerBudget is the total time the LLM steps of one answer may take
	// (default 60s). The client does not apply it (a call knows nothing of
	// the answer it belongs to): the library sets it as a deadline over the
	// answer's LLM steps, and the steps it cuts short use their fallbacks.
	AnswerBudget time.Duration `json:"answer_budget"`
}

// WithDefaults returns c with zero fields set to their defaults and BaseURL
// normalised (no trailing slash, no trailing /v1 or /api, and the
// provider's default address when empty).
func (c Config) WithDefaults() Config {
	c.Provider = strings.ToLower(strings.TrimSpace(c.Provider))
	if c.MaxConcurrency <= 0 {
		c.MaxConcurrency = DefaultMaxConcurrency
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = DefaultMaxRetries
	}
	if c.MaxRetries < 0 {
		c.MaxRetries = 0
	}
	if c.RetryBaseDelay <= 0 {
		c.RetryBaseDelay = DefaultRetryBaseDelay
	}
	if c.RetryMaxDelay <= 0 {
		c.RetryMaxDelay = DefaultRetryMaxDelay
	}
	if c.RetryMaxDelay < c.RetryBaseDelay {
		c.RetryMaxDelay = c.RetryBaseDelay
	}
	if c.EmbedBatchSize <= 0 {
		c.EmbedBatchSize = DefaultEmbedBatchSize
	}
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.FirstByteTimeout <= 0 {
		c.FirstByteTimeout = DefaultFirstByteTimeout
	}
	if c.CallTimeout <= 0 {
		c.CallTimeout = DefaultCallTimeout
	}
	if c.MaxReplyBytes <= 0 {
		c.MaxReplyBytes = DefaultMaxReplyBytes
	}
	if c.AnswerBudget <= 0 {
		c.AnswerBudget = DefaultAnswerBudget
	}
	c.BaseURL = normaliseBaseURL(c.BaseURL)
	if c.BaseURL == "" && (c.Provider == ProviderOllama || c.Provider == ProviderAuto) {
		c.BaseURL = DefaultOllamaURL
	}
	if c.BaseURL == "" && c.Provider == ProviderOpenAI {
		c.BaseURL = DefaultOpenAIURL
	}
	c.ChatModel = strings.TrimSpace(c.ChatModel)
	c.EmbedModel = strings.TrimSpace(c.EmbedModel)
	c.APIKey = strings.TrimSpace(c.APIKey)
	return c
}

func normaliseBaseURL(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimRight(s, "/")
	s = strings.TrimSuffix(s, "/v1")
	s = strings.TrimSuffix(s, "/api")
	return strings.TrimRight(s, "/")
}

// validateBaseURL returns a plain-words problem or "".
func validateBaseURL(s string) string {
	if s == "" {
		return "no server address is set"
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "the server address " + quote(s) + " is not an http:// or https:// URL"
	}
	return ""
}

func quote(s string) string { return `"` + s + `"` }
