// Package report renders saved answers as documents a researcher can keep or
// share: Markdown, a self-contained HTML page, a PDF and a DOCX file.
//
// Data flow: the caller loads one answer or a question history
// (papertree.Answer values, e.g. from store.Answer/ListAnswers) plus the
// metadata of the papers they cite, puts them in a Doc and calls Write with a
// format name. Every format is rendered from the same intermediate view
// (buildView), so all four show the same content: the question, the answer
// with its [n] citation markers, each cited passage with its paper, its
// root-to-leaf path ("Paper › Section › Subsection"), pages and exact
// excerpt, the diagnostics and settings the answer was made with, its date,
// and a bibliography of the cited papers.
//
// Invariants:
//   - Output depends only on the Doc: no clock, no map iteration order, no
//     randomness. With a fixed Doc.Generated the bytes are identical from run
//     to run (golden tests rely on it).
//   - Text from PDFs and LLMs is untrusted. HTML escapes all of it (html/template)
//     and loads nothing external; Markdown backslash-escapes the characters that
//     would turn it into markup or raw HTML; DOCX escapes it as XML.
//   - The PDF needs no tool on the user's machine: it is drawn with a pure-Go
//     library and embeds DejaVu Sans (Latin, Greek, Cyrillic) plus, only when
//     the report has CJK text, Droid Sans Fallback (fonts/README.md). Other
//     scripts (e.g. Hangul, Arabic shaping) keep their text layer but may lack
//     glyphs.
//   - A citation marker links to its source only when n names an evidence item
//     of that answer; other bracketed numbers stay plain text.
package report

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

// PaperMeta is what the bibliography knows about a paper.
type PaperMeta struct {
	Title   string
	Authors []string
	Year    int    // 0 = unknown
	File    string // path of the PDF; shown as a last resort when there is no title
	// CitationKey is the paper's key in the researcher's reference manager
	// (Zotero/Better BibTeX, a .bib file); shown next to the entry. "" = none.
	CitationKey string
}

// Doc is one report: one answer or a question history.
type Doc struct {
	Answers   []papertree.Answer
	Papers    map[int64]PaperMeta // by paper id; missing papers fall back to the evidence's title
	Title     string              // "" = a default title
	Generated time.Time           // shown in the header; fix it for reproducible output
	Tables    []Table             // comparison tables, after the answers (table.go)
}

// Formats lists the supported format names.
func Formats() []string { return []string{"md", "html", "pdf", "docx"} }

// Ext returns the usual file extension of a format (with the dot).
func Ext(format string) string { return "." + normFormat(format) }

func normFormat(f string) string {
	switch strings.ToLower(strings.TrimPrefix(f, ".")) {
	case "md", "markdown":
		return "md"
	case "html", "htm":
		return "html"
	case "pdf":
		return "pdf"
	case "docx", "word":
		return "docx"
	}
	return ""
}

// Write renders d in format (one of Formats, case-insensitive; "markdown" and
// "htm" are accepted too). An unknown format is an EInvalid error.
func Write(w io.Writer, format string, d Doc) error {
	switch normFormat(format) {
	case "md":
		return Markdown(w, d)
	case "html":
		return HTML(w, d)
	case "pdf":
		return PDF(w, d)
	case "docx":
		return DOCX(w, d)
	}
	return papertree.Errorf(papertree.EInvalid, "Unknown report format %q (have: %s).", format, strings.Join(Formats(), ", "))
}

// view is the format-independent content of a report.
type view struct {
	Title     string
	Generated string
	Count     string // "1 answer", "12 answers"
	Answers   []answerView
	Biblio    []bibEntry
	Tables    []tableView
}

type answerView struct {
	N        int    // 1-based position in the report
	Anchor   string // "q1"
	Question string
	Date     string
	Kind     string // "Extractive answer", "Generated answer", "Not answered"
	KindNote string
	NotFound bool
	Extract  bool
	Text     []seg
	Sources  []sourceView
	Settings []kv
	Diag     []kv
}

// seg is a piece of answer text: plain text, a citation number (Ref > 0)
// that links to source Ref, or the brackets and commas around citation
// numbers (Mark). A marker ("[1, 2]") is a run of Mark and Ref segments that
// renderers keep together.
type seg struct {
	Text   string
	Ref    int
	Mark   bool
	Anchor string // the source's anchor when Ref > 0
}

