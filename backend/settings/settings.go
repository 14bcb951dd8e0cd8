// Package settings is the one settings tree of PaperTree: the LLM server,
// retrieval, parsing and where the library lives. The Settings view renders
// it from Describe (one line per field) and the CLI and app turn it into a
// library configuration.
//
// Data flow: settings.json --Load--> Settings --(LLMConfig, Retrieval,
// Parse.TreeOptions)--> library.Config / library.AskRequest; the view edits
// it and Save writes it back atomically.
//
// Invariants:
//   - The API key is NEVER in the settings JSON: it lives in a SecretStore
//     (the OS keyring when there is one, else a user-only file in the user
//     config dir), so the settings file can be shared or synced safely.
//   - Load of a missing file returns Default(); fields missing from the file
//     keep their defaults, so old files keep working after new fields appear.
//   - Save writes a temporary file and renames it over the old one: a crash
//     leaves the old or the new settings, never half a file.
package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/ocr"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/treebuild"
)

// Provider values of LLM.Provider.
const (
	ProviderNone   = "none"
	ProviderAuto   = "auto"
	ProviderOllama = "ollama"
	ProviderOpenAI = "openai"
)

// Settings is the whole tree.
type Settings struct {
	DataDir   string    `json:"data_dir" desc:"Folder holding the library database (empty: the default data folder)."`
	LLM       LLM       `json:"llm"`
	Retrieval Retrieval `json:"retrieval"`
	Parse     Parse     `json:"parse"`
}

// LLM configures the optional language model server. The API key is not
// here: see SecretStore and APIKeyName.
type LLM struct {
	Provider         string `json:"provider" desc:"Language model server: none (extractive answers only), auto (find a local Ollama), ollama or openai (any OpenAI-compatible server)."`
	BaseURL          string `json:"base_url" desc:"Server address, e.g. http://127.0.0.1:11434 for Ollama or http://localhost:1234 for LM Studio (empty: the provider's default)."`
	ChatModel        string `json:"chat_model" desc:"Chat model for answers, summaries and query rewriting (empty: the first chat model the server offers)."`
	EmbedModel       string `json:"embed_model" desc:"Embedding model on the server, used only when 'Use server embeddings' is on."`
	UseLLMEmbeddings bool   `json:"use_llm_embeddings" desc:"Embed papers with the server's embedding model instead of the built-in offline embedder (re-indexes every paper)."`
	// The limits every request to the server runs under (llm.Config's
	// deadlines and reply cap) and the time budget of one answer. They
	// never change what is indexed. 0 means the default (llm's), so a
	// settings literal or an old file never switches a limit off.
	ConnectTimeoutSeconds   int `json:"connect_timeout_seconds" desc:"Time limit for connecting to the server, in seconds (default 5)."`
	FirstByteTimeoutSeconds int `json:"first_byte_timeout_seconds" desc:"Time limit for the server to start replying to one request, in seconds; a reply that is not streamed starts only once it is complete (default 30)."`
	CallTimeoutSeconds      int `json:"call_timeout_seconds" desc:"Time limit for one request to the server (chat or embedding), retries and reading the reply included, in seconds (default 45)."`
	AnswerBudgetSeconds     int `json:"answer_budget_seconds" desc:"Total time the language model may spend on one answer, in seconds: steps still waiting then use their offline fallback, and the answer says which (default 60)."`
	MaxReplyMB              int `json:"max_reply_mb" desc:"Largest reply accepted from the server, in MB: a longer one is refused and the step uses its offline fallback (default 4)."`
}

// Limits of the LLM settings: the defaults are llm's, and the largest
// values keep a mistyped number from disabling a limit.
const (
	MaxTimeoutSeconds = 3600
	MaxReplyMBLimit   = 256
)

// Retrieval configures how evidence is selected.
type Retrieval struct {
	Strategy string          `json:"strategy" desc:"Retrieval strategy: pt-rag (follows each paper's own structure) or naive (flat chunks, the baseline)."`
	Budget   int             `json:"budget" desc:"Token budget of the evidence given to the answer."`
	Params   retrieve.Params `json:"params"`
}

