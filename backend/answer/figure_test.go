package answer

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
)

func TestStatesFigure(t *testing.T) {
	q := map[string]bool{"7": true}
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"We trained on 8 GPUs.", true},
		{"Training took between five and six days.", true},
		{"No single unannounced process death is tolerated.", true},
		{"It reached 81.5% on MR.", true},
		{"As shown in Figure 2 and Table 3, training is stable.", false}, // labels
		{"Smith et al. trained it on GPUs [12].", false},                 // a citation marker
		{"The method was published in 2016.", false},                     // a year
		{"The filters have width 7.", false},                             // the question's own number
		{"Once trained, one model serves double fetches.", false},        // words, not figures
	} {
		if got := statesFigure(tc.s, q); got != tc.want {
			t.Errorf("statesFigure(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

// A question asking for a figure is answered only when a sentence of the
// evidence states a figure beside what it asks for; otherwise the reply
// says that none of the passages found states it.
func TestFigureAnswerType(t *testing.T) {
	emb := embedding.NewBuiltin()
	ask := func(q, text string) Output {
		t.Helper()
		ev := []papertree.Evidence{{PaperID: 1, Kind: papertree.KindSegment, Score: 0.6, Text: text}}
		out, err := Compose(context.Background(), emb, Input{Question: q, Evidence: ev}, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	q := "How many GPUs were used to train the convolutional network?"
	out := ask(q, "We trained the convolutional network on GPUs, as in Smith [12]. Figure 2 shows the training curve. "+
		"The network has 5 convolutional layers.")
	if !out.NotFound || !strings.Contains(out.Text, "None of the passages found states a number for GPUs") {
		t.Errorf("no figure beside GPUs: want not found with its reason, got %s", out.Text)
	}
	for _, text := range []string{"We trained the convolutional network on 8 GPUs for a week.",
		"We trained the convolutional network on two GPUs for a week."} {
		if out := ask(q, text); out.NotFound {
			t.Errorf("%q states the figure: %s", text, out.Text)
		}
	}
	// An accuracy is a bare number or a percentage, never a size.
	q = "What accuracy does the sentiment classifier reach on the movie reviews?"
	if out := ask(q, "The accuracy run of the sentiment classifier over the movie reviews takes 4.7GB of memory."); !out.NotFound {
		t.Errorf("sizes state no accuracy: %s", out.Text)
	}
	if out := ask(q, "The sentiment classifier reaches an accuracy of 88.1% on the movie reviews."); out.NotFound {
		t.Errorf("a percentage states the accuracy: %s", out.Text)
	}
	// A size is stated as a count of parts, in a sentence that need not
	// name the whole: "how large is X" is not checked.
	if out := ask("How large is the corpus of question answer tuples?", "We collected question answer tuples from forums, 2000 of them in total."); out.NotFound {
		t.Errorf("a size question was refused: %s", out.Text)
	}
	// Yes/no questions are not asked for a figure.
	if asksFigure(query.Parse("Does the network use many GPUs?")) {
		t.Error("a yes/no question asks for no figure")
	}
}

func TestNumberPhrases(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []string // the first phrase of each checked number
	}{
		{"How many tokens does the 2018 Wikipedia dump hold?", []string{"2018 Wikipedia"}},
		{"How many filters of width 7 did the CNN use?", []string{"width 7"}},
		{"How many homicides did Colombia record in 2022?", nil},                // no word beside it
		{"What does Kim (2014) report for 2 channels?", []string{"2 channels"}}, // the citation's year is not asked
		{"Which corpus did Sharp et al. 2016 use?", nil},
		// A number after the words naming the paper (an author, a venue)
		// is the paper's year, part of its name.
		{"How many images did Dalal and Triggs 2005 select as positive examples?", nil},
		{"What overhead does the USENIX Security 2022 kernel defense incur?", nil},
	} {
		var got []string
		for _, ps := range numberPhrases(query.Parse(tc.q)) {
			got = append(got, ps[0].phrase)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("numberPhrases(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

// A number the question types is held when a passage of the scope the
// reply speaks of prints it beside its word outside the reference list;
// otherwise the reply says the scope never mentions the phrase (an
// absence claim of that scope) or prints it only in its references (no
// absence claim). A table row of the evidence printing the number holds
// it (its headers abbreviate the word).
func TestQuestionNumberHeld(t *testing.T) {
	emb := embedding.NewBuiltin()
	q := "How many tokens does the 2018 Wikipedia dump hold?"
	prose := []papertree.Evidence{{PaperID: 1, Kind: papertree.KindSegment, Score: 0.7,
		Text: "We trained on a 2014 Wikipedia dump with 1.6 billion tokens and on Gigaword 5 with 4.3 billion tokens."}}
	in := func(scope []int64, ev []papertree.Evidence) Input {
		return Input{Question: q, Evidence: ev, Scoped: scope != nil, Claims: Claims{
			Holders: holders(map[string][]int64{"2018": {2}, "wikipedia": {1, 2}, "tokens": {1, 2}, "dump": {1}, "hold": {1, 2}}),
			TogetherIn: func(a, b string) ([]int64, []int64, bool) {
				switch {
				case a == "2018" && b == "Wikipedia":
					return []int64{1, 2}, []int64{2}, true // paper 1 only in a reference title
				}
				return nil, nil, true
			},
			Scope: scope}}
	}
	out, err := Compose(context.Background(), emb, in([]int64{3}, prose), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !out.NotFound || !strings.Contains(out.Text, "never mentions 2018 Wikipedia") ||
		len(out.Absent) != 1 || out.Absent[0].Word != "2018 Wikipedia" || !slices.Equal(out.Absent[0].Papers, []int64{3}) {
		t.Errorf("paper 3 never prints 2018 beside Wikipedia: %s %+v", out.Text, out.Absent)
	}
	out, _ = Compose(context.Background(), emb, in([]int64{1}, prose), DefaultOptions())
	if !out.NotFound || !strings.Contains(out.Text, "prints 2018 beside Wikipedia only in its references or acknowledgements") || len(out.Absent) != 0 {
		t.Errorf("paper 1 prints them together only in a reference title: %s %+v", out.Text, out.Absent)
	}
	if out, _ := Compose(context.Background(), emb, in(nil, prose), DefaultOptions()); strings.Contains(out.Text, "2018 Wikipedia") {
		t.Errorf("library-wide, paper 2 prints it: nothing to claim: %s", out.Text)
	}
	table := []papertree.Evidence{{PaperID: 1, Kind: papertree.KindSegment, Role: papertree.RoleTable, Score: 0.7,
		Text: "Corpus | Year | Tokens\nWikipedia dump | 2018 | 1.6B\nGigaword | 2011 | 4.3B"}}
	if out, _ := Compose(context.Background(), emb, in([]int64{1}, table), DefaultOptions()); strings.Contains(out.Text, "2018 Wikipedia") {
		t.Errorf("a table row of the evidence prints 2018: %s", out.Text)
	}
}
