package store

import (
	"database/sql"
	"sort"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/internal/shareddata"
)

// TestPorterStemMatchesFTS5 asks SQLite itself how the node_fts tokenizer
// ('porter unicode61 remove_diacritics 2', migrations/0001_init.sql) stems
// every word of the development corpus (pdftotext of the PDFs and the
// QASPER tune texts), plus forms derived from its words with common
// endings, and checks that termStem (embedding.PorterStem) gives the same
// stem: the Go-side BM25 counts a row's words with it and must count what
// FTS5 matched. Words FTS5 splits differently from embedding.ScanWords are
// not compared. It skips when ../shared/data is absent.
func TestPorterStemMatchesFTS5(t *testing.T) {
	seen := map[string]bool{}
	var words []string
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	for _, text := range shareddata.CorpusTexts(t) {
		embedding.ScanWords(text, func(b []byte) {
			if len(b) <= 40 && !seen[string(b)] {
				add(foldDiacritics(string(b)))
			}
		})
	}
	corpus := len(words)
	for _, w := range words[:corpus] {
		if strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
			continue
		}
		for _, suf := range []string{"s", "ed", "ing", "ly", "ies", "ness", "al", "ic", "ity"} {
			add(w + suf)
		}
	}
	for _, w := range []string{"revving", "trekked", "acced", "possibly", "visibly", "assemblies", "biology",
		"methodologies", "ontologically", "yahohhing", "abilities", "probably", "analogy", "eulogy"} {
		add(w)
	}
	sort.Strings(words)

	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'porter unicode61 remove_diacritics 2')`,
		`CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	ins, err := tx.Prepare(`INSERT INTO t(rowid, x) VALUES (?, ?)`)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range words {
		if _, err := ins.Exec(i+1, w); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT doc, term FROM v`)
	if err != nil {
		t.Fatal(err)
	}
	terms := make([][]string, len(words)+1)
	for rows.Next() {
		var doc int
		var term string
		if err := rows.Scan(&doc, &term); err != nil {
			t.Fatal(err)
		}
		terms[doc] = append(terms[doc], term)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	compared, bad := 0, 0
	var other, odd []string
	for i, w := range words {
		if len(terms[i+1]) != 1 {
			continue
		}
		compared++
		got, want := termStem(w), terms[i+1][0]
		if got == want {
			continue
		}
		if strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
			other = append(other, w+": "+got+"/"+want)
			continue
		}
		if len(w) == 3 || strings.Contains(w, "yy") {
			odd = append(odd, w+": "+got+"/"+want)
			continue
		}
		if bad++; bad <= 30 {
			t.Errorf("termStem(%q) = %q, FTS5 stems it %q", w, got, want)
		}
	}
	t.Logf("%d words (%d from the corpus), %d compared with FTS5, %d words of letters a-z differ", len(words), corpus, compared, bad)
	// Known gaps, older than the Snowball stemmer (the hand-written one had
	// them too), logged and not failed:
	//   - FTS5 also stems words that hold digits ("10s" -> "10", "100fps" ->
	//     "100fp", hex hashes lose a final "e"), which PorterStem leaves
	//     whole, so a query for "10s" counts no term in a row FTS5 matched;
	//   - SQLite's own quirks on non-words: three-letter "eed" -> "e" and
	//     "ies" -> "ie", and "yy" before "ed"/"ing" ("ayyed") undoubled.
	if len(odd) > 0 {
		t.Logf("%d three-letter or \"yy\" words differ (go/fts5): %s", len(odd), strings.Join(odd[:min(len(odd), 10)], ", "))
	}
	if len(other) > 0 {
		t.Logf("%d words with digits or other characters differ (go/fts5), e.g. %s", len(other), strings.Join(other[:min(len(other), 10)], ", "))
	}
	if compared < corpus/2 {
		t.Errorf("only %d of %d words compared", compared, len(words))
	}
}
