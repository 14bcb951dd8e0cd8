package pdf

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/papertree/papertree/backend/internal/hostile"
	"github.com/papertree/papertree/backend/papertree"
)

// FuzzParse asserts that Parse never panics (or hangs) and always returns
// exactly one of a Document with text or a *papertree.Error. Seeds are the
// fixtures in testdata/; crashers found earlier live in
// testdata/fuzz/FuzzParse and run with every plain `go test`.
//
//	go test -run=^$ -fuzz=FuzzParse -fuzztime=5m ./backend/pdf/
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.pdf"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	// The hostile generators, small: mutations of them explore the
	// budgets' edges (operand stack, CMaps, shared and repeated streams).
	for _, data := range [][]byte{
		hostile.NumberBomb(64 << 10), hostile.ArrayBomb(64 << 10), hostile.StringBomb(64 << 10),
		hostile.CMapBomb(32 << 10), hostile.SharedContent(40, 2<<10), hostile.RepeatedContents(200),
		hostile.ManyPages(80), hostile.LongWord(5000), hostile.TextOperators(64 << 10),
		hostile.NoPunctuation(3), hostile.Good("Seed"),
	} {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Parse(context.Background(), bytes.NewReader(data), int64(len(data)), Options{MaxPages: 64})
		if err != nil {
			var pe *papertree.Error
			if !errors.As(err, &pe) {
				t.Fatalf("uncoded error %T: %v", err, err)
			}
			if doc != nil {
				t.Fatal("both a document and an error")
			}
			if pe.Message == "" {
				t.Fatal("coded error without a user message")
			}
			return
		}
		if doc == nil || len(doc.Pages) == 0 {
			t.Fatal("nil or empty document without an error")
		}
		runs := 0
		for _, p := range doc.Pages {
			runs += len(p.Runs)
		}
		if runs == 0 {
			t.Fatal("document without runs: want ENoText")
		}
	})
}
