package app

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/settings"
)

// ollamaServer is a local Ollama stand-in (the process boundary) on addr:
// it answers the model list, counts the requests and fails the test on
// anything else. addr "" picks a free port.
func ollamaServer(t *testing.T, addr string, hits *atomic.Int64) *http.Server {
	t.Helper()
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	var ln net.Listener
	var err error
	for try := 0; try < 50; try++ { // the port of a just-closed server may take a moment
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.Method != http.MethodGet || r.URL.Path != "/api/tags" {
			t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `{"models":[{"name":"llama3:8b","size":4661224676},{"name":"nomic-embed-text:latest"}]}`)
	})}
	srv.Addr = ln.Addr().String()
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return srv
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The window's LLM banner follows a real server going down and coming
// back: the health event says unreachable (with why) and the library's LLM
// is switched off, so answers are extractive; when the server answers on
// the same address again the event says so and the LLM is on again.
func TestLLMHealthFollowsTheServer(t *testing.T) {
	t.Setenv(settings.APIKeyEnv, "")
	dir := t.TempDir()
	var hits atomic.Int64
	srv := ollamaServer(t, "", &hits)
	addr := srv.Addr

	settingsPath := filepath.Join(dir, "settings.json")
	secrets := func(context.Context) (settings.SecretStore, error) {
		return settings.NewFileSecrets(filepath.Join(dir, "secrets.json"))
	}
	s := settings.Default()
	s.LLM.Provider, s.LLM.BaseURL, s.LLM.ChatModel = settings.ProviderOllama, "http://"+addr, "llama3:8b"
	if err := s.Save(settingsPath); err != nil {
		t.Fatal(err)
	}
	rt := &fakeRuntime{}
	a := New(Options{Logger: quietLogger(), Runtime: rt, LibraryDir: filepath.Join(dir, "lib"), SettingsPath: settingsPath, Secrets: secrets,
		Debounce: -1, LLMPoll: 100 * time.Millisecond, Open: OpenWithSettings(filepath.Join(dir, "lib"), settingsPath, secrets)})
	Hooks(a).Startup(context.Background())
	defer Hooks(a).Shutdown(context.Background())

	llmOn := func() bool {
		lib, _ := a.library()
		_, on := lib.(interface{ LLMStatus() (llm.Status, bool) }).LLMStatus()
		return on
	}
	events := func() []LLMHealthView {
		rt.mu.Lock()
		defer rt.mu.Unlock()
		return append([]LLMHealthView(nil), rt.health...)
	}

	waitFor(t, "the server is seen", func() bool { return a.LLMHealth().Reachable && llmOn() })
	if h := a.LLMHealth(); !h.Configured || h.Down() || h.BaseURL != "http://"+addr {
		t.Fatalf("up: %+v", h)
	}

	srv.Close()
	waitFor(t, "the banner is due", func() bool { return a.LLMHealth().Down() })
	waitFor(t, "the LLM is switched off", func() bool { return !llmOn() })
	h := a.LLMHealth()
	if h.Problem == "" || !strings.Contains(h.Problem, addr) {
		t.Errorf("down: the problem %q does not say which server", h.Problem)
	}

	before := hits.Load()
	ollamaServer(t, addr, &hits)
	waitFor(t, "the banner clears", func() bool { return a.LLMHealth().Reachable })
	waitFor(t, "the LLM is on again", llmOn)
	if hits.Load() == before {
		t.Error("the server came back but was never asked")
	}

	// One event per change, in order: up, down, up (no event per poll).
	var seq []bool
	for _, e := range events() {
		seq = append(seq, e.Reachable)
	}
	if len(seq) != 3 || !seq[0] || seq[1] || !seq[2] {
		t.Errorf("health events reachable = %v, want [true false true]", seq)
	}
}

// Whether a banner is due depends on what the settings name: no server
// (none), or auto with nothing found, is no news; a named server that does
// not answer is.
func TestLLMHealthWhatCountsAsDown(t *testing.T) {
	t.Setenv(settings.APIKeyEnv, "")
	// A port that refuses: listen, note the address, close.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	cases := []struct {
		name       string
		provider   string
		url        string
		configured bool
		down       bool
	}{
		{name: "LLM switched off", provider: settings.ProviderNone, configured: false, down: false},
		{name: "ollama at a closed port", provider: settings.ProviderOllama, url: closed, configured: true, down: true},
		{name: "openai-compatible at a closed port", provider: settings.ProviderOpenAI, url: closed, configured: true, down: true},
		{name: "auto with a server URL that refuses", provider: settings.ProviderAuto, url: closed, configured: true, down: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := settings.Default()
			s.LLM.Provider, s.LLM.BaseURL = tc.provider, tc.url
			if tc.provider == settings.ProviderOpenAI {
				s.LLM.ChatModel = "gpt-4o-mini"
			}
			path := filepath.Join(dir, "settings.json")
			if err := s.Save(path); err != nil {
				t.Fatal(err)
			}
			rt := &fakeRuntime{}
			a := New(Options{Logger: quietLogger(), Runtime: rt, SettingsPath: path, Debounce: -1, Secrets: func(context.Context) (settings.SecretStore, error) {
				return settings.NewFileSecrets(filepath.Join(dir, "secrets.json"))
			}})
			t0 := time.Now()
			h := a.checkLLM(context.Background())
			if time.Since(t0) > llmProbeTimeout+time.Second {
				t.Errorf("the check took %s, over its deadline", time.Since(t0))
			}
			if h.Configured != tc.configured || h.Down() != tc.down || h.CheckedAt == "" {
				t.Errorf("health = %+v, want configured %v down %v", h, tc.configured, tc.down)
			}
			if tc.down && h.Problem == "" {
				t.Error("down without saying why")
			}
			if len(rt.health) != 1 {
				t.Errorf("%d events, want 1 (the first check)", len(rt.health))
			}
		})
	}
}

// A server that was down when the app started is switched on when it comes
// up: before the watch, the LLM stayed off until the settings were saved.
func TestLLMHealthServerUpAfterStart(t *testing.T) {
	t.Setenv(settings.APIKeyEnv, "")
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there yet

	settingsPath := filepath.Join(dir, "settings.json")
	secrets := func(context.Context) (settings.SecretStore, error) {
		return settings.NewFileSecrets(filepath.Join(dir, "secrets.json"))
	}
	s := settings.Default()
	s.LLM.Provider, s.LLM.BaseURL, s.LLM.ChatModel = settings.ProviderOllama, "http://"+addr, "llama3:8b"
	if err := s.Save(settingsPath); err != nil {
		t.Fatal(err)
	}
	rt := &fakeRuntime{}
	a := New(Options{Logger: quietLogger(), Runtime: rt, LibraryDir: filepath.Join(dir, "lib"), SettingsPath: settingsPath, Secrets: secrets,
		Debounce: -1, LLMPoll: 100 * time.Millisecond, Open: OpenWithSettings(filepath.Join(dir, "lib"), settingsPath, secrets)})
	Hooks(a).Startup(context.Background())
	defer Hooks(a).Shutdown(context.Background())
	llmOn := func() bool {
		lib, _ := a.library()
		_, on := lib.(interface{ LLMStatus() (llm.Status, bool) }).LLMStatus()
		return on
	}
	waitFor(t, "the banner is due at start", func() bool { return a.LLMHealth().Down() })
	if llmOn() {
		t.Fatal("the LLM is on with no server")
	}
	var hits atomic.Int64
	ollamaServer(t, addr, &hits)
	waitFor(t, "the banner clears", func() bool { return a.LLMHealth().Reachable })
	waitFor(t, "the LLM is switched on", llmOn)
}
