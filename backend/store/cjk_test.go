package store

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// chinesePaper is a small paper whose body is Chinese with English names
// glued to it, as Chinese papers print them.
func chinesePaper(path string) *papertree.Paper {
	seg := func(text string) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSegment, Level: 2, Text: text, PageStart: 1, PageEnd: 1,
			Tokens: papertree.CountTokens(text)}
	}
	root := &papertree.Node{Kind: papertree.KindRoot, Title: "基于多通道LSTM的不平衡情绪分类方法", PageStart: 1, PageEnd: 1}
	sec := &papertree.Node{Kind: papertree.KindSection, Title: "4 实验", Number: "4", Level: 1, PageStart: 1, PageEnd: 1}
	sec.Children = []*papertree.Node{
		seg("本文选用NLP&CC-2013中文微博情绪分析评测提供的微博语料作为实验语料。"),
		seg("本实验中词向量维度设为100，LSTM神经网络使用Keras搭建。"),
	}
	root.Children = []*papertree.Node{sec}
	root.Renumber()
	return &papertree.Paper{Path: path, Hash: "c" + path, Title: root.Title, Pages: 1, Root: root,
		PageSizes: []papertree.Size{{W: 595, H: 842}}}
}

// cjkLibrary saves two synthetic English papers and the Chinese paper.
func cjkLibrary(t *testing.T, s *Store) (zh int64) {
	t.Helper()
	ctx := context.Background()
	for i, p := range []*papertree.Paper{synthPaper("/p/a.pdf", 1, 3, 2, 4), synthPaper("/p/b.pdf", 2, 3, 2, 4)} {
		if _, err := s.SavePaper(ctx, p, Vectors{}, ""); err != nil {
			t.Fatalf("save %d: %v", i, err)
		}
	}
	zh, err := s.SavePaper(ctx, chinesePaper("/p/zh.pdf"), Vectors{}, "")
	if err != nil {
		t.Fatal(err)
	}
	return zh
}

