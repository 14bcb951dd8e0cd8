package retrieve

import (
	"context"
	"slices"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	querypkg "github.com/papertree/papertree/backend/query"
	"github.com/papertree/papertree/backend/store"
)

// A name no paper prints ("AlexNet", "ResNet") names the paper the
// library's own citations give it: a numbered citation through the citing
// paper's reference entry, an author-year one through first author and
// year; a name whose citations disagree, or that is never cited, names
// none.
func TestNicknamesFromCitations(t *testing.T) {
	seg := func(text string) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSegment, Text: text, Tokens: papertree.CountTokens(text)}
	}
	paper := func(title, author string, year int, body string, refs ...string) *papertree.Paper {
		kids := []*papertree.Node{{Kind: papertree.KindSection, Title: "1 Method", Children: []*papertree.Node{seg(body)}}}
		if len(refs) > 0 {
			ref := &papertree.Node{Kind: papertree.KindSection, Title: "References", Role: papertree.RoleReferences}
			for _, r := range refs {
				ref.Children = append(ref.Children, seg(r))
			}
			kids = append(kids, ref)
		}
		root := &papertree.Node{Kind: papertree.KindRoot, Title: title, Children: kids}
		return &papertree.Paper{Title: title, Authors: []string{author}, Year: year, Pages: 1, Root: root}
	}
	papers := []*papertree.Paper{
		paper("ImageNet Classification with Deep Convolutional Neural Networks", "Alex Krizhevsky", 2012,
			"We trained a large, deep convolutional neural network with dropout in the fully connected layers."),
		paper("Deep Residual Learning for Image Recognition", "Kaiming He", 2016,
			"We present a residual learning framework to ease the training of very deep networks."),
		paper("Aggregated Residual Transformations for Deep Neural Networks", "Saining Xie", 2017,
			"The idea goes back to the AlexNet paper [24], if not earlier. Unlike ResNet (He et al., 2016), our blocks aggregate paths.",
			"[23] A. Other. A study of something else. In CVPR, 2015.",
			"[24] A. Krizhevsky, I. Sutskever, and G. Hinton. Imagenet classification with deep convolutional neural networks. In NIPS, 2012."),
		paper("Grouped Convolutions Revisited", "Ann Smith", 2020,
			"LeNet [3] is small. LeNet (He et al., 2016) is cited wrongly here.",
			"[3] A. Krizhevsky, I. Sutskever, and G. Hinton. Imagenet classification with deep convolutional neural networks. In NIPS, 2012."),
	}
	six, ids := storeIndexWith(t, papers...)
	// The store's index reads the citing passages without loading their
	// papers (nodeTexter) and builds the cards once (cardSource); an index
	// that offers neither loads the papers: both must agree.
	for _, ix := range []struct {
		name string
		Index
	}{{"store", six}, {"papers loaded", struct{ Index }{six}}} {
		t.Run(ix.name, func(t *testing.T) { nicknameCases(t, ix.Index, ids) })
	}
	// A card set remembers each word's resolution for its library state:
	// the second question asking by the same name searches nothing.
	ctx := context.Background()
	set := newCardSet(six.identityCards(ctx, ids).cards) // a new library state
	count := &countingIndex{Index: six}
	q := querypkg.Parse("In the AlexNet paper, was dropout used?")
	for i := range 2 {
		if got := nicknames(ctx, count, q, set, false)["alexnet"]; got != ids[0] {
			t.Errorf("ask %d: alexnet names paper %d, want %d", i+1, got, ids[0])
		}
	}
	if count.searches != 1 {
		t.Errorf("%d full-text searches for two questions by the same name, want 1", count.searches)
	}
}

// countingIndex counts full-text searches.
type countingIndex struct {
	Index
	searches int
}

func (c *countingIndex) SearchText(ctx context.Context, q string, ids []int64, limit int) ([]store.Hit, error) {
	c.searches++
	return c.Index.SearchText(ctx, q, ids, limit)
}

func nicknameCases(t *testing.T, ix Index, ids []int64) {
	ctx := context.Background()
	var cards []*card
	for _, id := range ids {
		d, err := ix.Paper(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		cards = append(cards, cardOf(d))
	}
	set := newCardSet(cards)
	for _, tc := range []struct {
		name, q string
		word    string
		want    int64
	}{
		{"numbered citation", "In the AlexNet paper, was dropout used?", "alexnet", ids[0]},
		{"author-year citation", "How deep are the networks of the ResNet paper?", "resnet", ids[1]},
		{"citations that disagree", "What does the LeNet paper propose?", "lenet", 0},
		{"never cited", "What does the VGG paper propose?", "vgg", 0},
		// A name typed alone ("AlexNet", not "the AlexNet paper") names
		// its paper too when the question names no paper otherwise.
		{"bare name", "Was dropout used in AlexNet?", "alexnet", ids[0]},
		{"bare name, author-year citation", "How deep is ResNet?", "resnet", ids[1]},
		{"bare name, citations that disagree", "What does LeNet propose?", "lenet", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := querypkg.Parse(tc.q)
			if !q.Refs[tc.word] && !slices.Contains(q.Names, map[string]string{"alexnet": "AlexNet", "resnet": "ResNet", "lenet": "LeNet"}[tc.word]) {
				t.Fatalf("%q does not refer to a paper by %q: %v %v", tc.q, tc.word, q.Refs, q.Names)
			}
			if got := nicknames(ctx, ix, q, set, true)[tc.word]; got != tc.want {
				t.Errorf("%s names paper %d, want %d", tc.word, got, tc.want)
			}
			_, named, nick := identify(ctx, ix, q, ids)
			if tc.want != 0 && named != tc.want {
				t.Errorf("identify named %d, want %d", named, tc.want)
			}
			// The paper never prints its nickname: the name is not a word
			// the paper must hold to be searched alone.
			if tc.want != 0 && !holdsQuestion(ctx, ix, named, q, nick) {
				t.Errorf("paper %d does not hold %q once %v name it", named, tc.q, nick)
			}
		})
	}
}
