package papertree

import (
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Secrets must never be stored or shown: an LLM server that echoes the API
// key in an error, or a password written into a server URL, would otherwise
// end up in saved answers, exports, usage records, error messages and the
// terminal. Redact is the one place that removes them; every sink (coded
// errors, saved answers, usage rows, status lines) passes its text through
// it. Secret values are registered by whoever holds them (the LLM client,
// when it is configured), so sinks need not know them.

const redacted = "[redacted]"

var (
	secretMu sync.RWMutex
	secrets  []string // longest first, so a key that contains another is removed whole
)

// minSecretLen keeps short values (a test key "x", a user name) from
// redacting ordinary words.
const minSecretLen = 6

// RegisterSecret makes Redact remove s wherever it appears.
func RegisterSecret(s string) {
	s = strings.TrimSpace(s)
	if len(s) < minSecretLen {
		return
	}
	secretMu.Lock()
	defer secretMu.Unlock()
	for _, x := range secrets {
		if x == s {
			return
		}
	}
	secrets = append(secrets, s)
	sort.Slice(secrets, func(i, j int) bool { return len(secrets[i]) > len(secrets[j]) })
}

var (
	// scheme://user:password@host -> scheme://user:[redacted]@host, and
	// scheme://token@host -> scheme://[redacted]@host.
	urlCreds = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)([^/\s:@"'<>]*)(:[^/\s@"'<>]*)?@`)
	// Authorization headers and key-shaped tokens echoed by servers.
	bearer   = regexp.MustCompile(`(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}`)
	keyShape = regexp.MustCompile(`\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}`)
	keyParam = regexp.MustCompile(`(?i)\b(api[_-]?key|access[_-]?token|password|secret)=([^&\s"'<>]+)`)
)

// Redact returns s without registered secrets, URL credentials, bearer
// tokens and API-key-shaped strings.
func Redact(s string) string {
	if s == "" {
		return s
	}
	secretMu.RLock()
	for _, x := range secrets {
		if strings.Contains(s, x) {
			s = strings.ReplaceAll(s, x, redacted)
		}
	}
	secretMu.RUnlock()
	if strings.Contains(s, "@") && strings.Contains(s, "://") {
		s = urlCreds.ReplaceAllStringFunc(s, func(m string) string {
			sub := urlCreds.FindStringSubmatch(m)
			if sub[3] != "" {
				return sub[1] + sub[2] + ":" + redacted + "@"
			}
			if sub[2] == "" {
				return m
			}
			return sub[1] + redacted + "@"
		})
	}
	s = bearer.ReplaceAllString(s, "$1 "+redacted)
	s = keyShape.ReplaceAllString(s, redacted)
	s = keyParam.ReplaceAllString(s, "$1="+redacted)
	return s
}

// RedactURL is Redact for a server address: the address without its
// credentials, fit to show and store.
func RedactURL(u string) string { return Redact(u) }