// Parse configures how PDFs become trees.
type Parse struct {
	UseOutline       bool `json:"use_outline" desc:"Use the PDF's bookmarks (checked against the text) as the backbone of the section tree."`
	MaxSegmentTokens int  `json:"max_segment_tokens" desc:"Largest leaf segment, in tokens (paper: 512)."`
	// FileTimeoutSeconds does not change what a PDF becomes, only whether
	// a slow one is given up: changing it never asks for a re-index.
	FileTimeoutSeconds int `json:"file_timeout_seconds" desc:"Time limit for reading one PDF, in seconds: a file that takes longer (a damaged or hostile file, or a very long book on a slow machine) is reported and skipped, and the rest of the folder still indexes (default 30)."`
	// OCR (tesseract) does not count against FileTimeoutSeconds: it has
	// its own limit per page.
	OCR          bool   `json:"ocr" desc:"Read scanned pages, and OCR text layers too poor to trust, with tesseract OCR (needs tesseract-ocr installed; about 3 seconds a page)."`
	OCRLanguages string `json:"ocr_languages" desc:"OCR languages: tesseract codes joined by '+', e.g. eng or eng+deu (each needs its tesseract-ocr-LANG package)."`
}

// DefaultFileTimeoutSeconds is Parse.FileTimeoutSeconds by default
// (library.DefaultFileTimeout; a test in app checks they agree).
const DefaultFileTimeoutSeconds = 30

// MaxFileTimeoutSeconds bounds Parse.FileTimeoutSeconds (one hour).
const MaxFileTimeoutSeconds = 3600

// ChangesTrees reports whether going from p to q changes what PDFs become
// (and so asks for a re-index): the outline and segment settings do, the
// time limit does not.
func (p Parse) ChangesTrees(q Parse) bool {
	return p.UseOutline != q.UseOutline || p.MaxSegmentTokens != q.MaxSegmentTokens ||
		p.OCR != q.OCR || ocr.Langs(p.OCRLanguages) != ocr.Langs(q.OCRLanguages)
}

// OCRConfig is the OCR part of the parse settings.
func (s Settings) OCRConfig() ocr.Config {
	return ocr.Config{Off: !s.Parse.OCR, Languages: ocr.Langs(s.Parse.OCRLanguages)}
}

// Default returns the settings used when there is no settings file.
func Default() Settings {
	t := treebuild.DefaultOptions()
	return Settings{
		LLM: LLM{Provider: ProviderNone,
			ConnectTimeoutSeconds:   int(llm.DefaultConnectTimeout / time.Second),
			FirstByteTimeoutSeconds: int(llm.DefaultFirstByteTimeout / time.Second),
			CallTimeoutSeconds:      int(llm.DefaultCallTimeout / time.Second),
			AnswerBudgetSeconds:     int(llm.DefaultAnswerBudget / time.Second),
			MaxReplyMB:              llm.DefaultMaxReplyBytes >> 20},
		Retrieval: Retrieval{Strategy: retrieve.Default, Budget: retrieve.DefaultBudget, Params: retrieve.DefaultParams()},
		Parse: Parse{UseOutline: t.UseOutline, MaxSegmentTokens: t.MaxSegmentTokens, FileTimeoutSeconds: DefaultFileTimeoutSeconds,
			OCR: true, OCRLanguages: ocr.DefaultLanguages},
	}
}

