package app

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/settings"
)

// Settings: the one settings tree (backend/settings) is read from and saved
// to SettingsPath; the API key never goes there: it goes to the SecretStore
// (OS keyring, else a user-only file). Saving applies the LLM settings at
// once (ConfigureLLM) and tells the UI when the index must be rebuilt.

// DefaultSettingsPath is <user config dir>/papertree/settings.json.
func DefaultSettingsPath() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "papertree", "settings.json")
}

// SettingsView is everything the settings view shows.
type SettingsView struct {
	Settings     settings.Settings `json:"settings"`
	Descriptions map[string]string `json:"descriptions"` // one line per field, by JSON path
	Strategies   []string          `json:"strategies"`
	APIKeySet    bool              `json:"apiKeySet"`
	KeyWhere     string            `json:"keyWhere"` // where the API key is kept, in words
	Path         string            `json:"path"`     // the settings file
	LibraryDir   string            `json:"libraryDir"`
	LLM          LLMStatusView     `json:"llm"`
}

// SettingsInput is what the settings view saves or tests.
type SettingsInput struct {
	Settings settings.Settings `json:"settings"`
	APIKey   string            `json:"apiKey"`   // "" keeps the stored key
	ClearKey bool              `json:"clearKey"` // removes the stored key
}

// SaveResult says what saving changed.
type SaveResult struct {
	LLM            LLMStatusView `json:"llm"`
	Reindex        bool          `json:"reindex"`        // embedding or parse settings changed: offer to re-index
	RestartForData bool          `json:"restartForData"` // the data folder changed: applies at the next start
}

// LLMStatusView is the outcome of detecting the LLM server.
type LLMStatusView struct {
	Provider     string   `json:"provider"`
	BaseURL      string   `json:"baseUrl"`
	Reachable    bool     `json:"reachable"`
	Models       []string `json:"models"`
	ChatModel    string   `json:"chatModel"`
	EmbedModel   string   `json:"embedModel"`
	ChatModelOK  bool     `json:"chatModelOk"`
	EmbedModelOK bool     `json:"embedModelOk"`
	Problems     []string `json:"problems"` // exactly what failed, in words
	Summary      string   `json:"summary"`
	On           bool     `json:"on"` // answers are written by the model
}

func statusView(st llm.Status) LLMStatusView {
	v := LLMStatusView{
		Provider: string(st.Provider), BaseURL: st.BaseURL, Reachable: st.Reachable, Models: st.Models,
		ChatModel: st.ChatModel, EmbedModel: st.EmbedModel, ChatModelOK: st.ChatModelOK, EmbedModelOK: st.EmbedModelOK,
		Problems: st.Problems, Summary: st.Summary(), On: st.ChatUsable(),
	}
	if v.Models == nil {
		v.Models = []string{}
	}
	if v.Problems == nil {
		v.Problems = []string{}
	}
	return v
}

// loadSettings reads the settings file; a broken file gives the defaults
// (and a log line), so the app keeps working.
func (a *App) loadSettings() settings.Settings {
	if a.settingsPath == "" {
		return settings.Default()
	}
	s, err := settings.Load(a.settingsPath)
	if err != nil {
		a.log.Warn("load settings", "path", a.settingsPath, "err", err)
		return settings.Default()
	}
	return s
}

func (a *App) secretStore(ctx context.Context) (settings.SecretStore, error) {
	return a.secrets(ctx)
}

// llmConfig builds the LLM configuration of s with the stored API key.
func (a *App) llmConfig(ctx context.Context, s settings.Settings, key string) (llm.Config, bool) {
	if key == "" {
		if ss, err := a.secretStore(ctx); err == nil {
			key, _ = settings.APIKey(ctx, ss)
		} else {
			key, _ = settings.APIKey(ctx, nil)
		}
	}
	return s.LLMConfig(key)
}

// applyLLMSettings configures the library's LLM from the settings file.
// At startup (startup true) nothing is done when the LLM is off: the
// library opens without one.
func (a *App) applyLLMSettings(ctx context.Context, startup bool) LLMStatusView {
	lib, _ := a.library()
	if lib == nil {
		return statusView(llm.Status{Provider: llm.ProviderNone})
	}
	cfg, on := a.llmConfig(ctx, a.loadSettings(), "")
	if startup && !on {
		return statusView(llm.Status{Provider: llm.ProviderNone})
	}
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	st, err := lib.ConfigureLLM(dctx, cfg)
	if err != nil {
		a.log.Warn("configure llm", "summary", st.Summary())
	}
	return statusView(st)
}

