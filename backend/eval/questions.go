package eval

// The real-PDF question set: questions a researcher would ask about the
// development PDFs, each with its gold paper (file name), the section that
// answers it and a verbatim supporting sentence from the paper, plus
// questions the library cannot answer. The scorer asks every question twice:
// scoped to its paper and library-wide, and measures what a researcher
// relies on: is the best evidence from the right paper and section, is the
// supporting sentence among the evidence and quoted by the answer, are
// yes/no verdicts right when given, and does "not in these papers" appear
// exactly when it should.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/papertree/papertree/backend/papertree"
)

// Question is one entry of a question set.
type Question struct {
	ID         string `json:"id"`
	Kind       string `json:"kind"` // factual, howwhy, yesno, unanswerable
	NamesPaper bool   `json:"names_paper,omitempty"`
	Paper      string `json:"paper,omitempty"`   // gold paper file name (base name)
	Section    string `json:"section,omitempty"` // gold section title without its number ("" = front matter or unknown)
	Question   string `json:"question"`
	Support    string `json:"support,omitempty"` // verbatim supporting sentence or clause
	// Values are the words or numbers the answer text itself must hold
	// (table questions: the cells that answer, "307M"); empty = not scored.
	Values       []string `json:"values,omitempty"`
	Answer       string   `json:"answer,omitempty"` // yes/no questions: "yes" or "no"
	Unanswerable bool     `json:"unanswerable,omitempty"`
}

// QuestionSet is a file of questions.
type QuestionSet struct {
	About     string     `json:"about"`
	Questions []Question `json:"questions"`
}

// LoadQuestions reads and checks a question set.
func LoadQuestions(path string) (*QuestionSet, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, papertree.Wrap(err, papertree.ENotFound, "The question set could not be read.")
	}
	var s QuestionSet
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, papertree.Wrap(err, papertree.EInvalid, "The question set is not valid JSON.")
	}
	seen := map[string]bool{}
	for i, q := range s.Questions {
		switch {
		case q.ID == "" || seen[q.ID]:
			return nil, papertree.Errorf(papertree.EInvalid, "Question %d has a missing or repeated id.", i+1)
		case strings.TrimSpace(q.Question) == "":
			return nil, papertree.Errorf(papertree.EInvalid, "Question %s is empty.", q.ID)
		case !q.Unanswerable && (q.Paper == "" || q.Support == ""):
			return nil, papertree.Errorf(papertree.EInvalid, "Answerable question %s needs its paper and supporting sentence.", q.ID)
		case q.Kind == "yesno" && q.Answer != "yes" && q.Answer != "no":
			return nil, papertree.Errorf(papertree.EInvalid, "Yes/no question %s needs answer \"yes\" or \"no\".", q.ID)
		}
		seen[q.ID] = true
	}
	return &s, nil
}

// Asker answers one question scoped to paperIDs (empty = library-wide).
type Asker func(ctx context.Context, question string, paperIDs []int64) (*papertree.Answer, error)

// QuestionsOptions configure a question-set run.
type QuestionsOptions struct {
	Papers   map[string]int64 // paper file base name -> paper id
	Ask      Asker
	Progress func(done, total int)
	// Absence checks one word a reply says is never mentioned: "" when
	// it is true, else why not (AbsenceOracle.Check); nil: not checked.
	Absence func(ctx context.Context, q Question, c papertree.AbsenceClaim) (string, error)
}

// QuestionScores are the figures of one way of asking (scoped or library-wide).
type QuestionScores struct {
	Mode                 string  `json:"mode"`
	Answerable           int     `json:"answerable"`
	Unanswerable         int     `json:"unanswerable"`
	PaperHit             float64 `json:"paper_hit"`             // highest-scored evidence is from the gold paper
	PaperHitNamed        float64 `json:"paper_hit_named"`       // ... over questions naming their paper
	PaperHitUnnamed      float64 `json:"paper_hit_unnamed"`     // ... over the others
	SectionHit           float64 `json:"section_hit"`           // highest-scored evidence lies in the gold section
	SectionHitAny        float64 `json:"section_hit_any"`       // some evidence lies in the gold section
	SupportHit           float64 `json:"support_hit"`           // the supporting sentence is in the evidence
	AnswerQuotes         float64 `json:"answer_quotes_support"` // the answer quotes the supporting sentence
	AnswerValues         float64 `json:"answer_holds_values"`   // questions with values: the answer (not a "not found" reply quoting its closest passage) holds every one
	Valued               int     `json:"valued,omitempty"`      // answerable questions that list values
	VerdictPrecision     float64 `json:"verdict_precision"`     // yes/no questions: right verdicts / verdicts given
	VerdictCoverage      float64 `json:"verdict_coverage"`      // yes/no questions: verdicts given / questions
	YesNo                int     `json:"yesno"`
	NotFoundUnanswerable float64 `json:"not_found_unanswerable"` // share of unanswerable questions answered "not found"
	NotFoundAnswerable   float64 `json:"not_found_answerable"`   // share of answerable questions answered "not found"
	AbsenceWords         int     `json:"absence_words"`          // words the replies say are never mentioned (checked when an oracle is given)
	FalseAbsence         int     `json:"false_absence_words"`    // ... that the oracle finds false
	LatencyP50           float64 `json:"latency_ms_p50"`
	LatencyP95           float64 `json:"latency_ms_p95"`
}

