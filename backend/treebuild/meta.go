package treebuild

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
)

// Front-matter metadata: DOI, arXiv id, year, venue and affiliations, read
// from the first page (and the page after a cover sheet), the arXiv stamp
// set rotated in the margin, and the document info dictionary. Each value
// needs evidence: a DOI or arXiv id as printed, a venue from a venue-shaped
// line (or the info subject that a printed line confirms), a year printed
// with the stamp, the venue or journal line, a publication date, a
// copyright line or a dated title page. Nothing is guessed from file names.

var (
	doiRe       = regexp.MustCompile(`\b(10\.\d{4,9}/[^\s"<>,;]+[^\s"<>,;.)\]])`)
	arxivRe     = regexp.MustCompile(`(?i)\barxiv:\s*(\d{4}\.\d{4,5}|[a-z][a-z.-]*/\d{7})(v\d+)?|\barxiv\.org/abs/(\d{4}\.\d{4,5})`)
	venueLineRe = regexp.MustCompile(`(?i)^(?:published as a conference paper at|in proceedings of|proceedings of|appearing in|appeared in|accepted (?:at|to|for)|to appear in|presented at)\s+(?:the\s+)?(.{3,140})$`)
	venueWordRe = regexp.MustCompile(`(?i)\b(conference|workshop|symposium|proceedings|journal|transactions|letters|review)\b`)
	yearRe      = regexp.MustCompile(`\b(19[5-9]\d|20[0-4]\d)\b`)
	// copyrightRe: "© 2016", "© The Author(s) 2016", "© Springer
	// International Publishing Switzerland 2016" (up to eight words before
	// the year).
	copyrightRe = regexp.MustCompile(`(?i)(?:©|\(c\)|copyright)\s*(?:[^\s\d©]+\s+){0,8}?(19[5-9]\d|20[0-4]\d)\b`)
	// stampDateRe reads the date of an arXiv stamp ("arXiv:1706.03762v5
	// [cs.CL] 6 Dec 2017").
	stampDateRe = regexp.MustCompile(`(?i)\barxiv:\s*\S+\s*\[[^\]]{2,20}\]\s*\d{1,2}\s*[a-z]{3,9}\.?\s*(19[5-9]\d|20[0-4]\d)\b`)
	// journalLineRe: a journal's running line, with a volume or issue next
	// to the year ("Cognition 157 (2016) 139–145", "Neural Computation 18,
	// 1527–1554 (2006)", "Econometrica, Vol. 76, No. 2 (March, 2008)",
	// "Immunology. 2022;165:141–142", "NATURE PHYSICS | VOL 12 | SEPTEMBER 2016").
	journalLineRe = regexp.MustCompile(`(?i)\bvol(?:ume)?\.?\s*\d|\d\s*\((?:[a-z]+\.?,?\s*)?(?:19[5-9]\d|20[0-4]\d)\)|\((?:19[5-9]\d|20[0-4]\d)\)\s*\d|\b(?:19[5-9]\d|20[0-4]\d)\s*[;,]\s*\d+\s*[:(,]|\d+\s*\(\d+\)\s*,\s*\d`)
	// publishedRe: a printed publication date ("Published online: 10
	// October 2007", "date of publication March 7, 2019").
	publishedRe = regexp.MustCompile(`(?i)\b(?:published(?: online)?|date of publication|first published)\s*:?\s*(?:[a-z]*\s*)?(?:\d{1,2}\s+)?[a-z]*\.?\s*(?:\d{1,2},?\s+)?(19[5-9]\d|20[0-4]\d)\b`)
	// dateLineRe: a line that is only a date ("November 24, 2020", "Date:
	// 14 August 2017", "CGMPort.tex, January 9, 2020"): a dated title page
	// or draft.
	// numericDateRe: a labelled date in figures ("Datum: 28.12.23",
	// "Date: 14/08/2017"); day first or month first, the year last.
	numericDateRe = regexp.MustCompile(`(?i)^(?:date|datum|dated|fecha|data)\s*:?\s*\d{1,2}[./-]\d{1,2}[./-](\d{4}|\d{2})$`)
	// shortYearRe: a venue with a two-digit year after an apostrophe
	// ("CSCW’14, February 15–19", "Security & Privacy ’21", "KDD '16").
	shortYearRe = regexp.MustCompile(`(?:^|[\s(])\p{Lu}[\p{L}&]*(?:\s+&\s+\p{Lu}\p{L}*)?\s?['’‘](\d{2})(?:[^\d\p{L}]|$)`)
	// ordinalVenueRe: a venue line that starts with the meeting's number
	// ("35th Conference on Neural Information Processing Systems (NeurIPS
	// 2021).").
	ordinalVenueRe = regexp.MustCompile(`(?i)^\d{1,3}(?:st|nd|rd|th)\s+(?:[\p{L}-]+\s+){0,4}?(?:conference|workshop|symposium|meeting|congress)\b.*\b(?:19[5-9]\d|20[0-4]\d)\b`)
	dateLineRe     = regexp.MustCompile(`(?i)^(?:[^\s,]+\.tex,\s*|date:\s*)?(?:\d{1,2}\s+)?(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+(?:\d{1,2},?\s+)?(19[5-9]\d|20[0-4]\d)$`)
	// coverDateRe: a month and year on a repository cover sheet ("Conference
	// Paper · June 2006", "(CVPR '05), Jun 2005, San Diego"); the sheet's
	// own dates (deposit, upload, download) are not the paper's.
	coverDateRe = regexp.MustCompile(`(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(19[5-9]\d|20[0-4]\d)\b`)
	// refEntryRe: a reference-list entry or its continuation ("2. J. B.
	// Pendry, Phys. Rev. Lett. 85, 3966 (2000).").
	refEntryRe     = regexp.MustCompile(`^\s*(?:\[\d{1,3}\]|\d{1,3}\.\s+[A-Z]\.)|\bet al\b|\)\.\s*$`)
	coverOwnDateRe = regexp.MustCompile(`(?i)submitted|uploaded|downloaded|deposited|accessed|retrieved|last updated`)
)