// GetSettings returns the settings with their descriptions.
func (a *App) GetSettings() (SettingsView, error) {
	ctx := a.context()
	v := SettingsView{
		Settings: a.loadSettings(), Descriptions: addStrategyDescriptions(settings.Describe()), Strategies: retrieve.Names(),
		Path: a.settingsPath, LibraryDir: a.libraryDir,
	}
	if ss, err := a.secretStore(ctx); err == nil {
		v.KeyWhere = ss.Where()
		if k, err := ss.Get(ctx, settings.APIKeyName); err == nil && k != "" {
			v.APIKeySet = true
		}
	}
	if os.Getenv(settings.APIKeyEnv) != "" {
		v.APIKeySet, v.KeyWhere = true, "the environment variable "+settings.APIKeyEnv
	}
	if lib, _ := a.library(); lib != nil {
		if s, ok := lib.(interface{ LLMStatus() (llm.Status, bool) }); ok {
			st, _ := s.LLMStatus()
			v.LLM = statusView(st)
		}
	}
	if v.LLM.Models == nil {
		v.LLM = statusView(llm.Status{Provider: llm.ProviderNone})
	}
	return v, nil
}

// TestConnection detects the LLM server of the given (unsaved) settings and
// says exactly what works and what failed. It changes nothing.
func (a *App) TestConnection(in SettingsInput) (LLMStatusView, error) {
	if err := in.Settings.Validate(); err != nil {
		return LLMStatusView{}, err
	}
	ctx, cancel := context.WithTimeout(a.context(), 10*time.Second)
	defer cancel()
	cfg, on := a.llmConfig(ctx, in.Settings, strings.TrimSpace(in.APIKey))
	if !on {
		return statusView(llm.Status{Provider: llm.ProviderNone}), nil
	}
	st, err := llm.Detect(ctx, cfg)
	if err != nil && len(st.Problems) == 0 {
		st.Problems = []string{papertree.ErrorMessage(err)}
	}
	return statusView(st), nil
}

// SaveSettings validates and saves the settings, stores the API key in the
// secret store (never in the settings file) and applies the LLM settings.
func (a *App) SaveSettings(in SettingsInput) (SaveResult, error) {
	if a.settingsPath == "" {
		return SaveResult{}, papertree.Errorf(papertree.EConflict, "Settings cannot be saved in this build.")
	}
	if err := in.Settings.Validate(); err != nil {
		return SaveResult{}, err
	}
	ctx := a.context()
	old := a.loadSettings()
	if key := strings.TrimSpace(in.APIKey); key != "" || in.ClearKey {
		ss, err := a.secretStore(ctx)
		if err != nil {
			return SaveResult{}, papertree.Wrap(err, papertree.EInternal, "There is no safe place to keep the API key.")
		}
		if key != "" {
			err = ss.Set(ctx, settings.APIKeyName, key)
		} else if err = ss.Delete(ctx, settings.APIKeyName); papertree.ErrorCode(err) == papertree.ENotFound {
			err = nil
		}
		if err != nil {
			return SaveResult{}, asCoded(err, "The API key could not be stored.")
		}
	}
	if err := os.MkdirAll(filepath.Dir(a.settingsPath), 0o755); err != nil {
		return SaveResult{}, papertree.Wrap(err, papertree.EInvalid, "The settings folder cannot be created.")
	}
	if err := in.Settings.Save(a.settingsPath); err != nil {
		var pe *papertree.Error
		if errors.As(err, &pe) {
			return SaveResult{}, err
		}
		return SaveResult{}, papertree.Wrap(err, papertree.EInternal, "The settings could not be saved.")
	}
	if lib, _ := a.library(); lib != nil {
		if t, ok := lib.(interface{ SetFileTimeout(time.Duration) }); ok {
			t.SetFileTimeout(in.Settings.FileTimeout())
		}
		if o, ok := lib.(interface{ SetOCR(library.OCRConfig) }); ok {
			o.SetOCR(in.Settings.OCRConfig())
		}
	}
	res := SaveResult{
		LLM:            a.applyLLMSettings(ctx, false),
		Reindex:        old.LLM.UseLLMEmbeddings != in.Settings.LLM.UseLLMEmbeddings || (in.Settings.LLM.UseLLMEmbeddings && old.LLM.EmbedModel != in.Settings.LLM.EmbedModel) || old.Parse.ChangesTrees(in.Settings.Parse),
		RestartForData: old.DataDir != in.Settings.DataDir,
	}
	a.log.Info("saved settings", "path", a.settingsPath, "llm", res.LLM.Summary, "reindex", res.Reindex)
	a.checkLLMSoon()
	return res, nil
}

