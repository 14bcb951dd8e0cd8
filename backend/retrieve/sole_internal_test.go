package retrieve

import (
	"math"
	"testing"

	querypkg "github.com/papertree/papertree/backend/query"
)

func solePaper(id int64, texts ...string) *PaperData {
	d, _ := kwPaper(texts...)
	d.Paper.ID = id
	return d
}

// The paper that alone prints a question term leads the merged evidence,
// its passages lifted as a block; when two papers each alone print a
// term, nothing is lifted.
func TestSoleHolderLeadsMerge(t *testing.T) {
	q := querypkg.Parse("Which optimizer did the capsule network paper use?")
	caps := solePaper(1, "Capsule layers are routed by agreement.", "We use the Adam optimizer to train the network.")
	other := solePaper(2, "Optimization issues: the network is trained with an optimizer such as SGD.")
	third := solePaper(3, "Batch normalization lets a network use higher learning rates.")
	ds := []*PaperData{caps, other, third}
	qs := []*querypkg.Question{q, q, q}
	if got := soleHolder(ds, qs); got != caps {
		t.Fatalf("soleHolder = %v, want the capsule paper", got)
	}
	all := []cand{
		{d: caps, o: 2, S: 0.90, rel: 0.5, score: 0.90},
		{d: caps, o: 3, S: 0.70, rel: 0.3, score: 0.70},
		{d: other, o: 2, S: 1.04, rel: 0.9, score: 1.04},
	}
	all = liftSoleHolder(all, caps)
	if !(all[0].S > all[2].S) || math.Abs(all[0].S-all[1].S-0.20) > 1e-9 || all[2].S != 1.04 {
		t.Errorf("lift: %+v", all)
	}
	if all[0].score != all[0].S {
		t.Errorf("reported score %v, want the lifted %v", all[0].score, all[0].S)
	}
	// "batch" is printed by paper 3 alone: two papers each alone print a
	// question term, and the signal is ambiguous.
	q2 := querypkg.Parse("Which optimizer did the capsule network paper use with batch normalization?")
	if got := soleHolder(ds, []*querypkg.Question{q2, q2, q2}); got != nil {
		t.Errorf("two papers each alone print a term: soleHolder = paper %d, want none", got.Paper.ID)
	}
	if got := soleHolder(ds[:1], qs[:1]); got != nil {
		t.Errorf("one paper: soleHolder = paper %d, want none", got.Paper.ID)
	}
}
