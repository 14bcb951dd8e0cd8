package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// BM25 for searches scoped to a few papers, computed here instead of by
// FTS5's bm25().
//
// Why: bm25() computes each query term's document frequency by reading the
// term's whole posting list, once per statement. A scoped search runs one
// statement per paper (a rowid range, see searchTextRanged), so a
// library-wide question that scores 32 shortlisted papers read the posting
// list of every query word 32 times: at 20,000 papers that was most of a
// question's time (about 18 ms of CPU per statement). Here the document
// frequencies are read once per term and cached until the library changes,
// and each paper's statement only finds its matching rows.
//
// The score is FTS5's bm25 (k1 = 1.2, b = 0.75, idf = ln((N - n + 0.5) /
// (n + 0.5)) floored at 1e-6, title weight 2, text weight 1, document
// length from FTS5's own docsize table); only the per-row term counts are
// computed in Go, with the same Porter stemming, so scores agree with
// bm25() (TestGoBM25MatchesFTS5).

const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// ftsStats caches the collection statistics of node_fts.
type ftsStats struct {
	mu      sync.Mutex
	nRow    int64
	total   int64 // tokens in all columns of all rows
	df      map[string]int64
	version string // the averages and structure records the cache was built from
	stored  bool   // term_df holds the document frequencies of this version
}

// termDFVersionSQL is the state of node_fts that document frequencies are
// read from: its averages record (row count, token totals) and its
// structure record (the segments and their write counter, which every
// write to the index changes, also one that leaves the averages as they
// were: a heading renamed to as many words). Migration 0017 computes the
// same expression.
const termDFVersionSQL = `SELECT coalesce((SELECT block FROM node_fts_data WHERE id = 1), x'') ||
	coalesce((SELECT block FROM node_fts_data WHERE id = 10), x'')`

// termDFMin is the fewest rows a term of term_df is in (migration 0017): a
// rarer term's count reads about as little as a lookup.
const termDFMin = 32

// RefreshTermDF rebuilds term_df (migration 0017) when the full-text index
// has changed since it was built: one pass over the index's vocabulary
// (about a second of CPU at 5,000 papers). Index jobs call it when they
// have changed the library and libraries when they open; until it runs,
// questions count their words' rows as before. A read-only library is
// left alone.
func (s *Store) RefreshTermDF(ctx context.Context) error {
	if s.readOnly {
		return nil
	}
	var cur []byte
	if err := s.r.QueryRowContext(ctx, `SELECT version FROM term_df_state WHERE id = 1`).Scan(&cur); err != nil && err != sql.ErrNoRows {
		return fmt.Errorf("term frequencies: %w", err)
	}
	var v []byte
	if err := s.r.QueryRowContext(ctx, termDFVersionSQL).Scan(&v); err != nil {
		return fmt.Errorf("term frequencies: %w", err)
	}
	if cur != nil && string(cur) == string(v) {
		return nil
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("term frequencies: %w", err)
	}
	defer tx.Rollback()
	for _, q := range []string{
		`CREATE VIRTUAL TABLE IF NOT EXISTS temp.term_df_vocab USING fts5vocab(main, node_fts, 'row')`,
		`DELETE FROM term_df`,
		fmt.Sprintf(`INSERT INTO term_df(term, df) SELECT term, doc FROM temp.term_df_vocab WHERE doc >= %d`, termDFMin),
		`INSERT OR REPLACE INTO term_df_state(id, version) VALUES (1, (` + termDFVersionSQL + `))`,
		`DROP TABLE temp.term_df_vocab`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("term frequencies: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("term frequencies: %w", err)
	}
	// A question asked meanwhile found the table stale for this state of
	// the index: the next one reads it.
	s.fts.mu.Lock()
	s.fts.df = nil
	s.fts.mu.Unlock()
	return nil
}

// storedTerm reports the term under which term_df holds word w's document
// frequency, when it may: w is one plain lowercase ASCII word, so that the
// MATCH phrase of w is the one token FTS5's porter tokenizer makes of it,
// which termStem computes (TestPorterStemMatchesFTS5,
// TestTermDFMatchesCount). Any other word is counted.
func storedTerm(w string) (string, bool) {
	if w == "" || len(w) > 40 {
		return "", false
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return "", false
		}
	}
	return termStem(w), true
}

// readAverages returns FTS5's averages record (row count and per-column
// token totals): one point read.
func readAverages(ctx context.Context, q queryer) (blob []byte, nRow, total int64, err error) {
	err = q.QueryRowContext(ctx, `SELECT block FROM node_fts_data WHERE id = 1`).Scan(&blob)
	if err == sql.ErrNoRows {
		return nil, 0, 0, nil
	}
	if err != nil {
		return nil, 0, 0, err
	}
	vals := varints(blob)
	if len(vals) > 0 {
		nRow = vals[0]
		for _, v := range vals[1:] {
			total += v
		}
	}
	return blob, nRow, total, nil
}

