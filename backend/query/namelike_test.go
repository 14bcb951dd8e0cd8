package query

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestNameLike(t *testing.T) {
	for w, want := range map[string]bool{"AlphaFold2": true, "GloVe": true, "GPT-2": true, "BERT": true, "(YOLOv3,": true,
		"model": false, "Zero-Shot": false, "1.5B": false, "Global": false, "Ñandú": false, "ÉCOLE": true, "word2vec": true,
		"¿Cuántas": false, "¡Qué": false, "¿BERT?": true} {
		if got := NameLike(w); got != want {
			t.Errorf("NameLike(%q) = %v, want %v", w, got, want)
		}
	}
	// The fast path for plain words changes no answer.
	alphabet := []string{"a", "b", "Z", "Q", "2", "-", "'", "’", ".", "(", "é", "É", "x", "¿"}
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 100000; i++ {
		var b strings.Builder
		for n := r.IntN(8); n >= 0; n-- {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		if w := b.String(); NameLike(w) != nameLike(w) {
			t.Fatalf("NameLike(%q) = %v, the reference %v", w, NameLike(w), nameLike(w))
		}
	}
}

// A Spanish question opens with "¿" (or "¡"): its first word is still the
// question's first word, never a name ("¿Cuántas" read as a name made the
// library-wide reply say "the papers never mention ¿Cuántas").
func TestSpanishOpeningMarkIsPunctuation(t *testing.T) {
	for _, q := range []string{"¿Cuántas observaciones tiene el panel de cantones?", "¡Qué modelo usan los autores para el panel?"} {
		if n := Names(q); len(n) > 0 {
			t.Errorf("Names(%q) = %q, want none", q, n)
		}
	}
	if n := Names("¿Qué datos usa el Banco Central del Ecuador?"); !slices.Contains(n, "Banco Central") {
		t.Errorf("a name after the opening mark was lost: %q", Names("¿Qué datos usa el Banco Central del Ecuador?"))
	}
}
