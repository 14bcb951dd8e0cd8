// Package treebuild turns the positioned text runs of a PDF (backend/pdf)
// into a PaperTree: title > sections > subsections > leaf segments.
//
// Data flow, one document at a time:
//
//	runs -> lines (per page: drop rotated/margin noise, find the column
//	        gutter, merge runs by baseline, reading order) -> drop running
//	        headers/footers and page numbers -> heading candidates
//	        (typography, numbering, conventional names) -> optional PDF
//	        outline, verified against the printed lines -> hierarchy
//	        (numbering depth, style ladder, names, reconciliation) -> tree
//	        (sections; paragraphs packed into bounded segments; captions;
//	        references as their own section).
//
// Invariants of the result: the root has Level 0; every section's Level is
// its depth; leaves sit one level below their section; Order is pre-order;
// every leaf has PageStart <= PageEnd and at least one box when it has text.
// Build never panics on any input: geometry is sanitised before use, and a
// recover turns an unexpected failure into a coded EInternal error.
package treebuild

import (
	"context"
	"fmt"
	"html"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
)

// Options tune the builder.
type Options struct {
	// UseOutline uses the PDF's bookmarks (verified against the text) as the
	// backbone of the hierarchy when the file has a usable outline.
	UseOutline bool
	// MaxSegmentTokens bounds a leaf segment's size (papertree.CountTokens).
	MaxSegmentTokens int
	// RunInHeadings emits bold run-in paragraph headings ("Implementation
	// details. We ...") as sections one level below their section.
	RunInHeadings bool
}

// DefaultOptions are the settings used by the app and the CLI.
func DefaultOptions() Options {
	return Options{UseOutline: true, MaxSegmentTokens: 512, RunInHeadings: true}
}

// Build builds the PaperTree of one parsed document. The returned paper has
// no Path/Hash (the caller knows the file); Title falls back to the
// document info and then to nothing.
func Build(ctx context.Context, doc *pdf.Document, opts Options) (p *papertree.Paper, err error) {
	if doc == nil {
		return nil, papertree.Errorf(papertree.EInvalid, "no document to build a tree from")
	}
	if opts.MaxSegmentTokens <= 0 {
		opts.MaxSegmentTokens = DefaultOptions().MaxSegmentTokens
	}
	if opts.MaxSegmentTokens < 16 {
		opts.MaxSegmentTokens = 16
	}
	defer func() {
		if r := recover(); r != nil {
			p = nil
			err = papertree.Wrap(fmt.Errorf("treebuild panic: %v", r), papertree.EInternal, "the paper's structure could not be built")
		}
	}()
	if err := ctx.Err(); err != nil {
		return nil, papertree.Wrap(err, papertree.ECanceled, "cancelled")
	}
	if doc.Garbled {
		return nil, papertree.Errorf(papertree.EGarbled, "The PDF's text layer is garbled (its fonts have no usable character map); it would need OCR first.")
	}
	b := &builder{doc: doc, opts: opts}
	return b.run(ctx)
}

type builder struct {
	doc      *pdf.Document
	opts     Options
	lines    []*line
	st       stats
	warnings []string
	inTables bool           // addLeaves is adding the text around a table (tables.go)
	capSide  *int           // where the document sets table captions, once known (tables.go)
	vocab    map[string]int // the paper's words and their counts, once needed (tables.go)
	inMath   bool           // ... around a formula or code block (formula.go)
}

func (b *builder) run(ctx context.Context) (*papertree.Paper, error) {
	b.lines = buildLines(b.doc.Pages)
	if err := ctx.Err(); err != nil {
		return nil, papertree.Wrap(err, papertree.ECanceled, "cancelled")
	}
	paper := &papertree.Paper{Pages: len(b.doc.Pages)}
	for _, pg := range b.doc.Pages {
		w, h := pageDims(pg)
		paper.PageSizes = append(paper.PageSizes, papertree.Size{W: w, H: h})
	}
	if len(b.lines) == 0 {
		if t := strings.TrimSpace(html.UnescapeString(b.doc.Info.Title)); usableTitle(t) {
			paper.Title = t // a producer's placeholder is no title
		}
		paper.Root = &papertree.Node{Kind: papertree.KindRoot, Title: paper.Title, PageStart: 1, PageEnd: max(1, paper.Pages)}
		paper.Root.Renumber()
		paper.Warnings = append(paper.Warnings, "no text found in the PDF (scanned pages without OCR?)")
		return paper, nil
	}
	b.st = computeStats(b.lines)
	skip := coverPages(b.lines)
	titleFirst, titleLast, title := findTitle(b.lines, b.st, skip, b.doc.Info.Title)
	if lo, hi, t, ok := infoTitleOnPage(b.lines, skip, b.doc.Info.Title); ok {
		// The info dictionary's title is printed on the first page: it wins
		// over the largest text (a journal banner such as "Neurocomputing"),
		// and its spacing repairs words the text layer glued together.
		titleFirst, titleLast, title = lo, hi, t
	}
	if titleFirst >= 0 {
		titleFirst, titleLast, title = refineTitle(b.lines, titleFirst, titleLast, title, b.st)
		titleFirst, titleLast = startBelowPrevious(b.lines, titleFirst, titleLast, b.st)
	}
	if !usableTitle(title) {
		titleFirst, titleLast, title = fallbackTitle(b.lines, b.st, skip, b.doc.Info.Title)
	}
	title = titleCaseCaps(title)
	paper.Title = title
	cands := findCandidates(b.lines, b.st, skip, b.opts.RunInHeadings)
	// The title block is never a heading.
	kept := cands[:0]
	for _, c := range cands {
		if titleLast >= 0 && c.first >= titleFirst && c.first <= titleLast {
			continue
		}
		if repeatsTitle(c, title) {
			continue
		}
		kept = append(kept, c)
	}
	cands = pruneCandidates(smallFaceHeading(kept, b.st), b.st.bodySize)
	var heads []*heading
	if b.opts.UseOutline && usableOutline(b.doc.Outline) {
		heads = fromOutline(b.doc.Outline, b.lines, cands, b.st, title)
		if len(heads) > 0 {
			paper.OutlineUsed = true
		} else {
			b.warnings = append(b.warnings, "the PDF outline does not match the printed headings; headings were inferred from the text")
		}
	}
	if !paper.OutlineUsed {
		heads = cands
	}
	heads = filterSequence(heads)
	heads = dropTOCHeadings(heads, b.lines)
	assignLevels(heads)
	heads = ensureReferences(heads, b.lines)
	if err := ctx.Err(); err != nil {
		return nil, papertree.Wrap(err, papertree.ECanceled, "cancelled")
	}
	paper.Authors = findAuthors(b.lines, titleFirst, titleLast, heads)
	frontMeta(paper, b.lines, b.doc, skip, titleLast, paper.Authors)
	paper.Root = b.assemble(heads, title, titleLast)
	paper.Root.Renumber()
	for _, c := range paper.Root.Children {
		if c.Role == papertree.RoleAbstract {
			paper.Abstract = sectionText(c)
			break
		}
	}
	if paper.Abstract == "" {
		paper.Abstract = runInAbstract(paper.Root)
	}
	if len(heads) == 0 {
		b.warnings = append(b.warnings, "no section headings found; the paper is one flat section")
	}
	paper.Warnings = append(paper.Warnings, b.warnings...)
	return paper, nil
}

