// Package answer turns evidence into an answer whose citations resolve to
// evidence nodes. With no model configured the answer is extractive: the
// sentences of the evidence that best support the question, each followed by
// its citation marker [n] (n = 1-based position in the evidence list), and
// labelled as extractive. When the evidence is too weak the answer says
// plainly that the papers do not answer the question and shows what came
// closest.
//
// Data flow: retrieve -> answer -> report/app.
package answer

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/papertree"
)

// Options tune extractive answers.
type Options struct {
	// MinScore is the evidence score below which the papers are taken not to
	// answer the question (a calibrated threshold on retrieval scores).
	MinScore float64
	// MaxSentences bounds the extractive answer.
	MaxSentences int
	// MaxTokens bounds the extractive answer's length.
	MaxTokens int
}

// DefaultOptions are measured on the QASPER tune split (see README).
func DefaultOptions() Options {
	return Options{MinScore: 0.12, MaxSentences: 2, MaxTokens: 90}
}

// NotFoundText opens every "not answered" reply.
const NotFoundText = "These papers do not seem to answer this question."

type sentence struct {
	ev    int // evidence index
	pos   int // position inside the evidence
	text  string
	score float64
	tok   int
}

// Extractive builds an extractive answer from evidence. It returns the
// answer text with [n] markers, whether the evidence was judged too weak,
// and the cited evidence indexes (0-based).
func Extractive(ctx context.Context, emb papertree.Embedder, question string, ev []papertree.Evidence, opts Options) (string, bool, []int, error) {
	if opts.MaxSentences <= 0 {
		opts = DefaultOptions()
	}
	if len(ev) == 0 {
		return NotFoundText + " Nothing in the searched papers matched it.", true, nil, nil
	}
	best := 0
	for i := range ev {
		if ev[i].Score > ev[best].Score {
			best = i
		}
	}
	var sents []sentence
	for i, e := range ev {
		if e.Kind == papertree.KindCaption {
			sents = append(sents, sentence{ev: i, pos: 0, text: e.Text, tok: papertree.CountTokens(e.Text)})
			continue
		}
		for j, s := range papertree.SplitSentences(e.Text) {
			if len([]rune(s)) < 20 {
				continue
			}
			sents = append(sents, sentence{ev: i, pos: j, text: s, tok: papertree.CountTokens(s)})
		}
	}
	if len(sents) == 0 {
		return NotFoundText, true, nil, nil
	}
	texts := make([]string, len(sents))
	for i, s := range sents {
		texts[i] = s.text
	}
	qv, err := emb.EmbedQuery(ctx, question)
	if err != nil {
		return "", false, nil, err
	}
	vs, err := emb.Embed(ctx, texts)
	if err != nil {
		return "", false, nil, err
	}
	qterms := contentTerms(question)
	for i := range sents {
		sim := 0.0
		for k := range qv {
			sim += float64(qv[k]) * float64(vs[i][k])
		}
		// Sentence similarity, keyword overlap with the question, and the
		// retrieval score of the evidence it comes from.
		sents[i].score = sim + 0.25*overlap(qterms, contentTerms(sents[i].text)) + 0.3*ev[sents[i].ev].Score
		if sents[i].tok > 80 {
			sents[i].score -= 0.05 // run-on "sentences" (tables, lists) make poor answers
		}
	}
	order := make([]int, len(sents))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return sents[order[a]].score > sents[order[b]].score })

	if ev[best].Score < opts.MinScore {
		top := sents[order[0]]
		return fmt.Sprintf("%s The closest passage is: %s [%d]", NotFoundText, top.text, top.ev+1), true, []int{top.ev}, nil
	}
	var pick []int
	used := 0
	topScore := sents[order[0]].score
	picked := map[string]bool{}
	for _, i := range order {
		s := sents[i]
		if len(pick) == opts.MaxSentences {
			break
		}
		// Papers repeat themselves (abstract and introduction often share a
		// sentence); quoting it twice adds nothing.
		key := strings.Join(strings.Fields(strings.ToLower(s.text)), " ")
		if picked[key] {
			continue
		}
		if len(pick) > 0 && (s.score < topScore-0.08 || used+s.tok > opts.MaxTokens) {
			continue
		}
		pick = append(pick, i)
		picked[key] = true
		used += s.tok
	}
	sort.Slice(pick, func(a, b int) bool {
		if sents[pick[a]].ev != sents[pick[b]].ev {
			return sents[pick[a]].ev < sents[pick[b]].ev
		}
		return sents[pick[a]].pos < sents[pick[b]].pos
	})
	var b strings.Builder
	var cited []int
	seen := map[int]bool{}
	for k, i := range pick {
		s := sents[i]
		if k > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s [%d]", s.text, s.ev+1)
		if !seen[s.ev] {
			seen[s.ev] = true
			cited = append(cited, s.ev)
		}
	}
	return b.String(), false, cited, nil
}

var markerRE = regexp.MustCompile(`\s*\[\d+(?:\s*,\s*\d+)*\]`)

// StripMarkers removes citation markers ("[3]", "[1, 2]") from an answer.
func StripMarkers(s string) string {
	return strings.TrimSpace(markerRE.ReplaceAllString(s, ""))
}

func contentTerms(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) > 2 && !stop[w] {
			m[w] = true
		}
	}
	return m
}

func overlap(q, s map[string]bool) float64 {
	if len(q) == 0 {
		return 0
	}
	hit := 0
	for w := range q {
		if s[w] {
			hit++
		}
	}
	return float64(hit) / math.Sqrt(float64(len(q))*float64(max(len(s), 1)))
}

var stop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`the and for are was were what which who whom whose how why when where does did do done has have had
	this that these those with from into onto over under they them their there here our you your its can could may might must shall should will
	would also very more most less than then else not nor any each every all both either neither such used use using based paper papers authors
	work method methods approach proposed propose`) {
		m[w] = true
	}
	return m
}()
