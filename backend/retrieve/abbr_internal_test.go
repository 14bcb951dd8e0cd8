package retrieve

import (
	"reflect"
	"testing"

	"github.com/papertree/papertree/backend/query"
)

// A question that says "interquartile range" finds the sentence that says
// "IQR" in the paper that defines it, in the sentence keyword signal and
// the best-sentence score; a paper that does not define it gains nothing.
func TestAbbreviationIsTheSameTerm(t *testing.T) {
	texts := []string{
		"We summarise the spread of each variable by its interquartile range (IQR) and its standard deviation.",
		"Values in the top quarter can be moved any distance without affecting the IQR at all.",
		"The standard deviation changes when a single value moves.",
		"Histograms show the shape of each distribution.",
	}
	q := query.Parse("Why is the interquartile range robust to moved values?")
	d, leaves := kwPaper(texts...)
	if got, want := abbreviations(d), [][2][]string{{{"iqr"}, {"interquartil", "rang"}}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("abbreviations = %v, want %v", got, want)
	}
	same := q.Same(abbreviations(d))
	_, plain := newSentKeyword(d, q, leaves)
	_, both := newSentKeyword(d, same, leaves)
	if both[leaves[1]] <= plain[leaves[1]] {
		t.Errorf("sentence keyword of the IQR sentence: %.3f with the short form, %.3f without; want higher", both[leaves[1]], plain[leaves[1]])
	}
	if b, p := bestSentence(d, same, nil)[leaves[1]], bestSentence(d, q, nil)[leaves[1]]; b <= p {
		t.Errorf("best sentence of the IQR passage: %.3f with the short form, %.3f without; want higher", b, p)
	}

	other, _ := kwPaper("Values in the top quarter can be moved without affecting the IQR at all.", texts[2])
	if got := q.Same(abbreviations(other)); got != q {
		t.Errorf("a paper that defines no abbreviation changed the question: %+v", got.Forms)
	}
}