// QuestionMiss records a question that missed, for reading.
type QuestionMiss struct {
	Mode   string `json:"mode"`
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// QuestionOutcome is what one question got in one mode.
type QuestionOutcome struct {
	Mode     string            `json:"mode"`
	ID       string            `json:"id"`
	Question string            `json:"question"`
	NotFound bool              `json:"not_found,omitempty"`
	Verdict  string            `json:"verdict,omitempty"`
	Answer   string            `json:"answer"`
	Absent   []string          `json:"absent_words,omitempty"`
	Evidence []EvidenceOutcome `json:"evidence"`
}

// EvidenceOutcome is one evidence passage of an answer, in the answer's
// order, with the file it came from and whether it holds the gold
// supporting sentence.
type EvidenceOutcome struct {
	File     string   `json:"file"`
	Path     []string `json:"path"`
	Score    float64  `json:"score"`
	Tokens   int      `json:"tokens"`
	Supports bool     `json:"supports,omitempty"`
	Text     string   `json:"text"`
}

func outcome(mode string, q Question, a *papertree.Answer, papers map[string]int64) QuestionOutcome {
	files := make(map[int64]string, len(papers))
	for f, id := range papers {
		files[id] = f
	}
	o := QuestionOutcome{Mode: mode, ID: q.ID, Question: q.Question, NotFound: a.NotFound, Verdict: a.Verdict, Answer: a.Text, Evidence: []EvidenceOutcome{}}
	for _, c := range a.Diag.Absent {
		o.Absent = append(o.Absent, c.Word)
	}
	for _, e := range a.Evidence {
		o.Evidence = append(o.Evidence, EvidenceOutcome{
			File: files[e.PaperID], Path: e.Path, Score: r4(e.Score), Tokens: e.Tokens,
			Supports: q.Support != "" && Supports(e.Text, q.Support), Text: e.Text,
		})
	}
	return o
}

// QuestionsReport is the outcome of a run.
type QuestionsReport struct {
	Questions int            `json:"questions"`
	Scoped    QuestionScores `json:"scoped"`
	Library   QuestionScores `json:"library"`
	Misses    []QuestionMiss `json:"misses,omitempty"`
	// Outcomes holds every answer, question by question, for reading a
	// run without a debug build (printed with --json only).
	Outcomes []QuestionOutcome `json:"outcomes,omitempty"`
	// Unindexed lists gold papers that are not in the library (they failed
	// to index); their questions count as misses in both modes.
	Unindexed []string `json:"unindexed_gold_papers,omitempty"`
}

// RunQuestions asks every question scoped to its paper (when it names one)
// and library-wide, and scores the answers.
func RunQuestions(ctx context.Context, set *QuestionSet, opts QuestionsOptions) (*QuestionsReport, error) {
	rep := &QuestionsReport{Questions: len(set.Questions)}
	total := 2 * len(set.Questions)
	done := 0
	for _, mode := range []string{"scoped", "library"} {
		var acc scoreAcc
		for _, q := range set.Questions {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			var ids []int64
			if mode == "scoped" {
				id, ok := opts.Papers[filepath.Base(q.Paper)]
				if !ok && !q.Unanswerable {
					// The gold paper did not index (e.g. rejected as garbled):
					// the library cannot answer from it, so the question is
					// scored as a miss rather than dropped or aborting the run.
					if !slices.Contains(rep.Unindexed, q.Paper) {
						rep.Unindexed = append(rep.Unindexed, q.Paper)
					}
					acc.add(q, &papertree.Answer{}, opts.Papers)
					rep.Misses = append(rep.Misses, QuestionMiss{Mode: mode, ID: q.ID, Reason: "gold paper not in the library (it did not index)"})
					done++
					continue
				}
				if !ok {
					done++
					continue // an unanswerable question about no paper is asked library-wide only
				}
				ids = []int64{id}
			}
			t0 := time.Now()
			a, err := opts.Ask(ctx, q.Question, ids)
			if err != nil {
				return nil, fmt.Errorf("question %s: %w", q.ID, err)
			}
			acc.lat = append(acc.lat, float64(time.Since(t0).Microseconds())/1000)
			rep.Outcomes = append(rep.Outcomes, outcome(mode, q, a, opts.Papers))
			for _, r := range acc.add(q, a, opts.Papers) {
				rep.Misses = append(rep.Misses, QuestionMiss{Mode: mode, ID: q.ID, Reason: r})
			}
			if opts.Absence != nil {
				falses, err := acc.checkAbsence(ctx, q, a, opts.Absence)
				if err != nil {
					return nil, fmt.Errorf("question %s: %w", q.ID, err)
				}
				for _, r := range falses {
					rep.Misses = append(rep.Misses, QuestionMiss{Mode: mode, ID: q.ID, Reason: r})
				}
			}
			done++
			if opts.Progress != nil {
				opts.Progress(done, total)
			}
		}
		s := acc.scores(mode)
		if mode == "scoped" {
			rep.Scoped = s
		} else {
			rep.Library = s
		}
	}
	return rep, nil
}

type scoreAcc struct {
	n, un, named, unnamed                          int
	paper, paperNamed, paperUnnamed, sec, secAny   int
	support, quotes, nfAns, nfUn, yn, given, right int
	valued, values                                 int
	absent, falseAbsent                            int
	lat                                            []float64
}

// absenceWordsRE finds a reply that says something is never mentioned.
var absenceWordsRE = regexp.MustCompile(`(?i)\bnever mentions?\b`)

// checkAbsence checks every absence claim of a reply and returns why
// the false ones are false. A reply that says a word is never mentioned
// must report the words it claims (Diag.Absent), or it cannot be checked.
func (s *scoreAcc) checkAbsence(ctx context.Context, q Question, a *papertree.Answer, check func(context.Context, Question, papertree.AbsenceClaim) (string, error)) ([]string, error) {
	var out []string
	if a.NotFound && len(a.Diag.Absent) == 0 && absenceWordsRE.MatchString(a.Text) {
		s.absent++
		s.falseAbsent++
		out = append(out, "false absence: the reply says a word is never mentioned but reports no claim")
	}
	for _, c := range a.Diag.Absent {
		s.absent++
		why, err := check(ctx, q, c)
		if err != nil {
			return nil, err
		}
		if why != "" {
			s.falseAbsent++
			out = append(out, fmt.Sprintf("false absence word %q: %s", c.Word, why))
		}
	}
	return out, nil
}

// add scores one answer and returns the reasons it missed.
func (s *scoreAcc) add(q Question, a *papertree.Answer, papers map[string]int64) []string {
	var miss []string
	if q.Unanswerable {
		s.un++
		if a.NotFound {
			s.nfUn++
		} else {
			miss = append(miss, "answered an unanswerable question")
		}
		return miss
	}
	s.n++
	if a.NotFound {
		s.nfAns++
		miss = append(miss, "said not found")
	}
	gold := papers[filepath.Base(q.Paper)]
	top := -1
	for i, e := range a.Evidence {
		if top < 0 || e.Score > a.Evidence[top].Score {
			top = i
		}
	}
	hitPaper := top >= 0 && a.Evidence[top].PaperID == gold
	if q.NamesPaper {
		s.named++
	} else {
		s.unnamed++
	}
	if hitPaper {
		s.paper++
		if q.NamesPaper {
			s.paperNamed++
		} else {
			s.paperUnnamed++
		}
	} else {
		miss = append(miss, "best evidence from another paper")
	}
	if hitPaper && inSection(a.Evidence[top], q.Section) {
		s.sec++
	}
	for _, e := range a.Evidence {
		if e.PaperID == gold && inSection(e, q.Section) {
			s.secAny++
			break
		}
	}
	found := false
	for _, e := range a.Evidence {
		if e.PaperID == gold && Supports(e.Text, q.Support) {
			found = true
			break
		}
	}
	if found {
		s.support++
	} else {
		miss = append(miss, "supporting sentence not in the evidence")
	}
	if Supports(a.Text, q.Support) {
		s.quotes++
	}
	if len(q.Values) > 0 {
		s.valued++
		if !a.NotFound && HoldsValues(a.Text, q.Values) {
			s.values++
		} else {
			miss = append(miss, "answer lacks a value")
		}
	}
	if q.Kind == "yesno" {
		s.yn++
		if a.Verdict == "yes" || a.Verdict == "no" {
			s.given++
			if a.Verdict == q.Answer {
				s.right++
			} else {
				miss = append(miss, "wrong verdict "+a.Verdict)
			}
		}
	}
	return miss
}

func (s *scoreAcc) scores(mode string) QuestionScores {
	r := QuestionScores{Mode: mode, Answerable: s.n, Unanswerable: s.un, YesNo: s.yn}
	r.PaperHit, r.SectionHit, r.SectionHitAny = qratio(s.paper, s.n), qratio(s.sec, s.n), qratio(s.secAny, s.n)
	r.PaperHitNamed, r.PaperHitUnnamed = qratio(s.paperNamed, s.named), qratio(s.paperUnnamed, s.unnamed)
	r.SupportHit, r.AnswerQuotes = qratio(s.support, s.n), qratio(s.quotes, s.n)
	r.AnswerValues, r.Valued = qratio(s.values, s.valued), s.valued
	r.VerdictPrecision, r.VerdictCoverage = qratio(s.right, s.given), qratio(s.given, s.yn)
	r.NotFoundUnanswerable, r.NotFoundAnswerable = qratio(s.nfUn, s.un), qratio(s.nfAns, s.n)
	r.AbsenceWords, r.FalseAbsence = s.absent, s.falseAbsent
	r.LatencyP50, r.LatencyP95 = r4(Percentile(s.lat, 50)), r4(Percentile(s.lat, 95))
	return r
}

func qratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return r4(float64(a) / float64(b))
}

