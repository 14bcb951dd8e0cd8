package eval

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// Family names used to group files by template. They come from the "style"
// column of shared/data/pdfs/MANIFEST.md (see FamilyOf).
const (
	FamilyHard     = "scanned/garbled"
	FamilyThesis   = "thesis"
	FamilyACL      = "ACL"
	FamilyNeurIPS  = "NeurIPS/ICLR"
	FamilyICML     = "ICML"
	FamilyAAAI     = "AAAI"
	FamilyIEEE     = "IEEE/CVPR"
	FamilyACM      = "ACM"
	FamilyElsevier = "Elsevier"
	FamilyJournal  = "journal/other"
)

// FamilyOf maps a MANIFEST style description to a template family. The
// first rule that fires wins, so the order encodes precedence: a scanned or
// garbled file is reported apart whatever its template.
func FamilyOf(style string) string {
	s := strings.ToLower(style)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(s, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("scanned", "garbled", "type 3", "hard case"):
		return FamilyHard
	case has("thesis", "dissertation"):
		return FamilyThesis
	case has("acl", "emnlp", "naacl", "semeval", "eacl"):
		return FamilyACL
	case has("neurips", "nips", "iclr"):
		return FamilyNeurIPS
	case has("icml"):
		return FamilyICML
	case has("aaai", "icwsm"):
		return FamilyAAAI
	case has("ieee", "cvpr"):
		return FamilyIEEE
	case has("acm"):
		return FamilyACM
	case has("elsevier"):
		return FamilyElsevier
	default:
		return FamilyJournal
	}
}

