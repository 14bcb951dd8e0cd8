package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

// transport is the HTTP plumbing shared by chat clients and embedders: one
// semaphore, the retry policy, the caller's deadlines and reply cap, and
// error wording. Its deadlines are the Config's (set by the caller from its
// settings): the dial and response-header timeouts of its http.Transport
// and CallTimeout as a context deadline over each call (callContext).
type transport struct {
	base       string
	apiKey     string
	http       *http.Client
	sem        chan struct{}
	maxRetries int
	baseDelay  time.Duration
	maxDelay   time.Duration
	usage      Usage
	// connect, firstByte and callTimeout are Config's deadlines (for the
	// transport, callContext and the wording of errors); maxReply caps
	// the bytes read from one reply body.
	connect, firstByte, callTimeout time.Duration
	maxReply                        int64
	// sleep waits between retries; tests replace it to record delays
	// instead of spending them.
	sleep func(ctx context.Context, d time.Duration) error
}

func newTransport(cfg Config, usage Usage) *transport {
	if usage == nil {
		usage = discardUsage{}
	}
	registerSecrets(cfg)
	// Callers pass a Config after WithDefaults; applying it again would
	// turn MaxRetries 0 (from -1) into the default, so only the limits
	// are filled here.
	lim := Config{ConnectTimeout: cfg.ConnectTimeout, FirstByteTimeout: cfg.FirstByteTimeout, CallTimeout: cfg.CallTimeout, MaxReplyBytes: cfg.MaxReplyBytes}.WithDefaults()
	cfg.ConnectTimeout, cfg.FirstByteTimeout, cfg.CallTimeout, cfg.MaxReplyBytes = lim.ConnectTimeout, lim.FirstByteTimeout, lim.CallTimeout, lim.MaxReplyBytes
	dialer := &net.Dialer{Timeout: cfg.ConnectTimeout, KeepAlive: 30 * time.Second}
	ht := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   cfg.ConnectTimeout,
		ResponseHeaderTimeout: cfg.FirstByteTimeout,
		ExpectContinueTimeout: time.Second,
	}
	return &transport{
		base: cfg.BaseURL,
		// The whole call's deadline is callContext's, a context deadline
		// that the error messages can name; http.Client.Timeout would
		// be a second, unnamed one.
		apiKey:      cfg.APIKey,
		http:        &http.Client{Transport: ht},
		sem:         make(chan struct{}, cfg.MaxConcurrency),
		maxRetries:  cfg.MaxRetries,
		baseDelay:   cfg.RetryBaseDelay,
		maxDelay:    cfg.RetryMaxDelay,
		usage:       usage,
		sleep:       sleepCtx,
		connect:     cfg.ConnectTimeout,
		firstByte:   cfg.FirstByteTimeout,
		callTimeout: cfg.CallTimeout,
		maxReply:    cfg.MaxReplyBytes,
	}
}

// ErrTimeLimit is in the chain of every error of a call that ended on one
// of its Config limits (connect, first byte, the call's total): the server
// is down, hung or overloaded. A deadline of the caller's own ctx is not it.
var ErrTimeLimit = errors.New("the LLM server missed a time limit")

// limitError is a coded error for a call that ended on a Config limit.
func limitError(err error, msg string) *papertree.Error {
	if err == nil {
		return papertree.Wrap(ErrTimeLimit, papertree.ELLM, msg)
	}
	return papertree.Wrap(fmt.Errorf("%w (%w)", err, ErrTimeLimit), papertree.ELLM, msg)
}

// callContext is ctx with the call's deadline (CallTimeout, or ctx's own
// deadline when that comes first). Its cause names the limit, so the error
// says which deadline ended the call.
func (t *transport) callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	cause := limitError(nil, fmt.Sprintf("the LLM server at %s did not finish one request within the %s limit per call", t.base, seconds(t.callTimeout)))
	return context.WithTimeoutCause(ctx, t.callTimeout, cause)
}

// seconds words a limit: "45 s", "1.5 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// replyTooLarge is the read error of a reply body over the cap.
type replyTooLarge struct{ limit int64 }

func (e replyTooLarge) Error() string { return fmt.Sprintf("reply longer than %d bytes", e.limit) }

// capBody reads at most limit bytes of a reply; reading past them fails
// with replyTooLarge (never a silent truncation, which could parse as a
// shorter valid reply).
type capBody struct {
	io.ReadCloser
	left, limit int64
}

