package library

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
	"github.com/papertree/papertree/backend/store"
)

// detailPaper is the paper a question about a publication speaks of: the
// one paper it is asked of, or the paper a library-wide question names
// (within the papers it is asked of, when several are). 0: none.
func detailPaper(scope []int64, identified int64) int64 {
	switch {
	case len(scope) == 1:
		return scope[0]
	case len(scope) == 0 || slices.Contains(scope, identified):
		return identified
	}
	return 0
}

// detailAnswer answers a question about a paper as a publication
// (query.Question.Detail: "Who wrote the BERT paper?") from the paper's
// details as the library lists them: the researcher's correction, else
// the reference manager's record, else what was read from the PDF
// (applyRef); the reply names the paper and where the value comes from.
// Its text was the wrong place to look: the passages that match "who
// wrote" are other papers' sentences about writing. ok is false when the
// paper's details hold no such value: the question then gets the
// ordinary answer from the text (a front page may print it).
func (l *Library) detailAnswer(ctx context.Context, id int64, detail string) (text string, ok bool) {
	p, err := l.PaperRefByID(ctx, id)
	if err != nil {
		return "", false
	}
	// The reference manager's own record says which values came from it.
	m, _, err := l.store.RefByPath(ctx, p.Path)
	if err != nil {
		return "", false
	}
	title := strings.TrimSpace(p.Title)
	if title == "" {
		title = filepath.Base(p.Path)
	}
	year := ""
	if p.Year > 0 {
		year = fmt.Sprintf(" (%d)", p.Year)
	}
	var field string
	switch detail {
	case query.DetailAuthors:
		if len(p.Authors) == 0 {
			return "", false
		}
		field, text = store.FieldAuthors, fmt.Sprintf("“%s”%s is by %s.", title, year, papertree.JoinAnd(p.Authors))
	case query.DetailYear:
		if p.Year <= 0 {
			return "", false
		}
		field, text = store.FieldYear, fmt.Sprintf("“%s” is from %d.", title, p.Year)
	case query.DetailVenue:
		if strings.TrimSpace(p.Venue) == "" {
			return "", false
		}
		field, text = store.FieldVenue, venueSentence(title, p.Venue, p.Year)
	case query.DetailDOI:
		switch {
		case p.DOI != "":
			field, text = store.FieldDOI, fmt.Sprintf("The DOI of “%s” is %s.", title, p.DOI)
		case p.ArxivID != "":
			text = fmt.Sprintf("“%s” has no DOI in its details; it is arXiv:%s.", title, p.ArxivID)
		default:
			return "", false
		}
	default:
		return "", false
	}
	source := "Read from the PDF."
	switch {
	case field != "" && slices.Contains(p.Edited, field):
		source = "As you corrected it."
	case field != "" && m.Path != "" && refHolds(m, field):
		source = map[string]string{store.SourceZotero: "From Zotero.", store.SourceBibTeX: "From BibTeX."}[m.Source]
		if source == "" {
			source = "From the reference manager."
		}
	}
	return text + " (" + source + ")", true
}

// refHolds reports whether a reference manager's record gives field.
func refHolds(m store.RefMeta, field string) bool {
	switch field {
	case store.FieldAuthors:
		return len(m.Authors) > 0
	case store.FieldYear:
		return m.Year > 0
	case store.FieldVenue:
		return m.Venue != ""
	case store.FieldDOI:
		return m.DOI != ""
	}
	return false
}

// detailUnnamed is the reply to a question about a paper's details that
// names no one paper of those it is asked of: the details of a paper
// guessed from passages would be stated of the wrong paper. The papers the
// closest passages come from (titles, in the evidence's order) are named,
// so that the researcher can ask the one meant.
func detailUnnamed(titles []string) string {
	const lead = "The question asks about a paper's details (who wrote it, when or where it appeared), but it does not name one paper of these clearly."
	if len(titles) == 0 {
		return lead + " Ask it of the paper itself, or name it by its title."
	}
	quoted := make([]string, len(titles))
	for i, t := range titles {
		quoted[i] = "“" + t + "”"
	}
	return fmt.Sprintf("%s The closest passages below come from %s: ask it of the paper meant, or name it by its title.", lead, papertree.JoinAnd(quoted))
}

// statusRE finds a manuscript's status printed with its venue line
// ("Automated Knowledge Base Construction (2019) Under review").
var statusRE = regexp.MustCompile(`(?i)\b(under review|under submission|in submission|submitted(?: to)?|to appear(?: in)?)\b[\s.:,;]*`)

// venueSentence says where a paper appeared: "“T” appeared in V (Y)."; a
// venue line that gives the year is not followed by it again, and one that
// says the paper was under review or to appear says so instead of
// "appeared" (a first page's "Under review" is not a publication).
func venueSentence(title, venue string, year int) string {
	v := strings.TrimSpace(venue)
	verb := "appeared in"
	if m := statusRE.FindStringSubmatchIndex(v); m != nil {
		toAppear := strings.HasPrefix(strings.ToLower(v[m[2]:m[3]]), "to appear")
		v = strings.Join(strings.Fields(strings.Trim(v[:m[0]]+" "+v[m[1]:], " ,;:.")), " ")
		switch {
		case v == "" && year > 0:
			return fmt.Sprintf("“%s” was under review in %d.", title, year)
		case v == "":
			return fmt.Sprintf("“%s” was under review.", title)
		case toAppear:
			verb = "was to appear in"
		default:
			verb = "was under review at"
		}
	}
	if y := strconv.Itoa(year); year > 0 && !strings.Contains(v, y) {
		v += " (" + y + ")"
	}
	return fmt.Sprintf("“%s” %s %s.", title, verb, v)
}
