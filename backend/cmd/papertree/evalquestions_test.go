package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEvalQuestionsCLI(t *testing.T) {
	dir := t.TempDir()
	set := filepath.Join(dir, "set.json")
	body := `{"questions":[
	 {"id":"a","kind":"factual","paper":"twocolumn.pdf","section":"","question":"What is this document about?","support":"zzzz never in the paper zzzz"},
	 {"id":"u","kind":"unanswerable","unanswerable":true,"question":"What batch size did AlphaFold2 use?"}]}`
	if err := os.WriteFile(set, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	pdfs := filepath.Join(dir, "pdfs")
	if err := os.MkdirAll(pdfs, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(fixtures, "twocolumn.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pdfs, "twocolumn.pdf"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{"needs a set and PDFs", []string{"eval", "questions", "--set", set}, 2, nil},
		{"missing set file", []string{"eval", "questions", "--set", filepath.Join(dir, "nope.json"), "--pdfs", pdfs}, 1, nil},
		{"scores the set", []string{"eval", "questions", "--set", set, "--pdfs", pdfs}, 0,
			[]string{"paper hit (best evidence)", "not found | unanswerable", "supporting sentence not in the evidence"}},
		{"json report", []string{"eval", "questions", "--json", "--set", set, "--pdfs", pdfs}, 0,
			[]string{`"scoped"`, `"library"`, `"support_hit": 0`, `"not_found_unanswerable": 1`, `"outcomes": [`, `"question": "What is this document about?"`, `"file": "twocolumn.pdf"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := cli(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errs)
			}
			for _, c := range tc.contains {
				if !strings.Contains(out, c) {
					t.Errorf("output lacks %q:\n%s", c, out)
				}
			}
		})
	}
}
