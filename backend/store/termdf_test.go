package store

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
)

// countDF is the document frequency of word w as questions counted it
// before migration 0017: the rows of node_fts the word's phrase matches.
func countDF(t *testing.T, s *Store, w string) int64 {
	t.Helper()
	var n int64
	if err := s.r.QueryRowContext(context.Background(), `SELECT count(*) FROM node_fts WHERE node_fts MATCH ?`,
		ftsPhrase([]string{w}, false)).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// checkDF asks stats for words on a fresh statistics cache and compares
// every document frequency with the count; it returns how many words
// term_df answered.
func checkDF(t *testing.T, s *Store, words []string) (stored int) {
	t.Helper()
	ctx := context.Background()
	s.fts.mu.Lock()
	s.fts.df = nil
	s.fts.mu.Unlock()
	_, _, df, err := s.stats(ctx, words)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range words {
		if want := countDF(t, s, w); df[i] != want {
			t.Errorf("df(%q) = %d, count says %d", w, df[i], want)
		}
		if tm, plain := storedTerm(w); plain && s.fts.stored {
			var n int64
			if s.r.QueryRowContext(ctx, `SELECT df FROM term_df WHERE term = ?`, tm).Scan(&n) == nil {
				stored++
			}
		}
	}
	return stored
}

func storedUsable(t *testing.T, s *Store) bool {
	t.Helper()
	s.fts.mu.Lock()
	s.fts.df = nil
	s.fts.mu.Unlock()
	if _, _, _, err := s.stats(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return s.fts.stored
}

// TestTermDFMatchesCount: the document frequencies a question reads from
// term_df are the counts it made before, on a library upgraded from
// schema 16 (migration 0017 builds the table), after papers are added
// (the table is stale and not used until RefreshTermDF), and after a
// change that leaves FTS5's averages as they were (a word replaced by
// another). With PAPERTREE_BENCH_DB (a real library; it is copied, not
// written) every word of the bench questions and the committed question
// sets is checked there too.
func TestTermDFMatchesCount(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	for i := range 12 {
		if _, err := s.SavePaper(ctx, synthPaper(fmt.Sprintf("/p%d.pdf", i), uint64(i+1), 3, 2, 4), Vectors{}, ""); err != nil {
			t.Fatal(err)
		}
	}
	// Every word of the library, and forms of them that stem alike.
	var words []string
	seen := map[string]bool{}
	rows, err := s.r.QueryContext(ctx, `SELECT title || ' ' || text FROM nodes`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var txt string
		rows.Scan(&txt)
		for _, w := range splitWords(strings.ToLower(txt)) {
			for _, f := range []string{w, w + "s", w + "ing"} {
				if !seen[f] {
					seen[f] = true
					words = append(words, f)
				}
			}
		}
	}
	rows.Close()
	words = append(words, "naïve", "marker1x1x1", "x", "")

	// A library of schema 16: no term_df.
	for _, q := range []string{`DROP TABLE term_df`, `DROP TABLE term_df_state`, `DELETE FROM schema_migrations WHERE version >= 17`, `PRAGMA user_version = 16`} {
		if _, err := s.w.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	path := s.path
	s.Close()
	if s, err = Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, _ := s.SchemaVersion(ctx); v < 17 {
		t.Fatalf("schema %d after the upgrade", v)
	}
	if !storedUsable(t, s) {
		t.Fatal("term_df not usable after the upgrade")
	}
	if n := checkDF(t, s, words); n == 0 {
		t.Fatal("no word answered from term_df: the test compares nothing")
	}

	// Papers added: stale, counted; refreshed: read again.
	if _, err := s.SavePaper(ctx, synthPaper("/p99.pdf", 99, 3, 2, 4), Vectors{}, ""); err != nil {
		t.Fatal(err)
	}
	if storedUsable(t, s) {
		t.Error("term_df used after a paper was added")
	}
	checkDF(t, s, words)
	if err := s.RefreshTermDF(ctx); err != nil {
		t.Fatal(err)
	}
	if !storedUsable(t, s) {
		t.Fatal("term_df not usable after RefreshTermDF")
	}
	checkDF(t, s, words)

	// A word replaced by another in one row: the averages stay, the
	// structure record changes.
	var id int64
	var text string
	if err := s.r.QueryRowContext(ctx, `SELECT id, text FROM nodes WHERE text <> '' ORDER BY id LIMIT 1`).Scan(&id, &text); err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(text)
	f[0] = "zzqqreplaced"
	if _, err := s.w.ExecContext(ctx, `UPDATE nodes SET text = ? WHERE id = ?`, strings.Join(f, " "), id); err != nil {
		t.Fatal(err)
	}
	if storedUsable(t, s) {
		t.Error("term_df used after a row's text changed")
	}
	checkDF(t, s, words)

	db := os.Getenv("PAPERTREE_BENCH_DB")
	if db == "" {
		return
	}
	cp := filepath.Join(t.TempDir(), "real.db")
	if err := CopyFile(ctx, db, cp); err != nil {
		t.Fatal(err)
	}
	real, err := Open(ctx, cp)
	if err != nil {
		t.Fatal(err)
	}
	defer real.Close()
	if !storedUsable(t, real) {
		t.Fatal("term_df not usable on the upgraded real library")
	}
	words, seen = nil, map[string]bool{}
	add := func(q string) {
		for _, w := range embedding.QueryTerms(q) {
			if !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
		for _, w := range splitWords(strings.ToLower(q)) {
			if !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	bq, err := os.Open(filepath.Join("..", "eval", "testdata", "bench_questions.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bq)
	for sc.Scan() {
		add(sc.Text())
	}
	bq.Close()
	sets, _ := filepath.Glob(filepath.Join("..", "eval", "testdata", "questions-*.json"))
	for _, f := range sets {
		b, _ := os.ReadFile(f)
		for _, line := range strings.Split(string(b), "\n") {
			if _, q, ok := strings.Cut(line, `"question": "`); ok {
				add(strings.TrimSuffix(strings.TrimSpace(q), `",`))
			}
		}
	}
	n := checkDF(t, real, words)
	t.Logf("%d words of the bench questions and question sets, %d answered from term_df", len(words), n)
}
