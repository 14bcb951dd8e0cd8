package eval

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLoadSourceFamiliesAndSplit(t *testing.T) {
	dir := t.TempDir()
	pdfs := filepath.Join(dir, "pdfs")
	if err := os.MkdirAll(pdfs, 0o755); err != nil {
		t.Fatal(err)
	}
	tsv := "file\trepo\tfamily\n" +
		"a.pdf\tx/y\tElsevier journal (publisher PDF)\n" +
		"b.pdf\tx/y\tACL/EMNLP/NAACL\n" +
		"c.pdf\tx/y\tthesis\n" +
		"short\n"
	if err := os.WriteFile(filepath.Join(dir, "SOURCES.tsv"), []byte(tsv), 0o644); err != nil {
		t.Fatal(err)
	}
	fams, err := LoadSourceFamilies(pdfs) // found in the parent folder
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a.pdf": "Elsevier journal", "b.pdf": "ACL/EMNLP/NAACL", "c.pdf": "thesis"}
	for f, fam := range want {
		if fams[f] != fam {
			t.Errorf("family of %s = %q, want %q", f, fams[f], fam)
		}
	}
	if len(fams) != len(want) {
		t.Errorf("families %v", fams)
	}
	split := SplitFamilies(fams)
	// sorted: ACL/EMNLP/NAACL, Elsevier journal, thesis -> dev, check, dev
	if split["ACL/EMNLP/NAACL"] != SplitDev || split["Elsevier journal"] != SplitCheck || split["thesis"] != SplitDev {
		t.Errorf("split %v", split)
	}
	none, err := LoadSourceFamilies(t.TempDir())
	if err != nil || len(none) != 0 {
		t.Errorf("missing SOURCES.tsv: %v %v", none, err)
	}
}

func TestTitleMatch(t *testing.T) {
	cases := []struct {
		name, gold, got string
		want            bool
	}{
		{"same", "Deep Learning", "Deep Learning", true},
		{"case and punctuation", "LongEval: Guidelines", "LONGEVAL — Guidelines", true},
		{"banner", "Joint entity and relation extraction", "Neurocomputing", false},
		{"empty prediction", "A Title", "", false},
		{"both empty", "", "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := TitleMatch(c.gold, c.got); got != c.want {
				t.Fatalf("TitleMatch(%q, %q) = %v", c.gold, c.got, got)
			}
		})
	}
}
