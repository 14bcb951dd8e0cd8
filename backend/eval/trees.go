package eval

// Tree scoring: how well a built PaperTree's headings agree with the
// hand-checked gold trees in shared/data/gold. The rules are the ones written
// in that directory's README.md, implemented here exactly so that the number
// the CLI prints is the acceptance number:
//
//   - texts are normalised (lowercase, letters and digits only); a prediction
//     matches a gold heading when pages differ by at most one and the
//     normalised texts are equal or have a difflib ratio >= 0.85;
//   - matching is one-to-one and greedy in document order: each prediction,
//     in order, takes the earliest still-unmatched gold heading it matches;
//   - gold run-in headings are optional: matching one is neither a hit nor a
//     false positive, missing one is not a miss;
//   - precision/recall/F1 over the rest; level accuracy and parent accuracy
//     over the hits (parent = nearest enclosing heading that is itself a hit,
//     or the root, compared between the gold and the predicted tree).

import (
	"encoding/json"
	"fmt"
	"github.com/papertree/papertree/backend/internal/textsim"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// MatchRatio is the difflib similarity from which two normalised heading
// texts count as the same heading.
const MatchRatio = 0.85

// GoldHeading is one hand-checked heading.
type GoldHeading struct {
	Text  string `json:"text"`
	Level int    `json:"level"`
	Page  int    `json:"page"`
	RunIn bool   `json:"runin"`
}

// GoldTree is one gold file (shared/data/gold/<name>.json).
type GoldTree struct {
	File       string        `json:"file"`
	Title      string        `json:"title"`
	HasOutline bool          `json:"has_outline"`
	Headings   []GoldHeading `json:"headings"`
	Notes      string        `json:"notes"`
}

// Hard reports whether the gold notes say the text layer is garbled or
// scanned; such files are reported apart from the main numbers.
func (g GoldTree) Hard() bool {
	n := strings.ToLower(g.Notes)
	return strings.Contains(n, "garbled") || strings.Contains(n, "scanned")
}

// LoadGold reads every *.json gold tree in dir, sorted by file name.
func LoadGold(dir string) ([]GoldTree, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("list gold: %w", err)
	}
	sort.Strings(paths)
	var out []GoldTree
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("read gold: %w", err)
		}
		var g GoldTree
		if err := json.Unmarshal(b, &g); err != nil {
			return nil, papertree.Errorf(papertree.EInvalid, "gold file %s is not valid JSON: %v", filepath.Base(p), err)
		}
		if g.File == "" {
			g.File = strings.TrimSuffix(filepath.Base(p), ".json") + ".pdf"
		}
		out = append(out, g)
	}
	if len(out) == 0 {
		return nil, papertree.Errorf(papertree.ENotFound, "no gold trees (*.json) in %s", dir)
	}
	return out, nil
}

// NormText lowercases s and keeps only letters and digits.
func NormText(s string) string { return papertree.AlnumKey(s) }

// TextsMatch applies the README's text rule to two already normalised texts.
func TextsMatch(goldNorm, predNorm string) bool {
	if goldNorm == predNorm {
		return true
	}
	return textsim.Ratio([]rune(goldNorm), []rune(predNorm)) >= MatchRatio
}

// Pair is one matched gold/prediction pair (indexes into the two lists).
type Pair struct {
	Gold     int  `json:"gold"`
	Pred     int  `json:"pred"`
	RunIn    bool `json:"runin"`
	LevelOK  bool `json:"level_ok"`
	ParentOK bool `json:"parent_ok"`
}

// TreeScore is the score of one file (or, in aggregates, summed counts).
type TreeScore struct {
	Gold      int     `json:"gold"`       // non-run-in gold headings
	Pred      int     `json:"pred"`       // predictions, minus those matching run-in gold headings
	Hits      int     `json:"hits"`       // matched non-run-in headings
	RunInHits int     `json:"runin_hits"` // predictions matching optional run-in gold headings
	LevelOK   int     `json:"level_ok"`   // hits with the gold level
	ParentOK  int     `json:"parent_ok"`  // hits with the gold parent
	Precision float64 `json:"precision"`  // Hits / Pred
	Recall    float64 `json:"recall"`     // Hits / Gold
	F1        float64 `json:"f1"`         // harmonic mean
	LevelAcc  float64 `json:"level_acc"`  // LevelOK / Hits
	ParentAcc float64 `json:"parent_acc"` // ParentOK / Hits
	Pairs     []Pair  `json:"pairs,omitempty"`
	Missed    []int   `json:"missed,omitempty"`    // gold indexes (non-run-in) left unmatched
	FalsePos  []int   `json:"false_pos,omitempty"` // prediction indexes left unmatched
}

