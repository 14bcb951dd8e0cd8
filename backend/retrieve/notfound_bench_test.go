package retrieve_test

import (
	"context"
	"github.com/papertree/papertree/backend/query"
	"testing"

	"github.com/papertree/papertree/backend/retrieve"
)

// BenchmarkQuestionTermUse measures the not-found signals of one question
// over one paper, counts already built (the warm case of every question
// after the paper's first).
func BenchmarkQuestionTermUse(b *testing.B) {
	ix, ids := setup(b, paper("Path-Guided QA", "/a.pdf"))
	ctx := context.Background()
	if _, err := retrieve.QuestionTermUse(ctx, ix, query.Parse("What dropout rate does the model apply?"), ids); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := retrieve.QuestionTermUse(ctx, ix, query.Parse("What dropout rate does the model apply to its word vectors?"), ids); err != nil {
			b.Fatal(err)
		}
	}
}
