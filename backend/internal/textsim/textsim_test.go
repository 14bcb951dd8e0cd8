package textsim

import (
	"math"
	"testing"
)

// Reference values computed with CPython's difflib.SequenceMatcher(None, a, b).ratio().
const (
	randS = "beacaddddbadaddeadcbeacaaaeadbdaebddebcbbdcadeabcacedebccededeadbddbcecadeabedcdadaceeedbbebabeebdececdceeadebeebdadceebeddcdcaeeeecdeabbeebaecaaaadacbcaebccabbcebccdcddaacdcdbcacebedabadbabdedebedbeadecdacbbacaaccbdecbaeaebedbeeadbcabedebdadcedacedc"
	randT = "abbcebcdbcadecedebaaabbbebcceeccccacbedbeeacadadbbcaeedaeebeaccceeadcaacaeaadaabbedbadbbbaddececdcabcaaacecddcdaacedacbeedccbebcbbcacadaecbdcacbcecbcaeeeeabbabdaceaaaaccddbaecaebbbbccaeecbbbeaceebbcdebabcaddecededadcbcdadeaacebebb"
)

func TestRatioMatchesDifflib(t *testing.T) {
	cases := []struct {
		name string
		a, b string
		want float64
	}{
		{"equal", "introduction", "introduction", 1.0},
		{"one insertion", "relatedwork", "relatedworks", 0.9565217391304348},
		{"one deletion", "32trainingdetails", "32trainingdetail", 0.9696969696969697},
		{"one side empty", "abc", "", 0.0},
		{"both empty", "", "", 1.0},
		{"long prefix (autojunk active, still matches)", randS[:230], randS, 0.9583333333333334},
		{"long random (autojunk removes every seed)", randT, randS, 0.0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Ratio([]rune(c.a), []rune(c.b))
			if math.Abs(got-c.want) > 1e-12 {
				t.Fatalf("ratio(%q.., %q..) = %v, want %v", c.a[:min(len(c.a), 12)], c.b[:min(len(c.b), 12)], got, c.want)
			}
		})
	}
}
