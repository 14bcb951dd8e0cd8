package eval

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/treebuild"
)

// Metadata evaluation: the title, authors, year, arXiv id and DOI the tree
// builder reads from a PDF, scored against a hand-written gold file (one
// JSON document listing every paper; backend/treebuild/testdata/
// metadata_gold.json). Files marked hard (garbled text layers) are scored
// apart so that they neither hide nor inflate the figures of readable
// files; each gold entry names its split (dev: tuned on; holdout: measured
// once) and the report gives every figure per split.

// MetaGold is one paper's hand-written metadata.
type MetaGold struct {
	File    string   `json:"file"`
	Split   string   `json:"split"`
	Title   string   `json:"title"`
	Authors []string `json:"authors"` // surnames as printed, in order; empty: anonymous
	Year    int      `json:"year,omitempty"`
	Arxiv   string   `json:"arxiv,omitempty"` // without version
	DOI     string   `json:"doi,omitempty"`
	Hard    bool     `json:"hard,omitempty"`
}

// LoadMetaGold reads a gold metadata file ({"papers": [...]}).
func LoadMetaGold(path string) ([]MetaGold, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, papertree.Wrap(err, papertree.ENotFound, "the metadata gold file could not be read")
	}
	var doc struct {
		Papers []MetaGold `json:"papers"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, papertree.Wrap(err, papertree.EInvalid, "the metadata gold file is not valid JSON")
	}
	if len(doc.Papers) == 0 {
		return nil, papertree.Errorf(papertree.EInvalid, "the metadata gold file lists no papers")
	}
	return doc.Papers, nil
}

// MetaPred is what was read from one PDF.
type MetaPred struct {
	Title   string   `json:"title"`
	Authors []string `json:"authors,omitempty"`
	Year    int      `json:"year,omitempty"`
	Arxiv   string   `json:"arxiv,omitempty"`
	DOI     string   `json:"doi,omitempty"`
}

// MetaFileScore is one paper's comparison.
type MetaFileScore struct {
	Gold         MetaGold `json:"gold"`
	Pred         MetaPred `json:"pred"`
	Error        string   `json:"error,omitempty"`
	TitleExact   bool     `json:"title_exact"` // normalised texts equal
	TitleOK      bool     `json:"title_ok"`    // heading text rule (ratio >= MatchRatio)
	AuthorsHit   int      `json:"authors_hit"`
	MissedNames  []string `json:"missed,omitempty"`
	ExtraNames   []string `json:"extra,omitempty"`
	YearOK       bool     `json:"year_ok"`
	ArxivOK      bool     `json:"arxiv_ok"`
	DOIOK        bool     `json:"doi_ok"`
	WrongArxiv   bool     `json:"wrong_arxiv,omitempty"`    // an id where none (or another) is stamped
	WrongDOI     bool     `json:"wrong_doi,omitempty"`      // a DOI other than the printed one
	UnsureYear   bool     `json:"unsure_year,omitempty"`    // a year where none is printed (not scored)
	TitleIsCaps  bool     `json:"title_is_caps,omitempty"`  // the shown title is all capitals
	WrongYearVal int      `json:"wrong_year_val,omitempty"` // the year given when it is wrong
}

// MetaScore sums the scores of a group of files.
type MetaScore struct {
	Files       int     `json:"files"`
	TitleExact  int     `json:"title_exact"`
	TitleOK     int     `json:"title_ok"`
	GoldAuthors int     `json:"gold_authors"`
	PredAuthors int     `json:"pred_authors"`
	AuthorHits  int     `json:"author_hits"`
	YearFiles   int     `json:"year_files"`
	YearOK      int     `json:"year_ok"`
	ArxivFiles  int     `json:"arxiv_files"`
	ArxivOK     int     `json:"arxiv_ok"`
	ArxivWrong  int     `json:"arxiv_wrong"`
	DOIFiles    int     `json:"doi_files"`
	DOIOK       int     `json:"doi_ok"`
	DOIWrong    int     `json:"doi_wrong"`
	CapsTitles  int     `json:"caps_titles"`
	YearUnsure  int     `json:"year_unsure"`     // a year given where none is printed (not scored)
	TitleAcc    float64 `json:"title_acc"`       // exact
	TitleOKRate float64 `json:"title_match_acc"` // heading rule
	AuthorRec   float64 `json:"author_recall"`
	AuthorPrec  float64 `json:"author_precision"`
	YearAcc     float64 `json:"year_acc"`
	ArxivRec    float64 `json:"arxiv_recall"`
	DOIRec      float64 `json:"doi_recall"`
}

// MetaReport is the whole evaluation.
type MetaReport struct {
	Files   []MetaFileScore      `json:"files"`
	Splits  map[string]MetaScore `json:"splits"` // readable files per split
	Hard    MetaScore            `json:"hard"`   // garbled files, all splits
	Overall MetaScore            `json:"overall"`
}

// ScoreMeta compares one prediction with its gold entry.
func ScoreMeta(g MetaGold, p MetaPred) MetaFileScore {
	s := MetaFileScore{Gold: g, Pred: p}
	gt, pt := NormText(g.Title), NormText(p.Title)
	s.TitleExact = gt != "" && gt == pt
	s.TitleOK = TitleMatch(g.Title, p.Title)
	s.TitleIsCaps = isCapsTitle(p.Title)
	used := make([]bool, len(p.Authors))
	for _, sur := range g.Authors {
		hit := false
		for i, name := range p.Authors {
			if !used[i] && SurnameMatch(sur, name) {
				used[i], hit = true, true
				break
			}
		}
		if hit {
			s.AuthorsHit++
		} else {
			s.MissedNames = append(s.MissedNames, sur)
		}
	}
	for i, name := range p.Authors {
		if !used[i] {
			s.ExtraNames = append(s.ExtraNames, name)
		}
	}
	if g.Year != 0 {
		s.YearOK = p.Year == g.Year
		if !s.YearOK {
			s.WrongYearVal = p.Year
		}
	} else if p.Year != 0 {
		s.UnsureYear = true
	}
	pa := arxivBase(p.Arxiv)
	if g.Arxiv != "" {
		s.ArxivOK = pa == g.Arxiv
	}
	s.WrongArxiv = pa != "" && pa != g.Arxiv
	if g.DOI != "" {
		s.DOIOK = strings.EqualFold(p.DOI, g.DOI)
	}
	s.WrongDOI = p.DOI != "" && !strings.EqualFold(p.DOI, g.DOI)
	return s
}

func arxivBase(id string) string {
	id = strings.TrimSpace(id)
	if i := strings.LastIndexByte(id, 'v'); i > 0 && i < len(id)-1 && strings.Trim(id[i+1:], "0123456789") == "" {
		return id[:i]
	}
	return id
}

// isCapsTitle reports a title shown in capitals (at least two words of
// three or more letters, no lower-case letter).
func isCapsTitle(t string) bool {
	words := 0
	for _, w := range strings.Fields(t) {
		n := 0
		for _, r := range w {
			if unicode.IsLower(r) {
				return false
			}
			if unicode.IsLetter(r) {
				n++
			}
		}
		if n >= 3 {
			words++
		}
	}
	return words >= 2
}

// SurnameMatch reports whether a predicted full name carries the gold
// surname: the name's last words (lower-cased, letters only per word) equal
// the surname's words. "Huan Liu" and "HUAN LIU" match "Liu"; "Madeleine
// van Zuylen" matches "van Zuylen"; "Liu Huan" does not match "Liu".
func SurnameMatch(surname, name string) bool {
	sw, nw := nameWords(surname), nameWords(name)
	if len(sw) == 0 || len(nw) < len(sw) {
		return false
	}
	tail := nw[len(nw)-len(sw):]
	for i := range sw {
		if sw[i] != tail[i] {
			return false
		}
	}
	return true
}

func nameWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '-' }) {
		var b strings.Builder
		for _, r := range strings.ToLower(w) {
			if unicode.IsLetter(r) {
				b.WriteRune(r)
			}
		}
		if b.Len() > 0 {
			out = append(out, b.String())
		}
	}
	return out
}

func (m *MetaScore) add(f MetaFileScore) {
	m.Files++
	if f.TitleExact {
		m.TitleExact++
	}
	if f.TitleOK {
		m.TitleOK++
	}
	if f.TitleIsCaps {
		m.CapsTitles++
	}
	m.GoldAuthors += len(f.Gold.Authors)
	m.PredAuthors += len(f.Pred.Authors)
	m.AuthorHits += f.AuthorsHit
	if f.Gold.Year != 0 {
		m.YearFiles++
		if f.YearOK {
			m.YearOK++
		}
	}
	if f.UnsureYear {
		m.YearUnsure++
	}
	if f.Gold.Arxiv != "" {
		m.ArxivFiles++
		if f.ArxivOK {
			m.ArxivOK++
		}
	}
	if f.WrongArxiv {
		m.ArxivWrong++
	}
	if f.Gold.DOI != "" {
		m.DOIFiles++
		if f.DOIOK {
			m.DOIOK++
		}
	}
	if f.WrongDOI {
		m.DOIWrong++
	}
}

func (m *MetaScore) finish() {
	m.TitleAcc = ratio(m.TitleExact, m.Files)
	m.TitleOKRate = ratio(m.TitleOK, m.Files)
	m.AuthorRec = ratio(m.AuthorHits, m.GoldAuthors)
	m.AuthorPrec = ratio(m.AuthorHits, m.PredAuthors)
	m.YearAcc = ratio(m.YearOK, m.YearFiles)
	m.ArxivRec = ratio(m.ArxivOK, m.ArxivFiles)
	m.DOIRec = ratio(m.DOIOK, m.DOIFiles)
}

// SummariseMeta fills the per-split, hard and overall sums.
func SummariseMeta(files []MetaFileScore) MetaReport {
	rep := MetaReport{Files: files, Splits: map[string]MetaScore{}}
	for _, f := range files {
		if f.Gold.Hard {
			rep.Hard.add(f)
			continue
		}
		s := rep.Splits[f.Gold.Split]
		s.add(f)
		rep.Splits[f.Gold.Split] = s
		rep.Overall.add(f)
	}
	for k, s := range rep.Splits {
		s.finish()
		rep.Splits[k] = s
	}
	rep.Hard.finish()
	rep.Overall.finish()
	return rep
}

// MetaBuilder builds the paper of one PDF (the CLI passes the real parser
// and tree builder; tests pass a fake).
type MetaBuilder func(ctx context.Context, path string) (*papertree.Paper, error)

// DefaultMetaBuilder parses the PDF and builds its tree with the default
// options, as indexing does.
func DefaultMetaBuilder(ctx context.Context, path string) (*papertree.Paper, error) {
	p, _, err := buildPaper(ctx, path, treebuild.DefaultOptions(), nil)
	return p, err
}

// RunMeta scores every gold paper; its PDF is looked up by name in the
// given folders (first match). A paper whose PDF is in none of them is an
// error: a gold file that silently scores fewer papers would hide a
// regression.
func RunMeta(ctx context.Context, gold []MetaGold, pdfDirs []string, build MetaBuilder) (MetaReport, error) {
	var files []MetaFileScore
	for _, g := range gold {
		if err := ctx.Err(); err != nil {
			return MetaReport{}, papertree.Wrap(err, papertree.ECanceled, "evaluation cancelled")
		}
		path := ""
		for _, d := range pdfDirs {
			if _, err := os.Stat(filepath.Join(d, g.File)); err == nil {
				path = filepath.Join(d, g.File)
				break
			}
		}
		if path == "" {
			return MetaReport{}, papertree.Errorf(papertree.ENotFound, "%s is in none of the PDF folders", g.File)
		}
		var pred MetaPred
		p, err := build(ctx, path)
		if p != nil {
			pred = MetaPred{Title: p.Title, Authors: p.Authors, Year: p.Year, Arxiv: p.ArxivID, DOI: p.DOI}
		}
		f := ScoreMeta(g, pred)
		if err != nil {
			f.Error = fmt.Sprintf("[%s] %v", papertree.ErrorCode(err), err)
		}
		files = append(files, f)
	}
	return SummariseMeta(files), nil
}

// WriteTable prints the report: one line per group, then the files with
// any error.
func (r MetaReport) WriteTable(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%-10s %5s %13s %13s %8s %8s %10s %8s %10s %8s\n", "group", "files", "title exact", "title match", "auth R", "auth P", "year", "arXiv R", "DOI R", "caps")
	line := func(name string, s MetaScore) {
		fmt.Fprintf(bw, "%-10s %5d %6d %.3f %6d %.3f %8.3f %8.3f %3d/%-2d %.2f %3d/%-2d %3d/%-2d %2d/%d\n", name, s.Files,
			s.TitleExact, s.TitleAcc, s.TitleOK, s.TitleOKRate, s.AuthorRec, s.AuthorPrec,
			s.YearOK, s.YearFiles, s.YearAcc, s.ArxivOK, s.ArxivFiles, s.DOIOK, s.DOIFiles, s.CapsTitles, s.Files)
	}
	keys := make([]string, 0, len(r.Splits))
	for k := range r.Splits {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		line(k, r.Splits[k])
	}
	line("all", r.Overall)
	if r.Hard.Files > 0 {
		line("garbled", r.Hard)
	}
	fmt.Fprintf(bw, "wrong ids: arXiv %d, DOI %d (given where the gold has none or another); years given where none is printed: %d of %d files\n",
		r.Overall.ArxivWrong+r.Hard.ArxivWrong, r.Overall.DOIWrong+r.Hard.DOIWrong, r.Overall.YearUnsure, r.Overall.Files-r.Overall.YearFiles)
	for _, f := range r.Files {
		var errs []string
		if !f.TitleExact {
			errs = append(errs, fmt.Sprintf("title %q (gold %q)", trunc(f.Pred.Title, 80), trunc(f.Gold.Title, 80)))
		}
		if len(f.MissedNames) > 0 {
			errs = append(errs, "missed "+strings.Join(f.MissedNames, ", "))
		}
		if len(f.ExtraNames) > 0 {
			errs = append(errs, "extra "+strings.Join(f.ExtraNames, "; "))
		}
		if f.Gold.Year != 0 && !f.YearOK {
			errs = append(errs, fmt.Sprintf("year %d (gold %d)", f.Pred.Year, f.Gold.Year))
		}
		if f.Gold.Arxiv != "" && !f.ArxivOK || f.WrongArxiv {
			errs = append(errs, fmt.Sprintf("arXiv %q (gold %q)", f.Pred.Arxiv, f.Gold.Arxiv))
		}
		if f.Gold.DOI != "" && !f.DOIOK || f.WrongDOI {
			errs = append(errs, fmt.Sprintf("DOI %q (gold %q)", f.Pred.DOI, f.Gold.DOI))
		}
		if f.TitleIsCaps {
			errs = append(errs, "title in capitals")
		}
		if f.Error != "" {
			errs = append(errs, f.Error)
		}
		if len(errs) > 0 {
			fmt.Fprintf(bw, "  [%s] %s: %s\n", f.Gold.Split, f.Gold.File, strings.Join(errs, "; "))
		}
	}
	return bw.Flush()
}
