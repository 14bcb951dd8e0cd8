package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/papertree"
)

// treeJSON returns the paper's tree as tree --json prints it.
func treeJSON(t *testing.T, db string) *papertree.Paper {
	t.Helper()
	out, errs, code := cli(t, "tree", "--db", db, "--json", "1")
	if code != 0 {
		t.Fatalf("tree: %s", errs)
	}
	var p papertree.Paper
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	return &p
}

func nodeID(t *testing.T, p *papertree.Paper, title string) string {
	t.Helper()
	var id int64
	p.Root.Walk(func(path []*papertree.Node) bool {
		if n := path[len(path)-1]; n.Title == title && n.Kind == papertree.KindSection {
			id = n.ID
		}
		return true
	})
	if id == 0 {
		t.Fatalf("no heading %q", title)
	}
	return strconv.FormatInt(id, 10)
}

// TestEditAndHeadingCommands drives the correction commands as a
// researcher would and checks list, tree, export --format bib and index.
func TestEditAndHeadingCommands(t *testing.T) {
	dir := t.TempDir()
	pdf := filepath.Join(dir, "a.pdf")
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), pdf)
	db := filepath.Join(dir, "lib.db")
	if _, errs, code := cli(t, "index", "--db", db, "--quiet", pdf); code != 0 {
		t.Fatal(errs)
	}
	steps := []struct {
		name string
		args func() []string
		want []string // in stdout
	}{
		{"metadata", func() []string {
			return []string{"edit", "--db", db, "--paper", "1", "--title", "Glyphs \x1b[31mto\x1b[0m Structure", "--year", "2019",
				"--authors", "Ada Lovelace; Alan Turing", "--key", "lovelace2019"}
		}, []string{`title: Glyphs \x1b[31mto\x1b[0m Structure (read: Recovering Paper Structure from Glyphs)`, "year: 2019", "key: lovelace2019"}},
		{"rename a heading", func() []string {
			return []string{"heading", "--db", db, "--paper", "1", "--node", nodeID(t, treeJSON(t, db), "2 Method"), "--rename", "2 Approach"}
		}, []string{`heading #1: rename "2 Method" -> "2 Approach"`}},
		{"a line is not a heading", func() []string {
			return []string{"heading", "--db", db, "--paper", "1", "--node", nodeID(t, treeJSON(t, db), "2.1 Glyph Grouping"), "--not-heading"}
		}, []string{`heading #2: "2.1 Glyph Grouping" is not a heading`}},
		{"undo it", func() []string { return []string{"heading", "--db", db, "--paper", "1", "--undo"} }, nil},
		{"level", func() []string {
			return []string{"heading", "--db", db, "--paper", "1", "--node", nodeID(t, treeJSON(t, db), "2.1 Glyph Grouping"), "--level", "1", "--json"}
		}, []string{`"op": "level"`, `"target": "2.1 Glyph Grouping"`}},
		{"revert the year", func() []string { return []string{"edit", "--db", db, "--paper", "1", "--undo", "year"} }, nil},
		{"list the corrections", func() []string { return []string{"edit", "--db", db, "--paper", pdf} },
			[]string{"title: Glyphs", `heading #1: rename "2 Method" -> "2 Approach"`, `heading #3: level of "2.1 Glyph Grouping" -> 1`}},
		{"tree", func() []string { return []string{"tree", "--db", db, "1"} },
			[]string{`Glyphs \x1b[31mto\x1b[0m Structure`, "\n  2 Approach  (p. 1", "\n  2.1 Glyph Grouping  (p. "}},
		{"list", func() []string { return []string{"list", "--db", db, "--json"} }, []string{`"title": "Glyphs \u001b[31mto\u001b[0m Structure"`}},
		{"list marks it", func() []string { return []string{"list", "--db", db} }, []string{`Glyphs \x1b[31mto\x1b[0m Structure  [edited]`}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			out, errs, code := cli(t, s.args()...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, w := range s.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
	if out, _, _ := cli(t, "edit", "--db", db, "--paper", "1"); strings.Contains(out, "year:") || strings.Contains(out, "#2") {
		t.Errorf("reverted year or undone heading still listed:\n%s", out)
	}

	// BibTeX export of an answer citing the paper uses the corrections.
	out, errs, code := cli(t, "ask", "--db", db, "--json", "How are glyphs grouped into lines?")
	if code != 0 {
		t.Fatal(errs)
	}
	var ans struct {
		AnswerID int64 `json:"answer_id"`
		Evidence []struct {
			Path []string `json:"path"`
		} `json:"evidence"`
	}
	json.Unmarshal([]byte(out), &ans)
	if len(ans.Evidence) == 0 || !strings.HasPrefix(ans.Evidence[0].Path[0], "Glyphs") {
		t.Fatalf("evidence paths do not start at the corrected title: %s", out)
	}
	for _, e := range ans.Evidence {
		if strings.Contains(strings.Join(e.Path, ">"), "2 Method") {
			t.Errorf("evidence path has the heading as read: %v", e.Path)
		}
	}
	bib := filepath.Join(dir, "out.bib")
	if _, errs, code := cli(t, "export", "--db", db, "--answer", strconv.FormatInt(ans.AnswerID, 10), "--format", "bib", "--out", bib); code != 0 {
		t.Fatal(errs)
	}
	b, _ := os.ReadFile(bib)
	for _, w := range []string{"@misc{lovelace2019,", "author = {Ada Lovelace and Alan Turing}", "title = {Glyphs"} {
		if !strings.Contains(string(b), w) {
			t.Errorf("bib lacks %q:\n%s", w, b)
		}
	}
	if strings.Contains(string(b), "year") {
		t.Errorf("reverted year exported:\n%s", b)
	}
	md := filepath.Join(dir, "out.md")
	if _, errs, code := cli(t, "export", "--db", db, "--answer", strconv.FormatInt(ans.AnswerID, 10), "--format", "md", "--out", md); code != 0 {
		t.Fatal(errs)
	}
	if b, _ := os.ReadFile(md); !strings.Contains(string(b), "lovelace2019") || !strings.Contains(string(b), "Structure") || strings.Contains(string(b), "Recovering Paper Structure") {
		t.Errorf("the report does not cite the corrected paper:\n%s", b)
	}

	// A new version of the file: the corrected heading is gone and reported.
	v2, _ := os.ReadFile(pdf)
	os.WriteFile(pdf, []byte(strings.ReplaceAll(string(v2), "Glyph Grouping", "Glyph Clusters")), 0o644)
	out, errs, code = cli(t, "index", "--db", db, "--json", "--quiet", pdf)
	if code != 0 {
		t.Fatal(errs)
	}
	var sum indexOutput
	json.Unmarshal([]byte(out), &sum)
	if sum.Indexed != 1 || len(sum.UnmatchedCorrections) != 1 || sum.UnmatchedCorrections[0].Target != "2.1 Glyph Grouping" {
		t.Fatalf("index summary %s", out)
	}
	out, errs, _ = cli(t, "edit", "--db", db, "--paper", pdf)
	if !strings.Contains(out, `heading #3: level of "2.1 Glyph Grouping" -> 1  [NOT APPLIED`) || !strings.Contains(out, `"2 Method" -> "2 Approach"`+"\n") {
		t.Errorf("corrections after the change:\n%s%s", out, errs)
	}
	if out, _, _ := cli(t, "tree", "--db", db, pdf); !strings.Contains(out, "2 Approach") {
		t.Errorf("the matching correction was not re-applied:\n%s", out)
	}
	_ = library.UnmatchedCorrection{}
}

func TestEditRefusals(t *testing.T) {
	dir := t.TempDir()
	pdf := filepath.Join(dir, "a.pdf")
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), pdf)
	db := filepath.Join(dir, "lib.db")
	if _, errs, code := cli(t, "index", "--db", db, "--quiet", pdf); code != 0 {
		t.Fatal(errs)
	}
	foreign := filepath.Join(dir, "other.sqlite")
	rawSQL(t, foreign, `CREATE TABLE notes(x TEXT)`, `INSERT INTO notes VALUES ('keep me')`)
	before, _ := os.ReadFile(foreign)
	cases := []struct {
		name     string
		readOnly bool
		args     []string
		code     int
		want     string
	}{
		{"read-only library: edit", true, []string{"edit", "--db", db, "--paper", "1", "--title", "X"}, 1, "The library is read-only"},
		{"read-only library: heading", true, []string{"heading", "--db", db, "--paper", "1", "--node", "5", "--rename", "X"}, 1, "read-only"},
		{"read-only library: undo", true, []string{"edit", "--db", db, "--paper", "1", "--undo", "title"}, 1, "read-only"},
		{"foreign SQLite file", false, []string{"edit", "--db", foreign, "--paper", "1", "--title", "X"}, 1, "is not a PaperTree library"},
		{"foreign SQLite file: heading", false, []string{"heading", "--db", foreign, "--paper", "1", "--node", "2", "--merge"}, 1, "is not a PaperTree library"},
		{"two heading operations", false, []string{"heading", "--db", db, "--paper", "1", "--node", "5", "--merge", "--not-heading"}, 2, "exactly one"},
		{"no paper", false, []string{"edit", "--db", db, "--title", "X"}, 2, "--paper"},
		{"bad year", false, []string{"edit", "--db", db, "--paper", "1", "--year", "nineteen"}, 1, "four digits"},
		{"unknown paper", false, []string{"edit", "--db", db, "--paper", "99", "--title", "X"}, 1, "not_found"},
		{"undo with a value", false, []string{"edit", "--db", db, "--paper", "1", "--undo", "title", "--title", "X"}, 2, "--undo"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forceReadOnly = c.readOnly
			defer func() { forceReadOnly = false }()
			_, errs, code := cli(t, c.args...)
			if code != c.code || !strings.Contains(errs, c.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", code, errs, c.code, c.want)
			}
		})
	}
	if after, _ := os.ReadFile(foreign); string(after) != string(before) {
		t.Error("the foreign file was changed")
	}
	if out, _, _ := cli(t, "edit", "--db", db, "--paper", "1"); !strings.Contains(out, "no corrections") {
		t.Errorf("a refused edit was stored:\n%s", out)
	}
}