func (b *capBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		n, err := b.ReadCloser.Read(one[:])
		if n > 0 {
			return 0, replyTooLarge{b.limit}
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}

// sizeWords words a byte count: "4 MB", "512 KB".
func sizeWords(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (t *transport) acquire(ctx context.Context) error {
	select {
	case t.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (t *transport) release() { <-t.sem }

// response is a 2xx response whose body the caller must read and then
// Close; Close also frees the concurrency slot.
type response struct {
	*http.Response
	t    *transport
	done bool
}

func (r *response) Close() {
	if r.done {
		return
	}
	r.done = true
	r.Body.Close()
	r.t.release()
}

// do sends method path with a JSON body (nil for none) and retries 429, 5xx
// and dropped connections with backoff. It returns an open 2xx response, or
// an ELLM/ECanceled error in plain words. model is used in messages only.
func (t *transport) do(ctx context.Context, method, path string, body any, model string) (*response, error) {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return nil, papertree.Wrap(err, papertree.EInternal, "could not encode the request to the LLM server")
		}
	}
	url := t.base + path
	for attempt := 0; ; attempt++ {
		if err := t.acquire(ctx); err != nil {
			return nil, ctxError(ctx, url)
		}
		var rd io.Reader
		if payload != nil {
			rd = bytes.NewReader(payload)
		}
		req, err := http.NewRequestWithContext(ctx, method, url, rd)
		if err != nil {
			t.release()
			return nil, papertree.Wrap(err, papertree.ELLM, "the LLM server address "+quote(t.base)+" is not a valid URL")
		}
		if payload != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("Accept", "application/json, text/event-stream, application/x-ndjson")
		if t.apiKey != "" {
			req.Header.Set("Authorization", "Bearer "+t.apiKey)
		}
		resp, err := t.http.Do(req)
		if err != nil {
			t.release()
			if ctx.Err() != nil {
				return nil, ctxError(ctx, url)
			}
			e, retry := t.netError(err)
			if retry && attempt < t.maxRetries {
				if serr := t.sleep(ctx, t.backoff(attempt)); serr != nil {
					return nil, ctxError(ctx, url)
				}
				continue
			}
			if retry {
				e.Message += fmt.Sprintf(" (gave up after %d attempts)", attempt+1)
			}
			return nil, e
		}
		if resp.StatusCode >= 200 && resp.StatusCode < 300 && strings.HasPrefix(strings.ToLower(resp.Header.Get("Content-Type")), "text/html") {
			// A web page where an API reply belongs: a proxy's or captive
			// portal's login page, or the address of a website.
			resp.Body.Close()
			t.release()
			return nil, badResponse(t.base, "a web page (HTML) instead of an API reply to "+path+": is the address right, or is a proxy or login page in the way?", nil)
		}
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			resp.Body = &capBody{ReadCloser: resp.Body, left: t.maxReply, limit: t.maxReply}
			return &response{Response: resp, t: t}, nil
		}
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<10))
		resp.Body.Close()
		t.release()
		e := statusError(resp.StatusCode, raw, t.base, path, model)
		retryable := resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
		if !retryable {
			return nil, e
		}
		if attempt >= t.maxRetries {
			e.Message += fmt.Sprintf(" (gave up after %d attempts)", attempt+1)
			return nil, e
		}
		wait := t.backoff(attempt)
		if ra, ok := retryAfter(resp.Header.Get("Retry-After")); ok {
			if ra > t.maxDelay {
				e.Message += fmt.Sprintf(" (the server asks to wait %s, longer than the %s limit)", ra.Round(time.Second), t.maxDelay)
				return nil, e
			}
			if ra > wait {
				wait = ra
			}
		}
		if err := t.sleep(ctx, wait); err != nil {
			return nil, ctxError(ctx, url)
		}
	}
}

// backoff is "equal jitter": half the exponential delay plus a random half,
// so that concurrent callers do not retry in lockstep.
func (t *transport) backoff(attempt int) time.Duration {
	d := t.baseDelay << min(attempt, 20)
	if d > t.maxDelay || d <= 0 {
		d = t.maxDelay
	}
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}

