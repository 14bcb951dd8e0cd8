package treebuild

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/papertree/papertree/backend/papertree"
)

// Prose after a reference list.
//
// A references heading takes every line up to the next heading. When prose
// follows the list without a heading of its own - the next article of a
// journal issue excerpt (a Science report starts right after the previous
// one's "References and Notes"), supplementary text, an appendix whose
// heading typography missed - that prose was filed as bibliography, and
// bibliography is never evidence: a whole paper could become invisible to
// questions. splitProseAfterReferences gives such prose a section of its
// own (untitled: the paper prints none) after the reference list.
//
// A leaf reads as a bibliography entry when it opens like one ("[3]",
// "12."), when it has a year for every 40 words (an entry has one in 10 to
// 40 words; prose, at most the year of a running header), or when three in
// ten of its words are capitalised (author lists, title-case titles; a
// long author list has one year in 100 words, but its words are names).
// Short leaves (under 30 words) decide nothing. Prose resumes at the first
// run of three prose leaves that no entry interrupts, after at least one
// entry. On the 94 development and silver PDFs (numbered, author-year, APA,
// all-capital author and long-author-list styles) it fires on one paper, a
// Science report printed after another article's references; with the
// thresholds loosened to one year per 25 words and four capitals in ten it
// still fires on no bibliography.

const (
	proseMinWords   = 30
	proseYearsPer   = 40 // words per year at which a leaf reads as an entry
	proseMaxCapital = 0.3
	proseRun        = 3
)

var refYearRE = regexp.MustCompile(`\b(19[5-9]\d|20[0-4]\d)[a-z]?\b`)

type refLeafKind int

const (
	refLeafShort refLeafKind = iota
	refLeafEntry
	refLeafProse
)

func classifyRefLeaf(text string) refLeafKind {
	t := strings.TrimSpace(text)
	words := strings.Fields(t)
	if len(words) < proseMinWords {
		return refLeafShort
	}
	if referenceStartRe.MatchString(t) || len(refYearRE.FindAllStringIndex(t, -1))*proseYearsPer >= len(words) {
		return refLeafEntry
	}
	caps := 0
	for _, w := range words {
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsUpper(r) {
			caps++
		}
	}
	if float64(caps) >= proseMaxCapital*float64(len(words)) {
		return refLeafEntry
	}
	return refLeafProse
}

// proseStart returns the index in leaves where prose resumes, or -1.
func proseStart(leaves []*papertree.Node) int {
	entries, run, start := 0, 0, -1
	for i, n := range leaves {
		if n.Kind == papertree.KindCaption {
			continue
		}
		switch classifyRefLeaf(n.Text) {
		case refLeafEntry:
			entries++
			run = 0
		case refLeafProse:
			if entries == 0 {
				continue
			}
			if run == 0 {
				start = i
			}
			if run++; run == proseRun {
				return start
			}
		}
	}
	return -1
}

// splitProseAfterReferences moves the prose that follows a reference list
// (and everything after it in that section) into an untitled section of
// the same level right after the list.
func splitProseAfterReferences(n *papertree.Node) {
	for i := 0; i < len(n.Children); i++ {
		c := n.Children[i]
		if c.Kind != papertree.KindSection {
			continue
		}
		if c.Role != papertree.RoleReferences {
			splitProseAfterReferences(c)
			continue
		}
		k := proseStart(c.Children)
		if k < 0 {
			continue
		}
		for _, x := range c.Children[k:] {
			if !x.IsLeaf() {
				return // a subsection inside the list: leave the structure alone
			}
		}
		rest := &papertree.Node{Kind: papertree.KindSection, Level: c.Level, PageStart: c.Children[k].PageStart,
			PageEnd: c.PageEnd, Children: append([]*papertree.Node(nil), c.Children[k:]...)}
		c.Children = c.Children[:k]
		n.Children = append(n.Children[:i+1], append([]*papertree.Node{rest}, n.Children[i+1:]...)...)
		i++
	}
}
