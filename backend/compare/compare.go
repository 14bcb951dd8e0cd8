// Package compare builds a cross-paper comparison table: one row per paper,
// one column per aspect (Dataset, Method, Metric, ...), and in every cell the
// paper's own sentence for that aspect with the evidence it came from (node,
// root-to-leaf path, pages), so a click on a cell can highlight the path and
// open the page like a citation. A cell for which no sentence of the paper
// states the aspect says so (NotFound, "Not in this paper") after reading
// the paper's whole text, instead of guessing.
//
// Data flow: store (+embedding) -> retrieve (PaperData, BestCell) ->
// compare -> report / app / CLI. Cells are extractive, deterministic and
// need no model. An aspect of the aspect lexicon (aspects.go: dataset,
// optimizer, hardware, metric, model size, training time, evaluation)
// quotes the sentence that states a value of it (cells.go); any other
// aspect is StructRAG's offline table structurizer (retrieve.BestCell), the
// same code the structrag strategy uses.
package compare

import (
	"context"
	"encoding/csv"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/report"
	"github.com/papertree/papertree/backend/retrieve"
)

// Limits of one comparison (bad input beyond them is a clear EInvalid error).
const (
	MaxPapers    = 40
	MaxAspects   = 10
	MaxAspectLen = 80
)

// Paper is one row.
type Paper struct {
	PaperID    int64  `json:"paper_id"`
	PaperTitle string `json:"paper_title"`
}

// Evidence is where a cell's text comes from.
type Evidence struct {
	PaperID   int64           `json:"paper_id"`
	NodeID    int64           `json:"node_id"`
	SectionID int64           `json:"section_id"`
	Path      []string        `json:"path"`     // paper title > section > subsection
	PathIDs   []int64         `json:"path_ids"` // node ids along Path
	Pages     []int           `json:"pages"`
	Boxes     []papertree.Box `json:"boxes,omitempty"` // the leaf's boxes, to highlight it on its page
	Text      string          `json:"text"`            // the quoted sentence, verbatim
}

// Cell is one paper x aspect.
type Cell struct {
	PaperID  int64      `json:"paper_id"`
	Aspect   string     `json:"aspect"`
	Text     string     `json:"text"`
	NotFound bool       `json:"not_found"`
	Score    float64    `json:"score"`
	Evidence []Evidence `json:"evidence"`
}

// Table is a comparison.
type Table struct {
	Papers          []Paper            `json:"papers"`
	Aspects         []string           `json:"aspects"`
	Cells           []Cell             `json:"cells"` // row-major: papers x aspects
	AspectsProposed bool               `json:"aspects_proposed"`
	Warnings        []string           `json:"warnings,omitempty"`
	Timings         map[string]float64 `json:"timings_ms,omitempty"`
}

// Request is one comparison.
type Request struct {
	PaperIDs []int64  // empty = every indexed paper (at most MaxPapers)
	Aspects  []string // empty = proposed from the papers' headings
}

// NotFoundText was a cell's text when the paper had no passage on the
// aspect (kept for callers that match it).
const NotFoundText = "Not found: no passage of this paper mentions this aspect."

// NotInPaperText is a not-found cell's text for an aspect of the lexicon:
// said only after every body sentence of the paper was read and none
// states a value of the aspect (an aspect outside it: NotNamedText).
const NotInPaperText = "Not in this paper: no sentence of it states this aspect (its whole text was checked)."

// NotNamedText is the text of a not-found cell of an aspect outside the
// lexicon: what was checked is that no sentence names all the aspect's own
// words, which is not that the paper does not state it ("Software used":
// a paper that uses glmnet may never write "software"), so the cell says
// only that.
func NotNamedText(aspect string) string {
	var qs []string
	for _, w := range aspectWords(aspect) {
		if len(w) >= 3 && !stopAspectWords[w] {
			qs = append(qs, "“"+w+"”")
		}
	}
	if len(qs) == 0 {
		return NotInPaperText
	}
	if countOf(aspect) != nil {
		return "Not found: no sentence of this paper gives a count of " + qs[len(qs)-1] + " (its whole text was searched)."
	}
	return "Not found: no sentence of this paper names " + strings.Join(qs, " with ") + " (its whole text was searched)."
}

