package papertree

import (
	"errors"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	RegisterSecret("tok-0123456789-secret-value")
	tests := []struct{ name, in, want string }{
		{"registered key", `server said: invalid key "tok-0123456789-secret-value"`, `server said: invalid key "[redacted]"`},
		{"url password", "http://alice:hunter2@llm.local:8080/v1", "http://alice:[redacted]@llm.local:8080/v1"},
		{"url token", "https://abcdef123456@llm.local/v1", "https://[redacted]@llm.local/v1"},
		{"bearer header echoed", "got Authorization: Bearer abcdefghijklmnop", "got Authorization: Bearer [redacted]"},
		{"openai-shaped key", "Incorrect API key provided: sk-proj-AbCdEfGhIjKlMnOpQrSt", "Incorrect API key provided: [redacted]"},
		{"key in a query", "GET /v1/models?api_key=zzz123&x=1", "GET /v1/models?api_key=[redacted]&x=1"},
		{"plain text kept", "an email a@b.org and http://host/path stay", "an email a@b.org and http://host/path stay"},
		{"short words kept", "the sk-8 model", "the sk-8 model"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Redact(tt.in); got != tt.want {
				t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	// Coded errors redact themselves, message and chain.
	err := Wrap(errors.New("POST http://bob:pw-secret-1@h/v1: tok-0123456789-secret-value"), ELLM, "the server at http://bob:pw-secret-1@h failed: tok-0123456789-secret-value")
	for _, s := range []string{err.Error(), ErrorMessage(err)} {
		if strings.Contains(s, "tok-0123456789") || strings.Contains(s, "pw-secret-1") {
			t.Errorf("error text leaks: %s", s)
		}
	}
}
