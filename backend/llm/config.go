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
