package answer

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// A German question puts a word in the case its sentence needs
// ("unvollständige"); a paper prints it in its own ("unvollständigen"). The
// library holds the word, so no reply says it is in none of the papers. An
// English question's word is looked up as typed (and in its English forms,
// by the index): "unvollständige" is then never mentioned.
func TestGermanWordHeldInAnotherCase(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := []papertree.Evidence{{PaperID: 4, Kind: papertree.KindSegment, Score: 0.6,
		Text: "Ein vollständiger Solver kann im Gegensatz zu unvollständigen Algorithmen die Unerfüllbarkeit einer SAT-Instanz anhand eines Beweises ableiten."}}
	printed := map[string][]int64{"unvollständigen": {4}, "vollständiger": {4}, "solver": {4, 9}, "algorithmen": {4}}
	claims := Claims{Holders: func(w string) ([]int64, bool) { return printed[strings.ToLower(w)], true }}
	ask := func(question string) Output {
		t.Helper()
		out, err := Compose(context.Background(), emb, Input{Question: question, Evidence: ev,
			Missing: []string{"unvollständige"}, Terms: 3, Claims: claims}, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	out := ask("Was kann ein vollständiger Solver, das unvollständige Algorithmen nicht können?")
	for _, a := range out.Absent {
		if strings.EqualFold(a.Word, "unvollständige") {
			t.Errorf("German question: %q said missing though the library prints %q: %q", a.Word, "unvollständigen", out.Text)
		}
	}
	if strings.Contains(out.Text, "unvollständige,") || strings.Contains(out.Text, ": unvollständige.") {
		t.Errorf("German question: reply names the inflected word missing: %q", out.Text)
	}
	out = ask("What can a complete solver do that unvollständige solvers cannot?")
	said := false
	for _, a := range out.Absent {
		said = said || strings.EqualFold(a.Word, "unvollständige")
	}
	if !said {
		t.Errorf("English question: the word as typed, printed nowhere, is no longer said missing: %q", out.Text)
	}
}

func TestGermanForms(t *testing.T) {
	got := germanForms("Unvollständige")
	for _, want := range []string{"unvollständig", "unvollständigen", "unvollständiger", "unvollständiges", "unvollständigem"} {
		if !slices.Contains(got, want) {
			t.Errorf("germanForms(Unvollständige) = %v, lacks %q", got, want)
		}
	}
	if slices.Contains(got, "unvollständige") {
		t.Errorf("germanForms lists the word itself: %v", got)
	}
	if f := germanForms("Satz"); f != nil {
		t.Errorf("a word under five letters has no forms looked up, got %v", f)
	}
}
