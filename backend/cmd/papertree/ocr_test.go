package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// index --ocr=false leaves a scan unread (no text layer, as before OCR);
// list --json carries each paper's ocr_pages.
func TestIndexOCRFlagAndListMark(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "papers")
	os.MkdirAll(lib, 0o755)
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(lib, "good.pdf"))
	copyFile(t, filepath.Join(fixtures, "imageonly.pdf"), filepath.Join(lib, "scan.pdf"))
	db := filepath.Join(dir, "lib.db")
	out, errs, code := cli(t, "index", "--db", db, "--json", "--ocr=false", "--ocr-lang", "eng+deu", lib)
	if code != 0 {
		t.Fatalf("index exit %d: %s", code, errs)
	}
	var sum indexOutput
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Indexed != 1 || len(sum.Failed) != 1 || sum.Failed[0].Code != papertree.ENoText {
		t.Fatalf("summary %+v", sum)
	}
	out, errs, code = cli(t, "list", "--db", db, "--json")
	if code != 0 {
		t.Fatalf("list exit %d: %s", code, errs)
	}
	var raw []map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil || len(raw) != 2 {
		t.Fatalf("list: %v, %s", err, out)
	}
	for _, p := range raw {
		if v, ok := p["ocr_pages"]; !ok || v != float64(0) {
			t.Errorf("list --json: %v has ocr_pages %v", p["path"], v)
		}
	}
}

// A paper whose PDF yields no title is listed by its file name, never as a
// blank row.
func TestListNamesUntitledPaperByFile(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "papers")
	os.MkdirAll(lib, 0o755)
	copyFile(t, filepath.Join(fixtures, "badpage.pdf"), filepath.Join(lib, "no_title_scan.pdf"))
	db := filepath.Join(dir, "lib.db")
	if _, errs, code := cli(t, "index", "--db", db, "--ocr=false", lib); code != 0 {
		t.Fatalf("index exit %d: %s", code, errs)
	}
	out, errs, code := cli(t, "list", "--db", db, "--json")
	if code != 0 {
		t.Fatalf("list exit %d: %s", code, errs)
	}
	var raw []map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil || len(raw) != 1 || raw[0]["title"] != "" {
		t.Fatalf("fixture should have no title: %v, %s", err, out)
	}
	out, errs, code = cli(t, "list", "--db", db)
	if code != 0 {
		t.Fatalf("list exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "pp  no_title_scan.pdf") {
		t.Errorf("list does not name the untitled paper by its file:\n%s", out)
	}
}
