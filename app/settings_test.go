package app

import (
	"context"
	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/llm"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/settings"
)

func TestSettingsKeepTheAPIKeyOutOfTheSettingsFile(t *testing.T) {
	t.Setenv(settings.APIKeyEnv, "")
	dir := t.TempDir()
	secretsPath := filepath.Join(dir, "secrets.json")
	a := New(Options{
		Logger: quietLogger(), Runtime: &fakeRuntime{},
		SettingsPath: filepath.Join(dir, "cfg", "settings.json"),
		Secrets: func(context.Context) (settings.SecretStore, error) {
			return settings.NewFileSecrets(secretsPath)
		},
	})
	v, err := a.GetSettings()
	if err != nil {
		t.Fatal(err)
	}
	if v.APIKeySet || v.Settings.Retrieval.Strategy != "auto" || v.Descriptions["retrieval.params.sections"] == "" || len(v.Strategies) == 0 {
		t.Fatalf("defaults: %+v", v)
	}

	s := v.Settings
	s.LLM = settings.LLM{Provider: settings.ProviderOpenAI, BaseURL: "http://127.0.0.1:9", ChatModel: "m"}
	s.Parse.MaxSegmentTokens = 256
	res, err := a.SaveSettings(SettingsInput{Settings: s, APIKey: "sk-very-secret"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Reindex {
		t.Error("changing the parse settings should offer to re-index")
	}
	b, err := os.ReadFile(a.settingsPath)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "sk-very-secret") {
		t.Fatalf("the API key is in the settings file:\n%s", b)
	}
	sec, err := os.ReadFile(secretsPath)
	if err != nil || !strings.Contains(string(sec), "sk-very-secret") {
		t.Fatalf("the API key is not in the secret store: %v", err)
	}
	if st, _ := os.Stat(secretsPath); st.Mode().Perm() != 0o600 {
		t.Errorf("secrets file mode %v, want 0600", st.Mode().Perm())
	}
	v, _ = a.GetSettings()
	if !v.APIKeySet || v.Settings.LLM.Provider != settings.ProviderOpenAI || v.Settings.Parse.MaxSegmentTokens != 256 {
		t.Errorf("after save: %+v", v)
	}

	// Clearing removes the key; invalid settings are refused with a coded error.
	if _, err := a.SaveSettings(SettingsInput{Settings: s, ClearKey: true}); err != nil {
		t.Fatal(err)
	}
	if v, _ := a.GetSettings(); v.APIKeySet {
		t.Error("the key is still stored after clearing it")
	}
	bad := s
	bad.LLM.BaseURL = "ftp://x"
	if _, err := a.SaveSettings(SettingsInput{Settings: bad}); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Errorf("bad URL: err = %v, want EInvalid", err)
	}
}

func TestTestConnectionSaysWhatFailed(t *testing.T) {
	a := New(Options{Logger: quietLogger(), Runtime: &fakeRuntime{}, Secrets: func(context.Context) (settings.SecretStore, error) {
		return settings.NewFileSecrets(filepath.Join(t.TempDir(), "s.json"))
	}})
	s := settings.Default()
	s.LLM = settings.LLM{Provider: settings.ProviderOllama, BaseURL: "http://127.0.0.1:9"} // nothing listens on port 9
	st, err := a.TestConnection(SettingsInput{Settings: s})
	if err != nil {
		t.Fatal(err)
	}
	if st.Reachable || st.On || len(st.Problems) == 0 {
		t.Errorf("status = %+v, want unreachable with problems", st)
	}
	s.LLM.Provider = settings.ProviderNone
	if st, _ := a.TestConnection(SettingsInput{Settings: s}); st.On || st.Provider != "none" {
		t.Errorf("provider none: %+v", st)
	}
}

func TestDeltaStreamThrottlesAndFlushesTheWholeText(t *testing.T) {
	var mu sync.Mutex
	var got []string
	d := &deltaStream{interval: time.Hour, emit: func(s string) {
		mu.Lock()
		got = append(got, s)
		mu.Unlock()
	}}
	d.add("The ")
	d.add("answer ")
	d.add("[1].")
	d.flush()
	d.flush()
	if len(got) != 2 || got[0] != "The " || got[1] != "The answer [1]." {
		t.Errorf("emitted %q, want the first piece, then the whole text once", got)
	}
}

