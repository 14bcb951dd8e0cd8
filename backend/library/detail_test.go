package library

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// glyphsLibrary is a library of one paper, the twocolumn fixture
// ("Recovering Paper Structure from Glyphs") as glyphs.pdf.
func glyphsLibrary(t *testing.T) (*Library, string, store.PaperInfo) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "glyphs.pdf")
	copyFixture(t, "twocolumn.pdf", path)
	l := openLib(t, nil)
	index(t, l, dir)
	info, err := l.ResolvePaper(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return l, path, info
}

// A question about a paper as a publication is answered from its details,
// with where they come from; a detail the paper's details lack, and a
// question about what the paper says, get the ordinary answer from the text.
func TestAskPaperDetails(t *testing.T) {
	ctx := context.Background()
	l, path, info := glyphsLibrary(t)
	if _, err := l.EditPaper(ctx, path, map[string]string{store.FieldAuthors: "Ada Lovelace; Charles Babbage", store.FieldYear: "2021"}); err != nil {
		t.Fatal(err)
	}
	ask := func(q string, scope []int64) *papertree.Answer {
		t.Helper()
		a, err := l.Ask(ctx, AskRequest{Question: q, PaperIDs: scope, NoHistory: true})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, tc := range []struct {
		name, q   string
		scope     []int64
		mode      string
		wantParts []string
	}{
		{"who wrote this paper", "Who wrote this paper?", []int64{info.ID}, papertree.ModeDetails,
			[]string{"“Recovering Paper Structure from Glyphs” (2021) is by Ada Lovelace and Charles Babbage.", "(As you corrected it.)"}},
		{"year", "In what year was this paper published?", []int64{info.ID}, papertree.ModeDetails,
			[]string{"is from 2021."}},
		{"library-wide, named by its title", "Who are the authors of the paper on recovering paper structure from glyphs?", nil, papertree.ModeDetails,
			[]string{"Ada Lovelace and Charles Babbage"}},
		{"no venue in its details", "Where was this paper published?", []int64{info.ID}, "extractive", nil},
		// Library-wide, naming no paper: no details are stated; the
		// papers the closest passages come from are named instead.
		{"library-wide, naming no paper", "Who wrote the paper?", nil, "extractive",
			[]string{"does not name one paper", "The closest passages below come from “Recovering Paper Structure from Glyphs”"}},
		{"what the paper says", "How are glyphs grouped into words?", []int64{info.ID}, "extractive", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := ask(tc.q, tc.scope)
			if a.Mode != tc.mode {
				t.Fatalf("mode %q, want %q (answer %q)", a.Mode, tc.mode, a.Text)
			}
			for _, w := range tc.wantParts {
				if !strings.Contains(a.Text, w) {
					t.Errorf("answer %q lacks %q", a.Text, w)
				}
			}
			if tc.mode != papertree.ModeDetails {
				return
			}
			// The evidence is the paper's front matter, where its title
			// and authors are printed.
			if len(a.Evidence) == 0 || a.Evidence[0].PaperID != info.ID || a.Evidence[0].Role != papertree.RoleFrontMatter {
				t.Errorf("evidence %+v, want the front matter of paper %d", a.Evidence, info.ID)
			}
		})
	}
	// The reply naming no paper offers the papers of its closest passages
	// to ask the question of (the app's "Ask it of" buttons); asked of the
	// one offered, the same question is answered from its details.
	a := ask("Who wrote the paper?", nil)
	if len(a.Diag.AskOf) != 1 || a.Diag.AskOf[0].ID != info.ID || a.Diag.AskOf[0].Title != "Recovering Paper Structure from Glyphs" {
		t.Fatalf("ask of %+v, want the glyphs paper (%d)", a.Diag.AskOf, info.ID)
	}
	if b := ask(a.Question, []int64{a.Diag.AskOf[0].ID}); b.Mode != papertree.ModeDetails || len(b.Diag.AskOf) != 0 {
		t.Errorf("asked of the paper offered: %s answer %q, ask of %+v", b.Mode, b.Text, b.Diag.AskOf)
	}
}

// Details imported from BibTeX answer with their source; a correction of
// one field wins over the record for that field only.
func TestAskPaperDetailsFromBibTeX(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "glyphs.pdf")
	copyFixture(t, "twocolumn.pdf", path)
	bib := filepath.Join(dir, "refs.bib")
	if err := os.WriteFile(bib, []byte("@inproceedings{good2024,\n title = {Recovering Paper Structure from Glyphs},\n author = {Smith, Ann and Müller, Jo},\n booktitle = {Proc. of ACL},\n year = 2024,\n file = {:glyphs.pdf:PDF}\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := openLib(t, nil)
	if _, err := l.ImportBibTeX(ctx, bib, nil); err != nil {
		t.Fatal(err)
	}
	info, err := l.ResolvePaper(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.EditPaper(ctx, path, map[string]string{store.FieldYear: "2023"}); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"Who are the authors?":                 "is by Ann Smith and Jo Müller. (From BibTeX.)",
		"Where was this paper published?":      "appeared in Proc. of ACL (2023). (From BibTeX.)",
		"When was this paper first published?": "is from 2023. (As you corrected it.)",
	} {
		a, err := l.Ask(ctx, AskRequest{Question: q, PaperIDs: []int64{info.ID}, NoHistory: true})
		if err != nil {
			t.Fatal(err)
		}
		if a.Mode != papertree.ModeDetails || !strings.Contains(a.Text, want) {
			t.Errorf("%s: %s answer %q, want one holding %q", q, a.Mode, a.Text, want)
		}
	}
}

// Where a paper appeared, in the words its venue line allows.
func TestVenueSentence(t *testing.T) {
	for _, tc := range []struct {
		name, venue string
		year        int
		want        string
	}{
		{"venue and year", "Proc. of ACL", 2023, "“T” appeared in Proc. of ACL (2023)."},
		{"year in the venue line", "35th Conference on Neural Information Processing Systems (NeurIPS 2021)", 2021,
			"“T” appeared in 35th Conference on Neural Information Processing Systems (NeurIPS 2021)."},
		{"under review", "Automated Knowledge Base Construction (2019) Under review", 2019,
			"“T” was under review at Automated Knowledge Base Construction (2019)."},
		{"submitted to", "Submitted to the Journal of Machine Learning Research", 2020,
			"“T” was under review at the Journal of Machine Learning Research (2020)."},
		{"to appear", "To appear in Proceedings of ICML", 2019, "“T” was to appear in Proceedings of ICML (2019)."},
		{"status only", "Under review", 2019, "“T” was under review in 2019."},
		{"no year", "Cognition", 0, "“T” appeared in Cognition."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := venueSentence("T", tc.venue, tc.year); got != tc.want {
				t.Errorf("venueSentence(%q, %d) = %q, want %q", tc.venue, tc.year, got, tc.want)
			}
		})
	}
}