// stampTexts returns the rotated text of a page (the arXiv stamp up the
// left margin arrives as rotated word runs), joined in content order.
func stampTexts(doc *pdf.Document, pages map[int]bool) []string {
	var out []string
	for _, pg := range doc.Pages {
		if !pages[pg.Number] {
			continue
		}
		var parts []string
		for _, r := range pg.Runs {
			if r.Rotated {
				parts = append(parts, strings.TrimSpace(r.Text))
			}
		}
		if len(parts) > 0 {
			out = append(out, strings.Join(parts, " "))
		}
	}
	return out
}

// frontMeta fills the paper's metadata from the lines of its first page(s).
func frontMeta(p *papertree.Paper, lines []*line, doc *pdf.Document, skip map[int]bool, titleLast int, authors []string) {
	info := doc.Info
	first := 0
	for _, l := range lines {
		if !skip[l.page] {
			first = l.page
			break
		}
	}
	var front []*line
	for _, l := range lines {
		if l.page == first || (skip[l.page] && l.page < first) {
			front = append(front, l)
		}
	}
	frontPages := map[int]bool{first: true}
	for pg := range skip {
		if pg < first {
			frontPages[pg] = true
		}
	}
	stamps := stampTexts(doc, frontPages)
	// The running header and footer of the first page carry the journal
	// line and often the DOI ("Journal of Physics: Conference Series 2188
	// (2022) 012011  doi:10.1088/..."); the line builder drops them as
	// furniture, so the first page's lines are built again with them.
	var furniture []*line
	for i, pg := range doc.Pages {
		n := pg.Number
		if n <= 0 {
			n = i + 1
		}
		if n == first {
			furniture = pageLines(pg, n, pageRuns(pg), nil)
			break
		}
	}
	// DOI and arXiv id: the stamp and the first page text first, then the
	// info dictionary.
	sources := make([]string, 0, len(stamps)+len(front)+len(furniture)+3)
	sources = append(sources, stamps...)
	for _, l := range front {
		sources = append(sources, l.text)
	}
	for _, l := range furniture {
		sources = append(sources, l.text)
	}
	sources = append(sources, info.Subject, info.Keywords, info.Title)
	for _, t := range sources {
		if p.DOI == "" {
			if m := doiRe.FindStringSubmatch(t); m != nil {
				p.DOI = strings.TrimRightFunc(m[1], func(r rune) bool { return r == '.' || !unicode.IsPrint(r) })
			}
		}
		if p.ArxivID == "" {
			if m := arxivRe.FindStringSubmatch(t); m != nil {
				p.ArxivID = m[1] + m[2]
				if m[1] == "" {
					p.ArxivID = m[3]
				}
			}
		}
	}
	// Venue: a venue-shaped line on the first page ("Published as a
	// conference paper at ICLR 2021", "Proceedings of NAACL-HLT 2018,
	// pages ..."), else the info subject's first clause when a printed line
	// carries it (Elsevier: "Neurocomputing, Corrected proof. doi:...").
	venueAt := -1
	for i, l := range front {
		t := strings.TrimSpace(l.text)
		if m := venueLineRe.FindStringSubmatch(t); m != nil && !skip[l.page] && (yearRe.MatchString(m[1]) || venueWordRe.MatchString(m[1]) || isAllCaps(strings.Fields(m[1])[0])) {
			p.Venue = trimVenue(m[1])
			venueAt = i
			break
		}
		if ordinalVenueRe.MatchString(t) && !skip[l.page] && wordCount(t) <= 20 {
			p.Venue = trimVenue(t)
			venueAt = i
			break
		}
	}
	if p.Venue == "" && info.Subject != "" {
		clause := strings.TrimSpace(strings.SplitN(info.Subject, ",", 2)[0])
		if letterCount(clause) >= 4 && wordCount(clause) <= 10 && !doiRe.MatchString(clause) {
			k := normKey(clause)
			for _, l := range front {
				if normKey(l.text) == k {
					p.Venue = clause
					break
				}
			}
		}
	}
	if p.Venue == "" {
		for i, l := range front {
			t := strings.TrimSpace(l.text)
			if !skip[l.page] && wordCount(t) <= 14 && venueWordRe.MatchString(t) && yearRe.MatchString(t) && !endsLikeSentence(t) && !captionLike(t) {
				p.Venue = trimVenue(t)
				venueAt = i
				break
			}
		}
	}
	p.Year = frontYear(p, front, furniture, stamps, venueAt, skip, info)
	// Affiliations: affiliation-shaped lines of the title block (between the
	// title and the abstract or first section), without e-mail lines.
	if titleLast >= 0 {
		seen := map[string]bool{}
		page := lines[titleLast].page
		for i := titleLast + 1; i < len(lines) && i <= titleLast+16 && lines[i].page == page; i++ {
			t := strings.TrimSpace(lines[i].text)
			if _, conv := ConventionalName(t); conv || abstractLabelRe.MatchString(t) {
				break
			}
			if !titleCase(strings.TrimLeft(t, "*†‡§¶0123456789^♠♥♦♣αβγδτωη□⋄♢♡ ")) || emailRe.MatchString(t) || !affiliationRe.MatchString(t) || endsLikeSentence(t) || wordCount(t) > 20 {
				continue
			}
			t = strings.Trim(t, " *†‡§¶0123456789,;")
			if name, ok := namePrefix(t); ok {
				t = strings.TrimSpace(strings.TrimPrefix(t[len(name):], ","))
				if strings.HasPrefix(strings.ToUpper(lines[i].text), strings.ToUpper(name)) {
					t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[i].text)[len(name):], ","))
				}
			}
			if t == "" || seen[t] || containsAny(t, authors) {
				continue
			}
			seen[t] = true
			p.Affiliations = append(p.Affiliations, t)
			if len(p.Affiliations) >= 12 {
				break
			}
		}
	}
}

