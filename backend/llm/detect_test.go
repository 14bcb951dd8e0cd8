package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

// modelServer answers the model list of kind (Ollama /api/tags, OpenAI
// /v1/models) and 404s anything else, as the real servers do. For OpenAI it
// requires the test key.
func modelServer(kind string, models ...string) replyFunc {
	return func(w http.ResponseWriter, r *http.Request, c call, n int) {
		switch {
		case kind == ProviderOllama && r.Method == http.MethodGet && r.URL.Path == "/api/tags":
			var ms []any
			for _, m := range models {
				ms = append(ms, map[string]any{"name": m, "model": m, "size": 4_000_000_000, "digest": "abc"})
			}
			writeJSON(w, 200, map[string]any{"models": append([]any{}, ms...)})
		case kind == ProviderOpenAI && r.Method == http.MethodGet && r.URL.Path == "/v1/models":
			if c.Auth != "Bearer "+testKey {
				writeJSON(w, 401, map[string]any{"error": map[string]any{"message": "Incorrect API key provided: sk-wr***ng."}})
				return
			}
			var ms []any
			for _, m := range models {
				ms = append(ms, map[string]any{"id": m, "object": "model", "owned_by": "org"})
			}
			writeJSON(w, 200, map[string]any{"object": "list", "data": append([]any{}, ms...)})
		default:
			http.Error(w, "404 page not found", http.StatusNotFound)
		}
	}
}

func TestDetect(t *testing.T) {
	cases := []struct {
		name     string
		kind     string // server kind
		models   []string
		cfg      func(base string) Config
		wantErr  string // substring of the error message; "" = nil error
		provider string
		chat     string
		chatOK   bool
		embed    string
		embedOK  bool
		problem  string
	}{
		{name: "ollama with :latest tags", kind: ProviderOllama, models: []string{"llama3.1:latest", "nomic-embed-text:latest"},
			cfg: func(b string) Config {
				return Config{Provider: "ollama", BaseURL: b, ChatModel: "llama3.1", EmbedModel: "nomic-embed-text"}
			},
			provider: "ollama", chat: "llama3.1:latest", chatOK: true, embed: "nomic-embed-text:latest", embedOK: true},
		{name: "auto finds ollama and picks a chat model", kind: ProviderOllama, models: []string{"nomic-embed-text:latest", "qwen2.5:7b"},
			cfg:      func(b string) Config { return Config{BaseURL: b} },
			provider: "ollama", chat: "qwen2.5:7b", chatOK: true},
		{name: "auto falls back to openai-compatible", kind: ProviderOpenAI, models: []string{"lmstudio-community/Qwen2.5-7B-Instruct-GGUF"},
			cfg: func(b string) Config {
				return Config{BaseURL: b + "/v1", APIKey: testKey, ChatModel: "qwen2.5-7b-instruct-gguf"}
			},
			provider: "openai", chat: "lmstudio-community/Qwen2.5-7B-Instruct-GGUF", chatOK: true},
		{name: "chat model missing", kind: ProviderOllama, models: []string{"mistral:latest", "phi3:mini"},
			cfg: func(b string) Config {
				return Config{Provider: "ollama", BaseURL: b, ChatModel: "llama3.1", EmbedModel: "bge-m3"}
			},
			provider: "ollama", chat: "llama3.1", embed: "bge-m3",
			problem: `chat model "llama3.1" not found among [mistral:latest, phi3:mini]`},
		{name: "no models at all", kind: ProviderOllama, models: nil,
			cfg:      func(b string) Config { return Config{Provider: "ollama", BaseURL: b} },
			provider: "ollama", problem: "the server has no models"},
		{name: "openai bad key", kind: ProviderOpenAI, models: []string{"gpt-4o-mini"},
			cfg: func(b string) Config {
				return Config{Provider: "openai", BaseURL: b, APIKey: "sk-wrong", ChatModel: "gpt-4o-mini"}
			},
			wantErr: "rejected the API key (HTTP 401)", provider: "openai"},
		{name: "openai server asked as ollama", kind: ProviderOpenAI, models: []string{"gpt-4o-mini"},
			cfg:     func(b string) Config { return Config{Provider: "ollama", BaseURL: b} },
			wantErr: "has no /api/tags endpoint (HTTP 404)", provider: "ollama"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.kind, modelServer(tc.kind, tc.models...))
			st, err := Detect(context.Background(), tc.cfg(f.srv.URL))
			if tc.wantErr != "" {
				if papertree.ErrorCode(err) != papertree.ELLM || !strings.Contains(papertree.ErrorMessage(err), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				if st.Reachable || len(st.Problems) == 0 || !strings.Contains(st.Problems[0], tc.wantErr) {
					t.Errorf("status %+v does not carry the problem", st)
				}
				return
			}
			if err != nil {
				t.Fatalf("Detect: %v", err)
			}
			if !st.Reachable || st.Provider != tc.provider || st.ChatModel != tc.chat || st.ChatModelOK != tc.chatOK ||
				st.EmbedModel != tc.embed || st.EmbedModelOK != tc.embedOK {
				t.Errorf("status %+v", st)
			}
			if st.Config.Provider != tc.provider || st.Config.ChatModel != tc.chat || st.Config.BaseURL != f.srv.URL {
				t.Errorf("resolved config %+v", st.Config)
			}
			joined := strings.Join(st.Problems, "; ")
			if (tc.problem == "") != (joined == "") || !strings.Contains(joined, tc.problem) {
				t.Errorf("problems %q, want %q", joined, tc.problem)
			}
			if st.ChatUsable() {
				if _, err := New(st.Config, nil); err != nil {
					t.Errorf("New on the resolved config: %v", err)
				}
			}
		})
	}
}

