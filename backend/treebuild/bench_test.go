package treebuild

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/pdf"
)

// BenchmarkBuild measures tree building alone (parsing excluded) in pages
// per second: on a synthetic 2-page paper always, and on a real 16-page
// two-column paper when the shared data set is present.
func BenchmarkBuild(b *testing.B) {
	run := func(b *testing.B, doc *pdf.Document) {
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := Build(context.Background(), doc, DefaultOptions()); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(doc.Pages)*b.N)/b.Elapsed().Seconds(), "pages/s")
	}
	b.Run("synthetic", func(b *testing.B) { run(b, twoColumnPaper()) })
	b.Run("bert16p", func(b *testing.B) {
		dir := shareddata.Dir(b, "pdfs")
		doc, err := pdf.Open(context.Background(), filepath.Join(dir, "bert_1810.04805.pdf"), pdf.Options{})
		if err != nil {
			b.Fatal(err)
		}
		run(b, doc)
	})
}
