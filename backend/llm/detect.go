package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// Status is what Detect found. Problems hold every failure in plain words
// (empty when everything configured is usable); Config is the input with
// the provider resolved, the model names spelled as the server spells them
// and, when ChatModel was empty, a chat model picked from the server's list.
type Status struct {
	Provider     Provider `json:"provider"` // resolved: "ollama", "openai" or "none"
	BaseURL      string   `json:"base_url"`
	Reachable    bool     `json:"reachable"` // the server answered its model list with 2xx
	Models       []string `json:"models"`    // models the server offers, sorted
	ChatModel    string   `json:"chat_model"`
	EmbedModel   string   `json:"embed_model"`
	ChatModelOK  bool     `json:"chat_model_ok"`
	EmbedModelOK bool     `json:"embed_model_ok"`
	Problems     []string `json:"problems,omitempty"`
	Config       Config   `json:"-"`
}

// ChatUsable reports whether chat operations can run with s.Config.
func (s Status) ChatUsable() bool { return s.Reachable && s.ChatModelOK }

// Summary is one line for the settings view and the CLI.
func (s Status) Summary() string {
	if s.Provider == ProviderNone && !s.Reachable && len(s.Problems) == 0 {
		return "LLM switched off"
	}
	if len(s.Problems) > 0 {
		return strings.Join(s.Problems, "; ")
	}
	msg := fmt.Sprintf("%s at %s: chat model %q", s.Provider, s.BaseURL, s.ChatModel)
	if s.EmbedModelOK {
		msg += fmt.Sprintf(", embedding model %q", s.EmbedModel)
	}
	return msg
}

// Detect asks the server which models it has and checks cfg against them.
// With Provider "" it probes Ollama at BaseURL (default 127.0.0.1:11434)
// and, when a BaseURL is set, an OpenAI-compatible server there.
// Detect does not retry: it must say quickly what is wrong. The error is
// non-nil (ELLM, message = the first problem) when no server answered or it
// rejected the key; when the server answers but a model is missing, err is
// nil and ChatModelOK/EmbedModelOK and Problems say so.
func Detect(ctx context.Context, cfg Config) (Status, error) {
	registerSecrets(cfg)
	st, err := detect(ctx, cfg)
	return redactStatus(st), err
}

func detect(ctx context.Context, cfg Config) (Status, error) {
	explicitURL := normaliseBaseURL(cfg.BaseURL) != ""
	cfg = cfg.WithDefaults()
	st := Status{Provider: cfg.Provider, BaseURL: cfg.BaseURL, Config: cfg}
	switch cfg.Provider {
	case ProviderNone:
		return st, nil
	case ProviderAuto, ProviderOllama, ProviderOpenAI:
	default:
		p := fmt.Sprintf("unknown LLM provider %q (use \"ollama\", \"openai\" or \"none\")", cfg.Provider)
		st.Problems = append(st.Problems, p)
		return st, papertree.Errorf(papertree.ELLM, "%s", p)
	}
	if p := validateBaseURL(cfg.BaseURL); p != "" {
		st.Problems = append(st.Problems, p)
		return st, papertree.Errorf(papertree.ELLM, "%s", p)
	}
	probe := cfg
	probe.MaxRetries = -1
	probe = probe.WithDefaults()
	t := newTransport(probe, nil)
	defer t.http.CloseIdleConnections() // a transport per detection: keep no connection open

	var models []string
	var err error
	switch cfg.Provider {
	case ProviderOllama:
		models, err = listOllama(ctx, t)
	case ProviderOpenAI:
		models, err = listOpenAI(ctx, t)
	default:
		st.Provider = ProviderOllama
		models, err = listOllama(ctx, t)
		if err != nil && explicitURL && ctx.Err() == nil && !refused(err) {
			if m2, err2 := listOpenAI(ctx, t); err2 == nil {
				st.Provider, models, err = ProviderOpenAI, m2, nil
			}
		}
		if err != nil {
			st.Provider = ProviderNone
		}
	}
	st.Config.Provider = st.Provider
	if err != nil {
		st.Problems = append(st.Problems, papertree.ErrorMessage(err))
		return st, err
	}
	st.Reachable = true
	for i, m := range models {
		models[i] = papertree.Redact(m) // a server's reply, shown and stored as the model name
	}
	sort.Strings(models)
	st.Models = models

	if cfg.ChatModel == "" {
		for _, m := range models {
			if !looksLikeEmbedding(m) {
				st.ChatModel, st.ChatModelOK = m, true
				break
			}
		}
		if !st.ChatModelOK {
			st.Problems = append(st.Problems, fmt.Sprintf("no chat model is set and the server at %s offers none among %s", cfg.BaseURL, listWords(models)))
		}
	} else if m, ok := matchModel(cfg.ChatModel, models); ok {
		st.ChatModel, st.ChatModelOK = m, true
	} else {
		st.ChatModel = cfg.ChatModel
		st.Problems = append(st.Problems, fmt.Sprintf("chat model %q not found among %s at %s", cfg.ChatModel, listWords(models), cfg.BaseURL))
	}
	if cfg.EmbedModel != "" {
		if m, ok := matchModel(cfg.EmbedModel, models); ok {
			st.EmbedModel, st.EmbedModelOK = m, true
		} else {
			st.EmbedModel = cfg.EmbedModel
			st.Problems = append(st.Problems, fmt.Sprintf("embedding model %q not found among %s at %s", cfg.EmbedModel, listWords(models), cfg.BaseURL))
		}
	}
	st.Config.ChatModel, st.Config.EmbedModel = st.ChatModel, st.EmbedModel
	return st, nil
}

