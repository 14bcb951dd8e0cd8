package eval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

func TestSurnameMatch(t *testing.T) {
	cases := []struct {
		name, surname, full string
		want                bool
	}{
		{"plain", "Liu", "Fayao Liu", true},
		{"capitals", "Liu", "HUAN LIU", true},
		{"particle surname", "van Zuylen", "Madeleine van Zuylen", true},
		{"given name is not the surname", "Liu", "Liu Huan", false},
		{"accents kept", "Löfflad", "Denise Löfflad", true},
		{"hyphenated", "Olivera-Nieto", "Laura Olivera-Nieto", true},
		{"institution", "Hopkins", "Johns Hopkins University", false},
		{"empty prediction", "Kim", "", false},
		{"apostrophe", "O'Donnell", "Timothy J. O’Donnell", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := SurnameMatch(c.surname, c.full); got != c.want {
				t.Fatalf("SurnameMatch(%q, %q) = %v, want %v", c.surname, c.full, got, c.want)
			}
		})
	}
}

func TestScoreMeta(t *testing.T) {
	g := MetaGold{File: "a.pdf", Split: "dev", Title: "Deep Learning in the Brain", Authors: []string{"Hao", "Xu", "Hao"}, Year: 2017, Arxiv: "1706.03762"}
	cases := []struct {
		name                                 string
		pred                                 MetaPred
		titleExact, titleOK, yearOK, arxivOK bool
		hits                                 int
		extra                                []string
		wrongArxiv                           bool
	}{
		{"all right", MetaPred{Title: "Deep learning in the brain", Authors: []string{"Yuexing Hao", "Bo Xu", "Hongwei Hao"}, Year: 2017, Arxiv: "1706.03762v5"},
			true, true, true, true, 3, nil, false},
		{"footnote mark in title", MetaPred{Title: "Deep Learning in the Brain1", Authors: []string{"Yuexing Hao"}, Year: 2016, Arxiv: "1706.03763"},
			false, true, false, false, 1, nil, true},
		{"institution as author", MetaPred{Title: "REVIEW", Authors: []string{"Yuexing Hao", "Computer Science Division"}},
			false, false, false, false, 1, []string{"Computer Science Division"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := ScoreMeta(g, c.pred)
			if s.TitleExact != c.titleExact || s.TitleOK != c.titleOK || s.YearOK != c.yearOK || s.ArxivOK != c.arxivOK || s.AuthorsHit != c.hits || s.WrongArxiv != c.wrongArxiv {
				t.Fatalf("got %+v", s)
			}
			if strings.Join(s.ExtraNames, "|") != strings.Join(c.extra, "|") {
				t.Fatalf("extra names %q, want %q", s.ExtraNames, c.extra)
			}
		})
	}
}

func TestRunMetaSums(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.pdf", "b.pdf", "c.pdf"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("%PDF"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gold := []MetaGold{
		{File: "a.pdf", Split: "dev", Title: "Alpha Paper", Authors: []string{"Smith", "Jones"}, Year: 2020},
		{File: "b.pdf", Split: "holdout", Title: "Beta Paper", Authors: nil, Arxiv: "2101.00001"},
		{File: "c.pdf", Split: "dev", Title: "Garbled", Authors: []string{"Doe"}, Hard: true},
	}
	papers := map[string]*papertree.Paper{
		"a.pdf": {Title: "Alpha Paper", Authors: []string{"Ann Smith", "Technion City"}, Year: 2020},
		"b.pdf": {Title: "BETA PAPER", Authors: []string{"Anonymous Reviewer"}, ArxivID: "2101.00001v2", Year: 2021},
	}
	build := func(_ context.Context, path string) (*papertree.Paper, error) {
		if p := papers[filepath.Base(path)]; p != nil {
			return p, nil
		}
		return nil, papertree.Errorf(papertree.EGarbled, "garbled")
	}
	rep, err := RunMeta(context.Background(), gold, []string{filepath.Join(dir, "missing"), dir}, build)
	if err != nil {
		t.Fatal(err)
	}
	dev, hold := rep.Splits["dev"], rep.Splits["holdout"]
	if dev.Files != 1 || dev.TitleExact != 1 || dev.AuthorHits != 1 || dev.GoldAuthors != 2 || dev.PredAuthors != 2 || dev.YearOK != 1 {
		t.Fatalf("dev %+v", dev)
	}
	if hold.ArxivOK != 1 || hold.CapsTitles != 1 || hold.YearFiles != 0 || hold.AuthorPrec != 0 {
		t.Fatalf("holdout %+v", hold)
	}
	if rep.Hard.Files != 1 || rep.Overall.Files != 2 {
		t.Fatalf("hard %+v overall %+v", rep.Hard, rep.Overall)
	}
	var b strings.Builder
	if err := rep.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "extra Technion City") || !strings.Contains(b.String(), "title in capitals") {
		t.Fatalf("table:\n%s", b.String())
	}
	if _, err := RunMeta(context.Background(), []MetaGold{{File: "nowhere.pdf"}}, []string{dir}, build); err == nil {
		t.Fatal("a gold paper without its PDF must be an error")
	}
}

// TestMetadataGold checks the gold file itself: every entry has a split, a
// title and a well-formed arXiv id.
func TestMetadataGold(t *testing.T) {
	g, err := LoadMetaGold(filepath.Join("..", "treebuild", "testdata", "metadata_gold.json"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range g {
		if seen[e.File] || (e.Split != "dev" && e.Split != "holdout") || e.Title == "" || (e.Arxiv != "" && arxivBase(e.Arxiv) != e.Arxiv) {
			t.Errorf("bad entry %+v", e)
		}
		seen[e.File] = true
	}
}
