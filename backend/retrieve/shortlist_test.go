package retrieve_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/store"
)

// recordingIndex records the papers each keyword search is scoped to.
type recordingIndex struct {
	retrieve.Index
	scopes []int
}

func (r *recordingIndex) SearchText(ctx context.Context, q string, ids []int64, limit int) ([]store.Hit, error) {
	r.scopes = append(r.scopes, len(ids))
	return r.Index.SearchText(ctx, q, ids, limit)
}

// In a large library a word many titles share ("attention") partly names
// many papers; only the best few of them join the paper-vector shortlist,
// so the keyword search stays on a short list (at 20,800 papers the whole
// match set cost 220 ms a question).
func TestShortlistBoundsPartlyNamedPapers(t *testing.T) {
	papers := methodPapers(60, func(i int) (string, string) {
		return fmt.Sprintf("Attention Networks for Task %d", i),
			fmt.Sprintf("We study task %d with an attention network trained on corpus %d and report accuracy.", i, i)
	})
	ix, _ := setup(t, papers...)
	rec := &recordingIndex{Index: ix}
	strat, _ := retrieve.Get(retrieve.Default)
	res, err := strat.Retrieve(context.Background(), rec, retrieve.Request{Query: "Which corpus do the attention networks use?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Evidence) == 0 {
		t.Fatal("no evidence")
	}
	if len(rec.scopes) == 0 || rec.scopes[0] == 0 || rec.scopes[0] > 40 {
		t.Fatalf("keyword search scoped to %v papers, want a shortlist of 1-40", rec.scopes)
	}
}

// A paper whose text has no sections (a book chapter, a scan, slides:
// every passage sits under the root) has no section vector; its whole-paper
// vector stands for it among the library-wide candidates. Before, such a
// paper ranked on its keyword score alone and never reached the papers
// searched in depth, however well it matched.
func TestLibraryWideScopeKeepsSectionlessPaper(t *testing.T) {
	// 40 others: the paper vectors shortlist; 12: they score every paper.
	for _, others := range []int{40, 12} {
		t.Run(fmt.Sprint(others), func(t *testing.T) { sectionlessPaperAmong(t, others) })
	}
}

func sectionlessPaperAmong(t *testing.T, others int) {
	papers := methodPapers(others, func(i int) (string, string) {
		return fmt.Sprintf("Data Analysis Study %d", i),
			fmt.Sprintf("We analyse the data of study %d with a histogram of the sample and report the mean and standard deviation of each variable.", i)
	})
	text := "When a sample has positive kurtosis, the shape of the histogram is peaked in the middle, but with fatter tails than a Gaussian with the same variance."
	chapter := &papertree.Paper{Title: "Chapter 4", Path: "/chapter.pdf", Pages: 1, Root: &papertree.Node{Kind: papertree.KindRoot, Title: "Chapter 4",
		Children: []*papertree.Node{{Kind: papertree.KindSegment, Text: text, Tokens: papertree.CountTokens(text)}}}}
	ix, ids := setup(t, append(papers, chapter)...)
	strat, _ := retrieve.Get(retrieve.Default)
	res, err := strat.Retrieve(context.Background(), ix, retrieve.Request{Query: "What does the histogram of a sample with positive kurtosis look like?", Budget: 200})
	if err != nil {
		t.Fatal(err)
	}
	best := -1
	for i, e := range res.Evidence {
		if best < 0 || e.Score > res.Evidence[best].Score {
			best = i
		}
	}
	if best < 0 || res.Evidence[best].PaperID != ids[len(ids)-1] {
		t.Fatalf("the best evidence is not from the sectionless paper that answers: %+v", res.Evidence)
	}
}

// A paper whose body sits under its root and holds much else (a short
// letter without headings, a book chapter) has a whole-paper vector
// diluted by everything it holds; its passage that answers the question
// stands for a section of its own, so the paper is searched in depth
// against papers whose section bodies only share the question's topic.
func TestLibraryWideScopeScoresRootPassages(t *testing.T) {
	// 40 others: the paper vectors shortlist; 12: they score every paper.
	for _, others := range []int{40, 12} {
		t.Run(fmt.Sprint(others), func(t *testing.T) { rootPassagePaperAmong(t, others) })
	}
}

func rootPassagePaperAmong(t *testing.T, others int) {
	papers := methodPapers(others, func(i int) (string, string) {
		return fmt.Sprintf("Autoencoder Study %d", i),
			fmt.Sprintf("In study %d we pretrain deep autoencoders with many hidden layers between the data and the code, one layer at a time.", i)
	})
	var leaves []*papertree.Node
	for _, s := range []string{
		"Glaciers carve valleys in the mountains over thousands of years, leaving moraines of gravel and boulders behind.",
		"The volcanic islands of the archipelago formed from basalt flows that cooled quickly in the sea.",
		"Sediment layers in the delta record the floods of each century in bands of silt and clay.",
		"Shallow autoencoders with a single hidden layer between the data and the code can learn without pretraining.",
		"Limestone caves form where rain water dissolves the rock along its cracks and joints.",
		"Earthquakes along the fault release the strain that the moving plates build up over decades.",
	} {
		leaves = append(leaves, &papertree.Node{Kind: papertree.KindSegment, Text: s, Tokens: papertree.CountTokens(s)})
	}
	letter := &papertree.Paper{Title: "Letters", Path: "/letter.pdf", Pages: 1, Root: &papertree.Node{Kind: papertree.KindRoot, Title: "Letters", Children: leaves}}
	ix, ids := setup(t, append(papers, letter)...)
	strat, _ := retrieve.Get(retrieve.Default)
	res, err := strat.Retrieve(context.Background(), ix, retrieve.Request{Query: "Can shallow autoencoders with a single hidden layer learn without pretraining?", Budget: 200})
	if err != nil {
		t.Fatal(err)
	}
	best := -1
	for i, e := range res.Evidence {
		if best < 0 || e.Score > res.Evidence[best].Score {
			best = i
		}
	}
	if best < 0 || res.Evidence[best].PaperID != ids[len(ids)-1] {
		t.Fatalf("the best evidence is not from the letter that answers under its root: %+v", res.Evidence)
	}
}

// methodPapers makes n papers of one section ("1 Method") holding one
// passage each; text gives paper i's title and passage.
func methodPapers(n int, text func(i int) (title, body string)) []*papertree.Paper {
	var papers []*papertree.Paper
	for i := 0; i < n; i++ {
		title, body := text(i)
		leaf := &papertree.Node{Kind: papertree.KindSegment, Text: body, Tokens: papertree.CountTokens(body)}
		papers = append(papers, &papertree.Paper{Title: title, Path: fmt.Sprintf("/p%d.pdf", i), Pages: 1, Root: &papertree.Node{
			Kind: papertree.KindRoot, Title: title, Children: []*papertree.Node{{Kind: papertree.KindSection, Title: "1 Method", Children: []*papertree.Node{leaf}}}}})
	}
	return papers
}
