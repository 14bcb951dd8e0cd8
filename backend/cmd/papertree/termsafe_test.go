package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/internal/hostile"
)

func TestTermSafe(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "Attention Is All You Need.pdf", "Attention Is All You Need.pdf"},
		{"unicode kept", "naïve 数据 — résumé", "naïve 数据 — résumé"},
		{"clear screen", "a\x1b[2Jb", `a\x1b[2Jb`},
		{"window title OSC", "\x1b]0;owned\x07x.pdf", `\x1b]0;owned\x07x.pdf`},
		{"newline and CR", "a\nb\rc", `a\x0ab\x0dc`},
		{"C1 CSI", "a\u009b31mb", `a\x9b31mb`},
		{"bidi override", "gpj.\u202eexe", `gpj.\u202eexe`},
		{"invalid utf-8", "a\xffb", `a\xffb`},
		{"DEL", "a\x7fb", `a\x7fb`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := termSafe(tt.in); got != tt.want {
				t.Fatalf("termSafe(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestIndexListEscapeSequences: file names and titles with terminal escape
// sequences are printed escaped by index and list (audit item 11), and a
// missing path on the command line is reported without stopping the job
// (audit item 9).
func TestIndexListEscapeSequences(t *testing.T) {
	dir := t.TempDir()
	evil := "\x1b]0;owned\x07\x1b[2Jpaper.pdf"
	if err := os.WriteFile(filepath.Join(dir, evil), hostile.Good("Title \x1b[31mred"), 0o644); err != nil {
		t.Skipf("file system refuses the name: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad\x1b[1m.pdf"), []byte("not a pdf"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "lib.db")
	out, errOut, code := cli(t, "index", "--db", db, dir, filepath.Join(dir, "missing.pdf"))
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	if !strings.Contains(out, "indexed 1,") || !strings.Contains(out, "missing.pdf: The path does not exist.") {
		t.Fatalf("index output:\n%s", out)
	}
	list, _, code := cli(t, "list", "--db", db)
	if code != 0 {
		t.Fatalf("list exit %d", code)
	}
	for name, s := range map[string]string{"index stdout": out, "index stderr": errOut, "list": list} {
		if strings.ContainsAny(s, "\x1b\x07") {
			t.Errorf("%s prints a raw escape sequence: %q", name, s)
		}
	}
	if !strings.Contains(errOut+out+list, `\x1b]0;owned\x07\x1b[2Jpaper.pdf`) || !strings.Contains(list, `bad\x1b[1m.pdf`) {
		t.Errorf("names are not shown escaped:\n%s\n%s\n%s", out, errOut, list)
	}
}

func TestTermText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain lines kept", "Answer:\n\tquoted\n", "Answer:\n\tquoted\n"},
		{"CSI colour", "a\x1b[31mred", `a\x1b[31mred`},
		{"OSC window title with BEL", "\x1b]0;owned\x07q", `\x1b]0;owned\x07q`},
		{"carriage return", "done\rfake", `done\x0dfake`},
		{"backspace", "ab\x08c", `ab\x08c`},
		{"C1 CSI as a character", "a\u009b2Jb", `a\x9b2Jb`},
		{"C1 CSI as a raw byte", "a\x9b2Jb", `a\x9b2Jb`},
		{"bidi override", "x\u202ey", `x\u202ey`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := termText(tt.in); got != tt.want {
				t.Fatalf("termText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestAskEscapesControlSequences: plain ask quotes the question in its
// answer ("The papers never mention ..."); control sequences typed in the
// question reach the terminal escaped, never raw (audit issue 23, item 6).
func TestAskEscapesControlSequences(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, errs, code := cli(t, "index", "--db", db, "--quiet", filepath.Join(fixtures, "twocolumn.pdf")); code != 0 {
		t.Fatalf("index: %s", errs)
	}
	tests := []struct{ name, question, shown string }{
		{"CSI colour", "what about \x1b[31mzebrafish method?", `\x1b[31mzebrafish`},
		{"OSC window title", "what \x1b[31mRED\x1b]0;title\x07 method?", `\x1b]0;title\x07`},
		{"C1 CSI byte", "what \x1b[31mRED method \x9b2J?", `\x9b2J`},
		{"C1 CSI character", "what \x1b[31mRED method \u009b2J?", `\x9b2J`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := cli(t, "ask", "--db", db, tt.question)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, c := range []string{"\x1b", "\x07", "\x9b", "\r", "\u009b"} {
				if strings.Contains(out, c) {
					t.Fatalf("raw control %q printed:\n%q", c, out)
				}
			}
			if !strings.Contains(out, tt.shown) {
				t.Errorf("the question's word is not shown escaped (%q):\n%s", tt.shown, out)
			}
			if !strings.Contains(out, "\nEvidence:\n") {
				t.Errorf("newlines of the answer were escaped:\n%s", out)
			}
		})
	}
}

// TestErrorsEscapeControlSequences: error messages on stderr name files
// and quote what was typed; their control characters are escaped too.
func TestErrorsEscapeControlSequences(t *testing.T) {
	dir := t.TempDir()
	evil := filepath.Join(dir, "\x1b]0;owned\x07notes.pdf")
	if err := os.WriteFile(evil, []byte("not a pdf\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "lib.db")
	// Its only file fails, so index exits 1 (TestIndexExitCodeWhenEveryFileFails), with the library created.
	if _, errs, code := cli(t, "index", "--db", db, "--quiet", evil); code != 1 || !strings.Contains(errs, "nothing was indexed") {
		t.Fatalf("index: exit %d: %s", code, errs)
	}
	tests := []struct {
		name  string
		args  []string
		code  int
		shown string
	}{
		{"a failed paper's file name", []string{"tree", "--db", db, "1"}, 1, `\x1b]0;owned\x07notes.pdf`},
		{"an unknown flag", []string{"list", "--db", db, "--\x1b[2Jx"}, 2, `\x1b[2Jx`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs, code := cli(t, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %q", code, tt.code, errs)
			}
			if strings.ContainsAny(errs, "\x1b\x07") {
				t.Fatalf("raw control characters on stderr: %q", errs)
			}
			if !strings.Contains(errs, tt.shown) {
				t.Errorf("stderr %q does not show %q", errs, tt.shown)
			}
		})
	}
}