// Validate returns an EInvalid error naming the first bad field.
func (s Settings) Validate() error {
	switch s.LLM.Provider {
	case ProviderNone, ProviderAuto, ProviderOllama, ProviderOpenAI:
	default:
		return papertree.Errorf(papertree.EInvalid, "llm.provider must be none, auto, ollama or openai, not %q.", s.LLM.Provider)
	}
	if u := strings.TrimSpace(s.LLM.BaseURL); u != "" && !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return papertree.Errorf(papertree.EInvalid, "llm.base_url must start with http:// or https://, not %q.", u)
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"connect_timeout_seconds", s.LLM.ConnectTimeoutSeconds}, {"first_byte_timeout_seconds", s.LLM.FirstByteTimeoutSeconds},
		{"call_timeout_seconds", s.LLM.CallTimeoutSeconds}, {"answer_budget_seconds", s.LLM.AnswerBudgetSeconds}} {
		if f.v < 0 || f.v > MaxTimeoutSeconds {
			return papertree.Errorf(papertree.EInvalid, "llm.%s must be between 1 and %d seconds (0: the default), not %d.", f.name, MaxTimeoutSeconds, f.v)
		}
	}
	if s.LLM.MaxReplyMB < 0 || s.LLM.MaxReplyMB > MaxReplyMBLimit {
		return papertree.Errorf(papertree.EInvalid, "llm.max_reply_mb must be between 1 and %d (0: the default), not %d.", MaxReplyMBLimit, s.LLM.MaxReplyMB)
	}
	if s.LLM.UseLLMEmbeddings && strings.TrimSpace(s.LLM.EmbedModel) == "" {
		return papertree.Errorf(papertree.EInvalid, "llm.use_llm_embeddings needs llm.embed_model.")
	}
	if _, err := retrieve.Get(s.Retrieval.Strategy); err != nil {
		return err
	}
	if s.Retrieval.Budget <= 0 || s.Retrieval.Budget > 1<<20 {
		return papertree.Errorf(papertree.EInvalid, "retrieval.budget must be between 1 and %d tokens, not %d.", 1<<20, s.Retrieval.Budget)
	}
	if s.Parse.MaxSegmentTokens < 16 || s.Parse.MaxSegmentTokens > 1<<16 {
		return papertree.Errorf(papertree.EInvalid, "parse.max_segment_tokens must be between 16 and %d, not %d.", 1<<16, s.Parse.MaxSegmentTokens)
	}
	if s.Parse.FileTimeoutSeconds < 1 || s.Parse.FileTimeoutSeconds > MaxFileTimeoutSeconds {
		return papertree.Errorf(papertree.EInvalid, "parse.file_timeout_seconds must be between 1 and %d seconds, not %d.", MaxFileTimeoutSeconds, s.Parse.FileTimeoutSeconds)
	}
	if !ocrLangsRe.MatchString(ocr.Langs(s.Parse.OCRLanguages)) {
		return papertree.Errorf(papertree.EInvalid, "parse.ocr_languages must be tesseract language codes joined by '+' (e.g. eng+deu), not %q.", s.Parse.OCRLanguages)
	}
	return nil
}

// ocrLangsRe matches tesseract language codes joined by '+' ("eng",
// "chi_sim+eng", "script/Latin").
var ocrLangsRe = regexp.MustCompile(`^[A-Za-z0-9_/-]{1,40}(\+[A-Za-z0-9_/-]{1,40}){0,9}$`)

// FileTimeout is the time limit for reading one PDF.
func (s Settings) FileTimeout() time.Duration {
	return time.Duration(s.Parse.FileTimeoutSeconds) * time.Second
}

// Load reads settings from path. A missing file gives Default(); fields
// absent from the file keep their defaults. A file that is not valid JSON,
// or holds invalid values, is an EInvalid error naming the file.
func Load(path string) (Settings, error) {
	s := Default()
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("The settings file %s cannot be read.", path))
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return Default(), papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("The settings file %s is not valid settings JSON: %v", path, err))
	}
	if s.LLM.Provider == "" {
		s.LLM.Provider = ProviderNone
	}
	if err := s.Validate(); err != nil {
		return Default(), papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("The settings file %s: %s", path, papertree.ErrorMessage(err)))
	}
	return s, nil
}

