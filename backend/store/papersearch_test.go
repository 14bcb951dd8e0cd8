package store

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// searchPaper is a small paper with a title, authors and section texts.
func searchPaper(path, title string, authors []string, sections map[string]string) *papertree.Paper {
	root := &papertree.Node{Kind: papertree.KindRoot, Title: title, PageStart: 1, PageEnd: 2}
	i := 0
	for _, head := range []string{"1 Introduction", "2 Method", "3 Experiments", "3.2 Setup", "References"} {
		text, ok := sections[head]
		if !ok {
			continue
		}
		i++
		sec := &papertree.Node{Kind: papertree.KindSection, Title: head, Level: 1, PageStart: i, PageEnd: i}
		if head == "References" {
			sec.Role = papertree.RoleReferences
		}
		sec.Children = []*papertree.Node{{Kind: papertree.KindSegment, Level: 2, Text: text, PageStart: i, PageEnd: i}}
		if head == "3.2 Setup" && len(root.Children) > 0 {
			sec.Level = 2
			sec.Children[0].Level = 3
			parent := root.Children[len(root.Children)-1]
			parent.Children = append(parent.Children, sec)
			continue
		}
		root.Children = append(root.Children, sec)
	}
	root.Renumber()
	return &papertree.Paper{Path: path, Hash: strings.Repeat("a", 64), Title: title, Authors: authors, Pages: 2,
		PageSizes: []papertree.Size{{W: 612, H: 792}, {W: 612, H: 792}}, Root: root}
}

func TestSearchPapers(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	filler := "We describe the data and the model and report the results of the evaluation on the test set."
	papers := []*papertree.Paper{
		searchPaper("/lib/gravity.pdf", "Internal model of gravity in body perception", []string{"Julien Barra"}, map[string]string{
			"1 Introduction": "Observers judge bodies seen upside down. " + filler,
			"2 Method":       "Participants saw the body inversion stimuli on a tilted screen. " + filler,
		}),
		searchPaper("/lib/kernel.pdf", "Protecting operating system kernels", []string{"Atri Bhattacharyya", "Mathias Payer"}, map[string]string{
			"1 Introduction": "Double-fetch bugs read user memory twice. " + filler,
			"3 Experiments":  filler,
			"3.2 Setup":      "We measured the overhead of double fetch protection on the kernel with the LMBench suite. " + filler,
		}),
		searchPaper("/lib/lmbench.pdf", "Benchmarks for the kernel", []string{"Larry McVoy"}, map[string]string{
			"1 Introduction": "LMBench measures system calls and memory. " + filler,
		}),
		searchPaper("/lib/ads.pdf", "Online ad auctions", []string{"Hal Varian"}, map[string]string{
			"1 Introduction": "The generalized second price auction ranks bids. " + filler,
		}),
		searchPaper("/lib/mechanisms.pdf", "Mechanism design notes", []string{"Noam Nisan"}, map[string]string{
			"2 Method":   "Sponsored search slots are sold by an auction among advertisers. " + filler,
			"References": "Edelman, Ostrovsky, Schwarz. Internet advertising and the generalized second price auction: selling billions of dollars worth of keywords. 2007.",
		}),
	}
	for _, p := range papers {
		if _, err := s.SavePaper(ctx, p, Vectors{}, ""); err != nil {
			t.Fatal(err)
		}
	}
	// The reference manager knows an author the PDF's byline lost.
	if _, err := s.PutRefs(ctx, []RefMeta{{Path: "/lib/gravity.pdf", Source: SourceZotero, Title: "Internal model of gravity in body perception",
		Authors: []string{"Julien Barra", "Laurent Auclair"}}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		query     string
		first     string // file of the first result; "" = no result
		path      string // section path of the first result's node, " > " joined
		mark      string // a word the snippet must mark
		titleHit  bool
		authorHit bool
	}{
		{"topic words in the text", "double fetch protection overhead", "/lib/kernel.pdf", "3 Experiments > 3.2 Setup", "fetch", true, false},
		{"author surname", "Varian", "/lib/ads.pdf", "", "Varian", false, true},
		{"title word beats a passing mention", "kernel benchmarks", "/lib/lmbench.pdf", "", "kernel", true, false},
		{"method in one paper", "body inversion", "/lib/gravity.pdf", "2 Method", "inversion", true, false},
		{"stemmed plural", "auctions bids", "/lib/ads.pdf", "1 Introduction", "bids", true, false},
		{"a reference list is the last place to quote", "sponsored advertisers generalized keywords", "/lib/mechanisms.pdf", "2 Method", "advertisers", false, false},
		{"author known only to the reference manager", "Auclair", "/lib/gravity.pdf", "", "", false, true},
		{"nothing matches", "zebrafish", "", "", "", false, false},
		{"hostile syntax", `NEAR( "* -^`, "", "", "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.SearchPapers(ctx, tt.query, 10)
			if err != nil {
				t.Fatal(err)
			}
			if tt.first == "" {
				if len(got) != 0 {
					t.Fatalf("got %d results, want none", len(got))
				}
				return
			}
			if len(got) == 0 {
				t.Fatal("no results")
			}
			for i := 1; i < len(got); i++ {
				if got[i].Score > got[i-1].Score {
					t.Fatalf("results not best first: %v", got)
				}
			}
			info, err := s.PaperByID(ctx, got[0].PaperID)
			if err != nil {
				t.Fatal(err)
			}
			if info.Path != tt.first {
				t.Fatalf("first = %s, want %s (%+v)", info.Path, tt.first, got)
			}
			if got[0].TitleHit != tt.titleHit || got[0].AuthorHit != tt.authorHit {
				t.Errorf("title/author hit = %v/%v, want %v/%v", got[0].TitleHit, got[0].AuthorHit, tt.titleHit, tt.authorHit)
			}
			if tt.path != "" {
				path, err := s.NodePath(ctx, got[0].NodeID)
				if err != nil {
					t.Fatal(err)
				}
				var secs []string
				for _, n := range path {
					if n.Kind == papertree.KindSection {
						secs = append(secs, n.Title)
					}
				}
				if p := strings.Join(secs, " > "); p != tt.path {
					t.Errorf("path = %q, want %q", p, tt.path)
				}
			}
		})
	}
}