func containsAny(t string, names []string) bool {
	for _, n := range names {
		if strings.Contains(t, n) {
			return true
		}
	}
	return false
}

// historyRe finds a submission history printed after a journal's name
// ("Journal of Machine Learning Research 11 (2010) 3371-3408  Submitted
// 3/10; Revised 11/10; Published 12/10").
var historyRe = regexp.MustCompile(`(?i)\b(?:submitted|received|revised|accepted|published)\b[\s:]*\d`)

// trimVenue drops page ranges, a submission history and publisher
// boilerplate after the venue name ("..., pages 4171–4186").
func trimVenue(v string) string {
	v = strings.TrimSpace(v)
	if i := strings.Index(strings.ToLower(v), ", pages"); i > 0 {
		v = v[:i]
	}
	if loc := historyRe.FindStringIndex(v); loc != nil && loc[0] > 0 {
		v = v[:loc[0]]
	}
	return strings.TrimRight(v, " ,.;:")
}

// frontYear picks the paper's year from the evidence on its first page, in
// order of trust: the arXiv stamp's date (the date of this version); the
// venue line (or the line under it: ACL prints the place and date there);
// a journal's running line with its volume; a printed publication date; a
// copyright line; a dated title page; a repository cover sheet's citation;
// the info subject; and last the arXiv id's year and month.
func frontYear(p *papertree.Paper, front, furniture []*line, stamps []string, venueAt int, skip map[int]bool, info pdf.Info) int {
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	for _, t := range stamps {
		if m := stampDateRe.FindStringSubmatch(t); m != nil {
			return atoi(m[1])
		}
	}
	for _, l := range front {
		if m := stampDateRe.FindStringSubmatch(l.text); m != nil {
			return atoi(m[1])
		}
	}
	if m := yearRe.FindString(p.Venue); m != "" {
		return atoi(m)
	}
	if venueAt >= 0 && venueAt+1 < len(front) {
		a, b := front[venueAt], front[venueAt+1]
		if a.page == b.page && math.Abs(b.y-a.y) < 2.5*a.size && wordCount(b.text) <= 16 {
			if m := yearRe.FindString(b.text); m != "" {
				return atoi(m)
			}
		}
	}
	var onPage []*line
	for _, l := range front {
		if !skip[l.page] {
			onPage = append(onPage, l)
		}
	}
	// A journal or venue line sits in the page's head or foot band; the one
	// nearest the page's edge wins (a reference list of the previous
	// article can reach into the band, never past the running line).
	best, bestEdge := 0, math.Inf(1)
	for _, l := range furniture {
		edge := math.Min(l.y, l.pageH-l.y)
		if edge > 0.16*l.pageH || wordCount(l.text) > 20 || refEntryRe.MatchString(l.text) {
			continue
		}
		if !journalLineRe.MatchString(l.text) && !venueWordRe.MatchString(l.text) {
			continue
		}
		if m := yearRe.FindString(l.text); m != "" && edge < bestEdge {
			best, bestEdge = atoi(m), edge
		}
	}
	if best != 0 {
		return best
	}
	for _, re := range []*regexp.Regexp{publishedRe, copyrightRe} {
		for _, l := range onPage {
			if m := re.FindStringSubmatch(l.text); m != nil {
				return atoi(m[1])
			}
		}
	}
	// A dated title page or draft: a line, or a part of a line set apart by
	// a wide gap ("March 4, 2021" left of a licence badge in the footer),
	// that is only a date.
	for _, l := range append(onPage, furniture...) {
		for _, part := range lineParts(l) {
			if m := dateLineRe.FindStringSubmatch(part); m != nil {
				return atoi(m[1])
			}
			if m := numericDateRe.FindStringSubmatch(part); m != nil {
				return fullYear(atoi(m[1]))
			}
		}
	}
	// A title page (few lines: a thesis, a report) may print the year
	// alone on a line.
	if len(onPage) > 0 && len(onPage) < 40 {
		for _, l := range onPage {
			if t := strings.TrimSpace(l.text); len(t) == 4 && yearRe.MatchString(t) {
				return atoi(t)
			}
		}
	}
	// A venue with a two-digit year ("CSCW’14") in the head or foot of the
	// page (a submission line, the ACM permission block).
	for _, l := range append(onPage, furniture...) {
		if (l.y < 0.3*l.pageH || l.y > 0.8*l.pageH) && strings.ContainsAny(l.text, "'’‘") && wordCount(l.text) <= 20 && !refEntryRe.MatchString(l.text) {
			if m := shortYearRe.FindStringSubmatch(l.text); m != nil {
				return fullYear(atoi(m[1]))
			}
		}
	}
	for _, l := range front {
		if skip[l.page] && !coverOwnDateRe.MatchString(l.text) {
			if m := coverDateRe.FindStringSubmatch(l.text); m != nil {
				return atoi(m[1])
			}
		}
	}
	if m := yearRe.FindString(info.Subject); m != "" {
		return atoi(m)
	}
	if len(p.ArxivID) >= 4 {
		if yy, err := strconv.Atoi(p.ArxivID[:2]); err == nil && yy >= 7 && p.ArxivID[4] == '.' {
			return 2000 + yy
		}
	}
	return 0
}

