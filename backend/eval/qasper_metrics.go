package eval

import (
	"math"
	"regexp"
	"sort"
	"strings"
)

// Official QASPER metrics, reimplemented from the evaluator's definitions
// (../shared/data/qasper/README.md).

var (
	punctRE    = regexp.MustCompile(`[[:punct:]]`)
	articlesRE = regexp.MustCompile(`\b(a|an|the)\b`)
)

// NormalizeAnswer lowercases, removes punctuation and articles, and collapses
// whitespace (SQuAD normalisation).
func NormalizeAnswer(s string) string {
	s = strings.ToLower(s)
	s = punctRE.ReplaceAllString(s, "")
	s = articlesRE.ReplaceAllString(s, " ")
	return strings.Join(strings.Fields(s), " ")
}

// TokenF1 is SQuAD token F1 between a prediction and a gold answer.
func TokenF1(pred, gold string) float64 {
	p := strings.Fields(NormalizeAnswer(pred))
	g := strings.Fields(NormalizeAnswer(gold))
	if len(p) == 0 && len(g) == 0 {
		return 1
	}
	if len(p) == 0 || len(g) == 0 {
		return 0
	}
	counts := map[string]int{}
	for _, t := range g {
		counts[t]++
	}
	common := 0
	for _, t := range p {
		if counts[t] > 0 {
			counts[t]--
			common++
		}
	}
	return f1(common, len(p), len(g))
}

// EvidenceF1 is the set F1 between predicted and gold evidence strings
// (exact match after whitespace normalisation); both empty -> 1.
func EvidenceF1(pred, gold []string) float64 {
	ps := stringSet(pred)
	gs := stringSet(gold)
	if len(ps) == 0 && len(gs) == 0 {
		return 1
	}
	if len(ps) == 0 || len(gs) == 0 {
		return 0
	}
	common := 0
	for s := range ps {
		if gs[s] {
			common++
		}
	}
	return f1(common, len(ps), len(gs))
}

// f1 is the harmonic mean of precision common/npred and recall common/ngold.
func f1(common, npred, ngold int) float64 {
	if common == 0 {
		return 0
	}
	prec := float64(common) / float64(npred)
	rec := float64(common) / float64(ngold)
	return 2 * prec * rec / (prec + rec)
}

func stringSet(ss []string) map[string]bool {
	m := map[string]bool{}
	for _, s := range ss {
		s = strings.Join(strings.Fields(s), " ")
		if s != "" {
			m[s] = true
		}
	}
	return m
}

// WithoutFloats drops figure/table evidence strings.
func WithoutFloats(ss []string) []string {
	var out []string
	for _, s := range ss {
		if !strings.HasPrefix(strings.TrimSpace(s), FloatPrefix) {
			out = append(out, s)
		}
	}
	return out
}

// EACEEpsilon floors r(s) in EACE so that gold evidence in a section the
// context never touched costs -ln(1e-3) = 6.9 nats instead of infinity.
const EACEEpsilon = 1e-3

// EACE is the evidence alignment cross entropy -sum_s g(s) log max(r(s), eps)
// between gold shares g and context shares r (natural log).
func EACE[K comparable](g, r map[K]float64) float64 {
	h := 0.0
	for s, gs := range g {
		if gs <= 0 {
			continue
		}
		h -= gs * math.Log(math.Max(r[s], EACEEpsilon))
	}
	return h
}

// Percentile returns the p-th percentile (0..100, nearest rank) of xs.
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	k := int(math.Ceil(p/100*float64(len(s)))) - 1
	k = max(0, min(k, len(s)-1))
	return s[k]
}