func refused(err error) bool {
	return strings.Contains(papertree.ErrorMessage(err), "connection refused")
}

func listWords(models []string) string {
	if len(models) == 0 {
		return "[] (the server has no models; pull or load one)"
	}
	const max = 12
	if len(models) > max {
		return "[" + strings.Join(models[:max], ", ") + fmt.Sprintf(", ... %d more]", len(models)-max)
	}
	return "[" + strings.Join(models, ", ") + "]"
}

// matchModel finds want among have: exactly, then Ollama's implicit
// ":latest" tag, then ignoring case and a publisher prefix ("org/name").
func matchModel(want string, have []string) (string, bool) {
	for _, h := range have {
		if h == want {
			return h, true
		}
	}
	for _, h := range have {
		if h == want+":latest" || strings.TrimSuffix(h, ":latest") == strings.TrimSuffix(want, ":latest") {
			return h, true
		}
	}
	base := func(s string) string {
		s = strings.ToLower(strings.TrimSuffix(s, ":latest"))
		if i := strings.LastIndex(s, "/"); i >= 0 {
			s = s[i+1:]
		}
		return strings.TrimSuffix(s, ".gguf")
	}
	for _, h := range have {
		if base(h) == base(want) {
			return h, true
		}
	}
	return "", false
}

// looksLikeEmbedding tells embedding-only models from chat models by name,
// to avoid picking one as the default chat model.
func looksLikeEmbedding(name string) bool {
	n := strings.ToLower(name)
	for _, k := range []string{"embed", "bge-", "minilm", "e5-", "gte-", "rerank"} {
		if strings.Contains(n, k) {
			return true
		}
	}
	return false
}

func getJSON(ctx context.Context, t *transport, path string, into any) error {
	ctx, cancel := t.callContext(ctx)
	defer cancel()
	resp, err := t.do(ctx, http.MethodGet, path, nil, "")
	if err != nil {
		return err
	}
	defer resp.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return readError(ctx, t.base, err)
	}
	if err := json.Unmarshal(raw, into); err != nil {
		return badResponse(t.base, "a model list that is not valid JSON (is it the right kind of server?)", err)
	}
	return nil
}

func listOllama(ctx context.Context, t *transport) ([]string, error) {
	var r struct {
		Models *[]struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if err := getJSON(ctx, t, "/api/tags", &r); err != nil {
		return nil, err
	}
	if r.Models == nil {
		return nil, badResponse(t.base, "a reply to /api/tags without a model list (not an Ollama server?)", nil)
	}
	out := []string{}
	for _, m := range *r.Models {
		if m.Name == "" {
			m.Name = m.Model
		}
		if m.Name != "" {
			out = append(out, m.Name)
		}
	}
	return out, nil
}

func listOpenAI(ctx context.Context, t *transport) ([]string, error) {
	var r struct {
		Data *[]struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := getJSON(ctx, t, "/v1/models", &r); err != nil {
		return nil, err
	}
	if r.Data == nil {
		return nil, badResponse(t.base, "a reply to /v1/models without a model list (not an OpenAI-compatible server?)", nil)
	}
	out := []string{}
	for _, m := range *r.Data {
		if m.ID != "" {
			out = append(out, m.ID)
		}
	}
	return out, nil
}
