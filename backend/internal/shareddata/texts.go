package shareddata

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
)

// CorpusTexts returns the plain text of the development corpus: every
// pdfs/*.pdf as pdftotext reads it, then every string of the QASPER tune
// split (qasper/qasper-tune.json) when it is there. Tests that compare
// text processing over a realistic vocabulary (the stemmer against SQLite's
// FTS5 tokenizer, say) use it. It skips the test when the data set or
// pdftotext (poppler-utils) is absent.
func CorpusTexts(tb testing.TB) []string {
	tb.Helper()
	dir := Dir(tb, "pdfs")
	if _, err := exec.LookPath("pdftotext"); err != nil {
		tb.Skip("skipping: pdftotext is not installed (apt-get install poppler-utils)")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	sort.Strings(files)
	if len(files) == 0 {
		tb.Skipf("skipping: no PDFs in %s", dir)
	}
	var out []string
	for _, f := range files {
		b, err := exec.Command("pdftotext", "-q", "-enc", "UTF-8", f, "-").Output()
		if err != nil {
			tb.Logf("pdftotext %s: %v (skipped)", filepath.Base(f), err)
			continue
		}
		out = append(out, string(b))
	}
	if b, err := os.ReadFile(filepath.Join(Find(), "qasper", "qasper-tune.json")); err == nil {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			tb.Fatalf("qasper-tune.json: %v", err)
		}
		var walk func(any)
		walk = func(v any) {
			switch x := v.(type) {
			case string:
				out = append(out, x)
			case []any:
				for _, e := range x {
					walk(e)
				}
			case map[string]any:
				for k, e := range x {
					out = append(out, k)
					walk(e)
				}
			}
		}
		walk(v)
	}
	return out
}
