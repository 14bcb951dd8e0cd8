// Command xsspdf writes the end-to-end tests' hostile fixture: a small,
// well-formed paper whose title, headings and body text contain HTML that
// would run script if the app ever inserted PDF text as markup. The e2e tests
// open it in the real app and assert that the markup is shown as literal text
// and that window.__xss stays undefined.
//
// It is generated (not committed as a binary) so that the payload is visible
// in review and cannot drift from the assertions in e2e/tests.
//
// Usage: go run ./e2e/xsspdf OUT.pdf
package main

import (
	"fmt"
	"os"

	"codeberg.org/go-pdf/fpdf"
)

// The payloads the browser test looks for, verbatim. They must stay plain
// ASCII (core PDF fonts) and must not contain a line break.
const (
	TitlePayload = `<img src=x onerror="window.__xss=1">`
	BodyPayload  = `<script>window.__xss=2</script>`
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: xsspdf OUT.pdf")
		os.Exit(2)
	}
	if err := write(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "xsspdf:", err)
		os.Exit(1)
	}
}

func write(out string) error {
	title := "Markup Injection " + TitlePayload + " in Paper Readers"
	pdf := fpdf.New("P", "pt", "A4", "")
	pdf.SetTitle(title, false)
	pdf.SetAuthor("Eve Mallory", false)
	pdf.SetCreator("papertree e2e/xsspdf", false)
	pdf.SetMargins(72, 72, 72)
	pdf.SetAutoPageBreak(true, 72)
	pdf.AddPage()

	pdf.SetFont("Helvetica", "B", 18)
	pdf.MultiCell(0, 22, title, "", "C", false)
	pdf.Ln(6)
	pdf.SetFont("Helvetica", "", 11)
	pdf.MultiCell(0, 14, "Eve Mallory and Mallet Adversary", "", "C", false)
	pdf.Ln(14)

	section := func(heading string, paras ...string) {
		pdf.SetFont("Helvetica", "B", 13)
		pdf.MultiCell(0, 16, heading, "", "L", false)
		pdf.Ln(4)
		pdf.SetFont("Times", "", 10)
		for _, p := range paras {
			pdf.MultiCell(0, 13, p, "", "J", false)
			pdf.Ln(6)
		}
		pdf.Ln(8)
	}
	section("Abstract",
		"Paper readers show text taken from untrusted documents. We study what happens when that text "+
			"contains markup such as "+BodyPayload+" and find that a careful reader shows it verbatim.")
	section("1 Introduction",
		"A document may carry hostile markup in its title, its headings or its body. The reader must insert "+
			"such text as text and never as HTML, because the page can call native code.",
		"For example the sentence "+BodyPayload+" must appear with its angle brackets intact.")
	section("2 Results",
		"Every payload we tried was displayed literally. No handler ran and no script executed in the reader.")
	return pdf.OutputFileAndClose(out)
}
