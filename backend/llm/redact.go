package llm

import (
	"net/url"

	"github.com/papertree/papertree/backend/papertree"
)

// registerSecrets tells papertree.Redact the secrets of cfg: the API key and
// a password (or token) written into the server URL. Every message that
// could carry them (coded errors, saved answers, usage rows, status lines)
// is redacted from then on, including a server's error body that echoes
// the key back.
func registerSecrets(cfg Config) {
	papertree.RegisterSecret(cfg.APIKey)
	if u, err := url.Parse(cfg.BaseURL); err == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok {
			papertree.RegisterSecret(pw)
		} else {
			papertree.RegisterSecret(u.User.Username()) // a token used as the user name
		}
	}
}

// redactStatus removes secrets from what Detect reports (shown in the
// settings view and the CLI).
func redactStatus(st Status) Status {
	st.BaseURL = papertree.RedactURL(st.BaseURL)
	for i, p := range st.Problems {
		st.Problems[i] = papertree.Redact(p)
	}
	return st
}
