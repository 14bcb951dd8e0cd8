package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/treebuild"
)

// Library question sets: questions asked of a whole library (no paper
// named), each with its gold papers, the section that answers in each and a
// verbatim supporting sentence; questions with no gold are ones no paper of
// the library answers. testdata/library_questions.json is the set written
// for the 44 development PDFs (papers are named by file name, so the set
// works with any index of those files).

// LibQuestion is one question of a library set.
type LibQuestion struct {
	// ID names the question in sets split into a tunable half (ids
	// ending -a) and a blind half (-b); older sets have none.
	ID       string    `json:"id,omitempty"`
	Question string    `json:"question"`
	Gold     []LibGold `json:"gold"` // empty = no paper answers it
}

// LibGold is one paper that answers a question.
type LibGold struct {
	File    string `json:"file"`    // PDF file name
	Section string `json:"section"` // heading of the answering section ("" = front matter / abstract)
	Support string `json:"support"` // verbatim supporting text
}

// LoadLibQuestions reads a question set.
func LoadLibQuestions(path string) ([]LibQuestion, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, papertree.Wrap(err, papertree.ENotFound, "The question set could not be read.")
	}
	var qs []LibQuestion
	if err := json.Unmarshal(b, &qs); err != nil {
		return nil, papertree.Wrap(err, papertree.EInvalid, "The question set is not valid JSON.")
	}
	return qs, nil
}

// LibScores are the scorer's figures for one strategy (shares in [0,1]).
type LibScores struct {
	Strategy       string  `json:"strategy"`
	Budget         int     `json:"budget"`
	Answerable     int     `json:"answerable"`
	Unanswerable   int     `json:"unanswerable"`
	PaperHit       float64 `json:"paper_hit"`       // share of gold papers with evidence in the answer
	PaperAny       float64 `json:"paper_any"`       // share of questions with at least one gold paper in the evidence
	SectionHit     float64 `json:"section_hit"`     // share of gold (paper, section) pairs with evidence from that section
	SupportHit     float64 `json:"support_hit"`     // share of gold supporting sentences quoted by the evidence
	NotFoundRate   float64 `json:"not_found_rate"`  // unanswerable questions answered "not found"
	FalseNotFound  float64 `json:"false_not_found"` // answerable questions answered "not found"
	EvidencePapers float64 `json:"evidence_papers"` // mean distinct papers in the evidence
	// PaperPrecision is the share of the evidence papers that are gold,
	// over the answerable questions not answered "not found" (a not-found
	// answer lists no paper); Listed and ListedGold are its counts.
	PaperPrecision float64 `json:"paper_precision"`
	Listed         int     `json:"listed_papers"`
	ListedGold     int     `json:"listed_gold_papers"`
	// FalseAbsence is the share of answerable questions whose answer text
	// claims absence ("never mention", "appear in none of the papers",
	// "do not seem to answer", ...): every such question has a gold paper
	// that states it, so the claim is false.
	FalseAbsence float64 `json:"false_absence"`
	// RefEvidence counts the evidence items (all questions) that come from
	// a reference list: a bibliography heading on the path, a node the tree
	// marks as references (LibOptions.IsReference), or text that reads as
	// bibliography entries; RefEvidenceText is the part found by the text
	// alone. Evidence is the count of all evidence items.
	RefEvidence     int     `json:"ref_evidence"`
	RefEvidenceText int     `json:"ref_evidence_text"`
	Evidence        int     `json:"evidence_items"`
	MeanMillis      float64 `json:"mean_ms"`      // mean time per question
	Missing         int     `json:"missing_gold"` // gold files not in the index (skipped)
	PerQuestion     []LibQ  `json:"questions,omitempty"`
}

// LibOptions are optional inputs of the scorer.
type LibOptions struct {
	// IsReference reports whether the tree marks an evidence node (or one
	// of its sections) as a reference list; nil = headings and text only.
	IsReference func(e papertree.Evidence) bool
}