// LibraryDirFromSettings is the settings' data folder when set and usable,
// else DefaultLibraryDir.
func LibraryDirFromSettings(path string) string {
	if path != "" {
		if s, err := settings.Load(path); err == nil && strings.TrimSpace(s.DataDir) != "" && filepath.IsAbs(s.DataDir) {
			return s.DataDir
		}
	}
	return DefaultLibraryDir()
}

// OpenWithSettings returns an Options.Open that opens the library in dir
// with the settings at settingsPath: the parse options, and the server's
// embedding model when "use server embeddings" is on. That server is asked
// at open (at most 8 s); when it cannot embed, the library is NOT opened with
// another embedder (the store would drop every vector): the error says why,
// and the user fixes the server or the setting and opens it again
// (ReopenLibrary).
func OpenWithSettings(dir, settingsPath string, secrets func(ctx context.Context) (settings.SecretStore, error)) func(ctx context.Context) (Library, io.Closer, error) {
	return func(ctx context.Context) (Library, io.Closer, error) {
		s := settings.Default()
		if settingsPath != "" {
			if loaded, err := settings.Load(settingsPath); err == nil {
				s = loaded
			}
		}
		cfg := library.Config{DBPath: filepath.Join(dir, DBFile), Tree: s.TreeOptions(), FileTimeout: s.FileTimeout(), OCR: s.OCRConfig(),
			Upgrading: logUpgrade}
		if s.LLM.UseLLMEmbeddings {
			key := ""
			if secrets != nil {
				if ss, err := secrets(ctx); err == nil {
					key, _ = settings.APIKey(ctx, ss)
				}
			}
			lcfg, on := s.LLMConfig(key)
			if !on {
				return nil, nil, papertree.Errorf(papertree.EInvalid, "Server embeddings are on but no language model server is set. Choose a provider in Settings or switch server embeddings off.")
			}
			dctx, cancel := context.WithTimeout(ctx, 8*time.Second)
			emb, err := library.RemoteEmbedder(dctx, lcfg, nil)
			cancel()
			if err != nil {
				return nil, nil, papertree.Wrap(err, papertree.ELLM, "The server's embedding model cannot be used ("+papertree.ErrorMessage(err)+"). Start the server, or switch server embeddings off in Settings, then open the library again.")
			}
			cfg.Embedder = emb
		}
		lib, err := library.Open(ctx, cfg)
		if err != nil {
			return nil, nil, err
		}
		return NewBackend(lib), lib, nil
	}
}

// ReopenLibrary closes the library and opens it again with the current
// settings (after the embedding or parse settings changed, or after the
// library could not be opened). It refuses while a job runs.
func (a *App) ReopenLibrary() error {
	if a.open == nil {
		return papertree.Errorf(papertree.EConflict, "The library cannot be reopened in this build.")
	}
	a.mu.Lock()
	if a.cancel != nil || a.askCancel != nil {
		a.mu.Unlock()
		return papertree.Errorf(papertree.EConflict, "Wait until indexing or the running question has finished.")
	}
	old := a.closer
	a.lib, a.libErr, a.closer = nil, papertree.Errorf(papertree.EConflict, "The library is being reopened."), nil
	ctx := a.ctx
	a.mu.Unlock()
	if old != nil {
		if err := old.Close(); err != nil {
			a.log.Warn("close library", "err", err)
		}
	}
	lib, closer, err := a.open(ctx)
	a.mu.Lock()
	a.lib, a.libErr, a.closer = lib, err, closer
	a.mu.Unlock()
	a.rt.EventsEmit(ctx, EventLibraryChanged)
	if err != nil {
		a.log.Error("reopen library", "err", err)
		return asCoded(err, "The library could not be opened.")
	}
	go a.applyLLMSettings(ctx, true)
	a.log.Info("reopened library", "dir", a.libraryDir)
	return nil
}
