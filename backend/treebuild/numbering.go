package treebuild

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/papertree"
)

// Numbering is a parsed section number.
type Numbering struct {
	Number string // as printed, without trailing period: "3.2", "A.1", "IV", "2" (for "Chapter 2")
	Depth  int    // 1 for "3", "A", "IV", "Chapter 2"; 2 for "3.2", "A.1"; ...
	Kind   string // "arabic", "letter", "roman", "chapter", "appendix"
	Rest   string // the title after the number
}

var (
	arabicRe   = regexp.MustCompile(`^(\d{1,2}(?:\.\d{1,2}){0,4})(\.?)\s*(.*)$`)
	letterRe   = regexp.MustCompile(`^([A-Z](?:\.\d{1,2}){0,4})(\.?)\s+(.*)$`)
	romanRe    = regexp.MustCompile(`^((?:X{0,3})(?:IX|IV|V?I{0,3}))(\.?)\s+(.*)$`)
	chapterRe  = regexp.MustCompile(`(?i)^(chapter|part)\s+(\d{1,2}|[IVX]{1,5})\b[.:]?\s*(.*)$`)
	appendixRe = regexp.MustCompile(`(?i)^(appendix|appendices|supplementary material)(?:\s+([A-Z](?:\.\d+)*|\d{1,2}))?\b[.:]?\s*(.*)$`)
)

// ParseNumbering recognises the section-number prefix of a heading text.
// It returns ok=false when the text carries no number. Single letters are
// accepted only when followed by a title starting with an upper-case letter
// ("A Proof" would otherwise be ambiguous with the article "A"), and the
// letter form needs a period or a dotted subnumber unless the title follows.
func ParseNumbering(text string) (Numbering, bool) {
	t := strings.TrimSpace(text)
	if m := chapterRe.FindStringSubmatch(t); m != nil {
		return Numbering{Number: m[2], Depth: 1, Kind: "chapter", Rest: m[3]}, true
	}
	if m := appendixRe.FindStringSubmatch(t); m != nil && m[2] != "" {
		return Numbering{Number: m[2], Depth: 1 + strings.Count(m[2], "."), Kind: "appendix", Rest: m[3]}, true
	}
	if m := arabicRe.FindStringSubmatch(t); m != nil {
		rest := m[3]
		deep := strings.Contains(m[1], ".")
		if rest == "" || !(startsTitle(rest) || (deep && startsLowerTitle(rest))) {
			return Numbering{}, false
		}
		// "3 . 2" style or numbers directly glued to words ("2018a") are not numbers.
		if m[2] == "" && len(t) > len(m[1]) && !unicode.IsSpace([]rune(t[len(m[1]):])[0]) {
			return Numbering{}, false
		}
		return Numbering{Number: m[1], Depth: 1 + strings.Count(m[1], "."), Kind: "arabic", Rest: rest}, true
	}
	if m := romanRe.FindStringSubmatch(t); m != nil && m[1] != "" && m[2] == "." {
		if startsTitle(m[3]) {
			return Numbering{Number: m[1], Depth: 1, Kind: "roman", Rest: m[3]}, true
		}
	}
	if m := letterRe.FindStringSubmatch(t); m != nil {
		rest := m[3]
		if !startsTitle(rest) {
			return Numbering{}, false
		}
		dotted := strings.Contains(m[1], ".")
		if !dotted && m[2] == "" {
			// "A Survey of ..." is a title, not appendix A. Accept the bare
			// letter only when the next word is capitalised and the letter is
			// not a common one-letter word.
			if m[1] == "I" {
				return Numbering{}, false
			}
		}
		return Numbering{Number: m[1], Depth: 1 + strings.Count(m[1], "."), Kind: "letter", Rest: rest}, true
	}
	return Numbering{}, false
}

func startsTitle(s string) bool {
	letters := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters < 2 {
		return false // "3 2": figure digits, not "3 Title"
	}
	for _, r := range s {
		return unicode.IsUpper(r) || unicode.IsDigit(r) || strings.ContainsRune("“\"'[(", r)
	}
	return false
}