// LibQ is one question's outcome.
type LibQ struct {
	Question   string  `json:"question"`
	PaperHit   float64 `json:"paper_hit"`
	SectionHit float64 `json:"section_hit"`
	SupportHit float64 `json:"support_hit"`
	NotFound   bool    `json:"not_found"`
	Papers     []int64 `json:"papers"`
	Precision  float64 `json:"paper_precision"` // answerable, not not-found: share of the evidence papers that are gold
	Absence    bool    `json:"absence_claim"`   // the answer text claims absence
	RefItems   int     `json:"ref_evidence,omitempty"`
	Answer     string  `json:"answer,omitempty"`
}

// LibAsker answers a library-wide question (library.Ask with a strategy and budget).
type LibAsker func(ctx context.Context, question string) (*papertree.Answer, error)

// ScoreLibrary asks every question and scores the answers. files maps a
// PDF file name (base name) to its paper id in the index.
func ScoreLibrary(ctx context.Context, qs []LibQuestion, files map[string]int64, ask LibAsker, opts LibOptions) (LibScores, error) {
	var s LibScores
	var nPaper, nSec, nSup, nAny float64
	var hitPaper, hitSec, hitSup, anyHit, nf, fnf, evPapers, absent float64
	var total time.Duration
	for _, q := range qs {
		if err := ctx.Err(); err != nil {
			return s, err
		}
		t0 := time.Now()
		a, err := ask(ctx, q.Question)
		if err != nil {
			return s, fmt.Errorf("ask %q: %w", q.Question, err)
		}
		total += time.Since(t0)
		byPaper := map[int64][]papertree.Evidence{}
		var order []int64
		for _, e := range a.Evidence {
			if _, ok := byPaper[e.PaperID]; !ok {
				order = append(order, e.PaperID)
			}
			byPaper[e.PaperID] = append(byPaper[e.PaperID], e)
		}
		evPapers += float64(len(byPaper))
		lq := LibQ{Question: q.Question, NotFound: a.NotFound, Papers: order, Absence: ClaimsAbsence(a.Text), Answer: clip(a.Text, 300)}
		for _, e := range a.Evidence {
			s.Evidence++
			byTree, byText := referenceEvidence(e, opts.IsReference)
			if byTree || byText {
				s.RefEvidence++
				lq.RefItems++
				if !byTree {
					s.RefEvidenceText++
				}
			}
		}
		if len(q.Gold) == 0 {
			s.Unanswerable++
			if a.NotFound {
				nf++
			}
			s.PerQuestion = append(s.PerQuestion, lq)
			continue
		}
		s.Answerable++
		if a.NotFound {
			fnf++
		}
		if lq.Absence {
			absent++
		}
		gold := map[int64]bool{}
		var gp, gs, gsu, n float64
		for _, g := range q.Gold {
			id, ok := files[filepath.Base(g.File)]
			if !ok {
				s.Missing++
				continue
			}
			gold[id] = true
			n++
			ev := byPaper[id]
			if len(ev) > 0 {
				gp++
			}
			if sectionHit(ev, g.Section) {
				gs++
			}
			if supportHit(ev, g.Support) {
				gsu++
			}
		}
		if !a.NotFound && len(order) > 0 {
			g := 0
			for _, id := range order {
				if gold[id] {
					g++
				}
			}
			s.Listed += len(order)
			s.ListedGold += g
			lq.Precision = round3(float64(g) / float64(len(order)))
		}
		if n == 0 {
			s.PerQuestion = append(s.PerQuestion, lq)
			continue
		}
		nAny++
		if gp > 0 {
			anyHit++
		}
		nPaper += n
		nSec += n
		nSup += n
		hitPaper += gp
		hitSec += gs
		hitSup += gsu
		lq.PaperHit, lq.SectionHit, lq.SupportHit = gp/n, gs/n, gsu/n
		s.PerQuestion = append(s.PerQuestion, lq)
	}
	div := func(a, b float64) float64 {
		if b == 0 {
			return 0
		}
		return round3(a / b)
	}
	s.PaperHit, s.SectionHit, s.SupportHit, s.PaperAny = div(hitPaper, nPaper), div(hitSec, nSec), div(hitSup, nSup), div(anyHit, nAny)
	s.NotFoundRate = div(nf, float64(s.Unanswerable))
	s.FalseNotFound = div(fnf, float64(s.Answerable))
	s.EvidencePapers = div(evPapers, float64(len(qs)))
	s.PaperPrecision = div(float64(s.ListedGold), float64(s.Listed))
	s.FalseAbsence = div(absent, float64(s.Answerable))
	if len(qs) > 0 {
		s.MeanMillis = round3(float64(total.Microseconds()) / 1000 / float64(len(qs)))
	}
	return s, nil
}

