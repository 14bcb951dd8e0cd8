package app

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkStartupLibraryScale is BenchmarkStartupLibrary1000 at 1,000 and
// 10,000 papers: opening the library and listing it, the part of the app's
// start that grows with the library (the webview's own start is apart).
func BenchmarkStartupLibraryScale(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("papers=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			makeLibrary(b, dir, n)
			ctx := context.Background()
			b.ResetTimer()
			for range b.N {
				be, lib, err := OpenBackend(ctx, dir)
				if err != nil {
					b.Fatal(err)
				}
				ps, err := be.ListPapers(ctx)
				if err != nil || len(ps) != n {
					b.Fatalf("listed %d papers, err %v", len(ps), err)
				}
				lib.Close()
			}
		})
	}
}