// Save validates s and writes it to path atomically (temporary file in the
// same folder, fsync, rename), creating the folder if needed.
func (s Settings) Save(path string) error {
	if err := s.Validate(); err != nil {
		return err
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("encode settings: %w", err)
	}
	// 0600 in a 0700 folder: settings name the LLM server (its URL may
	// carry a user name) and the library; nobody else needs to read them.
	// The folder is PaperTree's own (the secrets file lives there too), so
	// a folder made earlier with a looser mode is closed as well.
	if err := writeAtomic(path, append(b, '\n'), 0o600); err != nil {
		return err
	}
	return privateDir(filepath.Dir(path))
}

// privateDir makes dir readable only by the user (0700) when it is not.
func privateDir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil || st.Mode().Perm()&0o077 == 0 {
		return nil
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("The folder %s cannot be made private.", dir))
	}
	return nil
}

// writeAtomic replaces path with data: readers see the old or the new file.
func writeAtomic(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("The folder %s cannot be created.", dir))
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("The folder %s is not writable.", dir))
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return fmt.Errorf("chmod %s: %w", tmp, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync %s: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("The settings cannot be written to %s.", path))
	}
	return nil
}

// LLMConfig converts the LLM settings into an llm.Config with apiKey (from
// a SecretStore or the environment). ok is false when the LLM is switched
// off (provider "none").
func (s Settings) LLMConfig(apiKey string) (cfg llm.Config, ok bool) {
	p := strings.ToLower(strings.TrimSpace(s.LLM.Provider))
	switch p {
	case ProviderNone, "":
		return llm.Config{Provider: llm.ProviderNone}, false
	case ProviderAuto:
		p = llm.ProviderAuto
	}
	sec := func(n int) time.Duration { return time.Duration(n) * time.Second }
	return llm.Config{Provider: p, BaseURL: s.LLM.BaseURL, ChatModel: s.LLM.ChatModel, EmbedModel: s.LLM.EmbedModel, APIKey: apiKey,
		ConnectTimeout: sec(s.LLM.ConnectTimeoutSeconds), FirstByteTimeout: sec(s.LLM.FirstByteTimeoutSeconds),
		CallTimeout: sec(s.LLM.CallTimeoutSeconds), AnswerBudget: sec(s.LLM.AnswerBudgetSeconds),
		MaxReplyBytes: int64(s.LLM.MaxReplyMB) << 20}, true
}

// TreeOptions converts the parse settings into treebuild options.
func (s Settings) TreeOptions() treebuild.Options {
	o := treebuild.DefaultOptions()
	o.UseOutline, o.MaxSegmentTokens = s.Parse.UseOutline, s.Parse.MaxSegmentTokens
	return o
}

// Describe returns one plain-words description per settings field, keyed
// by the field's JSON path ("llm.chat_model", "retrieval.params.sections").
// Every leaf field of Settings has one (a test checks it).
func Describe() map[string]string {
	out := map[string]string{}
	describe(reflect.TypeOf(Settings{}), "", out)
	return out
}

func describe(t reflect.Type, prefix string, out map[string]string) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		path := prefix + name
		if f.Type.Kind() == reflect.Struct {
			describe(f.Type, path+".", out)
			continue
		}
		d := f.Tag.Get("desc")
		if d == "" && strings.HasPrefix(path, "retrieval.params.") {
			d = retrieve.ParamDocs[name]
		}
		if d == "" {
			d = extraParamDocs[name]
		}
		out[path] = d
	}
}

// extraParamDocs describes the retrieve.Params fields that retrieve's
// ParamDocs leaves out (the ablation switches).
var extraParamDocs = map[string]string{
	"no_summaries": "Ablation: ignore the summary channel when scoring segments.",
	"no_paths":     "Ablation: skip section and path selection and rank passages flat.",
}

// Leaves lists every leaf field path of Settings in declaration order.
func Leaves() []string {
	var out []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type, prefix+name+".")
				continue
			}
			out = append(out, prefix+name)
		}
	}
	walk(reflect.TypeOf(Settings{}), "")
	return out
}