// inSection reports whether evidence lies under a section titled title
// (numbers, case and punctuation ignored). An empty gold section (front
// matter, untitled papers) matches evidence outside every section.
func inSection(e papertree.Evidence, title string) bool {
	want := squash(title)
	if want == "" {
		return len(e.Path) <= 1
	}
	for _, t := range e.Path[min(1, len(e.Path)):] {
		// The title with its enumerator stripped and as printed ("A Simple
		// Method" is not appendix A's "Simple Method").
		for _, got := range []string{squash(stripSectionNumber(t)), squash(t)} {
			if got != "" && (got == want || strings.HasPrefix(got, want) || strings.HasPrefix(want, got) && len(got) >= 6) {
				return true
			}
		}
	}
	return false
}

// sectionNumberRE matches a section's enumerator: "3", "4.2", "A", "A.1",
// "II.", "IV.B", "C.2.".
var sectionNumberRE = regexp.MustCompile(`^([0-9]+|[A-Z]|[IVXL]+)(\.([0-9]+|[A-Z]))*\.?$`)

func stripSectionNumber(t string) string {
	f := strings.Fields(t)
	if len(f) > 1 && sectionNumberRE.MatchString(f[0]) {
		return strings.Join(f[1:], " ")
	}
	return t
}

// Supports reports whether text contains the supporting sentence: the
// sentence's letters and digits appear contiguously in text's (so line
// breaks, hyphenation, ligatures and spacing from PDF extraction do not
// matter), or, for extraction that reorders a few words, at least 90% of
// the sentence's words appear in text.
func Supports(text, support string) bool {
	s := squash(support)
	if s == "" {
		return false
	}
	if strings.Contains(squash(text), s) {
		return true
	}
	words := wordsOf(support)
	if len(words) < 4 {
		return false
	}
	have := map[string]int{}
	for _, w := range wordsOf(text) {
		have[w]++
	}
	hit := 0
	for _, w := range words {
		if have[w] > 0 {
			have[w]--
			hit++
		}
	}
	return float64(hit) >= 0.9*float64(len(words))
}