// varints decodes a sequence of SQLite varints (FTS5 records).
func varints(b []byte) []int64 {
	var out []int64
	for len(b) > 0 {
		var v uint64
		i := 0
		for ; i < 9 && i < len(b); i++ {
			if i == 8 {
				v = v<<8 | uint64(b[i])
				break
			}
			v = v<<7 | uint64(b[i]&0x7f)
			if b[i]&0x80 == 0 {
				break
			}
		}
		if i >= len(b) {
			break
		}
		out = append(out, int64(v))
		b = b[i+1:]
	}
	return out
}

// queryTerms returns the distinct words of an FTSQuery string ("a" OR "b")
// and their stems.
func queryTerms(q string) (words, stems []string) {
	for _, part := range strings.Split(q, " OR ") {
		w := strings.Trim(part, `"`)
		w = strings.ReplaceAll(w, `""`, `"`)
		if w == "" {
			continue
		}
		words = append(words, w)
		stems = append(stems, termStem(w))
	}
	return words, stems
}

// termStem is how the FTS5 porter tokenizer reduces one lowercase word.
func termStem(w string) string {
	w = foldDiacritics(w)
	toks := embedding.Tokenize(w)
	if len(toks) == 1 {
		return embedding.PorterStem(toks[0].Word)
	}
	return embedding.PorterStem(w)
}