type sourceView struct {
	N        int
	Anchor   string // "q1-s2"
	Paper    string
	PaperRef int // 1-based bibliography number
	Path     string
	Pages    string
	Score    string
	Excerpt  string
	Cited    bool
	// Grid is the table a table leaf holds (papertree.ParseTable), shown
	// as a table where the format has them; Excerpt then reads it one row
	// per line with " | " between cells (PDF, DOCX).
	Grid *gridView
}

// gridView is a table leaf's header (may be empty) and rows, every row
// padded to the same number of cells.
type gridView struct {
	Caption string
	Header  []string
	Rows    [][]string
}

// gridOf reads a table leaf's text; nil when it holds no cells.
func gridOf(text string) *gridView {
	t := papertree.ParseTable(text)
	h, rows := t.Header, t.Rows
	n := len(h)
	for _, r := range rows {
		n = max(n, len(r))
	}
	if n == 0 || len(rows) == 0 {
		return nil
	}
	pad := func(r []string) []string {
		out := make([]string, n)
		for i := range out {
			if i < len(r) {
				out[i] = oneLine(r[i])
			}
		}
		return out
	}
	g := &gridView{Caption: oneLine(t.Caption)}
	if len(h) > 0 {
		g.Header = pad(h)
	}
	for _, r := range rows {
		g.Rows = append(g.Rows, pad(r))
	}
	return g
}

// text is the grid one row per line, cells joined by " | ".
func (g *gridView) text() string {
	var ls []string
	if g.Caption != "" {
		ls = append(ls, g.Caption)
	}
	if len(g.Header) > 0 {
		ls = append(ls, strings.Join(g.Header, " | "))
	}
	for _, r := range g.Rows {
		ls = append(ls, strings.Join(r, " | "))
	}
	return strings.Join(ls, "\n")
}

type kv struct{ K, V string }

type bibEntry struct {
	N       int
	Anchor  string
	Authors string
	Year    string
	Title   string
	Key     string // citation key, "" = none
}

// pathSep joins the titles of a root-to-leaf path.
const pathSep = " › "

var markerRE = regexp.MustCompile(`\[\d+(?:\s*,\s*\d+)*\]`)
var numRE = regexp.MustCompile(`\d+`)

func buildView(d Doc) view {
	v := view{Title: strings.TrimSpace(d.Title)}
	if v.Title == "" {
		if len(d.Answers) == 1 {
			v.Title = "PaperTree answer report"
		} else {
			v.Title = "PaperTree question history"
		}
	}
	if !d.Generated.IsZero() {
		v.Generated = d.Generated.UTC().Format("2006-01-02 15:04 UTC")
	}
	if len(d.Answers) == 1 {
		v.Count = "1 answer"
	} else {
		v.Count = fmt.Sprintf("%d answers", len(d.Answers))
	}
	if v.Tables = tablesView(d.Tables); len(d.Answers) == 0 && len(v.Tables) > 0 {
		v.Count = tableCount(len(v.Tables))
		if strings.TrimSpace(d.Title) == "" {
			v.Title = "PaperTree comparison"
		}
	}
	bibIdx := map[int64]int{} // paper id -> 1-based entry
	for i := range d.Answers {
		a := &d.Answers[i]
		av := answerView{N: i + 1, Anchor: fmt.Sprintf("q%d", i+1), Question: clean(a.Question),
			NotFound: a.NotFound, Extract: a.Mode != "llm"}
		if !a.CreatedAt.IsZero() {
			av.Date = a.CreatedAt.UTC().Format("2006-01-02 15:04 UTC")
		}
		switch {
		case a.NotFound && av.Extract:
			av.Kind = "Not answered (extractive)"
			av.KindNote = "The library holds no passage that answers this question; the text below says so and may point to the closest passage."
		case a.NotFound:
			av.Kind = "Not answered (generated)"
			av.KindNote = "The library holds no passage that answers this question; the text below says so and may point to the closest passage."
		case a.Mode == papertree.ModeDetails:
			av.Kind = "From the paper's details"
			av.KindNote = "Who wrote the paper, when and where it appeared, read from its details (the researcher's corrections, the reference manager's record, or its PDF), not from its text; no language model was used."
		case av.Extract:
			av.Kind = "Extractive answer"
			av.KindNote = "Sentences quoted verbatim from the papers; no language model was used."
		default:
			av.Kind = "Generated answer"
			av.KindNote = "Written by a language model from the passages listed below; every claim should carry a citation."
		}
		cited := map[int]bool{}
		av.Text = splitMarkers(clean(a.Text), len(a.Evidence), av.Anchor, cited)
		for j, e := range a.Evidence {
			id := e.PaperID
			if _, ok := bibIdx[id]; !ok {
				bibIdx[id] = len(v.Biblio) + 1
				v.Biblio = append(v.Biblio, bibFor(len(v.Biblio)+1, d.Papers[id], e))
			}
			sv := sourceView{N: j + 1, Anchor: fmt.Sprintf("%s-s%d", av.Anchor, j+1),
				Paper: paperTitle(d.Papers[id], e), PaperRef: bibIdx[id], Path: pathString(e),
				Pages: pagesString(e.Pages), Excerpt: clean(e.Text), Cited: cited[j+1]}
			if e.Role == papertree.RoleTable {
				if sv.Grid = gridOf(sv.Excerpt); sv.Grid != nil {
					sv.Excerpt = sv.Grid.text()
				}
			}
			if e.Score != 0 {
				sv.Score = strconv.FormatFloat(e.Score, 'f', 3, 64)
			}
			av.Sources = append(av.Sources, sv)
		}
		av.Settings = settingsOf(a)
		av.Diag = diagOf(a.Diag)
		v.Answers = append(v.Answers, av)
	}
	return v
}

