package settings

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

func TestDefaultIsValidAndDescribed(t *testing.T) {
	d := Default()
	if err := d.Validate(); err != nil {
		t.Fatalf("default settings invalid: %v", err)
	}
	if d.Retrieval.Params != retrieve.DefaultParams() || d.Retrieval.Budget != retrieve.DefaultBudget || d.LLM.Provider != ProviderNone {
		t.Errorf("defaults = %+v", d)
	}
	desc := Describe()
	leaves := Leaves()
	if len(leaves) < 20 {
		t.Fatalf("only %d leaves: %v", len(leaves), leaves)
	}
	for _, l := range leaves {
		if strings.TrimSpace(desc[l]) == "" {
			t.Errorf("%s has no description", l)
		}
	}
	for _, want := range []string{"llm.provider", "llm.base_url", "llm.chat_model", "llm.embed_model", "llm.use_llm_embeddings",
		"retrieval.strategy", "retrieval.budget", "retrieval.params.hops", "parse.use_outline", "parse.max_segment_tokens", "data_dir"} {
		if _, ok := desc[want]; !ok {
			t.Errorf("missing %s", want)
		}
	}
	for k := range desc {
		if strings.Contains(strings.ToLower(k), "key") {
			t.Errorf("settings tree has a key-like field %s: the API key belongs in the SecretStore", k)
		}
	}
}

func TestSaveLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "settings.json")
	s, err := Load(path)
	if err != nil || s != Default() {
		t.Fatalf("missing file: %+v %v", s, err)
	}
	s.LLM.Provider, s.LLM.BaseURL, s.LLM.ChatModel, s.LLM.EmbedModel, s.LLM.UseLLMEmbeddings = ProviderOpenAI, "http://localhost:1234", "qwen", "nomic", true
	s.LLM.AnswerBudgetSeconds, s.LLM.MaxReplyMB = 20, 8
	s.Retrieval.Params.Hops = 2
	s.Retrieval.Budget = 1024
	s.Parse.MaxSegmentTokens = 256
	s.DataDir = "/data/lib"
	if err := s.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != s {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, s)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	// Partial file: absent fields keep their defaults.
	if err := os.WriteFile(path, []byte(`{"llm":{"provider":"ollama"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = Load(path)
	if err != nil || got.LLM.Provider != ProviderOllama || got.Retrieval != Default().Retrieval || got.Parse != Default().Parse ||
		got.LLM.AnswerBudgetSeconds != Default().LLM.AnswerBudgetSeconds || got.LLM.MaxReplyMB != Default().LLM.MaxReplyMB {
		t.Errorf("partial file: %+v %v", got, err)
	}
	for name, body := range map[string]string{
		"not json":             `{"llm":`,
		"bad provider":         `{"llm":{"provider":"gpt"}}`,
		"bad url":              `{"llm":{"provider":"openai","base_url":"localhost:1234"}}`,
		"bad strategy":         `{"retrieval":{"strategy":"magic","budget":10}}`,
		"zero budget":          `{"retrieval":{"strategy":"pt-rag","budget":0}}`,
		"tiny segment":         `{"parse":{"max_segment_tokens":3}}`,
		"no time limit":        `{"parse":{"file_timeout_seconds":0}}`,
		"a day per file":       `{"parse":{"file_timeout_seconds":86400}}`,
		"embed no model":       `{"llm":{"provider":"ollama","use_llm_embeddings":true}}`,
		"no connect limit":     `{"llm":{"connect_timeout_seconds":-1}}`,
		"no first-byte limit":  `{"llm":{"first_byte_timeout_seconds":-30}}`,
		"a day per call":       `{"llm":{"call_timeout_seconds":86400}}`,
		"negative budget":      `{"llm":{"answer_budget_seconds":-1}}`,
		"no reply cap":         `{"llm":{"max_reply_mb":-1}}`,
		"a gigabyte per reply": `{"llm":{"max_reply_mb":1024}}`,
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := Load(path)
			if papertree.ErrorCode(err) != papertree.EInvalid || !strings.Contains(papertree.ErrorMessage(err), path) {
				t.Errorf("err = %v", err)
			}
			if got != Default() {
				t.Errorf("bad file must give defaults, got %+v", got)
			}
		})
	}
	bad := Default()
	bad.LLM.Provider = "x"
	if err := bad.Save(path); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Errorf("save invalid: %v", err)
	}
}

func TestLLMConfig(t *testing.T) {
	s := Default()
	if _, ok := s.LLMConfig("k"); ok {
		t.Error("provider none must switch the LLM off")
	}
	s.LLM.Provider, s.LLM.BaseURL, s.LLM.ChatModel, s.LLM.EmbedModel = ProviderAuto, "http://h:1", "c", "e"
	c, ok := s.LLMConfig("sk-1")
	if !ok || c.Provider != llm.ProviderAuto || c.BaseURL != "http://h:1" || c.ChatModel != "c" || c.EmbedModel != "e" || c.APIKey != "sk-1" {
		t.Errorf("auto: %+v %v", c, ok)
	}
	s.LLM.Provider = ProviderOpenAI
	if c, _ := s.LLMConfig(""); c.Provider != llm.ProviderOpenAI {
		t.Errorf("openai: %+v", c)
	}
	// The limits go to the client as they are in the settings, and the
	// defaults are the client's own (an answer comes within 60 s).
	if c.ConnectTimeout != 5*time.Second || c.FirstByteTimeout != 30*time.Second || c.CallTimeout != 45*time.Second ||
		c.AnswerBudget != time.Minute || c.MaxReplyBytes != 4<<20 {
		t.Errorf("default limits: %+v", c)
	}
	s.LLM.ConnectTimeoutSeconds, s.LLM.FirstByteTimeoutSeconds, s.LLM.CallTimeoutSeconds, s.LLM.AnswerBudgetSeconds, s.LLM.MaxReplyMB = 2, 3, 4, 5, 6
	if c, _ := s.LLMConfig(""); c.ConnectTimeout != 2*time.Second || c.FirstByteTimeout != 3*time.Second || c.CallTimeout != 4*time.Second ||
		c.AnswerBudget != 5*time.Second || c.MaxReplyBytes != 6<<20 {
		t.Errorf("set limits: %+v", c)
	}
	// 0 (a settings literal, an old file) is the default, never "no limit".
	s.LLM.ConnectTimeoutSeconds, s.LLM.CallTimeoutSeconds, s.LLM.AnswerBudgetSeconds, s.LLM.MaxReplyMB = 0, 0, 0, 0
	if err := s.Validate(); err != nil {
		t.Errorf("zero limits: %v", err)
	}
	if c, _ := s.LLMConfig(""); c.WithDefaults().ConnectTimeout != 5*time.Second || c.WithDefaults().AnswerBudget != time.Minute || c.WithDefaults().MaxReplyBytes != 4<<20 {
		t.Errorf("zero limits: %+v", c.WithDefaults())
	}
	b, _ := json.Marshal(s)
	if strings.Contains(string(b), "sk-1") {
		t.Error("settings JSON contains the key")
	}
	o := s.TreeOptions()
	if o.UseOutline != s.Parse.UseOutline || o.MaxSegmentTokens != s.Parse.MaxSegmentTokens {
		t.Errorf("tree options %+v", o)
	}
}

// testStore runs the SecretStore contract on ss.
func testStore(t *testing.T, ss SecretStore) {
	t.Helper()
	ctx := context.Background()
	if _, err := ss.Get(ctx, "t1"); papertree.ErrorCode(err) != papertree.ENotFound {
		t.Fatalf("get missing: %v", err)
	}
	if err := ss.Set(ctx, "t1", "sk-secret value"); err != nil {
		t.Fatal(err)
	}
	if err := ss.Set(ctx, "t2", "other"); err != nil {
		t.Fatal(err)
	}
	if err := ss.Set(ctx, "t1", "sk-new"); err != nil {
		t.Fatal(err)
	}
	if v, err := ss.Get(ctx, "t1"); err != nil || v != "sk-new" {
		t.Fatalf("get = %q %v", v, err)
	}
	if err := ss.Delete(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
	if _, err := ss.Get(ctx, "t1"); papertree.ErrorCode(err) != papertree.ENotFound {
		t.Fatalf("get deleted: %v", err)
	}
	if v, err := ss.Get(ctx, "t2"); err != nil || v != "other" {
		t.Fatalf("t2 = %q %v", v, err)
	}
	if err := ss.Delete(ctx, "t2"); err != nil {
		t.Fatal(err)
	}
	if ss.Where() == "" {
		t.Error("Where is empty")
	}
}

func TestFileSecrets(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("HOME", cfg)
	p, err := DefaultSecretsPath()
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "linux" && p != filepath.Join(cfg, "papertree", "secrets.json") {
		t.Errorf("default path %s is not in the user config dir", p)
	}
	fs, err := NewFileSecrets("")
	if err != nil {
		t.Fatal(err)
	}
	testStore(t, fs)
	if err := fs.Set(context.Background(), APIKeyName, "sk-1"); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(fs.Path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		if st.Mode().Perm() != 0o600 {
			t.Errorf("secrets file mode %v, want 0600", st.Mode().Perm())
		}
		dst, _ := os.Stat(filepath.Dir(fs.Path))
		if dst.Mode().Perm() != 0o700 {
			t.Errorf("secrets dir mode %v, want 0700", dst.Mode().Perm())
		}
		// A loosened file is tightened on the next read.
		os.Chmod(fs.Path, 0o644)
		if v, err := fs.Get(context.Background(), APIKeyName); err != nil || v != "sk-1" {
			t.Fatalf("get = %q %v", v, err)
		}
		if st, _ := os.Stat(fs.Path); st.Mode().Perm() != 0o600 {
			t.Errorf("mode after read %v", st.Mode().Perm())
		}
	}
	// The environment overrides the stored key.
	t.Setenv(APIKeyEnv, "")
	if k, err := APIKey(context.Background(), fs); err != nil || k != "sk-1" {
		t.Errorf("APIKey = %q %v", k, err)
	}
	t.Setenv(APIKeyEnv, "sk-env")
	if k, _ := APIKey(context.Background(), fs); k != "sk-env" {
		t.Errorf("APIKey with env = %q", k)
	}
	os.WriteFile(fs.Path, []byte("{"), 0o600)
	if _, err := fs.Get(context.Background(), APIKeyName); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Errorf("damaged file: %v", err)
	}
}

// fakeSecretTool is a stand-in for libsecret's secret-tool at the process
// boundary: it keeps each secret in a file named after its attributes.
const fakeSecretTool = `#!/bin/sh
dir="$FAKE_KEYRING_DIR"
[ -n "$FAKE_KEYRING_DOWN" ] && { echo "Cannot autolaunch D-Bus without X11 \$DISPLAY" >&2; exit 1; }
cmd="$1"; shift
[ "$cmd" = store ] && shift
f="$dir/$2-$4"
case "$cmd" in
lookup) [ -f "$f" ] || exit 1; cat "$f" ;;
store) cat > "$f" ;;
clear) rm -f "$f" ;;
*) echo "usage" >&2; exit 2 ;;
esac
`

func TestKeyringFakeTool(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell script stand-in")
	}
	bin, store := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "secret-tool"), []byte(fakeSecretTool), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("FAKE_KEYRING_DIR", store)
	k, err := NewKeyring()
	if err != nil {
		t.Fatal(err)
	}
	if !k.Available(context.Background()) {
		t.Fatal("fake keyring unavailable")
	}
	testStore(t, k)
	// The value never appears on the command line: the fake reads stdin.
	if err := k.Set(context.Background(), APIKeyName, "sk-k"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(store, "papertree-"+APIKeyName)); string(b) != "sk-k" {
		t.Errorf("stored %q", b)
	}
	// Chain: keyring first; a key set through the chain leaves no file copy.
	file := &FileSecrets{Path: filepath.Join(t.TempDir(), "secrets.json")}
	file.Set(context.Background(), APIKeyName, "stale")
	c := Chain{k, file}
	if err := c.Set(context.Background(), APIKeyName, "sk-c"); err != nil {
		t.Fatal(err)
	}
	if _, err := file.Get(context.Background(), APIKeyName); papertree.ErrorCode(err) != papertree.ENotFound {
		t.Errorf("stale file copy kept: %v", err)
	}
	// Keyring down: Set falls through to the file, Get still finds it.
	t.Setenv("FAKE_KEYRING_DOWN", "1")
	if k.Available(context.Background()) {
		t.Error("down keyring reported available")
	}
	if _, err := k.Get(context.Background(), APIKeyName); err == nil || papertree.ErrorCode(err) == papertree.ENotFound {
		t.Errorf("down keyring get: %v", err)
	}
	if err := c.Set(context.Background(), APIKeyName, "sk-f"); err != nil {
		t.Fatal(err)
	}
	if v, err := c.Get(context.Background(), APIKeyName); err != nil || v != "sk-f" {
		t.Errorf("chain get with keyring down = %q %v", v, err)
	}
}

func TestKeyringReal(t *testing.T) {
	k, err := NewKeyring()
	if err != nil {
		t.Skip(err)
	}
	if !k.Available(context.Background()) {
		t.Skip("secret-tool is installed but no Secret Service answers")
	}
	k.Service = "papertree-test"
	testStore(t, k)
}
