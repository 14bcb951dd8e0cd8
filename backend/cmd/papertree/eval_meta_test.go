package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalMeta runs eval meta end to end on a fixture PDF: a gold entry the
// parser reads right scores 1, a wrong gold author is reported as missed,
// and a gold paper whose PDF is in no folder fails the run.
func TestEvalMeta(t *testing.T) {
	dir := t.TempDir()
	write := func(papers string) string {
		p := filepath.Join(dir, "gold.json")
		if err := os.WriteFile(p, []byte(`{"papers": [`+papers+`]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gold := write(`{"file": "twocolumn.pdf", "split": "dev", "title": "Recovering Paper Structure from Glyphs", "authors": ["Lovelace", "Hopper"]}`)
	out, _, code := cli(t, "eval", "meta", "--gold", gold, "--pdfs", dir+","+fixtures, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	var rep struct {
		Splits map[string]struct {
			TitleExact int `json:"title_exact"`
			AuthorHits int `json:"author_hits"`
			Gold       int `json:"gold_authors"`
		} `json:"splits"`
		Files []struct {
			Missed []string `json:"missed"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	d := rep.Splits["dev"]
	if d.TitleExact != 1 || d.AuthorHits != 1 || d.Gold != 2 || strings.Join(rep.Files[0].Missed, ",") != "Hopper" {
		t.Fatalf("report %+v", rep)
	}
	table, _, code := cli(t, "eval", "meta", "--gold", gold, "--pdfs", fixtures)
	if code != 0 || !strings.Contains(table, "missed Hopper") {
		t.Fatalf("exit %d, table:\n%s", code, table)
	}
	missing := write(`{"file": "no-such.pdf", "split": "dev", "title": "X", "authors": []}`)
	if _, _, code := cli(t, "eval", "meta", "--gold", missing, "--pdfs", fixtures); code == 0 {
		t.Fatal("a gold paper without its PDF must fail the run")
	}
	if _, _, code := cli(t, "eval", "meta", "--gold", gold); code != 2 {
		t.Fatalf("missing --pdfs: exit %d, want 2", code)
	}
}