// startBelowPrevious handles an article that starts in the middle of a
// journal page, under or beside the end of the previous article (Science
// and Nature reports): its title sits low on the page and, in a column
// grid, may span only the right-hand columns. The previous article's text
// above the title and in the columns left of it is moved before the title
// in reading order, where (like any text before a title) it is not part of
// the paper. It applies only when the title starts below the top quarter of
// its page and at least five lines of text (body size or smaller: the
// previous article's references) have to move; it returns the title lines'
// new positions.
func startBelowPrevious(lines []*line, lo, hi int, st stats) (int, int) {
	t := lines[lo]
	top, x0, x1 := math.Inf(1), math.Inf(1), math.Inf(-1)
	for _, l := range lines[lo : hi+1] {
		top, x0, x1 = math.Min(top, l.top()), math.Min(x0, l.x0), math.Max(x1, l.x1)
	}
	if top < 0.25*t.pageH {
		return lo, hi
	}
	moves := func(l *line) bool {
		if l.page != t.page {
			return false
		}
		above := l.bottom() <= top+1 && l.x0 < x1 && l.x1 > x0
		leftCol := t.col >= 2 && l.col >= 1 && l.col < t.col
		return above || leftCol
	}
	var moved []*line
	bodyMoved := 0
	for _, l := range lines[hi+1:] {
		if moves(l) {
			moved = append(moved, l)
			if l.size <= st.bodySize+0.6 && letterCount(l.text) >= 10 {
				bodyMoved++
			}
		}
	}
	if bodyMoved < 5 {
		return lo, hi
	}
	out := make([]*line, 0, len(lines))
	out = append(out, lines[:lo]...)
	out = append(out, moved...)
	title := lines[lo : hi+1]
	out = append(out, title...)
	for _, l := range lines[hi+1:] {
		if !moves(l) {
			out = append(out, l)
		}
	}
	copy(lines, out)
	for i, l := range lines {
		l.index = i
	}
	n := hi - lo
	lo += len(moved)
	return lo, lo + n
}

// coverPages returns pages that are repository cover sheets (ResearchGate,
// HAL, arXiv listing, publisher download stamps) rather than the paper. Only
// the first page is considered, and only when the paper goes on after it.
var coverRe = regexp.MustCompile(`(?i)researchgate|see discussions, stats, and author profiles|all content following this page was uploaded|the user has requested enhancement of the downloaded file|hal id\b|hal is a multi-disciplinary open access|to cite this version|archive ouverte|downloaded from .* on|this content downloaded from|all use subject to|jstor is a not-for-profit`)

func coverPages(lines []*line) map[int]bool {
	skip := map[int]bool{}
	hits := 0
	last := 0
	for _, l := range lines {
		last = max(last, l.page)
		if l.page == 1 && coverRe.MatchString(l.text) {
			hits++
		}
	}
	if hits >= 2 && last > 1 {
		skip[1] = true
	}
	return skip
}

