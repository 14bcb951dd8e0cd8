package settings

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/papertree/papertree/backend/papertree"
)

// APIKeyName is the secret name of the LLM server's API key.
const APIKeyName = "llm_api_key"

// APIKeyEnv overrides the stored API key (CI, scripts).
const APIKeyEnv = "PAPERTREE_API_KEY"

// SecretStore keeps secrets (the API key) outside the settings JSON.
// Get returns an ENotFound error when name has no value. Implementations
// are safe for concurrent use.
type SecretStore interface {
	Get(ctx context.Context, name string) (string, error)
	Set(ctx context.Context, name, value string) error
	Delete(ctx context.Context, name string) error
	// Where says in plain words where secrets are kept (for the Settings view).
	Where() string
}

// APIKey returns the API key: $PAPERTREE_API_KEY when set, else the value
// in ss (nil ss or no stored key: ""). Errors other than "not found" are
// returned so the caller can say that the keyring is unavailable.
func APIKey(ctx context.Context, ss SecretStore) (string, error) {
	if k := strings.TrimSpace(os.Getenv(APIKeyEnv)); k != "" {
		return k, nil
	}
	if ss == nil {
		return "", nil
	}
	k, err := ss.Get(ctx, APIKeyName)
	if papertree.ErrorCode(err) == papertree.ENotFound {
		return "", nil
	}
	return k, err
}

func notFound(name string) error {
	return papertree.Errorf(papertree.ENotFound, "No secret %q is stored.", name)
}

// ---- file ----

// FileSecrets keeps secrets in a JSON file readable only by the user (mode
// 0600 in a 0700 folder). It is the fallback when there is no OS keyring;
// its default place is the user config dir, never next to the library, so
// sharing a library folder never shares the key.
type FileSecrets struct {
	Path string
	mu   sync.Mutex
}

// DefaultSecretsPath is <user config dir>/papertree/secrets.json.
func DefaultSecretsPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", papertree.Wrap(err, papertree.EInvalid, "The user configuration folder is unknown (set $HOME or $XDG_CONFIG_HOME).")
	}
	return filepath.Join(dir, "papertree", "secrets.json"), nil
}

// NewFileSecrets returns a file store at path ("" = DefaultSecretsPath).
func NewFileSecrets(path string) (*FileSecrets, error) {
	if path == "" {
		p, err := DefaultSecretsPath()
		if err != nil {
			return nil, err
		}
		path = p
	}
	return &FileSecrets{Path: path}, nil
}

func (f *FileSecrets) Where() string { return "the file " + f.Path + " (readable only by you)" }

func (f *FileSecrets) read() (map[string]string, error) {
	m := map[string]string{}
	b, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("The secrets file %s cannot be read.", f.Path))
	}
	if st, err := os.Stat(f.Path); err == nil && st.Mode().Perm()&0o077 != 0 {
		// Someone loosened the mode: tighten it before trusting the file again.
		if err := os.Chmod(f.Path, 0o600); err != nil {
			return nil, papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("The secrets file %s is readable by others and cannot be restricted.", f.Path))
		}
	}
	// And its folder (a loosened folder lets others replace the file).
	if err := privateDir(filepath.Dir(f.Path)); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("The secrets file %s is damaged.", f.Path))
	}
	return m, nil
}

func (f *FileSecrets) Get(_ context.Context, name string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.read()
	if err != nil {
		return "", err
	}
	v, ok := m[name]
	if !ok {
		return "", notFound(name)
	}
	return v, nil
}

func (f *FileSecrets) Set(_ context.Context, name, value string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.read()
	if err != nil {
		return err
	}
	m[name] = value
	return f.write(m)
}

func (f *FileSecrets) Delete(_ context.Context, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.read()
	if err != nil {
		return err
	}
	if _, ok := m[name]; !ok {
		return nil
	}
	delete(m, name)
	return f.write(m)
}

func (f *FileSecrets) write(m map[string]string) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(f.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return papertree.Wrap(err, papertree.EInvalid, "The secrets folder cannot be created.")
	}
	// MkdirAll keeps the mode of a folder that already exists (made by
	// another tool, or with a loose umask): the folder is ours, close it.
	if err := privateDir(dir); err != nil {
		return err
	}
	return writeAtomic(f.Path, b, 0o600)
}

// ---- OS keyring (libsecret's secret-tool) ----

