package retrieve

import "testing"

// Word families: derivations of one root are one family, words that merely
// share letters are not.
func TestRelated(t *testing.T) {
	same := [][2]string{
		{"decompose", "decomposition"}, {"represent", "representation"}, {"reduce", "reduction"},
		{"assume", "assumption"}, {"compare", "comparison"}, {"decide", "decision"},
		{"describe", "description"}, {"receive", "reception"}, {"solve", "solution"},
		{"lose", "loss"}, {"prove", "proof"}, {"fail", "failure"}, {"compute", "computationally"},
		{"detection", "detector"}, {"predict", "predictor"},
	}
	for _, p := range same {
		if !Related(familyRoot(p[0]), familyRoot(p[1])) {
			t.Errorf("%s and %s are one family", p[0], p[1])
		}
	}
	apart := [][2]string{
		{"form", "format"}, {"count", "country"}, {"class", "classic"}, {"prove", "provide"},
		{"decide", "decimal"}, {"state", "statistic"}, {"use", "user"}, {"train", "trait"},
		{"found", "foundation"}, {"cover", "covert"}, {"success", "successor"},
	}
	for _, p := range apart {
		if Related(familyRoot(p[0]), familyRoot(p[1])) {
			t.Errorf("%s and %s are not one family", p[0], p[1])
		}
	}
}