// cellFor is paper d's cell for aspect a: a lexicon aspect quotes the
// sentence that states its value (lexiconCell); any other aspect is
// StructRAG's structurizer (retrieve.BestCell), kept when its sentence has
// the aspect's head word (its last); otherwise the paper's whole text is
// read for a sentence with all the aspect's own words before the cell says
// that no sentence names them. notFound is what a cell without a sentence
// says: what was checked.
func cellFor(ctx context.Context, ix retrieve.Index, pt *paperText, a string) (c retrieve.Cell, notFound string, err error) {
	if spec := specFor(a); spec != nil {
		c, _ := pt.lexiconCell(spec)
		return c, NotInPaperText, nil
	}
	// the aspect's own words, not how it was asked ("Languages studied")
	q := strings.Join(aspectWords(a), " ")
	if q == "" {
		q = a
	}
	c, err = retrieve.BestCell(ctx, ix.Embedder(), pt.d, q, "")
	if err != nil {
		return c, "", err
	}
	// a sentence sharing only a modifier of a several-word aspect is not
	// about it ("label smoothing" is not "the test labels"); English
	// compounds end in their head ("fault tolerance": "tolerant of dropped
	// messages" is about it)
	// a count ("Number of participants") is stated only with a count of
	// the thing: "we recruited ten participants", not "each participant"
	if cnt := countOf(a); c.Found && holdsHead(a, c.Sentence) && (cnt == nil || counts(cnt, c.Sentence)) {
		return c, "", nil
	}
	c, _ = pt.wordCell(a)
	return c, NotNamedText(a), nil
}