func round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }

// sectionHit: some evidence of the paper sits in the gold section (a heading
// on its path equal to the gold heading, numbers and case ignored); a gold
// section "" (front matter) matches evidence directly under the paper or
// under an abstract heading.
func sectionHit(ev []papertree.Evidence, section string) bool {
	want := normHeading(section)
	for _, e := range ev {
		if want == "" {
			if len(e.Path) <= 1 {
				return true
			}
			if h := normHeading(e.Path[len(e.Path)-1]); h == "abstract" {
				return true
			}
			continue
		}
		for _, p := range e.Path[min(1, len(e.Path)):] {
			if normHeading(p) == want {
				return true
			}
		}
	}
	return false
}

func normHeading(s string) string {
	f := strings.Fields(strings.ToLower(s))
	for len(f) > 0 && strings.IndexFunc(f[0], unicode.IsLetter) < 0 {
		f = f[1:] // section numbers
	}
	if len(f) > 0 && len(f[0]) <= 4 && strings.HasSuffix(f[0], ".") && strings.Trim(f[0], "ivxlcdm.") == "" {
		f = f[1:] // roman numerals "iv."
	}
	return alnum(strings.Join(f, " "))
}

// supportHit: the gold support (letters and digits only, lower case) is
// contained in one evidence text of the paper.
func supportHit(ev []papertree.Evidence, support string) bool {
	want := alnum(support)
	if want == "" {
		return false
	}
	for _, e := range ev {
		if strings.Contains(alnum(e.Text), want) {
			return true
		}
	}
	return false
}

func alnum(s string) string { return papertree.AlnumKey(s) }

// absenceRE finds an answer's claim that the papers do not hold what the
// question asks (the extractive answer's not-found reasons and the usual
// phrasings of a model's answer).
var absenceRE = regexp.MustCompile(`(?i)\b(never mentions?|appear in none|are not in the paper|not in these papers|do(es)? not seem to answer|do(es)? not (mention|discuss|report|describe|state|address)|none of the (papers|documents)|no (paper|passage|document)s? (in the library )?(mentions?|discuss|report|states?|answers?)|not (mentioned|found|stated|reported)|no information)\b`)

// ClaimsAbsence reports whether an answer text claims that the papers do
// not hold the answer.
func ClaimsAbsence(text string) bool { return absenceRE.MatchString(text) }

// referenceEvidence says whether an evidence item comes from a reference
// list: by the tree (a heading on its path that names a bibliography, or
// isRef) and, failing that, by its text (bibliography entries).
func referenceEvidence(e papertree.Evidence, isRef func(papertree.Evidence) bool) (byTree, byText bool) {
	for _, h := range e.Path[min(1, len(e.Path)):] {
		if r, _ := treebuild.ConventionalName(h); r == papertree.RoleReferences {
			return true, false
		}
	}
	if isRef != nil && isRef(e) {
		return true, false
	}
	return false, LooksLikeBibliography(e.Text)
}

var (
	bibYearRE  = regexp.MustCompile(`\b(1[89]\d\d|20[0-4]\d)[a-z]?\b`)
	bibVenueRE = regexp.MustCompile(`(?i)\b(proceedings|proc\.|journal|conference|arxiv|preprint|pp\.|vol\.|volume|transactions|workshop|press|doi)`)
)

// LooksLikeBibliography reports whether a passage reads as reference-list
// entries rather than prose: at least three years, one for every 25 words
// or fewer, and at least two venue words (Proceedings, Journal, arXiv,
// pp., ...). Related-work prose cites years too, but rarely venues.
func LooksLikeBibliography(text string) bool {
	words := len(strings.Fields(text))
	years := len(bibYearRE.FindAllStringIndex(text, -1))
	return years >= 3 && years*25 >= words && len(bibVenueRE.FindAllStringIndex(text, -1)) >= 2
}

// clip shortens s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
