package retrieve

import (
	"fmt"
	querypkg "github.com/papertree/papertree/backend/query"
	"testing"
)

// BenchmarkIdentityScores measures paper identification over a large
// library's metadata cards (the cost every library-wide question pays).
func BenchmarkIdentityScores(b *testing.B) {
	var cards []*card
	for i := 0; i < 4200; i++ {
		cards = append(cards, newCard(int64(i), fmt.Sprintf("Method%d: Learning Deep Representations of Scientific Documents Number %d", i, i),
			[]string{"Ada Lovelace", fmt.Sprintf("Author%d Surname%d", i, i)}, 2000+i%25, "", ""))
	}
	q := "In the Method42 paper by Surname42 et al., what learning rate was used for the scientific document encoder?"
	set := newCardSet(cards) // built once per library state (cardCache)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		set.scores(querypkg.Parse(q))
	}
}