// ParseAspects splits "A;B;C" (also newlines) into trimmed aspects.
func ParseAspects(s string) []string {
	var out []string
	for _, a := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '\n' }) {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// Build fills the table. Unknown or unindexed paper ids, too many papers or
// aspects, and over-long aspects are EInvalid/ENotFound errors; duplicate
// aspects are merged with a warning; one paper gives a one-row table with a
// warning.
func Build(ctx context.Context, ix retrieve.Index, req Request) (*Table, error) {
	t0 := time.Now()
	t := &Table{Timings: map[string]float64{}}
	ready, err := ix.ReadyPapers(ctx)
	if err != nil {
		return nil, fmt.Errorf("list papers: %w", err)
	}
	ids := req.PaperIDs
	if len(ids) == 0 {
		ids = ready
		if len(ids) == 0 {
			return nil, papertree.Errorf(papertree.ENotFound, "The library has no indexed papers to compare.")
		}
	}
	ids = dedupe(ids, &t.Warnings)
	if len(ids) > MaxPapers {
		return nil, papertree.Errorf(papertree.EInvalid, "Compare takes at most %d papers at a time (got %d); choose fewer papers.", MaxPapers, len(ids))
	}
	isReady := map[int64]bool{}
	for _, id := range ready {
		isReady[id] = true
	}
	var unknown []string
	for _, id := range ids {
		if !isReady[id] {
			unknown = append(unknown, fmt.Sprint(id))
		}
	}
	if len(unknown) > 0 {
		return nil, papertree.Errorf(papertree.ENotFound, "Unknown or unindexed paper id(s): %s. Run \"papertree list\" to see the papers.", strings.Join(unknown, ", "))
	}
	if len(ids) == 1 {
		t.Warnings = append(t.Warnings, "Only one paper: the table has a single row, nothing to compare it with.")
	}
	var ds []*retrieve.PaperData
	for _, id := range ids {
		d, err := ix.Paper(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("load paper %d: %w", id, err)
		}
		ds = append(ds, d)
		t.Papers = append(t.Papers, Paper{PaperID: id, PaperTitle: d.Paper.Title})
	}
	aspects, err := cleanAspects(req.Aspects, &t.Warnings)
	if err != nil {
		return nil, err
	}
	if len(aspects) == 0 {
		aspects = ProposeAspects(ds)
		t.AspectsProposed = true
	}
	t.Aspects = aspects
	t.Timings["load"] = ms(time.Since(t0))
	t1 := time.Now()
	for _, d := range ds {
		pt := newPaperText(d)
		for _, a := range aspects {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			c, nf, err := cellFor(ctx, ix, pt, a)
			if err != nil {
				return nil, err
			}
			cell := Cell{PaperID: d.Paper.ID, Aspect: a, Evidence: []Evidence{}}
			if !c.Found {
				cell.NotFound, cell.Text = true, nf
			} else {
				e := c.Evidence
				cell.Text, cell.Score = c.Sentence, c.Score
				cell.Evidence = append(cell.Evidence, Evidence{PaperID: e.PaperID, NodeID: e.NodeID, SectionID: e.SectionID,
					Path: e.Path, PathIDs: e.PathIDs, Pages: e.Pages, Boxes: e.Boxes, Text: e.Text})
			}
			t.Cells = append(t.Cells, cell)
		}
	}
	t.Timings["cells"] = ms(time.Since(t1))
	t.Timings["total"] = ms(time.Since(t0))
	return t, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func dedupe(ids []int64, warn *[]string) []int64 {
	seen := map[int64]bool{}
	var out []int64
	dup := 0
	for _, id := range ids {
		if seen[id] {
			dup++
			continue
		}
		seen[id] = true
		out = append(out, id)
	}
	if dup > 0 {
		*warn = append(*warn, fmt.Sprintf("%d repeated paper id(s) ignored.", dup))
	}
	return out
}

// cleanAspects trims, merges duplicates (case- and space-insensitive) and
// checks the limits.
func cleanAspects(in []string, warn *[]string) ([]string, error) {
	seen := map[string]bool{}
	var out, dups []string
	for _, a := range in {
		a = strings.Join(strings.Fields(a), " ")
		if a == "" {
			continue
		}
		if len([]rune(a)) > MaxAspectLen {
			return nil, papertree.Errorf(papertree.EInvalid, "The aspect %q is longer than %d characters; name it in a few words.", string([]rune(a)[:30])+"…", MaxAspectLen)
		}
		k := strings.ToLower(a)
		if seen[k] {
			dups = append(dups, a)
			continue
		}
		seen[k] = true
		out = append(out, a)
	}
	if len(dups) > 0 {
		*warn = append(*warn, "Repeated aspect(s) merged: "+strings.Join(dups, ", ")+".")
	}
	if len(out) > MaxAspects {
		return nil, papertree.Errorf(papertree.EInvalid, "Compare takes at most %d aspects (got %d).", MaxAspects, len(out))
	}
	return out, nil
}

// canonical aspects and the heading words that signal them, in the order
// they are proposed.
var canonical = []struct {
	name  string
	words []string
}{
	{"Task", []string{"task", "problem"}},
	{"Dataset", []string{"dataset", "datasets", "data", "corpus", "corpora", "benchmark", "benchmarks"}},
	{"Method", []string{"method", "methods", "model", "models", "approach", "architecture", "framework", "algorithm"}},
	{"Metric", []string{"metric", "metrics", "evaluation", "measure", "measures"}},
	{"Results", []string{"result", "results", "experiments", "experiment", "performance"}},
	{"Limitations", []string{"limitation", "limitations"}},
}

// ProposeAspects proposes the columns from the papers' headings: a
// canonical aspect is proposed when at least a third of the papers have a
// heading naming it; the four usual ones (Dataset, Method, Metric, Results)
// fill up to four, and at most five are proposed.
func ProposeAspects(ds []*retrieve.PaperData) []string {
	count := map[string]int{}
	for _, d := range ds {
		has := map[string]bool{}
		for _, n := range d.Nodes {
			if n.Kind != papertree.KindSection {
				continue
			}
			for _, w := range strings.FieldsFunc(strings.ToLower(n.Title), func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
				for _, c := range canonical {
					for _, cw := range c.words {
						if w == cw {
							has[c.name] = true
						}
					}
				}
			}
		}
		for k := range has {
			count[k]++
		}
	}
	var out []string
	for _, c := range canonical {
		if len(ds) > 0 && count[c.name]*3 >= len(ds) && count[c.name] > 0 {
			out = append(out, c.name)
		}
	}
	for _, def := range []string{"Dataset", "Method", "Metric", "Results"} {
		if len(out) >= 4 {
			break
		}
		if !contains(out, def) {
			out = append(out, def)
		}
	}
	// keep canonical order
	order := map[string]int{}
	for i, c := range canonical {
		order[c.name] = i
	}
	sort.SliceStable(out, func(i, j int) bool { return order[out[i]] < order[out[j]] })
	if len(out) > 5 {
		out = out[:5]
	}
	return out
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// Cell returns the cell of paper id and aspect (nil if absent).
func (t *Table) Cell(id int64, aspect string) *Cell {
	for i := range t.Cells {
		if t.Cells[i].PaperID == id && t.Cells[i].Aspect == aspect {
			return &t.Cells[i]
		}
	}
	return nil
}

// Found counts the cells with evidence.
func (t *Table) Found() int {
	n := 0
	for _, c := range t.Cells {
		if !c.NotFound {
			n++
		}
	}
	return n
}

// Markdown renders the table as GFM: one row per paper, each cell its quote
// and the source (path, pages) on a second line. Untrusted text is escaped.
func (t *Table) Markdown() string {
	var b strings.Builder
	b.WriteString("| Paper |")
	for _, a := range t.Aspects {
		b.WriteString(" " + mdCell(a) + " |")
	}
	b.WriteString("\n|---|")
	for range t.Aspects {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, p := range t.Papers {
		b.WriteString("| " + mdCell(p.PaperTitle) + " |")
		for _, a := range t.Aspects {
			c := t.Cell(p.PaperID, a)
			switch {
			case c == nil || c.NotFound:
				b.WriteString(" *not found* |")
			default:
				b.WriteString(" " + mdCell(c.Text))
				if src := Source(c); src != "" {
					b.WriteString("<br>*" + mdCell(src) + "*")
				}
				b.WriteString(" |")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Source is a cell's provenance in one line: "Section > Subsection, p. 3".
func Source(c *Cell) string {
	if c == nil || len(c.Evidence) == 0 {
		return ""
	}
	e := c.Evidence[0]
	path := e.Path
	if len(path) > 1 {
		path = path[1:] // the paper is the row
	}
	s := strings.Join(path, " > ")
	if len(e.Pages) > 0 {
		s += fmt.Sprintf(", p. %d", e.Pages[0])
	}
	return s
}

var mdSpecial = strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", "&lt;", ">", "&gt;", "#", `\#`)

func mdCell(s string) string { return mdSpecial.Replace(strings.Join(strings.Fields(s), " ")) }

// CSV renders the table as CSV: paper_id, paper_title, aspect, text,
// not_found, path, pages, node_id (one line per cell).
func (t *Table) CSV() ([]byte, error) {
	var b strings.Builder
	w := csv.NewWriter(&b)
	if err := w.Write([]string{"paper_id", "paper_title", "aspect", "text", "not_found", "path", "pages", "node_id"}); err != nil {
		return nil, err
	}
	title := map[int64]string{}
	for _, p := range t.Papers {
		title[p.PaperID] = p.PaperTitle
	}
	for _, c := range t.Cells {
		path, pages, node := "", "", ""
		if len(c.Evidence) > 0 {
			e := c.Evidence[0]
			path = strings.Join(e.Path, " > ")
			var ps []string
			for _, p := range e.Pages {
				ps = append(ps, fmt.Sprint(p))
			}
			pages, node = strings.Join(ps, " "), fmt.Sprint(e.NodeID)
		}
		if err := w.Write([]string{fmt.Sprint(c.PaperID), csvSafe(title[c.PaperID]), csvSafe(c.Aspect), csvSafe(c.Text), fmt.Sprint(c.NotFound), csvSafe(path), pages, node}); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return []byte(b.String()), w.Error()
}

// csvSafe defuses spreadsheet formulas in untrusted text (a cell starting
// with = + - @ would be evaluated by Excel/LibreOffice).
func csvSafe(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		return "'" + s
	}
	return s
}

// ReportTable converts the table for the md/html/pdf/docx reports.
func (t *Table) ReportTable(title string) report.Table {
	rt := report.Table{Title: title, Columns: append([]string{"Paper"}, t.Aspects...)}
	for _, p := range t.Papers {
		row := report.TableRow{Label: p.PaperTitle}
		for _, a := range t.Aspects {
			c := t.Cell(p.PaperID, a)
			if c == nil || c.NotFound {
				row.Cells = append(row.Cells, report.TableCell{NotFound: true})
				continue
			}
			row.Cells = append(row.Cells, report.TableCell{Text: c.Text, Source: Source(c)})
		}
		rt.Rows = append(rt.Rows, row)
	}
	return rt
}
