package pdf

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	lib "github.com/ledongthuc/pdf"

	"github.com/papertree/papertree/backend/internal/shareddata"
)

// BenchmarkParseCorpus parses all shared PDFs once per iteration and
// reports pages per second (compare with `time pdftotext` on the same
// files).
func BenchmarkParseCorpus(b *testing.B) {
	files := corpusFiles(b)
	b.ReportAllocs()
	b.ResetTimer()
	pages := 0
	start := time.Now()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			doc, err := Open(context.Background(), f, Options{})
			if err == nil {
				pages += len(doc.Pages)
			}
		}
	}
	b.ReportMetric(float64(pages)/time.Since(start).Seconds(), "pages/s")
	b.ReportMetric(float64(pages)/float64(b.N), "pages/op")
}

// BenchmarkPageLookup shows why the patched library walks the page tree
// once: looking up page i from the root for every page is quadratic in
// the page count (164 pages here).
func BenchmarkPageLookup(b *testing.B) {
	path := filepath.Join(shareddata.Dir(b, "pdfs"), "thesis_sharp2017_phd_dissertation.pdf")
	f, err := os.Open(path)
	if err != nil {
		b.Skip(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	rd, err := lib.NewReader(f, st.Size())
	if err != nil {
		b.Fatal(err)
	}
	// Both variants share one Reader, so its object cache is warm and the
	// difference is the walking alone.
	b.Run("Pages-once", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if n := len(rd.Pages()); n != 164 {
				b.Fatalf("pages = %d", n)
			}
		}
	})
	b.Run("Page-i-from-root", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			n := rd.NumPage()
			for p := 1; p <= n; p++ {
				if rd.Page(p).V.IsNull() {
					b.Fatalf("page %d missing", p)
				}
			}
		}
	})
}

// BenchmarkParseLong parses the 164-page thesis end to end.
func BenchmarkParseLong(b *testing.B) {
	path := filepath.Join(shareddata.Dir(b, "pdfs"), "thesis_sharp2017_phd_dissertation.pdf")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Open(context.Background(), path, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