// HoldsValues reports whether text holds every value as a whole word
// sequence (case and punctuation ignored, so "307M" does not match
// "1307M" and "81.0" matches "81.0" but not "81.05").
func HoldsValues(text string, values []string) bool {
	words := " " + strings.Join(valueWords(text), " ") + " "
	for _, v := range values {
		vw := valueWords(v)
		if len(vw) == 0 || !strings.Contains(words, " "+strings.Join(vw, " ")+" ") {
			return false
		}
	}
	return true
}

// valueWords splits like wordsOf but keeps a decimal point or comma
// between digits ("81.0", "10,662") inside its word.
func valueWords(s string) []string {
	rs := []rune(ligatures.Replace(strings.ToLower(s)))
	keep := func(i int) bool {
		r := rs[i]
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
		return (r == '.' || r == ',') && i > 0 && i+1 < len(rs) && unicode.IsDigit(rs[i-1]) && unicode.IsDigit(rs[i+1])
	}
	var out []string
	var cur []rune
	for i := range rs {
		if keep(i) {
			cur = append(cur, rs[i])
			continue
		}
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = nil
		}
	}
	if len(cur) > 0 {
		out = append(out, string(cur))
	}
	return out
}

var ligatures = strings.NewReplacer("ﬁ", "fi", "ﬂ", "fl", "ﬀ", "ff", "ﬃ", "ffi", "ﬄ", "ffl")

