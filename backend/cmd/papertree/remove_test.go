package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// indexTwo indexes two fixture PDFs in a folder and returns the folder,
// the library and the papers' ids by file name.
func indexTwo(t *testing.T) (dir, db string, ids map[string]int64) {
	t.Helper()
	dir = t.TempDir()
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(dir, "a.pdf"))
	copyFile(t, filepath.Join(fixtures, "rotated.pdf"), filepath.Join(dir, "b.pdf"))
	db = filepath.Join(t.TempDir(), "lib.db")
	if _, errs, code := cli(t, "index", "--db", db, "--quiet", dir); code != 0 {
		t.Fatal(errs)
	}
	out, errs, code := cli(t, "list", "--db", db, "--json")
	if code != 0 {
		t.Fatal(errs)
	}
	var ps []struct {
		ID   int64  `json:"id"`
		Path string `json:"path"`
	}
	if err := json.Unmarshal([]byte(out), &ps); err != nil {
		t.Fatal(err)
	}
	ids = map[string]int64{}
	for _, p := range ps {
		ids[filepath.Base(p.Path)] = p.ID
	}
	return dir, db, ids
}

func TestRemoveCLI(t *testing.T) {
	dir, db, ids := indexTwo(t)
	a := itoa(ids["a.pdf"])
	tests := []struct {
		name    string
		args    []string
		code    int
		stdout  string
		stderr  string
		readOnl bool
	}{
		{"not an id", []string{"remove", "--db", db, "a.pdf"}, 2, "", "is not a paper ID", false},
		{"no id", []string{"remove", "--db", db}, 2, "", "expected at least one paper ID", false},
		{"unknown id", []string{"remove", "--db", db, "9999"}, 1, "", "Paper 9999 is not in the library", false},
		{"read-only library", []string{"remove", "--db", db, a}, 1, "", "The library is read-only", true},
		{"not a library", []string{"remove", "--db", filepath.Join(dir, "a.pdf"), a}, 1, "", "not a PaperTree library", false},
		{"removes", []string{"remove", "--db", db, a}, 0, "file kept: " + filepath.Join(dir, "a.pdf"), "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.readOnl {
				forceReadOnly = true
				defer func() { forceReadOnly = false }()
			}
			out, errs, code := cli(t, tt.args...)
			if code != tt.code || !strings.Contains(out, tt.stdout) || !strings.Contains(errs, tt.stderr) {
				t.Fatalf("exit %d, out %q, err %q", code, out, errs)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "a.pdf")); err != nil {
		t.Fatalf("the file itself was touched: %v", err)
	}
	list, _, _ := cli(t, "list", "--db", db, "--json")
	if strings.Contains(list, "a.pdf") || !strings.Contains(list, "b.pdf") {
		t.Fatalf("list after remove: %s", list)
	}
	// Re-indexing the folder leaves the removed file out.
	out, errs, code := cli(t, "index", "--db", db, "--json", "--quiet", dir)
	if code != 0 || !strings.Contains(out, `"removed": 1`) || !strings.Contains(out, `"indexed": 0`) {
		t.Fatalf("folder re-index: exit %d %s %s", code, out, errs)
	}
	// Indexing the exact file adds it back.
	out, errs, code = cli(t, "index", "--db", db, "--json", "--quiet", filepath.Join(dir, "a.pdf"))
	if code != 0 || !strings.Contains(out, `"indexed": 1`) {
		t.Fatalf("index the exact file: exit %d %s %s", code, out, errs)
	}
	out, _, _ = cli(t, "index", "--db", db, "--json", "--quiet", dir)
	if strings.Contains(out, `"removed"`) || !strings.Contains(out, `"unchanged": 2`) {
		t.Fatalf("after adding back, the folder holds both: %s", out)
	}
}

func TestSearchCLI(t *testing.T) {
	_, db, ids := indexTwo(t)
	out, errs, code := cli(t, "search", "--db", db, "--json", "glyphs", "grouped")
	if code != 0 {
		t.Fatal(errs)
	}
	var rows []struct {
		PaperID int64    `json:"paper_id"`
		Title   string   `json:"title"`
		Score   float64  `json:"score"`
		Snippet string   `json:"snippet"`
		Path    string   `json:"path"`
		Marks   [][2]int `json:"marks"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(rows) == 0 || rows[0].PaperID != ids["a.pdf"] || rows[0].Score <= 0 || rows[0].Snippet == "" || len(rows[0].Marks) == 0 {
		t.Fatalf("rows %+v", rows)
	}
	for _, m := range rows[0].Marks {
		w := strings.ToLower(rows[0].Snippet[m[0]:m[1]])
		if !strings.HasPrefix(w, "glyph") && !strings.HasPrefix(w, "group") {
			t.Errorf("mark %v covers %q", m, w)
		}
	}
	for i := 1; i < len(rows); i++ {
		if rows[i].Score > rows[i-1].Score {
			t.Fatalf("not best first: %+v", rows)
		}
	}
	text, _, code := cli(t, "search", "--db", db, "glyphs grouped")
	if code != 0 || !strings.HasPrefix(text, " 1. [") || !strings.Contains(strings.ToLower(text), "[glyph") {
		t.Fatalf("text form: %q", text)
	}
	none, _, code := cli(t, "search", "--db", db, "--json", "zebrafish")
	if code != 0 || strings.TrimSpace(none) != "[]" {
		t.Fatalf("no match: %q", none)
	}
	if _, _, code := cli(t, "search", "--db", db); code != 2 {
		t.Fatalf("no query: exit %d", code)
	}
}

func TestEvalSearchCLI(t *testing.T) {
	_, db, _ := indexTwo(t)
	set := filepath.Join(t.TempDir(), "set.json")
	if err := os.WriteFile(set, []byte(`{"queries":[{"query":"glyphs grouped","file":"a.pdf"},{"query":"glyphs grouped","file":"b.pdf"},{"query":"zebrafish","file":"a.pdf"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := cli(t, "eval", "search", "--db", db, "--set", set, "--json")
	if code != 0 {
		t.Fatal(errs)
	}
	var res struct {
		Queries int `json:"queries"`
		First   int `json:"first"`
		Rows    []struct {
			Rank int `json:"rank"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	// a.pdf is first; b.pdf is not (lower or absent); nothing matches zebrafish.
	if res.Queries != 3 || res.First != 1 || res.Rows[0].Rank != 1 || res.Rows[1].Rank == 1 || res.Rows[2].Rank != 0 {
		t.Fatalf("eval search: %s", out)
	}
}