// conventional section names, normalised (lowercase letters only), with the
// role they imply. Matching is on the heading text without its number.
var conventional = map[string]papertree.Role{
	"abstract": papertree.RoleAbstract, "introduction": "", "relatedwork": "", "relatedworks": "",
	"background": "", "method": "", "methods": "", "methodology": "", "approach": "", "ourapproach": "",
	"model": "", "models": "", "experiments": "", "experiment": "", "experimentalsetup": "",
	"experimentalresults": "", "results": "", "evaluation": "", "analysis": "", "discussion": "",
	"conclusion": "", "conclusions": "", "conclusionsandfuturework": "", "conclusionandfuturework": "",
	"futurework": "", "limitations": "", "ethicsstatement": "", "ethicalconsiderations": "",
	"broaderimpact": "", "references": papertree.RoleReferences, "bibliography": papertree.RoleReferences,
	"referencesandnotes": papertree.RoleReferences, "literaturecited": papertree.RoleReferences,
	"appendix": papertree.RoleAppendix, "appendices": papertree.RoleAppendix,
	"supplementarymaterial": papertree.RoleAppendix, "acknowledgments": papertree.RoleAcks,
	"acknowledgements": papertree.RoleAcks, "acknowledgment": papertree.RoleAcks,
	"acknowledgement": papertree.RoleAcks, "keywords": "", "indexterms": "", "summary": "",
	"relatedresearch": "", "priorwork": "", "previouswork": "", "data": "", "dataset": "", "datasets": "",
	"preliminaries": "", "problemformulation": "", "problemdefinition": "", "motivation": "",
	"casestudy": "", "erroranalysis": "", "ablationstudy": "", "ablationstudies": "",
	"implementationdetails": "", "contents": "", "tableofcontents": "", "listoffigures": "",
	"listoftables": "", "dedication": "", "preface": "", "vita": "", "resumo": "",
	// the same sections in German, French and Spanish papers and theses
	"literatur": papertree.RoleReferences, "literaturverzeichnis": papertree.RoleReferences,
	"bibliographie": papertree.RoleReferences, "références": papertree.RoleReferences,
	"referencias": papertree.RoleReferences, "bibliografía": papertree.RoleReferences,
	"inhaltsverzeichnis": "", "einleitung": "", "zusammenfassung": "", "fazit": "",
	"danksagung": papertree.RoleAcks, "anhang": papertree.RoleAppendix, "remerciements": papertree.RoleAcks,
	"résumé": "", "sommaire": "", "introducción": "", "conclusiones": "", "agradecimientos": papertree.RoleAcks,
}

// lettersOnly lowercases s and keeps only letters.
func lettersOnly(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ConventionalName reports whether a heading text (number removed) is one of
// the conventional section names, and the role it implies.
func ConventionalName(text string) (papertree.Role, bool) {
	t := text
	if n, ok := ParseNumbering(text); ok {
		t = n.Rest
	}
	k := lettersOnly(t)
	r, ok := conventional[k]
	return r, ok
}

// roleFor returns the role a heading implies by its name.
func roleFor(text string) papertree.Role {
	if n, ok := ParseNumbering(text); ok && n.Kind == "appendix" {
		return papertree.RoleAppendix
	}
	r, _ := ConventionalName(text)
	return r
}

// startsLowerTitle accepts a title that starts with a lower-case word
// ("4.4.5 n-positional embeddings", "3.1 bAbI Question-Answering"); it is
// only used after dotted section numbers, which prose rarely starts with.
func startsLowerTitle(s string) bool {
	ws := strings.Fields(s)
	if len(ws) == 0 || len(ws) > 12 || letterCount(s) < 4 {
		return false
	}
	r := []rune(ws[0])
	return unicode.IsLower(r[0]) && !commonLower[strings.ToLower(ws[0])]
}

// commonLower are words that start prose, not titles.
var commonLower = map[string]bool{"and": true, "or": true, "of": true, "the": true, "a": true, "to": true, "in": true,
	"for": true, "is": true, "are": true, "with": true, "on": true, "at": true, "by": true, "we": true, "this": true,
	"that": true, "than": true, "as": true, "percent": true, "times": true, "points": true, "seconds": true}
