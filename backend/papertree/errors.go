package papertree

import (
	"errors"
	"fmt"
)

// Code classifies an error for the user interface. Codes are stable strings:
// the UI maps them to messages and the CLI prints them.
type Code string

// Error codes. Keep the list short; add a code only when a caller must act
// differently on it.
const (
	EInternal  Code = "internal"   // a bug or an unexpected condition
	EInvalid   Code = "invalid"    // bad input from the caller
	ENotFound  Code = "not_found"  // a paper, node or answer that does not exist
	ECanceled  Code = "canceled"   // the job was cancelled
	EConflict  Code = "conflict"   // the store is in a state that forbids the operation
	EEmptyFile Code = "empty_file" // zero-byte file
	ENotPDF    Code = "not_pdf"    // the file is not a PDF at all
	ETruncated Code = "truncated"  // a PDF whose end (xref/trailer) is missing
	EEncrypted Code = "encrypted"  // a password-protected PDF
	EMalformed Code = "malformed"  // a PDF the parser cannot read
	ENoText    Code = "no_text"    // a PDF without a usable text layer (image-only/scanned without OCR)
	ETooLarge  Code = "too_large"  // over the configured size or page limit
	EGarbled   Code = "garbled"    // a text layer that decodes to garbage (e.g. Type 3 fonts without a ToUnicode map)
	ELLM       Code = "llm"        // an LLM or embedding server failed (callers fall back)
	// ETooComplex: a file that would need more memory or work than its
	// budget allows to read (a stream that inflates to gigabytes, a huge
	// character map, a page with millions of words).
	ETooComplex Code = "too_complex"
	ETimeout    Code = "timeout" // one file took longer than its time limit
	ECorrupt    Code = "corrupt" // the library database (or one of its rows) is damaged
)

// Error is the project's one coded error type. Message is safe to show to a
// user; Op and Err carry context for logs.
type Error struct {
	Code    Code
	Message string // user-safe, plain words, no Go internals
	Op      string // short lowercase context, e.g. "parse page 3"
	Err     error  // underlying cause, may be nil
}

func (e *Error) Error() string {
	s := e.Message
	if s == "" {
		s = string(e.Code)
	}
	if e.Op != "" {
		s = e.Op + ": " + s
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return Redact(s)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds a coded error with a user-safe message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap attaches a code and a user-safe message to an underlying error.
func Wrap(err error, code Code, message string) *Error {
	return &Error{Code: code, Message: message, Err: err}
}

// ErrorCode returns the code of the first *Error in err's chain,
// EInternal for other non-nil errors and "" for nil.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// ErrorMessage returns the user-safe message of the first *Error in err's
// chain, or a generic message for other errors.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) && e.Message != "" {
		return Redact(e.Message)
	}
	return "An internal error occurred."
}
