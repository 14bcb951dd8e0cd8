package treebuild

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/pdf"
)

// TestDebugLines prints every line of one development PDF with the features
// the heading rules use. It is a tool, not a check: it runs only when
// PAPERTREE_DEBUG_FILE names a file in shared/data/pdfs (optionally
// PAPERTREE_DEBUG_PAGE limits it to one page).
func TestDebugLines(t *testing.T) {
	name := os.Getenv("PAPERTREE_DEBUG_FILE")
	if name == "" {
		t.Skip("set PAPERTREE_DEBUG_FILE to print a file's lines")
	}
	doc, err := debugDoc(t, name)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := strconv.Atoi(os.Getenv("PAPERTREE_DEBUG_PAGE"))
	lines := buildLines(doc.Pages)
	st := computeStats(lines)
	fmt.Printf("body %.1f %s bold=%v spacing %.1f colw %v\n", st.bodySize, st.bodyFont, st.bodyBold, st.lineSpacing, st.colWidth)
	for i, l := range lines {
		if page != 0 && l.page != page {
			continue
		}
		h := classifyLine(lines, i, st)
		mark := " "
		if h != nil {
			mark = "H"
		}
		fmt.Printf("%s p%d c%d y%6.1f x%5.1f-%5.1f s%4.1f b%.1f i%.1f %-14.14s up%5.1f dn%5.1f gap%4.1f %.90s\n", mark, l.page, l.col, l.y, l.x0, l.x1, l.size, l.bold, l.italic, l.font, gapAbove(lines, i), gapBelow(lines, i), l.maxGap, l.text)
	}
}

// TestDebugCandidates prints the heading candidates of one development PDF
// before and after the document-level filters (same switches as
// TestDebugLines).
func TestDebugCandidates(t *testing.T) {
	name := os.Getenv("PAPERTREE_DEBUG_FILE")
	if name == "" {
		t.Skip("set PAPERTREE_DEBUG_FILE to print a file's heading candidates")
	}
	doc, err := debugDoc(t, name)
	if err != nil {
		t.Fatal(err)
	}
	lines := buildLines(doc.Pages)
	st := computeStats(lines)
	cands := findCandidates(lines, st, coverPages(lines), os.Getenv("PAPERTREE_DEBUG_RUNIN") != "")
	pruned := pruneCandidates(append([]*heading(nil), cands...), st.bodySize)
	seq := filterSequence(append([]*heading(nil), pruned...))
	in := func(hs []*heading, h *heading) bool {
		for _, x := range hs {
			if x == h {
				return true
			}
		}
		return false
	}
	for _, h := range cands {
		fmt.Printf("prune=%v seq=%v p%d num=%v(%s) strong=%v conv=%v style=%+v %.80s\n", in(pruned, h), in(seq, h), h.page, h.hasNum, h.num.Number, h.strong, h.conv, h.style, h.text)
	}
}

// debugDoc opens PAPERTREE_DEBUG_FILE: a PDF, or a document saved as
// JSON (a pdf.Document after OCR, so that a scan is read once).
func debugDoc(t *testing.T, name string) (*pdf.Document, error) {
	if strings.HasSuffix(name, ".json") {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var doc pdf.Document
		return &doc, json.Unmarshal(b, &doc)
	}
	return pdf.Open(context.Background(), debugPath(t, name), pdf.Options{})
}

// debugPath resolves PAPERTREE_DEBUG_FILE: a bare name is looked up in
// shared/data/pdfs, "silver/NAME" in shared/data/silver/pdfs.
func debugPath(t *testing.T, name string) string {
	if rest, ok := strings.CutPrefix(name, "silver/"); ok {
		return filepath.Join(shareddata.Dir(t, "silver"), "pdfs", rest)
	}
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(shareddata.Dir(t, "pdfs"), name)
}

// TestDebugTables prints, for one PDF (PAPERTREE_DEBUG_FILE, optionally
// PAPERTREE_DEBUG_PAGE), the lines split into cells and why each block of
// lines with cells was or was not taken as a table. A tool, not a check.
func TestDebugTables(t *testing.T) {
	name := os.Getenv("PAPERTREE_DEBUG_FILE")
	if name == "" {
		t.Skip("set PAPERTREE_DEBUG_FILE to print a file's table candidates")
	}
	doc, err := debugDoc(t, name)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := strconv.Atoi(os.Getenv("PAPERTREE_DEBUG_PAGE"))
	tableTrace = func(format string, args ...any) {
		if page == 0 || strings.HasPrefix(fmt.Sprintf(format, args...), fmt.Sprintf("p%d ", page)) {
			fmt.Printf("TABLE "+format+"\n", args...)
		}
	}
	defer func() { tableTrace = nil }()
	if page != 0 {
		for _, l := range buildLines(doc.Pages) {
			if l.page != page {
				continue
			}
			var cs []string
			for _, c := range lineCells(l, minCellGap) {
				cs = append(cs, c.text)
			}
			fmt.Printf("c%d y%6.1f x%5.1f-%5.1f s%4.1f gap%4.1f %q\n", l.col, l.y, l.x0, l.x1, l.size, l.maxGap, cs)
		}
	}
	if _, err := Build(context.Background(), doc, DefaultOptions()); err != nil {
		t.Fatal(err)
	}
}

// TestDebugTitle prints the title, authors and year built for one file
// (PAPERTREE_DEBUG_FILE, a PDF or a saved document). A tool, not a check.
func TestDebugTitle(t *testing.T) {
	name := os.Getenv("PAPERTREE_DEBUG_FILE")
	if name == "" {
		t.Skip("set PAPERTREE_DEBUG_FILE to print a file's title")
	}
	doc, err := debugDoc(t, name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(context.Background(), doc, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("title %q\nauthors %q\nyear %d\n", p.Title, p.Authors, p.Year)
}