// LoadManifestFamilies reads MANIFEST.md in pdfDir and returns file -> family.
// A missing manifest is not an error: every file then falls in FamilyJournal
// unless its gold notes mark it hard.
func LoadManifestFamilies(pdfDir string) (map[string]string, error) {
	out := map[string]string{}
	f, err := os.Open(filepath.Join(pdfDir, "MANIFEST.md"))
	if err != nil {
		if os.IsNotExist(err) {
			return out, nil
		}
		return nil, fmt.Errorf("open manifest: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	styleCol := -1
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if styleCol < 0 {
			for i, c := range cells {
				if strings.EqualFold(c, "style") {
					styleCol = i
				}
			}
			continue
		}
		if styleCol >= len(cells) || strings.HasPrefix(cells[0], "---") || !strings.HasSuffix(strings.ToLower(cells[0]), ".pdf") {
			continue
		}
		out[cells[0]] = FamilyOf(cells[styleCol])
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	return out, nil
}

// FileTreeScore is the score of one PDF.
type FileTreeScore struct {
	File       string              `json:"file"`
	Family     string              `json:"family"`
	Split      string              `json:"split,omitempty"` // dev or check half of the silver families
	Hard       bool                `json:"hard"`            // gold notes say garbled or scanned
	ParseError string              `json:"parse_error,omitempty"`
	Pages      int                 `json:"pages"`
	Score      TreeScore           `json:"score"`
	Predicted  []papertree.Heading `json:"predicted,omitempty"`
	Gold       []GoldHeading       `json:"gold,omitempty"`
	GoldTitle  string              `json:"gold_title,omitempty"`
	Title      string              `json:"title"`
	TitleOK    bool                `json:"title_ok"`
	Authors    []string            `json:"authors,omitempty"`
	// RunInLeftOut counts predicted run-in headings not scored (silver
	// outlines never carry them).
	RunInLeftOut int `json:"runin_left_out,omitempty"`
}

// GroupScore is a micro-averaged score over a group of files: counts are
// summed over the files first, then the ratios are computed once.
type GroupScore struct {
	Name  string    `json:"name"`
	Files int       `json:"files"`
	Score TreeScore `json:"score"`
	// MacroF1 is the plain mean of the per-file F1, shown next to the micro
	// number because one long thesis otherwise dominates the counts.
	MacroF1 float64 `json:"macro_f1"`
}

// TreesReport is the result of RunTrees.
type TreesReport struct {
	UseOutline    bool            `json:"use_outline"`
	Files         []FileTreeScore `json:"files"`
	Overall       GroupScore      `json:"overall"` // all files except the hard ones
	Hard          GroupScore      `json:"hard"`    // garbled/scanned files only
	Families      []GroupScore    `json:"families"`
	Splits        []GroupScore    `json:"splits,omitempty"` // silver: dev and check halves of the families
	Front         FrontScore      `json:"front"`            // titles and authors, files with a usable text layer
	ParseFailures []string        `json:"parse_failures,omitempty"`
}

// Summarise fills Overall, Hard and Families from Files.
func (r *TreesReport) Summarise() {
	group := func(name string, keep func(FileTreeScore) bool) GroupScore {
		g := GroupScore{Name: name}
		sumF1 := 0.0
		for _, f := range r.Files {
			if !keep(f) {
				continue
			}
			g.Files++
			g.Score.add(f.Score)
			sumF1 += f.Score.F1
		}
		g.Score.finish()
		if g.Files > 0 {
			g.MacroF1 = sumF1 / float64(g.Files)
		}
		return g
	}
	r.Overall = group("all (excl. scanned/garbled)", func(f FileTreeScore) bool { return !f.Hard })
	r.Hard = group("scanned/garbled", func(f FileTreeScore) bool { return f.Hard })
	fams := map[string]bool{}
	for _, f := range r.Files {
		fams[f.Family] = true
	}
	names := make([]string, 0, len(fams))
	for n := range fams {
		names = append(names, n)
	}
	sort.Strings(names)
	r.Families = r.Families[:0]
	for _, n := range names {
		r.Families = append(r.Families, group(n, func(f FileTreeScore) bool { return f.Family == n }))
	}
	r.Splits = r.Splits[:0]
	for _, sp := range []string{SplitDev, SplitCheck} {
		g := group(sp+" families", func(f FileTreeScore) bool { return f.Split == sp && !f.Hard })
		if g.Files > 0 {
			r.Splits = append(r.Splits, g)
		}
	}
	r.Front = frontScore(r.Files, func(f FileTreeScore) bool { return !f.Hard })
}

// WriteTable writes a fixed-width text report: one row per file, then one
// per family, then the totals.
func (r *TreesReport) WriteTable(w io.Writer) error {
	bw := bufio.NewWriter(w)
	mode := "outline on"
	if !r.UseOutline {
		mode = "outline off"
	}
	fmt.Fprintf(bw, "Heading trees (%s); micro averages over files, scanned/garbled reported apart\n\n", mode)
	header := func(first string) {
		fmt.Fprintf(bw, "%-48s %5s %5s %5s %5s  %5s %5s %5s  %5s %5s\n", first, "gold", "pred", "hit", "runin", "P", "R", "F1", "level", "parent")
	}
	row := func(name string, s TreeScore) {
		fmt.Fprintf(bw, "%-48s %5d %5d %5d %5d  %5.3f %5.3f %5.3f  %5.3f %5.3f\n", trunc(name, 48), s.Gold, s.Pred, s.Hits, s.RunInHits, s.Precision, s.Recall, s.F1, s.LevelAcc, s.ParentAcc)
	}
	header("file")
	for _, f := range r.Files {
		name := f.File
		if f.Hard {
			name = "*" + name
		}
		if f.ParseError != "" {
			name = "!" + name
		}
		row(name, f.Score)
	}
	fmt.Fprintln(bw)
	header("family (files)")
	for _, g := range r.Families {
		row(fmt.Sprintf("%s (%d)", g.Name, g.Files), g.Score)
	}
	fmt.Fprintln(bw)
	for _, g := range r.Splits {
		row(fmt.Sprintf("%s (%d)", g.Name, g.Files), g.Score)
	}
	row(fmt.Sprintf("%s (%d)", r.Overall.Name, r.Overall.Files), r.Overall.Score)
	row(fmt.Sprintf("%s (%d)", r.Hard.Name, r.Hard.Files), r.Hard.Score)
	fmt.Fprintf(bw, "macro F1 (excl. scanned/garbled): %.3f\n", r.Overall.MacroF1)
	if r.Front.Files > 0 {
		fmt.Fprintf(bw, "titles right: %d/%d (%.3f); authors found: %d/%d (%.3f)\n", r.Front.TitlesOK, r.Front.Files, r.Front.TitleAcc,
			r.Front.WithAuthors, r.Front.Files, r.Front.AuthorRate)
		for _, f := range r.Files {
			if f.Hard || f.GoldTitle == "" || (f.TitleOK && len(f.Authors) > 0) {
				continue
			}
			fmt.Fprintf(bw, "  %s: title %q (gold %q), %d authors\n", f.File, trunc(f.Title, 70), trunc(f.GoldTitle, 70), len(f.Authors))
		}
	}
	fmt.Fprintln(bw, "* = scanned/garbled (gold notes), ! = failed to parse (scored as empty)")
	for _, p := range r.ParseFailures {
		fmt.Fprintf(bw, "parse failure: %s\n", p)
	}
	return bw.Flush()
}

// WriteDiff writes, for one file, the gold and predicted headings side by
// side with their match status; it is the tool for looking at bad files.
func (f FileTreeScore) WriteDiff(w io.Writer) {
	fmt.Fprintf(w, "== %s  F1 %.3f  level %.3f  parent %.3f\n", f.File, f.Score.F1, f.Score.LevelAcc, f.Score.ParentAcc)
	byGold := map[int]Pair{}
	byPred := map[int]Pair{}
	for _, p := range f.Score.Pairs {
		byGold[p.Gold] = p
		byPred[p.Pred] = p
	}
	gi, pi := 0, 0
	for gi < len(f.Gold) || pi < len(f.Predicted) {
		// Print unmatched predictions as they come; print matched pairs on one line.
		if pi < len(f.Predicted) {
			if _, ok := byPred[pi]; !ok {
				p := f.Predicted[pi]
				fmt.Fprintf(w, "  %-50s | + L%d p%-3d %s\n", "", p.Level, p.Page, p.Text)
				pi++
				continue
			}
		}
		if gi < len(f.Gold) {
			g := f.Gold[gi]
			mark := ""
			if g.RunIn {
				mark = " (runin)"
			}
			if pr, ok := byGold[gi]; ok {
				p := f.Predicted[pr.Pred]
				flag := "="
				if !pr.LevelOK && !g.RunIn {
					flag = "L"
				}
				if !pr.ParentOK && !g.RunIn {
					flag += "P"
				}
				fmt.Fprintf(w, "%-2s L%d p%-3d %-40s | L%d p%-3d %s\n", flag, g.Level, g.Page, trunc(g.Text+mark, 40), p.Level, p.Page, p.Text)
				if pr.Pred >= pi {
					pi = pr.Pred + 1
				}
			} else {
				fmt.Fprintf(w, "-  L%d p%-3d %-40s |\n", g.Level, g.Page, trunc(g.Text+mark, 40))
			}
			gi++
			continue
		}
		pi++
	}
}

func trunc(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
