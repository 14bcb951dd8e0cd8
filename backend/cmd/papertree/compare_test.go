package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareCLI runs papertree compare on a real index: the JSON contract,
// the exports and clear errors for bad input.
func TestCompareCLI(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "papers")
	os.MkdirAll(lib, 0o755)
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(lib, "a.pdf"))
	db := filepath.Join(dir, "lib.db")
	if _, errs, code := cli(t, "index", "--db", db, lib); code != 0 {
		t.Fatalf("index: %s", errs)
	}
	out, errs, code := cli(t, "compare", "--db", db, "--json", "--aspects", "Headings; headings ;Quantum entanglement")
	if code != 0 {
		t.Fatalf("compare exit %d: %s", code, errs)
	}
	var tab struct {
		Papers []struct {
			PaperID    int64  `json:"paper_id"`
			PaperTitle string `json:"paper_title"`
		} `json:"papers"`
		Aspects []string `json:"aspects"`
		Cells   []struct {
			PaperID  int64  `json:"paper_id"`
			Aspect   string `json:"aspect"`
			Text     string `json:"text"`
			NotFound bool   `json:"not_found"`
			Evidence []struct {
				Path   []string `json:"path"`
				NodeID int64    `json:"node_id"`
				Pages  []int    `json:"pages"`
				Text   string   `json:"text"`
			} `json:"evidence"`
		} `json:"cells"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &tab); err != nil {
		t.Fatal(err)
	}
	if len(tab.Papers) != 1 || tab.Papers[0].PaperTitle == "" || len(tab.Aspects) != 2 || len(tab.Cells) != 2 {
		t.Fatalf("table %+v", tab)
	}
	if c := tab.Cells[0]; c.NotFound || len(c.Evidence) != 1 || c.Evidence[0].NodeID == 0 || len(c.Evidence[0].Pages) == 0 || c.Evidence[0].Text != c.Text {
		t.Errorf("found cell %+v", c)
	}
	if c := tab.Cells[1]; !c.NotFound || len(c.Evidence) != 0 {
		t.Errorf("not-found cell %+v", c)
	}
	if !strings.Contains(strings.Join(tab.Warnings, " "), "Repeated aspect") {
		t.Errorf("warnings %v", tab.Warnings)
	}
	out, _, code = cli(t, "compare", "--db", db, "--format", "csv", "--aspects", "Headings")
	if code != 0 || !strings.HasPrefix(out, "paper_id,paper_title,aspect,text,not_found,path,pages,node_id\n") {
		t.Errorf("csv %d:\n%s", code, out)
	}
	pdfOut := filepath.Join(dir, "t.pdf")
	if _, errs, code := cli(t, "compare", "--db", db, "--format", "pdf", "--out", pdfOut); code != 0 {
		t.Errorf("pdf: %s", errs)
	} else if b, _ := os.ReadFile(pdfOut); !strings.HasPrefix(string(b), "%PDF") {
		t.Error("pdf export is not a PDF")
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown ids", []string{"--papers", "1,999"}, 1, "Unknown or unindexed paper id(s): 999"},
		{"bad id", []string{"--papers", "x"}, 2, "not a paper id"},
		{"bad format", []string{"--format", "xls"}, 2, "--format"},
		{"stray argument", []string{"Dataset"}, 2, "unexpected arguments"},
	} {
		args := append([]string{"compare", "--db", db}, tc.args...)
		if _, errs, code := cli(t, args...); code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d %q", tc.name, code, errs)
		}
	}
}