// retryAfter parses delay-seconds or an HTTP date.
func retryAfter(h string) (time.Duration, bool) {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(h, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if at, err := http.ParseTime(h); err == nil {
		d := time.Until(at)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}

// ctxError words a cancelled or expired request. A deadline whose cause is
// a coded error (callContext's, or the library's budget of one answer)
// gives that error's words: the user learns which limit ended the call.
func ctxError(ctx context.Context, url string) *papertree.Error {
	err := ctx.Err()
	if errors.Is(err, context.DeadlineExceeded) {
		var pe *papertree.Error
		if cause := context.Cause(ctx); errors.As(cause, &pe) && pe.Message != "" {
			// The cause stays in the chain: the caller can tell its own
			// deadline (errors.Is) from the others.
			return papertree.Wrap(fmt.Errorf("%w (%w)", err, cause), papertree.ELLM, pe.Message)
		}
		return papertree.Wrap(err, papertree.ELLM, "no answer from the LLM server at "+url+" before the deadline (timeout)")
	}
	return papertree.Wrap(err, papertree.ECanceled, "the request to the LLM server was cancelled")
}

// netError is netError with this transport's deadlines named: a connect or
// first-byte timeout is the caller's limit, and retrying it would only
// spend the answer's budget on a server that is down or overloaded.
func (t *transport) netError(err error) (*papertree.Error, bool) {
	var op *net.OpError
	switch {
	case errors.As(err, &op) && op.Op == "dial" && op.Timeout(), strings.Contains(err.Error(), "TLS handshake timeout"):
		return limitError(err, "cannot connect to the LLM server at "+t.base+" within the "+seconds(t.connect)+" connect limit"), false
	case strings.Contains(err.Error(), "timeout awaiting response headers"):
		return limitError(err, "the LLM server at "+t.base+" did not start answering within the "+seconds(t.firstByte)+" first-byte limit"), false
	}
	return netError(err, t.base)
}

// netError words a transport failure and says whether it is worth a retry:
// dropped connections are (a restarting or overloaded server), a refused
// connection or an unknown host is not (nothing listens there; retrying only
// delays the fallback).
func netError(err error, base string) (*papertree.Error, bool) {
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return papertree.Wrap(err, papertree.ELLM, "connection refused at "+base+": no LLM server is listening there (is it running?)"), false
	case errors.As(err, &dns):
		return papertree.Wrap(err, papertree.ELLM, "cannot find the host of "+base+" (unknown host name)"), false
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return papertree.Wrap(err, papertree.ELLM, "the LLM server at "+base+" dropped the connection"), true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return papertree.Wrap(err, papertree.ELLM, "the connection to the LLM server at "+base+" timed out"), true
	}
	return papertree.Wrap(err, papertree.ELLM, "cannot reach the LLM server at "+base), false
}

// statusError words a non-2xx answer, using the server's own message when it
// sends one (OpenAI {"error":{"message"}}, Ollama {"error":"..."}).
func statusError(code int, body []byte, base, path, model string) *papertree.Error {
	msg := serverMessage(body)
	lower := strings.ToLower(msg)
	var s string
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		s = fmt.Sprintf("the LLM server at %s rejected the API key (HTTP %d)", base, code)
	case code == http.StatusNotFound && model != "" && strings.Contains(lower, "model"):
		s = fmt.Sprintf("model %q not found on the LLM server at %s (HTTP 404)", model, base)
	case code == http.StatusNotFound:
		s = fmt.Sprintf("the server at %s has no %s endpoint (HTTP 404): is it the right kind of server?", base, path)
	case code == http.StatusTooManyRequests:
		s = fmt.Sprintf("the LLM server at %s is rate limiting requests (HTTP 429)", base)
	case code >= 500:
		s = fmt.Sprintf("the LLM server at %s failed (HTTP %d)", base, code)
	default:
		s = fmt.Sprintf("the LLM server at %s refused the request (HTTP %d)", base, code)
	}
	if msg != "" {
		s += ": " + msg
	}
	return &papertree.Error{Code: papertree.ELLM, Message: s, Op: "llm " + path}
}

func serverMessage(body []byte) string {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return ""
	}
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  any             `json:"detail"`
	}
	msg := ""
	if json.Unmarshal(body, &v) == nil {
		var s string
		var o struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			msg = s
		case json.Unmarshal(v.Error, &o) == nil && o.Message != "":
			msg = o.Message
		case v.Message != "":
			msg = v.Message
		case v.Detail != nil:
			msg = fmt.Sprint(v.Detail)
		}
	}
	if msg == "" && body[0] != '{' && body[0] != '<' {
		msg = string(body)
	}
	return papertree.Redact(truncate(strings.Join(strings.Fields(msg), " "), 200))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// badResponse words a 2xx answer we cannot use.
func badResponse(base, what string, err error) *papertree.Error {
	return papertree.Wrap(err, papertree.ELLM, "the LLM server at "+base+" sent "+what)
}
