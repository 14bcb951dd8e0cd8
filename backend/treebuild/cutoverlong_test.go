package treebuild

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// oldCuts is the former cutting loop (recount the remainder, binary-search
// each piece with cutAtTokens): quadratic, kept here as the reference the
// one-pass cutOverlong must agree with.
func oldCuts(s string, max int) [][2]int {
	var out [][2]int
	a, z := 0, len(s)
	for papertree.CountTokens(s[a:z]) > max {
		cut := a + cutAtTokens(s[a:z], max)
		out = append(out, [2]int{a, cut})
		a = cut
		for a < z && s[a] == ' ' {
			a++
		}
	}
	if a < z {
		out = append(out, [2]int{a, z})
	}
	return out
}

func TestCutOverlong(t *testing.T) {
	words := []string{"a", "tree", "retrieval-augmented", "x", "12345678901234", "(Fig.", "3)", "naïve", "数据", "—", "ab,cd", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}
	rng := rand.New(rand.NewSource(1))
	cases := map[string]string{
		"plain words":          strings.Repeat("the tree of a paper ", 200),
		"one long word":        strings.Repeat("w", 5000),
		"punctuation only":     strings.Repeat("-,;:", 300),
		"double spaces":        strings.Repeat("word  ", 300),
		"unicode letters":      strings.Repeat("数据 naïve ", 300),
		"long word then words": strings.Repeat("z", 900) + " " + strings.Repeat("ok ", 300),
	}
	for i := 0; i < 50; i++ {
		var b strings.Builder
		for j := 0; j < 1+rng.Intn(400); j++ {
			if j > 0 {
				b.WriteString(strings.Repeat(" ", 1+rng.Intn(2)))
			}
			b.WriteString(words[rng.Intn(len(words))])
		}
		cases["random "+string(rune('A'+i%26))+string(rune('a'+i/26))] = strings.TrimSpace(b.String())
	}
	for name, s := range cases {
		for _, max := range []int{1, 2, 7, 40, 128} {
			got, want := cutOverlong(s, max), oldCuts(s, max)
			if len(got) != len(want) {
				t.Fatalf("%s max %d: %d pieces, want %d", name, max, len(got), len(want))
			}
			for k := range got {
				if got[k] != want[k] {
					t.Fatalf("%s max %d: piece %d = %v, want %v", name, max, k, got[k], want[k])
				}
				if c := papertree.CountTokens(s[got[k][0]:got[k][1]]); c > max && got[k][1]-got[k][0] > 4 {
					t.Fatalf("%s max %d: piece %d has %d tokens", name, max, k, c)
				}
			}
		}
	}
}

// BenchmarkSplitToFitNoPunctuation is text without sentence punctuation
// (one "sentence" of a whole section), which used to be quadratic.
//
//	go test -run=^$ -bench=SplitToFitNoPunct ./backend/treebuild/
func BenchmarkSplitToFitNoPunctuation(b *testing.B) {
	text := strings.TrimSpace(strings.Repeat("lorem ipsum dolor sit amet consectetur ", 25_000)) // ~1M chars
	ls := []*line{{text: text}}
	offs := []int{0}
	for b.Loop() {
		if n := len(splitToFit(text, offs, ls, 128)); n < 100 {
			b.Fatalf("%d pieces", n)
		}
	}
}