func TestReopenLibraryAppliesEmbeddingSettings(t *testing.T) {
	t.Setenv(settings.APIKeyEnv, "")
	dir := t.TempDir()
	settingsPath := filepath.Join(dir, "settings.json")
	secrets := func(context.Context) (settings.SecretStore, error) {
		return settings.NewFileSecrets(filepath.Join(dir, "secrets.json"))
	}
	s := settings.Default()
	s.LLM = settings.LLM{Provider: settings.ProviderOllama, BaseURL: "http://127.0.0.1:9", EmbedModel: "nomic-embed-text", UseLLMEmbeddings: true}
	if err := s.Save(settingsPath); err != nil {
		t.Fatal(err)
	}
	rt := &fakeRuntime{}
	a := New(Options{Logger: quietLogger(), Runtime: rt, LibraryDir: filepath.Join(dir, "lib"), SettingsPath: settingsPath, Secrets: secrets, Debounce: -1,
		Open: OpenWithSettings(filepath.Join(dir, "lib"), settingsPath, secrets)})
	Hooks(a).Startup(context.Background())
	defer Hooks(a).Shutdown(context.Background())

	// The server cannot embed: the library is not opened with another
	// embedder, and the list says why.
	if _, err := a.ListPapers(); papertree.ErrorCode(err) != papertree.ELLM || !strings.Contains(papertree.ErrorMessage(err), "switch server embeddings off") {
		t.Fatalf("ListPapers err = %v, want ELLM saying what to do", err)
	}
	s.LLM.UseLLMEmbeddings = false
	s.LLM.Provider = settings.ProviderNone
	if err := s.Save(settingsPath); err != nil {
		t.Fatal(err)
	}
	if err := a.ReopenLibrary(); err != nil {
		t.Fatal(err)
	}
	if ps, err := a.ListPapers(); err != nil || len(ps) != 0 {
		t.Fatalf("after reopen: %v, %v", ps, err)
	}
	if rt.names[len(rt.names)-1] != EventLibraryChanged {
		t.Errorf("reopen did not say the library changed: %q", rt.names)
	}
}

// timeoutLibrary records the time limit per file the app gives it.
type timeoutLibrary struct {
	scriptedLibrary
	limit time.Duration
}

func (l *timeoutLibrary) SetFileTimeout(d time.Duration) { l.limit = d }

func (l *timeoutLibrary) ConfigureLLM(context.Context, llm.Config) (llm.Status, error) {
	return llm.Status{Provider: llm.ProviderNone}, nil
}

// The time limit per file is a setting: saving it reaches the open library
// at once (the next index job uses it) and never asks for a re-index.
func TestSavingTheFileTimeLimitAppliesItWithoutReindex(t *testing.T) {
	if settings.DefaultFileTimeoutSeconds*time.Second != library.DefaultFileTimeout {
		t.Fatalf("settings default %d s, library default %s", settings.DefaultFileTimeoutSeconds, library.DefaultFileTimeout)
	}
	dir := t.TempDir()
	lib := &timeoutLibrary{}
	a := New(Options{Logger: quietLogger(), Runtime: &fakeRuntime{}, SettingsPath: filepath.Join(dir, "settings.json"),
		Open: func(context.Context) (Library, io.Closer, error) { return lib, io.NopCloser(nil), nil }})
	Hooks(a).Startup(context.Background())
	defer Hooks(a).Shutdown(context.Background())
	v, err := a.GetSettings()
	if err != nil {
		t.Fatal(err)
	}
	if v.Settings.Parse.FileTimeoutSeconds != settings.DefaultFileTimeoutSeconds || v.Descriptions["parse.file_timeout_seconds"] == "" {
		t.Fatalf("default time limit %d, description %q", v.Settings.Parse.FileTimeoutSeconds, v.Descriptions["parse.file_timeout_seconds"])
	}
	s := v.Settings
	s.Parse.FileTimeoutSeconds = 120
	res, err := a.SaveSettings(SettingsInput{Settings: s})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reindex {
		t.Error("changing the time limit per file asked for a re-index")
	}
	if lib.limit != 2*time.Minute {
		t.Errorf("the library's time limit is %s, want 2m", lib.limit)
	}
	s.Parse.FileTimeoutSeconds = 0
	if _, err := a.SaveSettings(SettingsInput{Settings: s}); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Errorf("a zero time limit: err = %v, want EInvalid", err)
	}
}
