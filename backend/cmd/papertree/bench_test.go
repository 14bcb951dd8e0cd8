package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestBenchQuery runs `bench query` on a small library: rows per scale with
// the synthetic copies counted, the cold question measured over the asked
// number of fresh opens, with its warm-up time, and the library untouched.
func TestBenchQuery(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, errs, code := cli(t, "index", "--db", db, fixtures); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errs)
	}
	out, errs, code := cli(t, "bench", "query", "--db", db, "--scales", "1,3", "--n", "4", "--cold", "2", "--json")
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, errs)
	}
	var rows []benchRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(rows) != 2 || rows[0].Papers == 0 || rows[1].Papers <= rows[0].Papers || rows[1].DBBytes <= rows[0].DBBytes {
		t.Fatalf("rows: %+v", rows)
	}
	for _, r := range rows {
		if r.ColdRuns != 2 || r.LibraryCold <= 0 || r.LibraryWarm <= 0 || r.WarmUpMS <= 0 || r.DBBytes <= 0 || r.Questions == 0 {
			t.Errorf("row %dx: %+v", r.Scale, r)
		}
	}
	list, _, code := cli(t, "list", "--db", db, "--json")
	var papers []json.RawMessage
	if code != 0 || json.Unmarshal([]byte(list), &papers) != nil || len(papers) != rows[0].Papers {
		t.Errorf("the benchmarked library changed: %d papers listed", len(papers))
	}
}
