package eval

// Silver trees and front-matter checks.
//
// The silver set (shared/data/silver) holds PDFs from templates nobody tuned
// on, each scored with its own outline as the answer and the outline switched
// off. Its SOURCES.tsv labels every file with a template family; the
// families are split in two halves (sorted by name, alternating) so that a
// change can be developed on one half and checked on the other: a rule that
// only helps the half it was written on is fitted, not general.
//
// The same report carries the title and author checks: the built title
// against the gold title (same normalisation and similarity rule as
// headings) and whether any author name was found.

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/papertree/papertree/backend/internal/textsim"
)

// Split names of the silver families.
const (
	SplitDev   = "dev"
	SplitCheck = "check"
)

// LoadSourceFamilies reads SOURCES.tsv (columns: file ... family; a header
// row names them) from pdfDir or its parent and returns file -> family label,
// with any parenthesised detail dropped ("Elsevier journal (publisher PDF)"
// -> "Elsevier journal"). A missing file is not an error.
func LoadSourceFamilies(pdfDir string) (map[string]string, error) {
	out := map[string]string{}
	var f *os.File
	for _, p := range []string{filepath.Join(pdfDir, "SOURCES.tsv"), filepath.Join(filepath.Dir(filepath.Clean(pdfDir)), "SOURCES.tsv")} {
		var err error
		f, err = os.Open(p)
		if err == nil {
			break
		}
		if !os.IsNotExist(err) {
			return nil, fmt.Errorf("open sources: %w", err)
		}
	}
	if f == nil {
		return out, nil
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	fileCol, famCol := -1, -1
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "\t")
		if fileCol < 0 {
			for i, c := range cells {
				switch strings.ToLower(strings.TrimSpace(c)) {
				case "file":
					fileCol = i
				case "family":
					famCol = i
				}
			}
			if fileCol < 0 || famCol < 0 {
				return out, nil // not the expected table
			}
			continue
		}
		if fileCol >= len(cells) || famCol >= len(cells) {
			continue
		}
		fam := strings.TrimSpace(cells[famCol])
		if i := strings.Index(fam, " ("); i > 0 {
			fam = fam[:i]
		}
		if fam != "" {
			out[strings.TrimSpace(cells[fileCol])] = fam
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read sources: %w", err)
	}
	return out, nil
}

// SplitFamilies assigns each family to the dev or the check half: sorted by
// name, alternating, so that both halves mix publisher and LaTeX templates
// and the assignment never depends on scores.
func SplitFamilies(fams map[string]string) map[string]string {
	set := map[string]bool{}
	for _, f := range fams {
		set[f] = true
	}
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	out := map[string]string{}
	for i, n := range names {
		if i%2 == 0 {
			out[n] = SplitDev
		} else {
			out[n] = SplitCheck
		}
	}
	return out
}

// TitleMatch applies the heading text rule to a built title and the gold
// title: normalised texts equal or with a similarity ratio >= MatchRatio.
func TitleMatch(gold, got string) bool {
	g, p := NormText(gold), NormText(got)
	if g == "" || p == "" {
		return g == p
	}
	return g == p || textsim.Ratio([]rune(g), []rune(p)) >= MatchRatio
}

// FrontScore counts title and author checks over a group of files.
type FrontScore struct {
	Files       int     `json:"files"`        // files with a gold title
	TitlesOK    int     `json:"titles_ok"`    // built title matches the gold title
	WithAuthors int     `json:"with_authors"` // at least one author found
	TitleAcc    float64 `json:"title_acc"`
	AuthorRate  float64 `json:"author_rate"`
}

func frontScore(files []FileTreeScore, keep func(FileTreeScore) bool) FrontScore {
	var s FrontScore
	for _, f := range files {
		if !keep(f) || f.GoldTitle == "" {
			continue
		}
		s.Files++
		if f.TitleOK {
			s.TitlesOK++
		}
		if len(f.Authors) > 0 {
			s.WithAuthors++
		}
	}
	s.TitleAcc = ratio(s.TitlesOK, s.Files)
	s.AuthorRate = ratio(s.WithAuthors, s.Files)
	return s
}
