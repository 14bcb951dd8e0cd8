package app

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/settings"
)

// The LLM watch keeps the window's word about the language model server
// true: while a server the settings name does not answer, the window shows a
// banner saying so (answers are extractive meanwhile), and the banner goes
// when the server answers again. It asks the server for its model list (the
// cheapest request it has; llm.Detect) every LLMPoll, each time under a
// short deadline, and when the answer changes it re-applies the LLM settings
// to the library: a server that went away is switched off (answers are
// extractive at once instead of each waiting for a time limit) and one that
// came back (or that was down when the app started) is switched on.

// EventLLMHealth carries LLMHealthView whenever it changes.
const EventLLMHealth = "llm:health"

// DefaultLLMPoll is how often the LLM server is asked while it answers;
// while it does not, it is asked twice as often, so the banner clears soon
// after the server is back.
const DefaultLLMPoll = 30 * time.Second

// llmProbeTimeout bounds one health request (connect and reply).
const llmProbeTimeout = 4 * time.Second

// LLMHealthView says whether the configured language model server answers.
type LLMHealthView struct {
	// Configured: the settings name a server (a provider other than none
	// and auto; auto with a server URL; auto after its server answered).
	Configured bool   `json:"configured"`
	Reachable  bool   `json:"reachable"`
	BaseURL    string `json:"baseUrl"`
	Problem    string `json:"problem"`   // why it does not answer, in words ("" when it does)
	CheckedAt  string `json:"checkedAt"` // RFC 3339; "" before the first check
}

// Down reports whether the banner is due.
func (v LLMHealthView) Down() bool { return v.Configured && !v.Reachable && v.CheckedAt != "" }

type llmWatch struct {
	mu     sync.Mutex
	state  LLMHealthView
	seenUp bool // an auto-detected server answered once: its absence is news
	kick   chan struct{}
}

// LLMHealth returns the last health check of the LLM server (the page asks
// once when it loads, then listens to EventLLMHealth).
func (a *App) LLMHealth() LLMHealthView {
	a.llmw.mu.Lock()
	defer a.llmw.mu.Unlock()
	return a.llmw.state
}

// checkLLMSoon asks for a health check now (after the settings changed).
func (a *App) checkLLMSoon() {
	select {
	case a.llmw.kick <- struct{}{}:
	default:
	}
}

// watchLLM configures the library's LLM from the settings (startup), then
// checks the server until ctx ends. poll < 0: no checks after the first.
func (a *App) watchLLM(ctx context.Context, poll time.Duration) {
	st := a.applyLLMSettings(ctx, true)
	s := a.loadSettings()
	if _, on := s.LLMConfig(""); on {
		a.recordLLM(ctx, s, st.Reachable, st.BaseURL, firstProblem(st.Problems, nil), false)
	} else {
		a.recordLLM(ctx, s, false, "", "", false)
	}
	if poll < 0 {
		return
	}
	for {
		wait := poll
		if a.LLMHealth().Down() {
			wait = poll / 2
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		case <-a.llmw.kick:
			t.Stop()
		}
		a.checkLLM(ctx)
	}
}

// checkLLM asks the configured server for its model list (one request,
// under llmProbeTimeout) and records the answer.
func (a *App) checkLLM(ctx context.Context) LLMHealthView {
	s := a.loadSettings()
	cfg, on := a.llmConfig(ctx, s, "")
	if !on {
		return a.recordLLM(ctx, s, false, "", "", true)
	}
	dctx, cancel := context.WithTimeout(ctx, llmProbeTimeout)
	st, err := llm.Detect(dctx, cfg)
	cancel()
	if ctx.Err() != nil {
		return a.LLMHealth()
	}
	return a.recordLLM(ctx, s, st.Reachable, st.BaseURL, firstProblem(st.Problems, err), true)
}

func firstProblem(problems []string, err error) string {
	if len(problems) > 0 {
		return problems[0]
	}
	if err != nil {
		return papertree.ErrorMessage(err)
	}
	return ""
}

// recordLLM stores a health check; when it differs from the last one it is
// logged and sent to the page, and (reconfigure) the library's LLM is set
// again from the settings, so it follows the server.
func (a *App) recordLLM(ctx context.Context, s settings.Settings, reachable bool, baseURL, problem string, reconfigure bool) LLMHealthView {
	p := strings.ToLower(strings.TrimSpace(s.LLM.Provider))
	_, on := s.LLMConfig("")
	a.llmw.mu.Lock()
	if on && reachable {
		a.llmw.seenUp = true
	}
	if !on {
		a.llmw.seenUp = false
	}
	v := LLMHealthView{
		Configured: on && (p != settings.ProviderAuto || strings.TrimSpace(s.LLM.BaseURL) != "" || a.llmw.seenUp),
		Reachable:  on && reachable,
		BaseURL:    baseURL,
		CheckedAt:  time.Now().UTC().Format(time.RFC3339),
	}
	if on && !reachable {
		v.Problem = problem
	}
	prev := a.llmw.state
	a.llmw.state = v
	a.llmw.mu.Unlock()

	if prev.Configured == v.Configured && prev.Reachable == v.Reachable && prev.BaseURL == v.BaseURL && prev.CheckedAt != "" {
		return v
	}
	a.log.Info("llm health", "configured", v.Configured, "reachable", v.Reachable, "url", v.BaseURL, "problem", v.Problem)
	a.rt.EventsEmit(ctx, EventLLMHealth, v)
	if reconfigure && on && prev.CheckedAt != "" && prev.Reachable != v.Reachable {
		st := a.applyLLMSettings(ctx, false)
		a.log.Info("llm reconfigured", "on", st.On, "summary", st.Summary)
	}
	return v
}
