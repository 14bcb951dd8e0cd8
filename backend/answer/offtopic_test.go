package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

// A library-wide question's focus word that the papers matching best never
// print refuses their passage only when it may name what they lack: some
// paper dwells on it, or the library prints it near what the question is
// about. A word the library prints only in passing and never near the
// topic ("the main caveat") is how the question is put: the passage of the
// paper that prints the topic is quoted. Asked of chosen papers, or with
// an index that cannot tell, the claim stands as before.
func TestFramingWordDoesNotRefuse(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := []papertree.Evidence{{PaperID: 1, Kind: papertree.KindSegment, Score: 0.7,
		Text: "The main limitation is that the impact of DNA input level on methylation may well be different for differing sample types."}}
	q := "What is the main caveat of low DNA input for methylation arrays?"
	stem := func(w string) string { return embedding.QueryTerms(w)[0] }
	uses := []retrieve.TermUse{{Stem: stem("methylation"), Body: 4, IDF: 9}, {Stem: stem("caveat"), Body: 0, IDF: 8, Focus: true},
		{Stem: stem("arrays"), Body: 2, IDF: 6}, {Stem: stem("dna"), Body: 6, IDF: 5}, {Stem: stem("input"), Body: 6, IDF: 3}}
	idx := map[string][]int64{"caveat": {2}, "methylation": {1}, "dna": {1, 3}, "arrays": {1, 2}, "input": {1, 2, 3}, "low": {1, 2, 3}}
	dwell := map[string]int{"caveat": 1}
	var nearTopic bool
	base := func() Input {
		return Input{Question: q, Evidence: ev, Terms: 5, Uses: uses, Claims: Claims{Holders: holders(idx), Searched: []int64{1},
			Dwell: func(w string) (int, bool) { return dwell[strings.ToLower(w)], true },
			TogetherPrinted: func(a, b string) (bool, bool) {
				return nearTopic && strings.EqualFold(a, "caveat") && strings.EqualFold(b, "methylation"), true
			}}}
	}
	compose := func(in Input) Output {
		t.Helper()
		out, err := Compose(context.Background(), emb, in, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if out := compose(base()); out.NotFound {
		t.Errorf("a word printed once, never near the topic, refused the passage: %s", out.Text)
	}
	dwell["caveat"] = 5
	if out := compose(base()); !out.NotFound || !strings.Contains(out.Text, "caveat") {
		t.Errorf("a word a paper dwells on must still refuse: %s", out.Text)
	}
	dwell["caveat"] = 1
	nearTopic = true
	if out := compose(base()); !out.NotFound {
		t.Errorf("a word printed near the topic elsewhere must still refuse: %s", out.Text)
	}
	nearTopic = false
	in := base()
	in.Claims.Dwell = func(string) (int, bool) { return 0, false }
	if out := compose(in); !out.NotFound {
		t.Errorf("an index that cannot tell must not lift the refusal: %s", out.Text)
	}
	in = base()
	in.Evidence = []papertree.Evidence{{PaperID: 3, Kind: papertree.KindSegment, Score: 0.7,
		Text: "The main limitation is that the impact of DNA input level may well be different for differing sample types."}}
	in.Claims.Searched = []int64{3}
	if out := compose(in); !out.NotFound {
		t.Errorf("a passage from a paper that never prints the topic (methylation) must not be quoted as the answer: %s", out.Text)
	}
	in = base()
	in.Scoped, in.Claims.Scope, in.Claims.Searched = true, []int64{1}, nil
	if out := compose(in); !out.NotFound {
		t.Errorf("asked of a chosen paper, its never printing the word asked about still refuses: %s", out.Text)
	}
}