// TestChineseWordsAreSearchable: a Chinese word is found by SearchText
// and counted by the absence check (PhraseCounts) iff it is printed; a
// word glued to an English name is found as well as the name; English
// search is unaffected.
func TestChineseWordsAreSearchable(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	zh := cjkLibrary(t, s)
	consistency(t, s)

	for _, q := range []string{"情绪分类的数据集是什么？", "词向量维度设为多少", "使用什么框架搭建"} {
		hits, err := s.SearchText(ctx, q, nil, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 || hits[0].PaperID != zh {
			t.Errorf("SearchText(%q) = %v, want the Chinese paper first", q, hits)
		}
	}
	for _, tt := range []struct {
		word    string
		printed bool
	}{
		{"情绪", true}, {"微博语料", true}, {"语料", true}, {"维度", true}, {"料", true}, {"集", false},
		{"数据集", false}, {"情感分析", false}, {"LSTM神经网络", true}, {"神经网络", true}, {"keras", true},
		{"Keras搭建", true}, {"分类方法", true}, {"语料作为", true}, {"网络使用", true}, {"络使", true},
	} {
		n, err := s.PhraseCounts(ctx, tt.word, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := n[zh] > 0; got != tt.printed {
			t.Errorf("PhraseCounts(%q) = %v, want printed %v", tt.word, n, tt.printed)
		}
	}
	// The Go-side BM25 of a paper's range counts the bigrams too.
	lo, hi := int64(0), int64(1<<40)
	hits, err := s.searchTextGo(ctx, FTSQuery("微博语料"), lo, hi, zh, 5)
	if err != nil || len(hits) == 0 || hits[0].Score <= 0 {
		t.Errorf("searchTextGo(微博语料) = %v, %v", hits, err)
	}
	if ok, err := s.Together(ctx, "微博", "语料", 3); err != nil || !ok {
		t.Errorf("Together(微博, 语料) = %v, %v", ok, err)
	}
	if ok, err := s.Together(ctx, "维度", "框架", 3); err != nil || ok {
		t.Errorf("Together(维度, 框架) = %v, %v, want false", ok, err)
	}
	if ids, err := s.PapersWithText(ctx, "情绪 分"); err != nil || !reflect.DeepEqual(ids, []int64{zh}) {
		t.Errorf("PapersWithText(情绪 分) = %v, %v", ids, err)
	}

	// English: the same hits as a library without the Chinese paper.
	plain := openTemp(t)
	for i, p := range []*papertree.Paper{synthPaper("/p/a.pdf", 1, 3, 2, 4), synthPaper("/p/b.pdf", 2, 3, 2, 4)} {
		if _, err := plain.SavePaper(ctx, p, Vectors{}, ""); err != nil {
			t.Fatalf("save %d: %v", i, err)
		}
	}
	for _, q := range []string{"marker1x1x1", vocab[0] + " " + vocab[5], vocab[17]} {
		a, err := s.SearchText(ctx, q, nil, 10)
		if err != nil {
			t.Fatal(err)
		}
		b, err := plain.SearchText(ctx, q, nil, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(a) == 0 || len(a) != len(b) {
			t.Fatalf("SearchText(%q): %d hits with the Chinese paper, %d without", q, len(a), len(b))
		}
		for i := range a {
			if a[i].NodeID != b[i].NodeID {
				t.Errorf("SearchText(%q) hit %d: node %d with the Chinese paper, %d without", q, i, a[i].NodeID, b[i].NodeID)
			}
		}
	}
	// Removing the paper removes its bigrams (the delete trigger passes the
	// same rewritten text).
	if err := s.DeletePaper(ctx, zh); err != nil {
		t.Fatal(err)
	}
	consistency(t, s)
	if n, _ := s.PhraseCounts(ctx, "情绪", nil); len(n) != 0 {
		t.Errorf("after delete PhraseCounts(情绪) = %v", n)
	}
}

// TestMigrateCJKIndex opens a library written by the previous schema (the
// index over the raw node text, whole CJK runs as words): opening it
// rebuilds the index with bigrams, and English search finds the same.
func TestMigrateCJKIndex(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	var told [][2]int
	opts := Options{Upgrading: func(from, to int) { told = append(told, [2]int{from, to}) }}
	s, err := OpenWith(ctx, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(told) != 0 {
		t.Errorf("a new library was announced as upgraded: %v", told)
	}
	zh := cjkLibrary(t, s)
	english := []string{"marker2x1x2", vocab[3] + " " + vocab[40]}
	before := map[string][]Hit{}
	for _, q := range english {
		if before[q], err = s.SearchText(ctx, q, nil, 10); err != nil || len(before[q]) == 0 {
			t.Fatalf("SearchText(%q) = %v, %v", q, before[q], err)
		}
	}
	// Back to schema 14: the index of 0001_init.sql, filled from the raw
	// text as the previous version did.
	for _, q := range []string{
		`DROP TRIGGER nodes_fts_delete`, `DROP TRIGGER nodes_fts_update`, `DROP TABLE node_fts`, `DROP VIEW nodes_fts_source`,
		`CREATE VIRTUAL TABLE node_fts USING fts5(title, text, content = 'nodes', content_rowid = 'id',
			tokenize = 'porter unicode61 remove_diacritics 2')`,
		`CREATE TRIGGER nodes_fts_delete AFTER DELETE ON nodes WHEN old.title <> '' OR old.text <> '' BEGIN
			INSERT INTO node_fts(node_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text); END`,
		`CREATE TRIGGER nodes_fts_update AFTER UPDATE OF title, text ON nodes BEGIN
			INSERT INTO node_fts(node_fts, rowid, title, text) SELECT 'delete', old.id, old.title, old.text WHERE old.title <> '' OR old.text <> '';
			INSERT INTO node_fts(rowid, title, text) SELECT new.id, new.title, new.text WHERE new.title <> '' OR new.text <> ''; END`,
		`INSERT INTO node_fts(rowid, title, text) SELECT id, title, text FROM nodes WHERE title <> '' OR text <> ''`,
		`DELETE FROM schema_migrations WHERE version >= 15`, `PRAGMA user_version = 14`,
	} {
		if _, err := s.w.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM node_fts WHERE node_fts MATCH '"情绪"'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the old index finds 情绪 in %d rows (%v): not an old-form index", n, err)
	}
	s.Close()

	s, err = OpenWith(ctx, path, opts)
	if err != nil {
		t.Fatalf("open a schema-14 library: %v", err)
	}
	defer s.Close()
	v, _ := s.SchemaVersion(ctx)
	if v < 15 {
		t.Fatalf("schema %d after opening, want 15 or later", v)
	}
	if want := [][2]int{{14, v}}; !reflect.DeepEqual(told, want) {
		t.Errorf("upgrade announced as %v, want %v (once, before the rebuild)", told, want)
	}
	if again, err := OpenWith(ctx, path, opts); err != nil {
		t.Fatal(err)
	} else if again.Close(); len(told) != 1 {
		t.Errorf("an up-to-date library was announced as upgraded: %v", told)
	}
	consistency(t, s)
	if c, err := s.PhraseCounts(ctx, "情绪分类", nil); err != nil || c[zh] == 0 {
		t.Errorf("after migration PhraseCounts(情绪分类) = %v, %v", c, err)
	}
	for _, q := range english {
		after, err := s.SearchText(ctx, q, nil, 10)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(after, before[q]) {
			t.Errorf("SearchText(%q) after migration = %v, want %v", q, after, before[q])
		}
	}
}
