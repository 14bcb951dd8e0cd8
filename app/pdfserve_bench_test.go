package app

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkPDFHash measures what the /pdf/<id> content check costs per
// request on a 100 MB file: hashing it (the first request, or after it
// changed) against the cached hash (every later range request).
func BenchmarkPDFHash(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.pdf")
	if err := os.WriteFile(path, make([]byte, 100<<20), 0o644); err != nil {
		b.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	for _, cached := range []bool{false, true} {
		name := map[bool]string{false: "hash", true: "cached"}[cached]
		b.Run(name, func(b *testing.B) {
			c := &hashCache{m: map[string]hashEntry{}}
			if _, err := c.hash(f, st); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if !cached {
					clear(c.m)
				}
				if _, err := c.hash(f, st); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
