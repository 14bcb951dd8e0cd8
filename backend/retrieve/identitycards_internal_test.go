package retrieve

import (
	"context"
	"reflect"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

func cardPaper(title string, authors []string, abstract string, withAbstractSection bool) *papertree.Paper {
	seg := func(role papertree.Role, text string) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSegment, Role: role, Text: text, Tokens: papertree.CountTokens(text)}
	}
	root := &papertree.Node{Kind: papertree.KindRoot, Title: title, Children: []*papertree.Node{
		seg(papertree.RoleFrontMatter, "Jeffrey PENNINGTON Richard Socher Christopher D. Manning Computer Science Department Stanford University"),
	}}
	if withAbstractSection {
		root.Children = append(root.Children, &papertree.Node{Kind: papertree.KindSection, Title: "Abstract", Role: papertree.RoleAbstract,
			Children: []*papertree.Node{seg("", "We present GloVe, a log-bilinear model trained on WebText counts."), seg("", "It beats word2vec.")}})
	}
	root.Children = append(root.Children, &papertree.Node{Kind: papertree.KindSection, Title: "1 Introduction",
		Children: []*papertree.Node{seg("", "Body text about vectors.")}})
	return &papertree.Paper{Title: title, Authors: authors, Abstract: abstract, Year: 2014, Path: "/" + title + ".pdf", Pages: 1, Root: root}
}

// Paper identification reads the same card whether it is built from the
// loaded paper or from the store's identity rows, so the method does not
// change with the library's size.
func TestIdentityCardsMatchLoadedCards(t *testing.T) {
	ix, _ := storeIndexWith(t,
		cardPaper("GloVe: Global Vectors for Word Representation", []string{"Jeffrey Pennington", "Richard Socher"}, "", true),
		cardPaper("THE PERCEPTRON: A PROBABILISTIC MODEL", nil, "", false),
		cardPaper("Stored Abstract Paper", nil, "A stored abstract naming XGBoost.", true),
	)
	compareCards(t, ix)
}

func compareCards(t *testing.T, ix *StoreIndex) {
	t.Helper()
	ctx := context.Background()
	all, err := ix.ReadyPapers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cards := ix.identityCards(ctx, all).cards
	if len(cards) != len(all) {
		t.Fatalf("%d cards for %d papers", len(cards), len(all))
	}
	for _, c := range cards {
		d, err := ix.Paper(ctx, c.id)
		if err != nil {
			t.Fatal(err)
		}
		if want := cardOf(d); !reflect.DeepEqual(c, want) {
			t.Errorf("paper %d: card from the store\n%+v\nwant the loaded paper's\n%+v", c.id, c, want)
		}
	}
}
