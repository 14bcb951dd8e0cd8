package main

import (
	"fmt"
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
func termSafe(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unsafeRune(r) {
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
		case r < 0x100 && unsafeRune(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
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
