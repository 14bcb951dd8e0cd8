package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportBibTeXJSONListsFailedEntries: the JSON of import bibtex always
// has "failed" as a list (never null), and an entry that could not be read
// (an unclosed entry) is listed in it with the .bib file, whether or not
// another entry indexed a PDF.
func TestImportBibTeXJSONListsFailedEntries(t *testing.T) {
	good := "@article{good2024, title = {Good}, file = {:paper.pdf:PDF}}\n\n"
	broken := "@article{broken2018,\n  title = {Never closed,\n  year = 2018\n"
	tests := []struct {
		name   string
		bib    string
		failed []string // entries listed in index.failed
	}{
		{"only an unclosed entry", broken, []string{"broken2018"}},
		{"a good entry and an unclosed one", good + broken, []string{"broken2018"}},
		{"a good entry only", good, nil},
		{"an entry without a file only", "@article{nofile, title = {No file}}\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(dir, "paper.pdf"))
			bib := filepath.Join(dir, "refs.bib")
			if err := os.WriteFile(bib, []byte(tt.bib), 0o644); err != nil {
				t.Fatal(err)
			}
			out, errs, code := cli(t, "import", "bibtex", "--db", filepath.Join(dir, "lib.db"), "--json", "--quiet", bib)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var got struct {
				Index struct {
					Failed *[]struct {
						File  string `json:"file"`
						Code  string `json:"code"`
						Error string `json:"error"`
					} `json:"failed"`
				} `json:"index"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if got.Index.Failed == nil {
				t.Fatalf(`"failed" is null, want a list: %s`, out)
			}
			failed := *got.Index.Failed
			if len(failed) != len(tt.failed) {
				t.Fatalf("failed = %+v, want %q", failed, tt.failed)
			}
			for i, key := range tt.failed {
				f := failed[i]
				if f.Code != "invalid" || filepath.Base(f.File) != "refs.bib" || !strings.Contains(f.Error, key) || !strings.Contains(f.Error, "not closed") {
					t.Errorf("failed[%d] = %+v, want the .bib file, invalid, naming %s", i, f, key)
				}
			}
		})
	}
}
