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

// A German verb is held where its infinitive or participle is printed, a
// noun made of a verb with "-ung" where the verb is, and a compound no
// paper prints whole by the papers that print both its parts.
func TestGermanVerbAndCompoundForms(t *testing.T) {
	for w, want := range map[string]string{"nennt": "nennen", "Bezeichnung": "bezeichnet", "Bezeichnungen": "bezeichnen", "verwendet": "verwenden"} {
		if got := germanForms(w); !slices.Contains(got, want) {
			t.Errorf("germanForms(%s) = %v, lacks %q", w, got, want)
		}
	}
	parts := germanParts("Erfüllbarkeitslöser")
	if !slices.Contains(parts, [2]string{"erfüllbarkeit", "löser"}) || !slices.Contains(parts, [2]string{"erfüllbarkeits", "löser"}) {
		t.Errorf("germanParts(Erfüllbarkeitslöser) = %v", parts)
	}
	if germanParts("Kanten") != nil {
		t.Error("a word under ten letters is no compound to split")
	}
	idx := map[string][]int64{"erfüllbarkeit": {1, 2}, "löser": {2, 3}}
	c := Claims{Holders: holders(idx), german: true}
	if ids, ok := c.holders("Erfüllbarkeitslöser"); !ok || !slices.Equal(ids, []int64{2}) {
		t.Errorf("holders(Erfüllbarkeitslöser) = %v, %v; want the paper printing both parts", ids, ok)
	}
	c.german = false
	if ids, _ := c.holders("Erfüllbarkeitslöser"); len(ids) != 0 {
		t.Errorf("an English question's word is not split: %v", ids)
	}
}