// splitMarkers cuts text into plain segments and citation numbers. A marker
// is linked only when all its numbers name evidence (1..n); cited collects
// the numbers that were linked.
func splitMarkers(text string, n int, anchor string, cited map[int]bool) []seg {
	var out []seg
	plain := func(s string, mark bool) {
		if s == "" {
			return
		}
		if k := len(out); k > 0 && out[k-1].Ref == 0 && out[k-1].Mark == mark {
			out[k-1].Text += s
			return
		}
		out = append(out, seg{Text: s, Mark: mark})
	}
	last := 0
	for _, m := range markerRE.FindAllStringIndex(text, -1) {
		mk := text[m[0]:m[1]]
		nums := numRE.FindAllStringIndex(mk, -1)
		ok := true
		for _, x := range nums {
			k, err := strconv.Atoi(mk[x[0]:x[1]])
			if err != nil || k < 1 || k > n {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		plain(text[last:m[0]], false)
		prev := 0
		for _, x := range nums {
			k, _ := strconv.Atoi(mk[x[0]:x[1]])
			plain(mk[prev:x[0]], true)
			out = append(out, seg{Text: mk[x[0]:x[1]], Ref: k, Anchor: fmt.Sprintf("%s-s%d", anchor, k)})
			cited[k] = true
			prev = x[1]
		}
		plain(mk[prev:], true)
		last = m[1]
	}
	plain(text[last:], false)
	return out
}

func paperTitle(m PaperMeta, e papertree.Evidence) string {
	for _, s := range []string{m.Title, e.PaperTitle, firstOf(e.Path), m.File} {
		if s = clean(s); s != "" {
			return s
		}
	}
	if e.PaperID != 0 {
		return fmt.Sprintf("Paper %d", e.PaperID)
	}
	return "Untitled paper"
}

func firstOf(p []string) string {
	if len(p) == 0 {
		return ""
	}
	return p[0]
}

func bibFor(n int, m PaperMeta, e papertree.Evidence) bibEntry {
	b := bibEntry{N: n, Anchor: fmt.Sprintf("p%d", n), Title: strings.TrimRight(paperTitle(m, e), ". ")}
	var as []string
	for _, a := range m.Authors {
		if a = clean(a); a != "" {
			as = append(as, a)
		}
	}
	b.Authors = joinAuthors(as)
	b.Key = oneLine(clean(m.CitationKey))
	if m.Year > 0 {
		b.Year = strconv.Itoa(m.Year)
	}
	return b
}

// joinAuthors writes "A", "A and B", "A, B and C"; more than eight authors
// are shortened to the first six and "et al.".
func joinAuthors(as []string) string {
	if len(as) > 8 {
		return strings.Join(as[:6], ", ") + " et al."
	}
	return papertree.JoinAnd(as)
}

func pathString(e papertree.Evidence) string {
	var ps []string
	for _, s := range papertree.DisplayPath(e.Path) {
		if s = clean(s); s != "" {
			ps = append(ps, s)
		}
	}
	return strings.Join(ps, pathSep)
}

// pagesString writes sorted, de-duplicated pages as "p. 3" or "pp. 3–5, 7".
func pagesString(pages []int) string {
	ps := append([]int(nil), pages...)
	sort.Ints(ps)
	var uniq []int
	for _, p := range ps {
		if p > 0 && (len(uniq) == 0 || uniq[len(uniq)-1] != p) {
			uniq = append(uniq, p)
		}
	}
	if len(uniq) == 0 {
		return ""
	}
	if len(uniq) == 1 {
		return "p. " + strconv.Itoa(uniq[0])
	}
	var parts []string
	for i := 0; i < len(uniq); {
		j := i
		for j+1 < len(uniq) && uniq[j+1] == uniq[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d–%d", uniq[i], uniq[j]))
		} else {
			parts = append(parts, strconv.Itoa(uniq[i]))
		}
		i = j + 1
	}
	return "pp. " + strings.Join(parts, ", ")
}

func settingsOf(a *papertree.Answer) []kv {
	model := "extractive (no model)"
	if a.Mode == papertree.ModeDetails {
		model = "the paper's details (no model)"
	}
	if a.Mode == "llm" {
		model = clean(a.Model)
		if model == "" {
			model = "language model (name not recorded)"
		}
	}
	strategy := clean(a.Strategy)
	if strategy == "" {
		strategy = "unknown"
	}
	budget := "not set"
	if a.Diag.Budget > 0 {
		budget = fmt.Sprintf("%d tokens", a.Diag.Budget)
	}
	scope := "whole library"
	if len(a.PaperIDs) > 0 {
		ids := make([]string, len(a.PaperIDs))
		for i, id := range a.PaperIDs {
			ids[i] = strconv.FormatInt(id, 10)
		}
		scope = "papers " + strings.Join(ids, ", ")
	}
	out := []kv{{"Strategy", strategy}, {"Budget", budget}, {"Model", model}, {"Scope", scope}}
	if a.ID > 0 {
		out = append(out, kv{"Answer id", strconv.FormatInt(a.ID, 10)})
	}
	return out
}

func diagOf(g papertree.Diagnostics) []kv {
	tok := strconv.Itoa(g.TokensUsed)
	if g.Budget > 0 {
		tok += fmt.Sprintf(" of %d", g.Budget)
	}
	out := []kv{
		{"Section entropy", strconv.FormatFloat(g.SectionEntropy, 'f', 3, 64)},
		{"Tokens used", tok},
	}
	if g.Sections > 0 {
		out = append(out, kv{"Sections in context", strconv.Itoa(g.Sections)})
	}
	if len(g.Timings) > 0 {
		var parts []string
		for _, k := range sortedKeys(g.Timings) {
			parts = append(parts, fmt.Sprintf("%s %s ms", clean(k), strconv.FormatFloat(g.Timings[k], 'f', 1, 64)))
		}
		out = append(out, kv{"Timings", strings.Join(parts, "; ")})
	} else {
		out = append(out, kv{"Timings", "not recorded"})
	}
	if len(g.LLMTokens) > 0 {
		var parts []string
		for _, k := range sortedKeys(g.LLMTokens) {
			parts = append(parts, fmt.Sprintf("%s %d", clean(k), g.LLMTokens[k]))
		}
		out = append(out, kv{"LLM tokens", strings.Join(parts, "; ")})
	} else {
		out = append(out, kv{"LLM tokens", "none"})
	}
	if len(g.Fallbacks) > 0 {
		fb := make([]string, len(g.Fallbacks))
		for i, f := range g.Fallbacks {
			fb[i] = clean(f)
		}
		out = append(out, kv{"Fallbacks", strings.Join(fb, "; ")})
	} else {
		out = append(out, kv{"Fallbacks", "none"})
	}
	if g.DroppedCitations > 0 {
		out = append(out, kv{"Dropped citations", strconv.Itoa(g.DroppedCitations)})
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// clean makes untrusted text safe to lay out: invalid UTF-8 and control
// characters (except newline and tab) are dropped, Windows line ends are
// normalised and surrounding space is trimmed. Escaping for a format happens
// in that format's writer.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r == '\r':
			return '\n'
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return -1
		case r == 0xfffe || r == 0xffff || r == 0xfeff:
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// oneLine folds whitespace runs (newlines included) to single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
