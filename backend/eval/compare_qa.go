package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/compare"
	"github.com/papertree/papertree/backend/papertree"
)

// Compare gold sets: comparison tables (papers x aspects, papers named by
// PDF file name) with a gold value for every cell, written by reading the
// papers. testdata/compare_library150.json holds three tables over the
// development PDFs.

// CompareTable is one gold comparison table.
type CompareTable struct {
	Name    string        `json:"name"`
	Papers  []string      `json:"papers"`  // PDF file names, one row each
	Aspects []string      `json:"aspects"` // the columns, asked as written
	Cells   []CompareGold `json:"cells"`   // one per paper x aspect (any order)
}

// CompareGold is the gold of one cell. A stated cell has a verbatim
// supporting sentence (or table row) and/or key values; a right cell quotes
// the support or holds every value. Each value may list alternatives
// separated by "|" ("top-1|top-5"): one of them is enough. Values match
// case-insensitively at the start of a word, punctuation ignored ("8 GPUs"
// matches "8-GPUs", "TPU" matches "TPUv3"). A cell the paper does not
// state has NotFound: a right cell says not found.
type CompareGold struct {
	File    string   `json:"file"`
	Aspect  string   `json:"aspect"`
	Support string   `json:"support,omitempty"` // verbatim sentence stating the value
	Values  []string `json:"values,omitempty"`  // key value words a right cell must contain
	// NotFound: the paper does not state this aspect (verified by reading).
	NotFound bool `json:"not_found,omitempty"`
	// AcceptNotFound: the paper states it only vaguely; "not found" is
	// right as well as the value.
	AcceptNotFound bool `json:"accept_not_found,omitempty"`
}

// LoadCompareTables reads a compare gold set.
func LoadCompareTables(path string) ([]CompareTable, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, papertree.Wrap(err, papertree.ENotFound, "The compare set could not be read.")
	}
	var ts []CompareTable
	if err := json.Unmarshal(b, &ts); err != nil {
		return nil, papertree.Wrap(err, papertree.EInvalid, "The compare set is not valid JSON.")
	}
	return ts, nil
}

// CompareBuilder builds a comparison table (library.Compare).
type CompareBuilder func(ctx context.Context, req compare.Request) (*compare.Table, error)

// CompareScores are the compare scorer's figures (shares in [0,1]).
type CompareScores struct {
	Tables        int `json:"tables"`
	Cells         int `json:"cells"`           // scored cells (papers in the index)
	Right         int `json:"right"`           // right cells
	Stated        int `json:"stated"`          // cells whose gold is a value
	StatedRight   int `json:"stated_right"`    // ... answered with it
	FalseNotFound int `json:"false_not_found"` // ... answered "not found"
	Unstated      int `json:"unstated"`        // cells the paper does not state
	UnstatedRight int `json:"unstated_right"`  // ... answered "not found"
	Missing       int `json:"missing_cells"`   // cells of papers not in the index (skipped)

	Accuracy          float64 `json:"accuracy"`             // Right / Cells
	StatedAccuracy    float64 `json:"stated_accuracy"`      // StatedRight / Stated
	UnstatedAccuracy  float64 `json:"unstated_accuracy"`    // UnstatedRight / Unstated
	FalseNotFoundRate float64 `json:"false_not_found_rate"` // FalseNotFound / Stated

	PerTable []CompareTableScore `json:"per_table"`
}

// CompareTableScore is one table's outcome.
type CompareTableScore struct {
	Name  string             `json:"name"`
	Cells int                `json:"cells"`
	Right int                `json:"right"`
	Per   []CompareCellScore `json:"cells_detail,omitempty"`
}

// CompareCellScore is one cell's outcome.
type CompareCellScore struct {
	File     string `json:"file"`
	Aspect   string `json:"aspect"`
	Right    bool   `json:"right"`
	GoldNF   bool   `json:"gold_not_found,omitempty"`
	NotFound bool   `json:"not_found,omitempty"`
	Text     string `json:"text,omitempty"`
	Section  string `json:"section,omitempty"` // the cell evidence's section
}

// ScoreCompare builds every table (papers by file name through files) and
// scores each cell against its gold.
func ScoreCompare(ctx context.Context, ts []CompareTable, files map[string]int64, build CompareBuilder) (CompareScores, error) {
	var s CompareScores
	for _, t := range ts {
		row := CompareTableScore{Name: t.Name}
		var ids []int64
		present := map[string]int64{}
		for _, f := range t.Papers {
			if id, ok := files[filepath.Base(f)]; ok {
				ids = append(ids, id)
				present[filepath.Base(f)] = id
			}
		}
		var tab *compare.Table
		if len(ids) > 0 {
			var err error
			if tab, err = build(ctx, compare.Request{PaperIDs: ids, Aspects: t.Aspects}); err != nil {
				return s, fmt.Errorf("compare %q: %w", t.Name, err)
			}
		}
		s.Tables++
		for _, g := range t.Cells {
			id, ok := present[filepath.Base(g.File)]
			if !ok {
				s.Missing++
				continue
			}
			var c *compare.Cell
			if tab != nil {
				c = tab.Cell(id, g.Aspect)
			}
			if c == nil {
				return s, fmt.Errorf("compare %q: no cell for %s x %q", t.Name, g.File, g.Aspect)
			}
			right := CellRight(g, c.Text, c.NotFound)
			cs := CompareCellScore{File: g.File, Aspect: g.Aspect, Right: right, GoldNF: g.NotFound, NotFound: c.NotFound, Text: clip(c.Text, 300)}
			if len(c.Evidence) > 0 && len(c.Evidence[0].Path) > 1 {
				cs.Section = c.Evidence[0].Path[len(c.Evidence[0].Path)-1]
			}
			row.Per = append(row.Per, cs)
			row.Cells++
			s.Cells++
			if g.NotFound {
				s.Unstated++
			} else {
				s.Stated++
				if c.NotFound && !g.AcceptNotFound {
					s.FalseNotFound++
				}
			}
			if right {
				row.Right++
				s.Right++
				if g.NotFound {
					s.UnstatedRight++
				} else {
					s.StatedRight++
				}
			}
		}
		s.PerTable = append(s.PerTable, row)
	}
	div := func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return round3(float64(a) / float64(b))
	}
	s.Accuracy, s.StatedAccuracy, s.UnstatedAccuracy = div(s.Right, s.Cells), div(s.StatedRight, s.Stated), div(s.UnstatedRight, s.Unstated)
	s.FalseNotFoundRate = div(s.FalseNotFound, s.Stated)
	return s, nil
}

// CellRight scores one cell: a gold "not found" wants a not-found cell; a
// stated gold wants a cell that quotes the support (or is a part of it at
// least half its length) or holds every key value (see CompareGold), or a
// not-found cell when the gold accepts one.
func CellRight(g CompareGold, text string, notFound bool) bool {
	if g.NotFound {
		return notFound
	}
	if notFound {
		return g.AcceptNotFound
	}
	if sup := alnum(g.Support); sup != "" {
		got := alnum(text)
		if strings.Contains(got, sup) || len(got)*2 >= len(sup) && strings.Contains(sup, got) {
			return true
		}
	}
	if len(g.Values) == 0 {
		return false
	}
	words := " " + wordForm(text)
	for _, v := range g.Values {
		hit := false
		for _, alt := range strings.Split(v, "|") {
			if w := wordForm(alt); w != "" && strings.Contains(words, " "+w) {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// wordForm lowercases s and turns every run of characters other than
// letters and digits into one space.
func wordForm(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
			continue
		}
		space = true
	}
	return b.String()
}
