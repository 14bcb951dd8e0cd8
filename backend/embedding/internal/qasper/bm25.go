package qasper

import "math"

// BM25 is Okapi BM25 over one paper's paragraphs, the lexical baseline the
// built-in embedder has to beat. Terms come from Analyze (the caller's
// tokenizer), so baseline and embedder see the same words.
type BM25 struct {
	Label   string
	K1, B   float64
	Analyze func(text string) []string // document terms
	Query   func(text string) []string // query terms; nil means Analyze
}

func (m BM25) Name() string { return m.Label }

// Prepare indexes the paragraphs. IDF is the Lucene form
// ln(1 + (N - n + 0.5)/(n + 0.5)), which stays positive for common terms.
func (m BM25) Prepare(paras []string) (func(string) ([]float64, error), error) {
	tfs := make([]map[string]int, len(paras))
	lens := make([]float64, len(paras))
	df := map[string]int{}
	total := 0.0
	for i, p := range paras {
		tf := map[string]int{}
		terms := m.Analyze(p)
		for _, t := range terms {
			tf[t]++
		}
		for t := range tf {
			df[t]++
		}
		tfs[i] = tf
		lens[i] = float64(len(terms))
		total += lens[i]
	}
	n := float64(len(paras))
	avg := total / math.Max(n, 1)
	if avg == 0 {
		avg = 1
	}
	query := m.Query
	if query == nil {
		query = m.Analyze
	}
	return func(q string) ([]float64, error) {
		scores := make([]float64, len(paras))
		seen := map[string]bool{}
		for _, t := range query(q) {
			if seen[t] {
				continue // each distinct query term counts once
			}
			seen[t] = true
			d := df[t]
			if d == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(d)+0.5)/(float64(d)+0.5))
			for i, tf := range tfs {
				f := float64(tf[t])
				if f == 0 {
					continue
				}
				scores[i] += idf * f * (m.K1 + 1) / (f + m.K1*(1-m.B+m.B*lens[i]/avg))
			}
		}
		return scores, nil
	}, nil
}