func squash(s string) string {
	s = ligatures.Replace(strings.ToLower(s))
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func wordsOf(s string) []string {
	return strings.FieldsFunc(ligatures.Replace(strings.ToLower(s)), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// WriteTable prints the report for people.
func (r *QuestionsReport) WriteTable(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Question set: %d questions\n", r.Questions)
	fmt.Fprintf(&b, "%-34s %10s %10s\n", "", "scoped", "library")
	row := func(name string, f func(QuestionScores) float64) {
		fmt.Fprintf(&b, "%-34s %10.3f %10.3f\n", name, f(r.Scoped), f(r.Library))
	}
	fmt.Fprintf(&b, "%-34s %10d %10d\n", "answerable / unanswerable asked", r.Scoped.Answerable, r.Library.Answerable)
	row("paper hit (best evidence)", func(s QuestionScores) float64 { return s.PaperHit })
	row("  naming their paper", func(s QuestionScores) float64 { return s.PaperHitNamed })
	row("  not naming it", func(s QuestionScores) float64 { return s.PaperHitUnnamed })
	row("section hit (best evidence)", func(s QuestionScores) float64 { return s.SectionHit })
	row("section hit (any evidence)", func(s QuestionScores) float64 { return s.SectionHitAny })
	row("support hit", func(s QuestionScores) float64 { return s.SupportHit })
	row("answer quotes support", func(s QuestionScores) float64 { return s.AnswerQuotes })
	if r.Scoped.Valued > 0 || r.Library.Valued > 0 {
		row("answer holds the values", func(s QuestionScores) float64 { return s.AnswerValues })
	}
	row("yes/no verdict precision", func(s QuestionScores) float64 { return s.VerdictPrecision })
	row("yes/no verdict coverage", func(s QuestionScores) float64 { return s.VerdictCoverage })
	row("not found | unanswerable", func(s QuestionScores) float64 { return s.NotFoundUnanswerable })
	row("not found | answerable", func(s QuestionScores) float64 { return s.NotFoundAnswerable })
	fmt.Fprintf(&b, "%-34s %10s %10s\n", "false absence words / claimed", fmt.Sprintf("%d / %d", r.Scoped.FalseAbsence, r.Scoped.AbsenceWords),
		fmt.Sprintf("%d / %d", r.Library.FalseAbsence, r.Library.AbsenceWords))
	row("latency p50 (ms)", func(s QuestionScores) float64 { return s.LatencyP50 })
	row("latency p95 (ms)", func(s QuestionScores) float64 { return s.LatencyP95 })
	fmt.Fprintf(&b, "(unanswerable asked: scoped %d, library %d)\n", r.Scoped.Unanswerable, r.Library.Unanswerable)
	if len(r.Unindexed) > 0 {
		fmt.Fprintf(&b, "gold papers not in the library (their questions count as misses): %s\n", strings.Join(r.Unindexed, ", "))
	}
	if len(r.Misses) > 0 {
		ms := append([]QuestionMiss(nil), r.Misses...)
		sort.SliceStable(ms, func(i, j int) bool { return ms[i].Mode < ms[j].Mode })
		fmt.Fprintf(&b, "misses:\n")
		for _, m := range ms {
			fmt.Fprintf(&b, "  %-8s %-12s %s\n", m.Mode, m.ID, m.Reason)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