// finish computes the ratios from the counts.
func (s *TreeScore) finish() {
	s.Precision = ratio(s.Hits, s.Pred)
	s.Recall = ratio(s.Hits, s.Gold)
	if s.Precision+s.Recall > 0 {
		s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
	} else {
		s.F1 = 0
	}
	s.LevelAcc = ratio(s.LevelOK, s.Hits)
	s.ParentAcc = ratio(s.ParentOK, s.Hits)
}

// ratio is n/d with the convention that an empty denominator scores 1 when
// the numerator is empty too (nothing to find and nothing found is perfect)
// and 0 otherwise.
func ratio(n, d int) float64 {
	if d == 0 {
		if n == 0 {
			return 1
		}
		return 0
	}
	return float64(n) / float64(d)
}

// add sums counts (used for micro averages).
func (s *TreeScore) add(o TreeScore) {
	s.Gold += o.Gold
	s.Pred += o.Pred
	s.Hits += o.Hits
	s.RunInHits += o.RunInHits
	s.LevelOK += o.LevelOK
	s.ParentOK += o.ParentOK
}

// ScoreHeadings scores predicted headings (document order) against one gold tree.
func ScoreHeadings(gold GoldTree, pred []papertree.Heading) TreeScore {
	gn := make([]string, len(gold.Headings))
	for i, h := range gold.Headings {
		gn[i] = NormText(h.Text)
	}
	goldMatch := make([]int, len(gold.Headings)) // gold -> pred index, -1 when unmatched
	for i := range goldMatch {
		goldMatch[i] = -1
	}
	predMatch := make([]int, len(pred))
	for pi, p := range pred {
		predMatch[pi] = -1
		pn := NormText(p.Text)
		for gi, g := range gold.Headings {
			if goldMatch[gi] >= 0 || abs(g.Page-p.Page) > 1 {
				continue
			}
			if TextsMatch(gn[gi], pn) {
				goldMatch[gi], predMatch[pi] = pi, gi
				break
			}
		}
	}

	var s TreeScore
	// A hit is a matched pair whose gold heading is not run-in.
	goldHit := make([]bool, len(gold.Headings))
	predHit := make([]bool, len(pred))
	for gi, g := range gold.Headings {
		if !g.RunIn {
			s.Gold++
		}
		if pi := goldMatch[gi]; pi >= 0 && !g.RunIn {
			goldHit[gi], predHit[pi] = true, true
		}
	}
	for pi := range pred {
		gi := predMatch[pi]
		switch {
		case gi >= 0 && gold.Headings[gi].RunIn:
			s.RunInHits++
		case gi >= 0:
			s.Pred++
		default:
			s.Pred++
			s.FalsePos = append(s.FalsePos, pi)
		}
	}
	goldLevels := make([]int, len(gold.Headings))
	for i, g := range gold.Headings {
		goldLevels[i] = g.Level
	}
	predLevels := make([]int, len(pred))
	for i, p := range pred {
		predLevels[i] = p.Level
	}
	for gi, g := range gold.Headings {
		pi := goldMatch[gi]
		if pi < 0 {
			if !g.RunIn {
				s.Missed = append(s.Missed, gi)
			}
			continue
		}
		pr := Pair{Gold: gi, Pred: pi, RunIn: g.RunIn}
		if !g.RunIn {
			s.Hits++
			pr.LevelOK = pred[pi].Level == g.Level
			gp := enclosingHit(goldLevels, goldHit, gi)
			pp := enclosingHit(predLevels, predHit, pi)
			want := -1
			if pp >= 0 {
				want = predMatch[pp]
			}
			pr.ParentOK = gp == want
			if pr.LevelOK {
				s.LevelOK++
			}
			if pr.ParentOK {
				s.ParentOK++
			}
		}
		s.Pairs = append(s.Pairs, pr)
	}
	s.finish()
	return s
}

// enclosingHit walks up the tree implied by levels (document order) from
// item i and returns the nearest ancestor that is a hit, or -1 for the root.
// The ancestor of an item is the closest earlier item with a smaller level.
func enclosingHit(levels []int, hit []bool, i int) int {
	cur := levels[i]
	for j := i - 1; j >= 0; j-- {
		if levels[j] >= cur {
			continue
		}
		if hit[j] {
			return j
		}
		cur = levels[j]
	}
	return -1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
