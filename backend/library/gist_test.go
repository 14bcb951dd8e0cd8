package library

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A question asking for a paper's gist is answered from its abstract, with
// the sentences in which the paper says what it does; one asking about a
// concept of the paper gets the ordinary answer.
func TestAskPaperGist(t *testing.T) {
	ctx := context.Background()
	l, _, info := glyphsLibrary(t)
	for _, tc := range []struct {
		name, q string
		scope   []int64
		gist    bool
	}{
		{"what it proposes", "What does this paper propose?", []int64{info.ID}, true},
		{"summary", "Summarize the paper.", []int64{info.ID}, true},
		{"named by its title words", "What is the main contribution of Recovering Paper Structure from Glyphs?", []int64{info.ID}, true},
		{"a concept of the paper", "What is the main idea of glyph grouping?", []int64{info.ID}, false},
		{"not a gist question", "How are glyphs grouped into words?", []int64{info.ID}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := l.Ask(ctx, AskRequest{Question: tc.q, PaperIDs: tc.scope, NoHistory: true})
			if err != nil {
				t.Fatal(err)
			}
			fromAbstract := len(a.Evidence) > 0
			for _, e := range a.Evidence {
				fromAbstract = fromAbstract && len(e.Path) > 1 && e.Path[len(e.Path)-1] == "Abstract"
			}
			if fromAbstract != tc.gist {
				t.Fatalf("evidence from the abstract only: %v, want %v (%q)", fromAbstract, tc.gist, a.Text)
			}
			if tc.gist && (!strings.HasPrefix(a.Text, "We parse positioned glyphs") || a.NotFound || a.Mode != "extractive") {
				t.Errorf("gist answer %q (mode %s, not found %v), want the abstract's 'We parse ...' first", a.Text, a.Mode, a.NotFound)
			}
		})
	}
}

// With a model configured, it writes a gist answer from the paper's
// abstract (the prompt's evidence), and a question about the paper's
// details is answered from them without asking it.
func TestLLMGistFromAbstractDetailsWithoutModel(t *testing.T) {
	ctx := context.Background()
	s := newLLMServer(t)
	l := openLib(t, s.config())
	dir := t.TempDir()
	path := filepath.Join(dir, "glyphs.pdf")
	copyFixture(t, "twocolumn.pdf", path)
	index(t, l, dir)
	info, err := l.ResolvePaper(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	a, err := l.Ask(ctx, AskRequest{Question: "What does this paper propose?", PaperIDs: []int64{info.ID}, NoHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	if a.Mode != "llm" || len(a.Evidence) == 0 || a.Evidence[0].Path[len(a.Evidence[0].Path)-1] != "Abstract" {
		t.Fatalf("gist with a model: mode %s, evidence %+v", a.Mode, a.Evidence)
	}
	answered := 0
	for _, c := range s.Calls() {
		if c.Op == "answer" {
			answered++
			if !strings.Contains(c.User, "We parse positioned glyphs") {
				t.Errorf("the answer prompt lacks the abstract: %s", c.User)
			}
		}
	}
	if answered != 1 {
		t.Fatalf("%d answer calls, want 1", answered)
	}
	if _, err := l.EditPaper(ctx, path, map[string]string{"year": "2021"}); err != nil {
		t.Fatal(err)
	}
	a, err = l.Ask(ctx, AskRequest{Question: "When was this paper published?", PaperIDs: []int64{info.ID}, NoHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range s.Calls() {
		if c.Op == "answer" {
			n++
		}
	}
	if a.Mode != "details" || !strings.Contains(a.Text, "is from 2021") || n != answered {
		t.Errorf("details with a model: mode %s, %q, %d answer calls (want %d)", a.Mode, a.Text, n, answered)
	}
}
