package treebuild

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
)

// Front-matter metadata: DOI, arXiv id, year, venue and affiliations, read
// from the first page (and the page after a cover sheet) and the document
// info dictionary. Each value needs evidence: a DOI or arXiv id as printed,
// a venue from a venue-shaped line (or the info subject that a printed line
// confirms), a year printed next to the venue, the DOI's or arXiv id's own
// date, or a copyright line. Nothing is guessed from file names.

var (
	doiRe       = regexp.MustCompile(`\b(10\.\d{4,9}/[^\s"<>,;]+[^\s"<>,;.)\]])`)
	arxivRe     = regexp.MustCompile(`(?i)\barxiv:\s*(\d{4}\.\d{4,5})(v\d+)?|\barxiv\.org/abs/(\d{4}\.\d{4,5})`)
	venueLineRe = regexp.MustCompile(`(?i)^(?:published as a conference paper at|in proceedings of|proceedings of|appearing in|appeared in|accepted (?:at|to|for)|to appear in|presented at)\s+(?:the\s+)?(.{3,140})$`)
	venueWordRe = regexp.MustCompile(`(?i)\b(conference|workshop|symposium|proceedings|journal|transactions|letters|review)\b`)
	yearRe      = regexp.MustCompile(`\b(19[5-9]\d|20[0-4]\d)\b`)
	copyrightRe = regexp.MustCompile(`(?i)(?:©|\(c\)|copyright)\s*(19[5-9]\d|20[0-4]\d)`)
)

// frontMeta fills the paper's metadata from the lines of its first page(s).
func frontMeta(p *papertree.Paper, lines []*line, info pdf.Info, skip map[int]bool, titleLast int, authors []string) {
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
	// DOI and arXiv id: first page text first, then the info dictionary.
	sources := make([]string, 0, len(front)+3)
	for _, l := range front {
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
	for _, l := range front {
		t := strings.TrimSpace(l.text)
		if m := venueLineRe.FindStringSubmatch(t); m != nil && !skip[l.page] && (yearRe.MatchString(m[1]) || venueWordRe.MatchString(m[1]) || isAllCaps(strings.Fields(m[1])[0])) {
			p.Venue = trimVenue(m[1])
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
		for _, l := range front {
			t := strings.TrimSpace(l.text)
			if !skip[l.page] && wordCount(t) <= 14 && venueWordRe.MatchString(t) && yearRe.MatchString(t) && !endsLikeSentence(t) && !captionLike(t) {
				p.Venue = trimVenue(t)
				break
			}
		}
	}
	// Year: printed with the venue, else the arXiv id's YYMM, else a
	// copyright line on the first page.
	if m := yearRe.FindString(p.Venue); m != "" {
		p.Year, _ = strconv.Atoi(m)
	}
	if p.Year == 0 && len(p.ArxivID) >= 4 {
		if yy, err := strconv.Atoi(p.ArxivID[:2]); err == nil && yy >= 7 {
			p.Year = 2000 + yy
		}
	}
	if p.Year == 0 {
		for _, l := range front {
			if m := copyrightRe.FindStringSubmatch(l.text); m != nil {
				p.Year, _ = strconv.Atoi(m[1])
				break
			}
		}
	}
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

// trimVenue drops page ranges and publisher boilerplate after the venue
// name ("..., pages 4171–4186").
func trimVenue(v string) string {
	v = strings.TrimSpace(v)
	if i := strings.Index(strings.ToLower(v), ", pages"); i > 0 {
		v = v[:i]
	}
	return strings.TrimRight(v, " ,.;:")
}
