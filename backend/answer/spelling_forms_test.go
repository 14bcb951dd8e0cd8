package answer

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// A word the library prints in another form is not said missing: the
// other spelling of its suffix (any question), or another gender, number
// or participle form of a French or Spanish question's word.
func TestClaimsHoldAnotherForm(t *testing.T) {
	printed := map[string][]int64{"factorization": {3}, "alguna": {5}, "estudio": {5}, "circulaires": {7}, "disjonctives": {7}}
	holders := func(w string) ([]int64, bool) { return printed[strings.ToLower(w)], true }
	for _, tc := range []struct {
		name, question, word string
		held                 bool
	}{
		{"British -isation, American printed", "Which factorisation does item2vec compare with?", "factorisation", true},
		{"Spanish apocope algún, alguna printed", "¿Qué cantones no tuvieron homicidios en algún año?", "algún", true},
		{"Spanish participle, its noun printed", "¿Qué periodo fue estudiado en el artículo?", "estudiado", true},
		{"French singular adjective, plural printed", "Quelle définition circulaire le mémoire a-t-il trouvée ?", "circulaire", true},
		{"French feminine adjective, plural printed", "Quelle définition disjonctive le mémoire a-t-il trouvée ?", "disjonctive", true},
		{"English question: Spanish word as typed only", "Which cantons had no homicide in algún year?", "algún", false},
		{"a word printed in no form", "¿Cuál fue la tasa de homicidios de Guayaquil?", "Guayaquil", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Claims{Holders: holders, german: embedding.GermanText(tc.question)}
			c.romance = !c.german && romanceText(tc.question)
			ids, ok := c.holders(tc.word)
			if !ok {
				t.Fatal("holders not ok")
			}
			if got := len(ids) > 0; got != tc.held {
				t.Errorf("holders(%q) for %q = %v, want held %v", tc.word, tc.question, ids, tc.held)
			}
		})
	}
}

// Compose does not say "never mentions factorisation" of a library that
// prints "factorization".
func TestBritishSpellingNotSaidMissing(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := []papertree.Evidence{{PaperID: 3, Kind: papertree.KindSegment, Score: 0.6,
		Text: "We present experimental results that demonstrate the effectiveness of the item2vec method and show it is competitive with SVD."}}
	printed := map[string][]int64{"factorization": {3}, "item2vec": {3}, "competitive": {3}}
	claims := Claims{Holders: func(w string) ([]int64, bool) { return printed[strings.ToLower(w)], true }}
	out, err := Compose(context.Background(), emb, Input{Question: "Which factorisation method is item2vec competitive with?", Evidence: ev,
		Missing: []string{"factorisation"}, Terms: 3, Claims: claims}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range out.Absent {
		if strings.EqualFold(a.Word, "factorisation") {
			t.Errorf("%q said missing though the library prints %q: %q", a.Word, "factorization", out.Text)
		}
	}
}

func TestRomanceForms(t *testing.T) {
	for _, tc := range []struct {
		word string
		want []string
	}{
		{"algún", []string{"alguno", "alguna", "algunos", "algunas"}},
		{"proporción", []string{"proporciones"}},
		{"estudiado", []string{"estudio", "estudia", "estudiar", "estudiada"}},
		{"circulaire", []string{"circulaires"}},
		{"trouvé", []string{"trouver", "trouvée", "trouvés"}},
	} {
		got := romanceForms(tc.word)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("romanceForms(%q) = %v, lacks %q", tc.word, got, w)
			}
		}
		if slices.Contains(got, tc.word) {
			t.Errorf("romanceForms(%q) lists the word itself", tc.word)
		}
	}
	if f := romanceForms("tasa"); f != nil {
		t.Errorf("romanceForms of a four-letter word = %v, want none", f)
	}
}

func TestRomanceText(t *testing.T) {
	for q, want := range map[string]bool{
		"¿Cuánto aumentó la tasa de homicidios?":                 true,
		"Quel genre de définition problématique a-t-il trouvé ?": true,
		"What does the naïve model predict?":                     false,
		"Was geschieht beim Portfolioansatz?":                    false,
	} {
		if got := romanceText(q); got != want {
			t.Errorf("romanceText(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestKoreanForms(t *testing.T) {
	for _, tc := range []struct {
		word string
		want []string
	}{
		{"학습률이", []string{"학습률"}},
		{"데이터셋을", []string{"데이터셋"}},
		{"실험에서는", []string{"실험"}},
		{"사용되었는가", []string{"사용"}},
		{"설정하였다", []string{"설정"}},
		{"LSTM은", nil}, // not all Hangul: the index reads its Latin part
		{"모델", nil},    // too short to lose a syllable
	} {
		if got := koreanForms(tc.word); !slices.Equal(got, tc.want) {
			t.Errorf("koreanForms(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
	for w, want := range map[string]bool{"얼마인가": true, "어떤": true, "무엇을": true, "왜": true, "왜곡": false, "학습률은": false} {
		if got := koreanQuestionWord(w); got != want {
			t.Errorf("koreanQuestionWord(%q) = %v, want %v", w, got, want)
		}
	}
}

// A Spanish question's auxiliary verb ("tuvo": "had") is how it asks, not
// a word the library lacks; its content word is still checked.
func TestRomanceAuxiliaryNotClaimed(t *testing.T) {
	c := Claims{Holders: func(string) ([]int64, bool) { return nil, true }, romance: true}
	got := c.check([]string{"tuvo", "Guayaquil"}).never
	if !slices.Equal(got, []string{"Guayaquil"}) {
		t.Errorf("Spanish question: never = %q, want [Guayaquil]", got)
	}
	c.romance = false
	if got := c.check([]string{"tuvo"}).never; !slices.Equal(got, []string{"tuvo"}) {
		t.Errorf("English question: never = %q, want the word as typed", got)
	}
}
