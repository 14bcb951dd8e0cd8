package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// TestGoBM25MatchesFTS5 compares the Go scoring of scoped searches with
// FTS5's own bm25() on the same rows: same nodes, same order, scores within
// 1e-9 (relative). With $PAPERTREE_BENCH_DB it also checks a real library.
func TestGoBM25MatchesFTS5(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	var ids []int64
	for i := range 6 {
		p := synthPaper(fmt.Sprintf("/p%d.pdf", i), uint64(i+1), 3, 2, 4)
		id, err := s.SavePaper(ctx, p, Vectors{}, "")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	var queries []string
	rows, err := s.r.QueryContext(ctx, `SELECT text FROM nodes WHERE text <> '' ORDER BY id LIMIT 40`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var txt string
		rows.Scan(&txt)
		w := splitWords(txt)
		if len(w) > 3 {
			queries = append(queries, w[0]+" "+w[len(w)/2]+" "+w[len(w)-1]+" running studies")
		}
	}
	rows.Close()
	compareBM25(t, s, ids, queries)
	if db := os.Getenv("PAPERTREE_BENCH_DB"); db != "" {
		real, err := OpenWith(ctx, db, Options{MustExist: true, ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer real.Close()
		ready, _ := real.ReadyPaperIDs(ctx)
		qs := []string{"What datasets are used for evaluation?", "Which baselines do they compare against?",
			"How is the annotation agreement measured?", "What languages are covered by the experiments?",
			"Does the model use attention mechanisms?", "naïve Bayes classifiers", "F1 scores on SQuAD 2.0"}
		compareBM25(t, real, ready[:min(len(ready), 40)], qs)
	}
}

func splitWords(s string) []string {
	var out []string
	cur := []rune{}
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			cur = append(cur, r)
			continue
		}
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	if len(cur) > 0 {
		out = append(out, string(cur))
	}
	return out
}

func compareBM25(t *testing.T, s *Store, ids []int64, queries []string) {
	t.Helper()
	ctx := context.Background()
	worst, compared := 0.0, 0
	for _, query := range queries {
		q := FTSQuery(query)
		for _, id := range ids {
			var lo, hi sql.NullInt64
			if err := s.r.QueryRowContext(ctx, `SELECT min(id), max(id) FROM nodes WHERE paper_id = ?`, id).Scan(&lo, &hi); err != nil || !lo.Valid {
				continue
			}
			want, err := s.searchText(ctx, q, ` AND f.rowid BETWEEN ? AND ? AND n.paper_id = ?`, []any{lo.Int64, hi.Int64, id, 1000})
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.searchTextGo(ctx, q, lo.Int64, hi.Int64, id, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%q in paper %d: %d hits, FTS5 %d", query, id, len(got), len(want))
			}
			byID := map[int64]float64{}
			for _, h := range want {
				byID[h.NodeID] = h.Score
			}
			for _, h := range got {
				w, ok := byID[h.NodeID]
				if !ok {
					t.Fatalf("%q: node %d not in FTS5's hits", query, h.NodeID)
				}
				d := math.Abs(h.Score-w) / math.Max(1e-9, math.Abs(w))
				if d > 1e-6 && os.Getenv("BM25_DEBUG") != "" {
					var title, text string
					s.r.QueryRowContext(ctx, `SELECT title, text FROM nodes WHERE id = ?`, h.NodeID).Scan(&title, &text)
					t.Logf("%q node %d: go %.4f fts %.4f: %q %q", query, h.NodeID, h.Score, w, title, text[:min(len(text), 3000)])
				}
				worst = max(worst, d)
				compared++
			}
		}
	}
	t.Logf("%d scores compared, worst relative difference %.2g", compared, worst)
	if compared == 0 || worst > 1e-6 {
		t.Errorf("Go BM25 differs from FTS5 bm25: worst relative difference %.3g over %d scores", worst, compared)
	}
}

// TestCountTermsFoldsPerWord: folding diacritics word by word counts the
// same as folding the whole text first (what FTS5's remove_diacritics sees).
func TestCountTermsFoldsPerWord(t *testing.T) {
	stems := []string{"naiv", "bay", "erdo", "renyi", "model"}
	tests := []struct{ name, text string }{
		{"precomposed", "A naïve Bayes model; Naïve models."},
		{"upper case", "NAÏVE BAYES MODELS"},
		{"combining mark inside a word", "nai\u0308ve Bayes"},
		{"combining mark after a space", "a \u0301naive model"},
		{"curly quotes and dashes only", "the “naive” model – Bayes"},
		{"names", "Erdős–Rényi graphs model"},
		{"long word", "naïve" + strings.Repeat("x", 60) + " naïve"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := make([]float64, len(stems))
			want := make([]float64, len(stems))
			countTerms(tc.text, stems, got, 1)
			countTerms(foldDiacritics(tc.text), stems, want, 1)
			for i := range stems {
				if got[i] != want[i] {
					t.Fatalf("%s: %v, want %v (folded text first)", stems[i], got, want)
				}
			}
			if tc.name == "precomposed" && got[0] != 2 {
				t.Fatalf("naïve counted %v times, want 2", got[0])
			}
		})
	}
}
