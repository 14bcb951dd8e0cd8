package main

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// termSafe makes untrusted text (file names, titles and messages taken
// from PDFs) safe to print on a terminal: control characters (C0, DEL, C1,
// which include ESC and so every terminal escape sequence) and the bidi
// controls that reorder a line on screen are shown as visible \x / \u
// escapes instead of being sent raw; invalid UTF-8 bytes become \xNN. Plain
// text passes unchanged. JSON output needs no such care (encoding/json
// escapes control characters).
func termSafe(s string) string { return escapeControls(s, false) }

// termText is termSafe for text laid out in lines (an answer, a list of
// evidence): tab and newline are kept, every other control character is
// escaped.
func termText(s string) string { return escapeControls(s, true) }

// termWriter passes everything written through termText, so that a whole
// printed report (an answer that quotes the question and the papers)
// reaches the terminal without a raw control sequence. Each Write is
// escaped on its own: fmt's Fprint* calls write whole strings.
type termWriter struct{ w io.Writer }

func (t termWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(t.w, termText(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

func escapeControls(s string, keepLayout bool) string {
	unsafe := func(r rune) bool {
		return unsafeRune(r) && !(keepLayout && (r == '\n' || r == '\t'))
	}
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unsafe(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !unsafe(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += n
	}
	return b.String()
}

// unsafeRune reports control characters and bidi/format controls that can
// rewrite what a terminal shows.
func unsafeRune(r rune) bool {
	if unicode.IsControl(r) { // C0, DEL, C1
		return true
	}
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return true
	}
	return false
}