func TestDetectUnreachable(t *testing.T) {
	f := newFake(t, ProviderOllama, modelServer(ProviderOllama, "llama3.1:latest"))
	base := f.srv.URL
	f.srv.Close()
	for _, p := range []string{ProviderAuto, ProviderOllama, ProviderOpenAI} {
		st, err := Detect(context.Background(), Config{Provider: p, BaseURL: base})
		if papertree.ErrorCode(err) != papertree.ELLM || !strings.Contains(papertree.ErrorMessage(err), "connection refused at "+base) {
			t.Errorf("%q: err %v", p, err)
		}
		if st.Reachable || !strings.Contains(st.Summary(), "connection refused") {
			t.Errorf("%q: status %+v", p, st)
		}
		if p == ProviderAuto && st.Provider != ProviderNone {
			t.Errorf("auto with nothing listening resolved to %q", st.Provider)
		}
	}
}

func TestDetectTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	f := newFake(t, ProviderOllama, func(w http.ResponseWriter, r *http.Request, c call, n int) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	st, err := Detect(ctx, Config{Provider: "ollama", BaseURL: f.srv.URL})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(st.Summary(), "before the deadline (timeout)") {
		t.Errorf("err %v, summary %q", err, st.Summary())
	}
}

func TestDetectConfigProblems(t *testing.T) {
	st, err := Detect(context.Background(), Config{Provider: "none"})
	if err != nil || st.Reachable || st.Summary() != "LLM switched off" {
		t.Errorf("none: %+v %v", st, err)
	}
	for _, cfg := range []Config{{Provider: "gpt"}, {Provider: "openai", BaseURL: "ftp://x"}} {
		if _, err := Detect(context.Background(), cfg); papertree.ErrorCode(err) != papertree.ELLM {
			t.Errorf("%+v: err %v, want ELLM", cfg, err)
		}
	}
}

func TestMatchModel(t *testing.T) {
	have := []string{"llama3.1:latest", "qwen2.5:7b", "lmstudio-community/Meta-Llama-3-8B-Instruct-GGUF", "nomic-embed-text:latest"}
	cases := map[string]string{
		"llama3.1":                         "llama3.1:latest",
		"llama3.1:latest":                  "llama3.1:latest",
		"qwen2.5:7b":                       "qwen2.5:7b",
		"meta-llama-3-8b-instruct-gguf":    "lmstudio-community/Meta-Llama-3-8B-Instruct-GGUF",
		"nomic-embed-text":                 "nomic-embed-text:latest",
		"qwen2.5":                          "",
		"lmstudio-community/other-model-x": "",
	}
	for want, exp := range cases {
		got, ok := matchModel(want, have)
		if got != exp || ok != (exp != "") {
			t.Errorf("matchModel(%q) = %q, %v; want %q", want, got, ok, exp)
		}
	}
}