// findTitle returns the line range and text of the paper title: the largest
// text in the top part of the first page that is not a cover page, leaving
// out a reprint's source block (sourceBlock). The document info title is
// used when it agrees with a printed line or when nothing is found; the
// caller checks that the title reads as one (usableTitle).
func findTitle(lines []*line, st stats, skip map[int]bool, infoTitle string) (int, int, string) {
	first := -1
	page := 0
	for i, l := range lines {
		if !skip[l.page] {
			first, page = i, l.page
			break
		}
	}
	if first < 0 {
		return -1, -1, strings.TrimSpace(infoTitle)
	}
	source := sourceBlock(lines, first, st)
	best := -1
	bestSize := 0.0
	for i := first; i < len(lines) && lines[i].page == page; i++ {
		l := lines[i]
		if source[i] {
			continue
		}
		if best >= 0 && l.y > lines[best].y && strings.Contains(l.text, "@") && emailRe.MatchString(l.text) && namesBetween(lines, best, i) {
			// The authors' names and addresses follow the title: larger
			// text under them is a figure's lettering or a logo, not the
			// title.
			break
		}
		if l.y > 0.6*l.pageH || letterCount(l.text) < 3 || captionLike(l.text) || emailRe.MatchString(l.text) || isArticleLabel(l.text) || citationLine(l.text) {
			continue
		}
		if l.size > bestSize+0.1 {
			best, bestSize = i, l.size
		}
	}
	if best < 0 || bestSize < st.bodySize+0.5 {
		t := strings.TrimSpace(infoTitle)
		if letterCount(t) >= 3 {
			return -1, -1, t
		}
		// No usable info title ("504 504..507", a page range): an article
		// that starts lower on a journal page, under the end of the
		// previous one, still prints its title in the largest type, well
		// above body size.
		best, bestSize = -1, 0
		for i := first; i < len(lines) && lines[i].page == page; i++ {
			l := lines[i]
			if source[i] || letterCount(l.text) < 3 || captionLike(l.text) || emailRe.MatchString(l.text) || isArticleLabel(l.text) || citationLine(l.text) {
				continue
			}
			if l.size > bestSize+0.1 {
				best, bestSize = i, l.size
			}
		}
		if best < 0 || bestSize < 1.5*st.bodySize {
			return -1, -1, t
		}
	}
	// extend over adjacent lines of the same size
	lo, hi := best, best
	// Sizes read from an OCR layer wobble by a few percent.
	tol := math.Max(0.3, 0.03*bestSize)
	for lo-1 >= first && !source[lo-1] && lines[lo-1].page == page && math.Abs(lines[lo-1].size-bestSize) < tol && lines[lo].y-lines[lo-1].y < 2.2*bestSize {
		lo--
	}
	for hi+1 < len(lines) && !source[hi+1] && lines[hi+1].page == page && math.Abs(lines[hi+1].size-bestSize) < tol && lines[hi+1].y-lines[hi].y < 2.2*bestSize && hi-lo < 5 {
		hi++
	}
	var parts []string
	for i := lo; i <= hi; i++ {
		parts = append(parts, titleLineText(lines[i]))
	}
	return lo, hi, joinLines(parts)
}

// namesBetween reports a line of person names between lines a and b
// (exclusive).
func namesBetween(lines []*line, a, b int) bool {
	for _, l := range lines[a+1 : b] {
		if len(lineNames(l)) > 0 {
			return true
		}
	}
	return false
}

// infoTitleOnPage looks for the document info title among the first page's
// lines (letters and digits compared, so glued words and hyphenation do not
// matter) and returns the lines it covers and the title text: the info
// text when it only adds spaces to the printed one, else the printed text.
// Titles of fewer than three words or with no letters are not trusted
// ("504 504..507", "Untitled").
func infoTitleOnPage(lines []*line, skip map[int]bool, info string) (int, int, string, bool) {
	info = strings.TrimSpace(html.UnescapeString(info))
	key := normKey(info)
	if wordCount(info) < 3 || letterCount(info) < 12 || len(key) < 12 {
		return 0, 0, "", false
	}
	page := 0
	for _, l := range lines {
		if !skip[l.page] {
			page = l.page
			break
		}
	}
	for i, l := range lines {
		if l.page != page {
			if l.page > page {
				break
			}
			continue
		}
		// A drop capital may be missing from the info title or set apart
		// from the printed line ("Diosyncratic" in the info, "IDIOSYNCRATIC"
		// printed): up to two leading characters of either side are
		// skipped, and then the printed text is the title.
		first := normKey(l.text)
		for skipInfo := 0; skipInfo <= 2; skipInfo++ {
			for skipLine := 0; skipLine <= 2; skipLine++ {
				if skipInfo > 0 && skipLine > 0 || skipLine > len(first) || skipInfo > len(key) {
					continue
				}
				k := key[skipInfo:]
				need := 1
				if skipInfo+skipLine > 0 {
					need = 4
				}
				if n := min(8, len(k), len(first)-skipLine); n < need || first[skipLine:skipLine+n] != k[:n] {
					continue
				}
				if j, printed, ok := infoTitleFrom(lines, i, page, k, skipLine); ok {
					if skipInfo == 0 && skipLine == 0 && strings.Count(printed, " ") < strings.Count(info, " ") {
						printed = info
					}
					return i, j, printed, true
				}
			}
		}
	}
	return 0, 0, "", false
}

// infoTitleFrom reports whether the lines from i on (same page, same size)
// spell key once the first skip characters of their key are dropped, and
// returns the last line and the printed text.
func infoTitleFrom(lines []*line, i, page int, key string, skip int) (int, string, bool) {
	l := lines[i]
	acc := ""
	var parts []string
	for j := i; j < len(lines) && j < i+6 && lines[j].page == page; j++ {
		if j > i && math.Abs(lines[j].size-l.size) > 0.6 {
			break
		}
		acc += normKey(lines[j].text)
		parts = append(parts, lines[j].text)
		if len(acc) < skip || !strings.HasPrefix(key, acc[skip:]) {
			break
		}
		if acc[skip:] == key {
			return j, joinLines(parts), true
		}
	}
	return 0, "", false
}

var memberRe = regexp.MustCompile(`(?i)\b(member|fellow|senior|student|ieee|acm|phd|ph\.d|professor)\b`)

