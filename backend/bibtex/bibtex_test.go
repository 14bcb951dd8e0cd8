package bibtex

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// parsed is what the golden files hold: entries with their plain-text
// metadata and files, and the problems.
type parsed struct {
	Entries []struct {
		Key, Type, Title, Venue string
		Authors                 []string
		Year                    int
		Files                   []File
		Line                    int
	}
	Problems []Problem
}

func TestParseGolden(t *testing.T) {
	for _, name := range []string{"mixed", "latin1", "mixedenc", "jabref-latin1"} {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", name+".bib"))
			if err != nil {
				t.Fatal(err)
			}
			entries, problems := Parse(src)
			var got parsed
			for _, e := range entries {
				got.Entries = append(got.Entries, struct {
					Key, Type, Title, Venue string
					Authors                 []string
					Year                    int
					Files                   []File
					Line                    int
				}{e.Key, e.Type, Text(e.Fields["title"]), e.Venue(), Authors(e.Fields["author"]), e.Year(), e.Files(), e.Line})
			}
			got.Problems = problems
			b, _ := json.MarshalIndent(got, "", "  ")
			golden := filepath.Join("testdata", name+".golden.json")
			if *update {
				if err := os.WriteFile(golden, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(append(b, '\n'), want) {
				t.Errorf("%s differs from %s (run with -update after checking):\n%s", name, golden, b)
			}
		})
	}
}

func TestParseReportsEveryBrokenEntry(t *testing.T) {
	src, _ := os.ReadFile(filepath.Join("testdata", "mixed.bib"))
	entries, problems := Parse(src)
	var keys []string
	for _, e := range entries {
		keys = append(keys, e.Key)
	}
	if !reflect.DeepEqual(keys, []string{"smith2024tree", "zotero2020"}) {
		t.Errorf("entries = %q", keys)
	}
	wantReasons := []string{"not closed", "no citation key", "comma is missing", "neither braced text nor a defined @string", "already used"}
	if len(problems) != len(wantReasons) {
		t.Fatalf("problems = %+v", problems)
	}
	for i, w := range wantReasons {
		if !strings.Contains(problems[i].Reason, w) || problems[i].Line == 0 {
			t.Errorf("problem %d = %+v, want reason with %q", i, problems[i], w)
		}
	}
}

func TestText(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"braces", "{Tree}-Structured {L}ong", "Tree-Structured Long"},
		{"accents", `M{\"u}ller and \'Eric and \c{c}a`, "Müller and Éric and ça"},
		{"escapes", `A \& B 50\% \_x`, "A & B 50% _x"},
		{"dashes and ties", "pages 1--2~and---more", "pages 1–2 and—more"},
		{"commands dropped", `\emph{Deep} \textbf{nets}`, "Deep nets"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Text(tc.in); got != tc.want {
				t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestWriteRoundTrip(t *testing.T) {
	in := []Entry{{Type: "article", Key: "smith2024tree", Fields: map[string]string{
		"title": Escape("Trees {and} 100% & $ } unbalanced"), "author": "Smith, Ann and Li, Bo", "year": "2024", "note": Escape("@misc{evil, x}"),
	}}}
	var b bytes.Buffer
	Write(&b, in)
	out, problems := Parse(b.Bytes())
	if len(problems) != 0 || len(out) != 1 {
		t.Fatalf("re-read %q: %+v %+v", b.String(), out, problems)
	}
	if got := Text(out[0].Fields["title"]); got != "Trees {and} 100% & $ } unbalanced" {
		t.Errorf("title = %q", got)
	}
	if out[0].Key != "smith2024tree" || out[0].Year() != 2024 {
		t.Errorf("entry = %+v", out[0])
	}
}

func TestKey(t *testing.T) {
	if got := Key([]string{"Jörg Müller"}, 2020, "The Archimedean Choice"); got != "muller2020archimedean" {
		t.Errorf("Key = %q", got)
	}
}

// FuzzParse: any bytes, including every mix of encodings, parse without a
// panic, and every returned entry is valid UTF-8.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"mixed", "latin1", "mixedenc", "jabref-latin1"} {
		src, err := os.ReadFile(filepath.Join("testdata", name+".bib"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, _ := Parse(data)
		for _, e := range entries {
			for k, v := range e.Fields {
				if !utf8.ValidString(v) || !utf8.ValidString(k) {
					t.Fatalf("entry %q field %q is not UTF-8: %q", e.Key, k, v)
				}
			}
		}
	})
}

// TestWriteEscapesOnce: Write writes values as the BibTeX they are; plain
// text escaped once by Escape comes out escaped once ("}" as "\}", not
// "\textbackslash{}\}"), and only braces that would end a value early or
// leave it open are escaped. Every case reads back to the same text.
func TestWriteEscapesOnce(t *testing.T) {
	tests := []struct {
		name  string
		value string // the field value given to Write
		want  string // as written between the value's braces
		text  string // Text of the value read back
	}{
		{"} in an escaped title", Escape("Sets } and more"), `Sets \} and more`, "Sets } and more"},
		{"{ in an escaped title", Escape("Sets { and more"), `Sets \{ and more`, "Sets { and more"},
		{"backslash in an escaped title", Escape(`C:\temp`), `C:\textbackslash{}temp`, `C:\temp`},
		{"LaTeX specials escaped once", Escape("100% & $5 #1 a_b"), `100\% \& \$5 \#1 a\_b`, "100% & $5 #1 a_b"},
		{"balanced braces of a parsed value stay", "{Tree}-Structured {L}ong", "{Tree}-Structured {L}ong", "Tree-Structured Long"},
		{"accent command of a parsed value stays", `M{\"u}ller`, `M{\"u}ller`, "Müller"},
		{"unmatched } in a raw value", "a } b", `a \} b`, "a } b"},
		{"unclosed { in a raw value", "a { b", `a \{ b`, "a { b"},
		{"raw value ending in a backslash", `a\`, `a\textbackslash{}`, `a\`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			Write(&b, []Entry{{Type: "misc", Key: "k", Fields: map[string]string{"title": tt.value}}})
			if want := "  title = {" + tt.want + "},\n"; !strings.Contains(b.String(), want) {
				t.Errorf("wrote\n%s\nwant the line %q", b.String(), want)
			}
			out, problems := Parse(b.Bytes())
			if len(problems) != 0 || len(out) != 1 {
				t.Fatalf("re-read: %+v %+v", out, problems)
			}
			if got := Text(out[0].Fields["title"]); got != tt.text {
				t.Errorf("read back %q, want %q", got, tt.text)
			}
		})
	}
}