// Keyring keeps secrets in the desktop keyring through libsecret's
// secret-tool command (GNOME Keyring, KWallet via its Secret Service
// bridge). The value goes through stdin, never the command line, so other
// users cannot read it from the process list.
type Keyring struct {
	Tool    string // path of secret-tool
	Service string // attribute "service" (default "papertree")
}

// NewKeyring finds secret-tool on PATH; the error says it is missing.
func NewKeyring() (*Keyring, error) {
	p, err := exec.LookPath("secret-tool")
	if err != nil {
		return nil, papertree.Errorf(papertree.ENotFound, "No OS keyring tool (secret-tool from libsecret) is installed.")
	}
	return &Keyring{Tool: p, Service: "papertree"}, nil
}

// Available checks that the keyring answers (a D-Bus session with a
// Secret Service is running) by looking up a name that is never stored.
func (k *Keyring) Available(ctx context.Context) bool {
	_, err := k.Get(ctx, "papertree-availability-probe")
	return err == nil || papertree.ErrorCode(err) == papertree.ENotFound
}

func (k *Keyring) Where() string { return "the OS keyring (Secret Service)" }

func (k *Keyring) run(ctx context.Context, stdin string, args ...string) (string, string, error) {
	cmd := exec.CommandContext(ctx, k.Tool, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), strings.TrimSpace(errb.String()), err
}

func (k *Keyring) attrs(name string) []string {
	svc := k.Service
	if svc == "" {
		svc = "papertree"
	}
	return []string{"service", svc, "name", name}
}

func (k *Keyring) Get(ctx context.Context, name string) (string, error) {
	out, stderr, err := k.run(ctx, "", append([]string{"lookup"}, k.attrs(name)...)...)
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && stderr == "" {
			return "", notFound(name) // secret-tool exits 1 silently when nothing matches
		}
		return "", keyringError(err, stderr)
	}
	if out == "" {
		return "", notFound(name)
	}
	return strings.TrimSuffix(out, "\n"), nil
}

func (k *Keyring) Set(ctx context.Context, name, value string) error {
	args := append([]string{"store", "--label=PaperTree " + name}, k.attrs(name)...)
	if _, stderr, err := k.run(ctx, value, args...); err != nil {
		return keyringError(err, stderr)
	}
	return nil
}

func (k *Keyring) Delete(ctx context.Context, name string) error {
	if _, stderr, err := k.run(ctx, "", append([]string{"clear"}, k.attrs(name)...)...); err != nil && stderr != "" {
		return keyringError(err, stderr)
	}
	return nil
}

func keyringError(err error, stderr string) error {
	msg := "The OS keyring did not answer"
	if stderr != "" {
		msg += ": " + stderr
	}
	return papertree.Wrap(err, papertree.EInvalid, msg+".")
}

// ---- chain ----

// Chain tries several stores in order: Get returns the first value found,
// Set writes to the first store that accepts it (and removes stale copies
// from the later ones), Delete removes from all.
type Chain []SecretStore

func (c Chain) Where() string {
	var w []string
	for _, s := range c {
		w = append(w, s.Where())
	}
	return strings.Join(w, ", else ")
}

func (c Chain) Get(ctx context.Context, name string) (string, error) {
	var firstErr error
	for _, s := range c {
		v, err := s.Get(ctx, name)
		if err == nil {
			return v, nil
		}
		if papertree.ErrorCode(err) != papertree.ENotFound && firstErr == nil {
			firstErr = err
		}
	}
	if firstErr != nil {
		return "", firstErr
	}
	return "", notFound(name)
}

func (c Chain) Set(ctx context.Context, name, value string) error {
	var errs []error
	for i, s := range c {
		err := s.Set(ctx, name, value)
		if err == nil {
			for _, later := range c[i+1:] {
				_ = later.Delete(ctx, name)
			}
			return nil
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func (c Chain) Delete(ctx context.Context, name string) error {
	var errs []error
	for _, s := range c {
		errs = append(errs, s.Delete(ctx, name))
	}
	return errors.Join(errs...)
}

// DefaultSecrets returns the OS keyring backed by the user-only file when
// a keyring answers, and the file alone otherwise.
func DefaultSecrets(ctx context.Context) (SecretStore, error) {
	file, err := NewFileSecrets("")
	if err != nil {
		return nil, err
	}
	if k, err := NewKeyring(); err == nil && k.Available(ctx) {
		return Chain{k, file}, nil
	}
	return file, nil
}
