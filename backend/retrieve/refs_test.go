package retrieve_test

import (
	"context"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

// TestNoStrategyCitesReferenceLists: a bibliography entry holds the words
// of the paper it cites; only a question about citations may quote it.
func TestNoStrategyCitesReferenceLists(t *testing.T) {
	refs := sec("References",
		seg("I. Sutskever, O. Vinyals, Q. Le. 2014. Sequence to sequence learning with neural networks. In NIPS."),
		seg("D. Bahdanau, K. Cho, Y. Bengio. 2015. Neural machine translation by jointly learning to align and translate. In ICLR."))
	refs.Role = papertree.RoleReferences
	p := &papertree.Paper{Title: "Sentence Sentiment with Convolutions", Path: "/s.pdf", Pages: 3, Root: &papertree.Node{Kind: papertree.KindRoot, Title: "Sentence Sentiment with Convolutions", Children: []*papertree.Node{
		sec("1 Introduction", seg("We classify the sentiment of movie reviews with a convolutional network over word vectors.")),
		sec("2 Model", seg("A convolution layer with max pooling feeds a softmax over two sentiment classes.")),
		refs,
	}}}
	ix, ids := setup(t, p)
	for _, name := range []string{"auto", "naive", "pt-rag", "fable", "structrag", "rdr2", "disretrieval"} {
		for _, tc := range []struct {
			name, q  string
			wantRefs bool
		}{
			{"topic question", "How does sequence to sequence learning with neural networks translate sentences?", false},
			{"citation question", "Which works on neural machine translation does the paper cite?", true},
		} {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				s, err := retrieve.Get(name)
				if err != nil {
					t.Fatal(err)
				}
				res, err := s.Retrieve(context.Background(), ix, retrieve.Request{Query: tc.q, PaperIDs: ids, Budget: 400})
				if err != nil {
					t.Fatal(err)
				}
				got := false
				for _, e := range res.Evidence {
					for _, h := range e.Path {
						if h == "References" {
							got = true
						}
					}
				}
				if got && !tc.wantRefs {
					t.Errorf("%s cites the reference list: %+v", name, res.Evidence)
				}
			})
		}
	}
}
