package discourse

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
)

// BenchmarkBuildThesis builds the tree of a synthetic 300-page thesis
// (1,500 paragraphs of 8 sentences).
func BenchmarkBuildThesis(b *testing.B) {
	var ps []Paragraph
	for i := 0; i < 1500; i++ {
		ps = append(ps, Paragraph{Ref: i, Section: i / 10, Text: strings.Repeat(fmt.Sprintf("Chapter %d studies topic %d with method m%d. ", i/50, i, i%13), 8)})
	}
	emb := embedding.NewBuiltin()
	for b.Loop() {
		if _, err := Build(context.Background(), ps, emb, nil, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