var affiliationRe = regexp.MustCompile(`(?i)universit|institut|college|school|department|dept\.|laborator|research|google|microsoft|facebook|inc\.|ltd|corporation|centre|center|academy|@|\d{3,}|street|avenue|road|usa|china|germany|france|japan|canada|kingdom|abstract`)

// institutionWordRe: words of institution names that are never part of a
// person's name; a name-shaped run with one is an affiliation ("Computer
// Science Division", "Technion City"). Tested per name, not per line, so
// that one such word does not cost a whole line of names.
var institutionWordRe = regexp.MustCompile(`(?i)\b(?:division|city|campus|hospital|clinic|foundation|labs|laboratory|group|team|faculty|ministry|agency|observatory|consortium)\b`)

// findAuthors collects names from the author block of the title page: the
// lines below the title and above the abstract (its label, the first
// heading, or the first line that reads like prose), taken by position
// rather than reading order, so that every column of a grid of authors
// counts even when the reading order puts the abstract's column first
// ("Tianqi Chen | Carlos Guestrin" side by side). Names come from the runs
// of lines that do not end like sentences (lineNames) and from the
// capitalised name before the comma of an affiliation line (namePrefix);
// e-mail addresses are ignored, so "Jesse Davis  jdavis@cs.wisc.edu" is a
// name line.
func findAuthors(lines []*line, titleFirst, titleLast int, heads []*heading) []string {
	if titleLast < 0 {
		return nil
	}
	page := lines[titleLast].page
	tBottom, tx0, tx1 := math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, l := range lines[titleFirst : titleLast+1] {
		tBottom, tx0, tx1 = math.Max(tBottom, l.bottom()), math.Min(tx0, l.x0), math.Max(tx1, l.x1)
	}
	pageW := lines[titleLast].pageW
	// A title set over the right-hand columns only (an article starting
	// under the end of another) keeps its author block under it.
	offCentre := tx0 > 0.3*pageW && math.Abs((tx0+tx1)/2-pageW/2) > 0.1*pageW
	// A title set in one column of the page's grid (CACM: title and
	// authors in the left column, the text already running on the right)
	// keeps its author block in that column.
	col := lines[titleFirst].col
	for _, l := range lines[titleFirst : titleLast+1] {
		if l.col != col {
			col = 0
		}
	}
	below := func(l *line) bool {
		return l.page == page && l.top() > tBottom-1 && !(offCentre && l.x1 < tx0) && (col == 0 || l.col == col)
	}
	firstHead := -1
	if len(heads) > 0 && heads[0].first > titleLast {
		firstHead = heads[0].first
	}
	var cand []*line
	for i, l := range lines {
		if (i < titleFirst || i > titleLast) && below(l) {
			cand = append(cand, l)
		}
	}
	sort.SliceStable(cand, func(a, b int) bool {
		if math.Abs(cand[a].y-cand[b].y) > 2 {
			return cand[a].y < cand[b].y
		}
		return cand[a].x0 < cand[b].x0
	})
	// The block ends at the abstract's label, a conventional heading, the
	// first heading that is not itself a line of names, or (once names
	// were seen) a line of prose; up to three lines of prose before any
	// name are a standfirst under the title.
	var block []*line
	yEnd := math.Inf(1)
	named, standfirst := false, 0
	for _, l := range cand {
		if l.top() >= yEnd-1 {
			break
		}
		t := strings.TrimSpace(l.text)
		_, conv := ConventionalName(t)
		if conv || abstractLabelRe.MatchString(t) || otherAbstractRe.MatchString(t) || (l.index == firstHead && len(lineNames(l)) == 0) {
			yEnd = l.top()
			continue
		}
		if supervisionRe.MatchString(t) {
			continue // "Sous la direction de ...", "Supervised by ...": not the authors
		}
		if proseLine(t) {
			if standfirst++; named || standfirst > 3 {
				yEnd = l.top()
			}
			continue
		}
		named = named || len(lineNames(l)) > 0
		block = append(block, l)
	}
	if len(block) > 40 {
		block = block[:40]
	}
	block = joinNameLists(block)
	var names []styledName
	for k, l := range block {
		if endsLikeSentence(l.text) {
			continue
		}
		if affiliationRe.MatchString(emailWordRe.ReplaceAllString(l.text, " ")) {
			// "TAL AUGUST, University of Washington, USA" (ACM): a name in
			// capitals or small capitals before the affiliation.
			if name, ok := namePrefix(l.text); ok {
				names = append(names, styledName{name, l.size, l.bold > 0.5})
			}
			continue
		}
		var cols []float64
		for _, u := range block[k+1:] {
			if u.top() > l.bottom()+l.size {
				break
			}
			if u.y > l.y+0.5*l.size && u.x0 < l.x1 && u.x1 > l.x0 {
				cols = gridColumns(u)
				break
			}
		}
		names = append(names, styledNamesInGrid(l, cols)...)
	}
	// In a grid of authors the names are set apart from the affiliations
	// under them (bold or larger), and the block starts with a name: when
	// the first name is bold or larger than a later one, that later one
	// is an affiliation ("Computer Science Division", "Technion City").
	// A title page that names its author plainly and others with academic
	// titles ("Prof. Dr. Maike Buchin" under a thesis's author) lists
	// supervisors or examiners: they are not authors. Titles are dropped
	// from the names kept.
	titled, plain := 0, 0
	for _, n := range names {
		if honorificRe.MatchString(n.name) {
			titled++
		} else {
			plain++
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		if titled > 0 && plain > 0 && honorificRe.MatchString(n.name) {
			continue
		}
		if loc := honorificRe.FindStringIndex(n.name); loc != nil && wordCount(n.name[loc[1]:]) >= 2 {
			n.name = n.name[loc[1]:]
		}
		if (names[0].bold && !n.bold) || n.size < names[0].size-0.6 || seen[n.name] {
			continue
		}
		seen[n.name] = true
		out = append(out, n.name)
		if len(out) >= 100 {
			break
		}
	}
	return out
}

// joinNameLists joins the lines of a list of names that runs over several
// lines, so that a name broken at the end of a line is read whole ("...,
// Fabio Pintore6, Bruno" + "Khélifi2, Laura Olivera-Nieto3, ..."). A line
// goes on into the next when it is a list (two or more commas, no
// affiliation), the next line is set in the same type right under it and
// is no affiliation, and the break falls inside a name: the line ends in
// one given name, an initial or a particle, or the next line starts with a
// one-word name before its first separator.
func joinNameLists(block []*line) []*line {
	out := make([]*line, 0, len(block))
	var prev *line // the last line joined into out's last line
	for _, l := range block {
		if n := len(out); n > 0 {
			a := out[n-1]
			if strings.Count(a.text, ",") >= 2 && !affiliationRe.MatchString(emailWordRe.ReplaceAllString(a.text, " ")) &&
				math.Abs(l.size-a.size) < 0.5 && (l.bold > 0.5) == (a.bold > 0.5) &&
				l.page == a.page && l.y > prev.y && l.y-prev.y < 1.6*a.size && l.x0 < prev.x1 && l.x1 > prev.x0 &&
				!affiliationRe.MatchString(emailWordRe.ReplaceAllString(l.text, " ")) && brokenName(a.text, l.text) {
				out[n-1] = joinLine(a, l)
				prev = l
				continue
			}
		}
		out = append(out, l)
		prev = l
	}
	return out
}

// brokenName reports a line break inside a name (see joinNameLists).
func brokenName(a, b string) bool {
	sepEnd := func(w string) bool {
		return strings.ContainsAny(w, ",;&0123456789*†‡§¶∗⋆") || strings.EqualFold(w, "and")
	}
	aw := strings.Fields(a)
	tail := 0
	for i := len(aw) - 1; i >= 0 && !sepEnd(aw[i]); i-- {
		tail++
	}
	if tail > 0 {
		last := aw[len(aw)-1]
		if tail == 1 || nameParticles[last] || initialsRe.MatchString(last) || len([]rune(strings.TrimSuffix(last, "."))) == 1 {
			return true
		}
	}
	// The next line starts with one word before a separator ("Khélifi2,").
	bw := strings.Fields(b)
	if tail == 0 || len(bw) == 0 {
		return false
	}
	return sepEnd(bw[0]) || len(bw) > 1 && sepEnd(bw[1]) && !unicode.IsLetter([]rune(bw[1])[0])
}

// joinLine returns one line holding a's runs and then b's, b's moved to
// follow a's end after a word space.
func joinLine(a, b *line) *line {
	j := *a
	j.runs = append(append([]pdf.Run(nil), a.runs...), b.runs...)
	shift := a.x1 + 0.3*a.size - b.x0
	for i := len(a.runs); i < len(j.runs); i++ {
		j.runs[i].X += shift
	}
	j.text = a.text + " " + b.text
	j.x1 = b.x1 + shift
	return &j
}

// gridColumns returns the centres of the parts of a line split by gaps
// wider than its word spacing (more than twice the median gap and half an
// em), when there are two or more: the affiliations under a grid of names.
func gridColumns(l *line) []float64 {
	var gaps []float64
	for i := 1; i < len(l.runs); i++ {
		gaps = append(gaps, l.runs[i].X-(l.runs[i-1].X+runWidth(l.runs[i-1])))
	}
	if len(gaps) < 3 {
		return nil
	}
	sorted := append([]float64(nil), gaps...)
	sort.Float64s(sorted)
	split := math.Max(0.5*l.size, 2.2*sorted[len(sorted)/2])
	var cols []float64
	x0 := l.runs[0].X
	for i, g := range gaps {
		if g > split {
			prev := l.runs[i]
			cols = append(cols, (x0+prev.X+runWidth(prev))/2)
			x0 = l.runs[i+1].X
		}
	}
	if len(cols) == 0 {
		return nil
	}
	last := l.runs[len(l.runs)-1]
	return append(cols, (x0+last.X+runWidth(last))/2)
}

// otherAbstractRe matches the abstract's label in other languages (the
// block of names ends there).
var otherAbstractRe = regexp.MustCompile(`(?i)^(?:摘\s*要|zusammenfassung|kurzfassung|résumé|resumen|resumo|riassunto|аннотация|samenvatting|sammanfattning)\s*(?:[:：.—–-]|$)`)

// supervisionRe matches a line that names a thesis's supervisors or
// examiners rather than its author.
var supervisionRe = regexp.MustCompile(`(?i)^(?:sous la direction|supervised by|under the (?:supervision|direction|guidance)|supervisors?\b|advisors?\b|advised by|betreu|gutacht|erstgutacht|zweitgutacht|prüfer|referent|directeur|directrice|directed by|tutors?\b|examiners?\b|committee\b|relatore|director de)`)

// honorificRe matches academic titles before a name ("Prof. Dr.", "Dr.").
var honorificRe = regexp.MustCompile(`^(?:(?:Prof|Dr|Professor|PD|Priv\.-Doz|Dipl\.-\p{L}+|Dott|Ing|Mag)\.?(?:\s+|$))+`)

// emailWordRe matches an e-mail address, a brace group of user names
// before one ("{kylel, lucyw}@allenai.org") or a web address.
var emailWordRe = regexp.MustCompile(`\{[^}]*\}\s*@\S+|\S+@\S+|https?://\S+|www\.\S+`)

// proseLine reports a line that reads like running text (an abstract
// without a label, a run-in "I. Introduction. In his celebrated paper ..."):
// at least five words that start in lower case, and more of them than
// capitalised words or a long line. Author and affiliation lines have few
// ("and", "of", "de"; one-letter affiliation marks "Zheng a, Hao b" are
// not words).
func proseLine(t string) bool {
	lower, upper, words := 0, 0, 0
	for _, w := range strings.Fields(t) {
		words++
		r := []rune(w)
		if !unicode.IsLetter(r[0]) {
			continue
		}
		if unicode.IsLower(r[0]) && letterCount(w) >= 2 && !nameParticles[w] && w != "and" {
			lower++
		} else if unicode.IsUpper(r[0]) {
			upper++
		}
	}
	return lower >= 5 && (lower > upper || words >= 12)
}

// dropTOCHeadings removes headings that come from a printed table of
// contents: after a "Contents" heading, lines ending in page numbers are
// entries, and a heading whose text recurs later as another heading on a
// later page is the TOC copy.
func dropTOCHeadings(hs []*heading, lines []*line) []*heading {
	out := hs[:0]
	for i, h := range hs {
		l := lines[h.first]
		if tocRe.MatchString(lines[h.last].text) && strings.TrimSpace(lines[h.last].text) != strings.TrimSpace(h.text) {
			continue
		}
		dup := false
		if !h.fixed {
			k := normKey(h.text)
			for _, o := range hs[i+1:] {
				if o.page > l.page+1 && normKey(o.text) == k && h.page+3 < o.page && !h.conv {
					dup = true
					break
				}
			}
		}
		if dup {
			continue
		}
		out = append(out, h)
	}
	return out
}

// sectionText concatenates a section's segment texts.
func sectionText(n *papertree.Node) string {
	var parts []string
	for _, c := range n.Children {
		if c.Kind == papertree.KindSegment {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, " ")
}

// lineNames reads person names from an author line. Names are separated by
// commas, "and", wide gaps and affiliation markers; markers are superscript
// runs (smaller than the line), symbols and digits ("Shijie Wu♠∗ Alexis
// Conneau♥∗", "Alec Radford * 1 Jeffrey Wu * 1"). A name is two to four
// capitalised words (initials and particles such as "van" allowed).
func lineNames(l *line) []string {
	var out []string
	for _, n := range styledLineNames(l) {
		out = append(out, n.name)
	}
	return out
}

// styledName is a name read from a line with the type it is set in.
type styledName struct {
	name string
	size float64
	bold bool
}

// styledLineNames is lineNames with each name's type (the largest size
// and whether all of its runs are bold).
func styledLineNames(l *line) []styledName {
	return styledNamesInGrid(l, nil)
}

// nameToken is a word of an author line with its type and position, or a
// separator between names (a superscript marker, a symbol, a gap wider than
// the line's word spacing). Runs set without a space between them are one
// word ("A" + "UBHIK" in small capitals).
type nameToken struct {
	text string
	x    float64 // estimated centre of the word
	size float64
	bold bool
	sep  bool
}

// nameTokens splits an author line into words and separators.
func nameTokens(l *line) []nameToken {
	// A gap between runs wider than the line's usual word space separates
	// two names set side by side without a comma ("Tapio Salakoski   Filip
	// Ginter"): more than twice the median gap, and at least half an em.
	var gaps []float64
	for i := 1; i < len(l.runs); i++ {
		if !l.runs[i].Glued {
			gaps = append(gaps, l.runs[i].X-(l.runs[i-1].X+runWidth(l.runs[i-1])))
		}
	}
	split := 1.2 * l.size
	if len(gaps) >= 3 {
		sort.Float64s(gaps)
		split = math.Min(split, math.Max(0.5*l.size, 2.2*gaps[len(gaps)/2]))
	}
	var toks []nameToken
	for i, r := range l.runs {
		if i > 0 {
			prev := l.runs[i-1]
			if r.X-(prev.X+runWidth(prev)) > split {
				toks = append(toks, nameToken{sep: true})
			}
		}
		tail := i > 0 && smallCapsTail(l.runs[i-1], r)
		if (r.Size < 0.85*l.size && !tail) || letterCount(r.Text) == 0 {
			toks = append(toks, nameToken{sep: true}) // a superscript marker or a symbol
			continue
		}
		rt := cleanText(r.Text)
		n := float64(max(1, utf8.RuneCountInString(rt)))
		pos := 0
		for k, w := range strings.Fields(rt) {
			at := pos + strings.Index(rt[pos:], w)
			pos = at + len(w)
			mid := float64(utf8.RuneCountInString(rt[:at])) + float64(utf8.RuneCountInString(w))/2
			x := r.X + runWidth(r)*mid/n
			if k == 0 && i > 0 && len(toks) > 0 && !toks[len(toks)-1].sep && !strings.HasPrefix(rt, " ") && !spaceBetween(l.runs[i-1], r) {
				t := &toks[len(toks)-1]
				t.text += w
				t.size = math.Max(t.size, r.Size)
				t.bold = t.bold && r.Bold
				continue
			}
			toks = append(toks, nameToken{text: w, x: x, size: r.Size, bold: r.Bold})
		}
	}
	return toks
}

// parenRe matches a parenthesised note ("(Member, IEEE)").
var parenRe = regexp.MustCompile(`\([^)]*\)`)

// capsNameLine reports an author line set all in capitals ("J. J.
// HOPFIELD", "HUAN LIU1, (Member, IEEE), ZHENG LIU4, ..."): short, or a
// list; parenthesised notes are not counted. Its names are read in title
// case; on a mixed line, capitals are acronyms.
func capsNameLine(t string) bool {
	t = parenRe.ReplaceAllString(t, " ")
	return isAllCaps(t) && (wordCount(t) <= 8 || strings.Count(t, ",") >= 2)
}

// styledNamesInGrid reads the names of an author line. cols are the
// centres of the columns of the line under it when that line is split by
// wide gaps (the affiliations of an author grid, one under each name): a
// run of words too long for one name is cut where its words change column
// ("Douglas Bates Martin Mächler Benjamin M. Bolker Steven C. Walker" set
// with even spacing over four affiliations).
func styledNamesInGrid(l *line, cols []float64) []styledName {
	type word struct {
		w string
		x float64
	}
	var names []styledName
	var cur []word
	size, bold := 0.0, true
	lastCaps := false
	emit := func(ws []word) {
		parts := make([]string, len(ws))
		for i, w := range ws {
			parts[i] = w.w
		}
		if !plausibleName(parts) {
			return
		}
		name := strings.Join(parts, " ")
		if !isAllCaps(name) && !memberRe.MatchString(name) && !affiliationRe.MatchString(name) && !institutionWordRe.MatchString(name) {
			names = append(names, styledName{name, size, bold})
		}
	}
	flush := func() {
		if len(cur) > 0 && len(cols) >= 2 && nonParticles(cur, func(w word) string { return w.w }) > 4 {
			nearest := func(x float64) int {
				best := 0
				for k, c := range cols {
					if math.Abs(c-x) < math.Abs(cols[best]-x) {
						best = k
					}
				}
				return best
			}
			start := 0
			for i := 1; i <= len(cur); i++ {
				if i == len(cur) || nearest(cur[i].x) != nearest(cur[i-1].x) {
					emit(cur[start:i])
					start = i
				}
			}
		} else if len(cur) > 0 {
			emit(cur)
		}
		cur = cur[:0]
		size, bold = 0, true
		lastCaps = false
	}
	capsLine := capsNameLine(l.text)
	for _, t := range nameTokens(l) {
		if t.sep {
			flush()
			continue
		}
		rt := t.text
		if capsLine {
			rt = titleCaseNameWords(rt)
		}
		for _, w := range strings.Fields(strings.ReplaceAll(rt, ",", ", ")) {
			lw := strings.ToLower(w)
			if lw == "and" || lw == "&" {
				flush()
				continue
			}
			core := strings.TrimFunc(w, func(c rune) bool { return !unicode.IsLetter(c) && c != '.' && c != '-' && c != '\'' && c != '’' })
			if core == "" {
				flush()
				continue
			}
			if strings.Index(w, core) > 0 {
				flush()
			}
			// a trailing marker or comma ends the name
			ends := core != w && !strings.HasSuffix(w, ".")
			caps := false
			if !nameWord(core) || nameStop[strings.ToLower(core)] {
				// "Timothée POISOT": a surname in capitals after one given
				// name (French usage) is read in title case.
				given := make([]string, len(cur))
				for i, c := range cur {
					given[i] = c.w
				}
				if !capsSurname(core) || !(lastCaps || givenNames(given)) {
					flush()
					continue
				}
				core, caps = titleCaseNameWords(core), true
			}
			cur = append(cur, word{strings.TrimSuffix(core, ","), t.x})
			lastCaps = caps
			size, bold = math.Max(size, t.size), bold && t.bold
			if ends {
				flush()
			}
		}
	}
	flush()
	return names
}

// plausibleName: two or more words, at most four of them not particles
// ("José Vinícius de Miranda Cardoso", "Mathieu de Bony de Lavergne"), not
// only initials.
func plausibleName(ws []string) bool {
	n := nonParticles(ws, func(w string) string { return w })
	return len(ws) >= 2 && len(ws) <= 6 && n <= 4 && !allInitials(ws)
}

func nonParticles[T any](ws []T, text func(T) string) int {
	n := 0
	for _, w := range ws {
		if !nameParticles[text(w)] {
			n++
		}
	}
	return n
}

// capsSurname: a word in capitals of two or more letters that can be a
// surname ("POISOT", "MACDONALD", "DE-VRIES").
func capsSurname(w string) bool {
	letters := 0
	for _, r := range w {
		switch {
		case unicode.IsUpper(r):
			letters++
		case r == '-' || r == '\'' || r == '’':
		default:
			return false
		}
	}
	return letters >= 2
}

// givenNames: the words before a surname in capitals are one given name in
// title case, with initials ("Benjamin B."), nothing else.
func givenNames(ws []string) bool {
	full := 0
	for _, w := range ws {
		if len([]rune(strings.TrimSuffix(w, "."))) <= 1 || initialsRe.MatchString(w) {
			continue
		}
		if isAllCaps(w) || !nameWord(w) || nameParticles[w] {
			return false
		}
		full++
	}
	return full == 1
}

// initialsRe matches a chain of initials ("E.G.F.", "J.-P.").
var initialsRe = regexp.MustCompile(`^(?:\p{Lu}\.-?)+$`)

// namePrefix reads a name set before the first comma of an affiliation
// line. Capitals are turned into title case.
func namePrefix(t string) (string, bool) {
	i := strings.IndexByte(t, ',')
	if i <= 0 {
		return "", false
	}
	ws := strings.Fields(strings.Trim(t[:i], " *†‡§¶0123456789"))
	if len(ws) < 2 || len(ws) > 4 {
		return "", false
	}
	// A name is set all in capitals (ACM) or in mixed case, never both:
	// "INRIA Rhône-Alps" is an institution; and it has no house number
	// ("Technologiepark Zwijnaarde 15").
	caps, words := 0, 0
	for _, w := range ws {
		if len([]rune(strings.TrimSuffix(w, "."))) <= 1 {
			continue // an initial
		}
		words++
		if strings.ToUpper(w) == w {
			caps++
		}
	}
	if caps > 0 && caps < words {
		return "", false
	}
	if numberWordRe.MatchString(t[:i]) {
		return "", false
	}
	for k, w := range ws {
		if isAllCaps(w) || (len([]rune(w)) <= 3 && strings.ToUpper(w) == w) {
			r := []rune(strings.ToLower(w))
			r[0] = unicode.ToUpper(r[0])
			w = string(r)
		}
		if !nameWord(w) && !(len(w) == 2 && strings.HasSuffix(w, ".")) || nameStop[strings.ToLower(w)] || affiliationRe.MatchString(w) {
			return "", false
		}
		ws[k] = w
	}
	return strings.Join(ws, " "), true
}

var numberWordRe = regexp.MustCompile(`(^|\s)\d+(\s|$)`)

var nameParticles = map[string]bool{"van": true, "von": true, "de": true, "der": true, "den": true, "da": true,
	"di": true, "del": true, "la": true, "le": true, "du": true, "dos": true, "das": true, "bin": true, "al": true}

// nameStop are capitalised words of title pages that are never part of a
// name ("A Dissertation Submitted", "By Jorge Nocedal", "Anonymous
// submission"); they separate names.
var nameStop = map[string]bool{"in": true, "of": true, "the": true, "for": true, "by": true, "to": true, "on": true,
	"at": true, "with": true, "from": true, "submitted": true, "dissertation": true, "thesis": true, "partial": true,
	"fulfillment": true, "fulfilment": true, "anonymous": true, "submission": true, "paper": true, "degree": true,
	"requirements": true, "doctor": true, "philosophy": true, "master": true, "bachelor": true, "presented": true,
	"faculty": true, "committee": true, "advisor": true, "supervisor": true, "author": true, "authors": true,
	"corresponding": true, "view": true, "intelligence": true, "editor": true, "received": true, "accepted": true}

// titleCaseNameWords turns words in capitals into title case ("HOPFIELD"
// -> "Hopfield", "MCDONALD-SMITH" -> "Mcdonald-Smith"); initials stay.
func titleCaseNameWords(t string) string {
	ws := strings.Fields(t)
	for i, w := range ws {
		parts := strings.Split(w, "-")
		for k, p := range parts {
			r := []rune(strings.ToLower(p))
			if len(r) > 1 && unicode.IsLetter(r[0]) {
				r[0] = unicode.ToUpper(r[0])
				parts[k] = string(r)
			}
		}
		ws[i] = strings.Join(parts, "-")
	}
	return strings.Join(ws, " ")
}

func allInitials(ws []string) bool {
	for _, w := range ws {
		if len([]rune(strings.TrimSuffix(w, "."))) > 1 {
			return false
		}
	}
	return true
}

// nameWord reports a word that can be part of a person's name: capitalised
// (or an initial, or a particle), letters with at most inner hyphens,
// apostrophes and periods.
func nameWord(w string) bool {
	if nameParticles[w] {
		return true
	}
	rs := []rune(w)
	if len(rs) == 0 || !unicode.IsUpper(rs[0]) || strings.HasSuffix(w, "-") {
		return false
	}
	if initialsRe.MatchString(w) {
		return true // "E.G.F."
	}
	if len(rs) == 1 || (len(rs) >= 3 && isAllCaps(w)) {
		return false // "A" without a period is an article; "SARS" an acronym
	}
	for _, c := range rs {
		if !(unicode.IsLetter(c) || c == '.' || c == '-' || c == '\'' || c == '’') {
			return false
		}
	}
	return true
}

var abstractLabelRe = regexp.MustCompile(`(?:^|\s)(?:Abstract|ABSTRACT)\s*(?:[—–:.-]\s*|\s+[A-Z])`)

// runInAbstract finds an abstract set as a run-in paragraph ("Abstract—As
// we move ...") among the front-matter leaves.
func runInAbstract(root *papertree.Node) string {
	for _, c := range root.Children {
		if c.Kind != papertree.KindSegment {
			continue
		}
		for _, p := range strings.Split(c.Text, "\n\n") {
			if loc := abstractLabelRe.FindStringIndex(p); loc != nil && len(p) > loc[1]+40 {
				rest := strings.TrimLeft(p[loc[0]:], " ")
				rest = strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(rest, "Abstract"), "ABSTRACT"), " —–:.-")
				return strings.TrimSpace(rest)
			}
		}
	}
	return ""
}

// repeatsTitle reports a candidate that is the paper's title printed again
// (after a publisher's cover page) or the title line of a chapter printed
// on its own ("Chapter 1 The K2NiF4-Type Cuprate" over the rest of the
// title): its text, without a chapter label, is the title or the title's
// first three or more words.
func repeatsTitle(c *heading, title string) bool {
	if title == "" || c.conv || (c.hasNum && c.num.Kind != "chapter") {
		return false
	}
	t := c.text
	if m := chapterRe.FindStringSubmatch(t); m != nil {
		t = m[3]
	}
	k, tk := normKey(t), normKey(title)
	return k == tk || (wordCount(t) >= 3 && len(k) >= 12 && strings.HasPrefix(tk, k))
}