func TestSnippet(t *testing.T) {
	long := strings.Repeat("filler words here ", 30) + "the Double-Fetch\nbugs appear\tin kernels " + strings.Repeat("more filler ", 30)
	tests := []struct {
		name     string
		text     string
		query    string
		marked   []string
		ellipsis bool   // cut at both ends
		plain    string // whole plain text, when short
	}{
		{"short text marked", "Double fetch bugs in the kernel.", "kernel fetch", []string{"fetch", "kernel"}, false, "Double fetch bugs in the kernel."},
		{"stems match", "The auctions ranked bids.", "auction bid", []string{"auctions", "bids"}, false, "The auctions ranked bids."},
		{"window around the matches, white space collapsed", long, "double fetch bugs kernel", []string{"Double", "Fetch", "bugs", "kernels"}, true, ""},
		{"markup is text", "<b>attention</b> &amp; <script>x</script>", "attention script", []string{"attention", "script", "script"}, false, "<b>attention</b> &amp; <script>x</script>"},
		{"no match keeps the start", "Nothing here matches at all.", "zebra", nil, false, "Nothing here matches at all."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts := Snippet(tt.text, tt.query, 12)
			var marked []string
			for _, p := range parts {
				if p.Mark {
					marked = append(marked, p.Text)
				}
				if strings.ContainsAny(p.Text, "\n\t") {
					t.Errorf("part %q keeps a line break or tab", p.Text)
				}
			}
			if strings.Join(marked, "|") != strings.Join(tt.marked, "|") {
				t.Errorf("marked %q, want %q", marked, tt.marked)
			}
			text := SnippetText(parts)
			if tt.ellipsis != (strings.HasPrefix(text, "…") && strings.HasSuffix(text, "…")) {
				t.Errorf("ellipsis: %q", text)
			}
			if tt.plain != "" && text != tt.plain {
				t.Errorf("text = %q, want %q", text, tt.plain)
			}
		})
	}
}