// fullYear reads a two-digit year as the nearest past one ("23" is 2023,
// "97" is 1997); four-digit years are returned as they are.
func fullYear(y int) int {
	if y >= 100 {
		return y
	}
	if y <= time.Now().Year()%100+1 {
		return 2000 + y
	}
	return 1900 + y
}

// lineParts splits a line's text at gaps wider than two ems (parts of a
// head or foot line set apart: a date at the left, a badge at the right).
func lineParts(l *line) []string {
	if l.maxGap <= 2*l.size {
		return []string{strings.TrimSpace(l.text)}
	}
	var parts []string
	var b strings.Builder
	for i, r := range l.runs {
		if i > 0 {
			prev := l.runs[i-1]
			if r.X-(prev.X+runWidth(prev)) > 2*l.size {
				parts = append(parts, strings.TrimSpace(b.String()))
				b.Reset()
			} else if spaceBetween(prev, r) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(cleanText(r.Text))
	}
	return append(parts, strings.TrimSpace(b.String()))
}

// citationLine reports a journal citation line ("Group Decision and
// Negotiation, 2001, Vol. 10, No. 6, (493-514)."): a volume or issue next
// to a year. Such a line is never the paper's title.
func citationLine(t string) bool {
	return journalLineRe.MatchString(t) && yearRe.MatchString(t)
}