// stats returns N, avgdl and the document frequency of each word (read
// once per word and library state: from term_df when it is of this state
// and holds the word's term, else counted).
func (s *Store) stats(ctx context.Context, words []string) (n int64, avgdl float64, df []int64, err error) {
	var version []byte
	if err := s.r.QueryRowContext(ctx, termDFVersionSQL).Scan(&version); err != nil {
		return 0, 0, nil, fmt.Errorf("text search: %w", err)
	}
	st := &s.fts
	st.mu.Lock()
	defer st.mu.Unlock()
	if v := string(version); v != st.version || st.df == nil {
		_, nRow, total, err := readAverages(ctx, s.r)
		if err != nil {
			return 0, 0, nil, err
		}
		var stored []byte
		if err := s.r.QueryRowContext(ctx, `SELECT version FROM term_df_state WHERE id = 1`).Scan(&stored); err != nil && err != sql.ErrNoRows {
			return 0, 0, nil, fmt.Errorf("text search: %w", err)
		}
		st.version, st.nRow, st.total, st.df = v, nRow, total, map[string]int64{}
		st.stored = stored != nil && string(stored) == v
	}
	df = make([]int64, len(words))
	for i, w := range words {
		c, ok := st.df[w]
		if !ok && st.stored {
			if t, plain := storedTerm(w); plain {
				err := s.r.QueryRowContext(ctx, `SELECT df FROM term_df WHERE term = ?`, t).Scan(&c)
				if err != nil && err != sql.ErrNoRows {
					return 0, 0, nil, fmt.Errorf("text search: %w", err)
				}
				ok = err == nil
			}
		}
		if !ok {
			if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM node_fts WHERE node_fts MATCH ?`,
				ftsPhrase([]string{w}, false)).Scan(&c); err != nil {
				return 0, 0, nil, fmt.Errorf("text search: %w", err)
			}
		}
		if _, cached := st.df[w]; !cached {
			if len(st.df) > 100_000 {
				clear(st.df)
			}
			st.df[w] = c
		}
		df[i] = c
	}
	if st.nRow > 0 {
		avgdl = float64(st.total) / float64(st.nRow)
	}
	return st.nRow, avgdl, df, nil
}

// searchTextGo is searchText for one paper's rowid range, scored in Go.
func (s *Store) searchTextGo(ctx context.Context, q string, lo, hi, paperID int64, limit int) ([]Hit, error) {
	words, stems := queryTerms(q)
	if len(words) == 0 {
		return nil, nil
	}
	nRow, avgdl, df, err := s.stats(ctx, words)
	if err != nil {
		return nil, err
	}
	idf := make([]float64, len(words))
	for i, n := range df {
		v := math.Log((float64(nRow) - float64(n) + 0.5) / (float64(n) + 0.5))
		if v <= 0 {
			v = 1e-6
		}
		idf[i] = v
	}
	rows, err := s.r.QueryContext(ctx, `SELECT f.rowid, n.title, n.text, d.sz FROM node_fts f
		JOIN nodes n ON n.id = f.rowid LEFT JOIN node_fts_docsize d ON d.id = f.rowid
		WHERE node_fts MATCH ? AND f.rowid BETWEEN ? AND ? AND n.paper_id = ?`, q, lo, hi, paperID)
	if err != nil {
		return nil, fmt.Errorf("text search: %w", err)
	}
	defer rows.Close()
	var hits []Hit
	tf := make([]float64, len(stems))
	for rows.Next() {
		var id int64
		var title, text string
		var sz []byte
		if err := rows.Scan(&id, &title, &text, &sz); err != nil {
			return nil, fmt.Errorf("text search: %w", err)
		}
		clear(tf)
		countTerms(title, stems, tf, 2)
		countTerms(text, stems, tf, 1)
		var dl float64
		for _, v := range varints(sz) {
			dl += float64(v)
		}
		score := 0.0
		for i, w := range tf {
			if w == 0 {
				continue
			}
			norm := 1.0
			if avgdl > 0 {
				norm = 1 - bm25B + bm25B*dl/avgdl
			}
			score += idf[i] * (w * (bm25K1 + 1)) / (w + bm25K1*norm)
		}
		hits = append(hits, Hit{NodeID: id, PaperID: paperID, Score: score})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("text search: %w", err)
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].NodeID < hits[j].NodeID
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
}

// countTerms adds weight to tf[i] for every word of text whose Porter stem
// is stems[i]. Words are split by embedding.ScanWords, as the embedder splits them (runs of
// letters and digits, lowercased, at most 40 bytes), but only words that
// could have the stem are stemmed: Porter only rewrites the end of a word
// (at most the last two letters of a stem differ from the word's), so a
// word that does not start with the stem minus two letters cannot match.
// This keeps scoring cheap: most words of a matching row are not query
// words.
func countTerms(text string, stems []string, tf []float64, weight float64) {
	if text == "" {
		return
	}
	// A CJK stem is a character bigram of the index: the text's CJK runs
	// are counted as the index tokenized them.
	for _, st := range stems {
		if papertree.HasCJK(st) {
			text = papertree.CJKIndexText(text)
			break
		}
	}
	pre := make([]string, len(stems))
	for i, st := range stems {
		pre[i] = st[:max(1, len(st)-2)]
		if len(st) < 3 {
			pre[i] = st
		}
	}
	// Diacritics are folded per word, and only in words that have a
	// non-ASCII byte: folding the whole text first copied every row that
	// held one curly quote or dash (half of a library-wide question's
	// keyword-scoring CPU). Folding maps letters to letters and drops
	// combining marks, which ScanWords keeps inside words, so the words
	// are the same either way.
	embedding.ScanWords(text, func(w []byte) {
		for _, c := range w {
			if c >= 0x80 {
				w = []byte(foldDiacritics(string(w)))
				break
			}
		}
		if len(w) > 40 {
			w = w[:40]
		}
		stem := ""
		for i, p := range pre {
			if len(w) < len(p) || string(w[:len(p)]) != p {
				continue
			}
			if stem == "" {
				stem = embedding.PorterStem(string(w))
			}
			if stem == stems[i] {
				tf[i] += weight
			}
		}
	})
}

// foldDiacritics maps Latin letters with diacritics to their base letter,
// as the FTS5 tokenizer's remove_diacritics option does, so "naïve" in a
// question counts the "naive" of a paper (and the other way round).
func foldDiacritics(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if f, ok := latinFold[r]; ok {
			b.WriteRune(f)
			continue
		}
		if r >= 0x300 && r <= 0x36f { // combining marks
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

var latinFold = func() map[rune]rune {
	m := map[rune]rune{}
	add := func(base rune, chars string) {
		for _, c := range chars {
			m[c] = base
		}
	}
	add('a', "àáâãäåāăąǎ")
	add('A', "ÀÁÂÃÄÅĀĂĄǍ")
	add('c', "çćĉċč")
	add('C', "ÇĆĈĊČ")
	add('d', "ďđ")
	add('D', "ĎĐ")
	add('e', "èéêëēĕėęě")
	add('E', "ÈÉÊËĒĔĖĘĚ")
	add('g', "ĝğġģ")
	add('G', "ĜĞĠĢ")
	add('h', "ĥħ")
	add('H', "ĤĦ")
	add('i', "ìíîïĩīĭįı")
	add('I', "ÌÍÎÏĨĪĬĮİ")
	add('j', "ĵ")
	add('J', "Ĵ")
	add('k', "ķ")
	add('K', "Ķ")
	add('l', "ĺļľŀł")
	add('L', "ĹĻĽĿŁ")
	add('n', "ñńņňŉ")
	add('N', "ÑŃŅŇ")
	add('o', "òóôõöøōŏő")
	add('O', "ÒÓÔÕÖØŌŎŐ")
	add('r', "ŕŗř")
	add('R', "ŔŖŘ")
	add('s', "śŝşš")
	add('S', "ŚŜŞŠ")
	add('t', "ţťŧ")
	add('T', "ŢŤŦ")
	add('u', "ùúûüũūŭůűų")
	add('U', "ÙÚÛÜŨŪŬŮŰŲ")
	add('w', "ŵ")
	add('W', "Ŵ")
	add('y', "ýÿŷ")
	add('Y', "ÝŶŸ")
	add('z', "źżž")
	add('Z', "ŹŻŽ")
	return m
}()
