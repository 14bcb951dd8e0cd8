package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/settings"
)

// llmOpts are the LLM flags of ask and index. Each defaults to an
// environment variable so scripts can set the server once.
type llmOpts struct {
	provider, url, chat, embed string
	// budget is the time one answer's LLM steps may take, callTimeout the
	// limit of one request (the settings' llm.answer_budget_seconds and
	// llm.call_timeout_seconds).
	budget, callTimeout time.Duration
}

func envDuration(name string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(envOr(name, "")); err == nil && d > 0 {
		return d
	}
	return def
}

func envOr(name, def string) string {
	if v := strings.TrimSpace(os.Getenv(name)); v != "" {
		return v
	}
	return def
}

// llmFlags registers --llm, --llm-url, --chat-model and --embed-model.
func llmFlags(fs *flag.FlagSet) *llmOpts {
	o := &llmOpts{}
	fs.StringVar(&o.provider, "llm", envOr("PAPERTREE_LLM", "none"), "language model server: none, auto (local Ollama), ollama or openai (any OpenAI-compatible server) [$PAPERTREE_LLM]")
	fs.StringVar(&o.url, "llm-url", envOr("PAPERTREE_LLM_URL", ""), "LLM server address, e.g. http://127.0.0.1:11434 or http://localhost:1234/v1 [$PAPERTREE_LLM_URL]")
	fs.StringVar(&o.chat, "chat-model", envOr("PAPERTREE_CHAT_MODEL", ""), "chat model (default: the first one the server offers) [$PAPERTREE_CHAT_MODEL]")
	fs.StringVar(&o.embed, "embed-model", envOr("PAPERTREE_EMBED_MODEL", ""), "embedding model on the server, checked at start (papers are embedded with the built-in embedder) [$PAPERTREE_EMBED_MODEL]")
	fs.DurationVar(&o.budget, "llm-budget", envDuration("PAPERTREE_LLM_BUDGET", llm.DefaultAnswerBudget), "time the LLM may spend on one answer; steps still waiting then use their offline fallback [$PAPERTREE_LLM_BUDGET]")
	fs.DurationVar(&o.callTimeout, "llm-timeout", envDuration("PAPERTREE_LLM_TIMEOUT", llm.DefaultCallTimeout), "time limit for one request to the LLM server [$PAPERTREE_LLM_TIMEOUT]")
	return o
}

// wholeSeconds rounds a flag's duration up to the settings' whole seconds
// (a positive duration never becomes 0, which would mean the default).
func wholeSeconds(d time.Duration) int {
	if d <= 0 {
		return -1 // refused by Validate
	}
	return int((d + time.Second - 1) / time.Second)
}

// config returns the LLM configuration, nil when the LLM is off. The API
// key comes from $PAPERTREE_API_KEY or the secret store (OS keyring or the
// user-only secrets file); a missing key is fine for local servers.
func (o *llmOpts) config(ctx context.Context) (*llm.Config, error) {
	s := settings.Default()
	s.LLM.Provider, s.LLM.BaseURL, s.LLM.ChatModel, s.LLM.EmbedModel = strings.ToLower(strings.TrimSpace(o.provider)), o.url, o.chat, o.embed
	s.LLM.AnswerBudgetSeconds, s.LLM.CallTimeoutSeconds = wholeSeconds(o.budget), wholeSeconds(o.callTimeout)
	if err := s.Validate(); err != nil {
		return nil, usageError{papertree.ErrorMessage(err)}
	}
	var store settings.SecretStore
	if os.Getenv(settings.APIKeyEnv) == "" {
		if ss, err := settings.DefaultSecrets(ctx); err == nil {
			store = ss
		}
	}
	key, _ := settings.APIKey(ctx, store)
	cfg, on := s.LLMConfig(key)
	if !on {
		return nil, nil
	}
	return &cfg, nil
}

// openLibraryLLM opens the library with the LLM of o and says on stderr
// when the LLM was asked for but cannot be used (the command then runs
// without it).
func openLibraryLLM(ctx context.Context, db string, workers int, o *llmOpts, stderr io.Writer) (*library.Library, error) {
	return openLibraryLLMMode(ctx, db, workers, o, stderr, false, false)
}

// openLibraryLLMMode is openLibraryLLM; mustExist for commands that only
// read the library (ask), oneQuestion for a process that asks one question
// (ask; see library.Config.OneQuestion).
func openLibraryLLMMode(ctx context.Context, db string, workers int, o *llmOpts, stderr io.Writer, mustExist, oneQuestion bool) (*library.Library, error) {
	if db == "" {
		return nil, usageError{"--db FILE.db is required"}
	}
	cfg, err := o.config(ctx)
	if err != nil {
		return nil, err
	}
	lib, err := library.Open(ctx, library.Config{DBPath: db, Workers: workers, LLM: cfg, MustExist: mustExist, ReadOnly: forceReadOnly, OneQuestion: oneQuestion,
		WarmBudget: cliWarmBudget, Upgrading: upgradeNotice})
	if err != nil {
		return nil, err
	}
	if cfg != nil {
		if st, on := lib.LLMStatus(); !on {
			fmt.Fprintf(stderr, "papertree: LLM unavailable (%s); continuing without it\n", st.Summary())
		}
	}
	return lib, nil
}
