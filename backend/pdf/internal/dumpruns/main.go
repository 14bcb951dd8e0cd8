// Command dumpruns prints what backend/pdf extracts from a PDF: info,
// outline and the runs of each page (font, size, bold/italic, x, y, w,
// text), one run per line. Style letters: B bold, I italic, R rotated,
// V invisible (OCR layer), G glued to the previous run (no space between).
// It is a debugging aid for the tree builder.
//
//	go run ./backend/pdf/internal/dumpruns [-page N] [-json] FILE.pdf
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
)

func main() {
	page := flag.Int("page", 0, "print only this 1-based page")
	asJSON := flag.Bool("json", false, "print the Document as JSON")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: dumpruns [-page N] [-json] FILE.pdf")
		os.Exit(2)
	}
	doc, err := pdf.Open(context.Background(), flag.Arg(0), pdf.Options{})
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: [%s] %v\n", flag.Arg(0), papertree.ErrorCode(err), err)
		os.Exit(1)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", " ")
		_ = enc.Encode(doc)
		return
	}
	fmt.Printf("info: %+v\n", doc.Info)
	fmt.Printf("pages: %d  text quality: %.3f  garbled: %v  skipped: %v\n", len(doc.Pages), doc.TextQuality, doc.Garbled, doc.SkippedPages)
	for _, o := range doc.Outline {
		fmt.Printf("outline: %*s%s -> p%d\n", 2*(o.Level-1), "", o.Title, o.Page)
	}
	for _, p := range doc.Pages {
		if *page != 0 && p.Number != *page {
			continue
		}
		fmt.Printf("=== page %d (%.0fx%.0f) %d runs, quality %.3f\n", p.Number, p.Width, p.Height, len(p.Runs), p.TextQuality)
		for _, r := range p.Runs {
			style := ""
			if r.Bold {
				style += "B"
			}
			if r.Italic {
				style += "I"
			}
			if r.Rotated {
				style += "R"
			}
			if r.Invisible {
				style += "V"
			}
			if r.Glued {
				style += "G"
			}
			fmt.Printf("%-24.24s %5.2f %-3s x=%6.1f y=%6.1f w=%6.1f %q\n", r.Font, r.Size, style, r.X, r.Y, r.W, r.Text)
		}
	}
}
