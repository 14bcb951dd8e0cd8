package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// damagedLibrary makes a library of three papers and two saved answers,
// closes it, damages it with the statements (through a plain connection,
// as a tool or an interrupted edit would) and opens it again.
func damagedLibrary(t *testing.T, damage ...string) (*Store, []int64) {
	t.Helper()
	ctx := context.Background()
	s := openTemp(t)
	if _, err := s.EnsureEmbedder(ctx, "e", 8); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for i := range 3 {
		p := synthPaper(fmt.Sprintf("/papers/p%d.pdf", i), uint64(i+1), 3, 1, 3)
		id, err := s.SavePaper(ctx, p, synthVectors(p, 8, uint64(i)), "fp")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	for i := range 2 {
		if _, err := s.SaveAnswer(ctx, &papertree.Answer{Question: fmt.Sprintf("q%d", i), Text: "a"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.w.ExecContext(ctx, `INSERT INTO paper_ref(path, source, updated_at) VALUES ('/papers/p0.pdf', 'zotero', 1)`); err != nil {
		t.Fatal(err)
	}
	path := s.Path()
	s.Close()
	// The library's driver: the full-text triggers that a damaging DELETE
	// fires call its SQL function (papertree_fts_text).
	db, err := sql.Open(driverName, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range damage {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	if _, err := s.EnsureEmbedder(ctx, "e", 8); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, ids
}

// TestRepair: each kind of damage is found by Check (and refused by
// CheckHealth with "run papertree repair"), and after Repair the library
// is sound, searchable, and keeps its saved answers and imported
// references.
func TestRepair(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		damage    []string
		problem   string
		recreated string
		answers   int
		damaged   int
	}{
		{"dropped full-text index", []string{`DROP TABLE node_fts`}, "missing table node_fts", "table node_fts", 2, 0},
		{"dropped full-text shadow table", []string{`DROP TABLE node_fts_docsize`}, "missing table node_fts", "table node_fts", 2, 0},
		{"dropped answers table", []string{`DROP TABLE answers`}, "missing table answers", "table answers", 0, 0},
		{"dropped trigger", []string{`DROP TRIGGER nodes_fts_delete`}, "missing trigger nodes_fts_delete", "trigger nodes_fts_delete", 2, 0},
		{"dropped index", []string{`DROP INDEX nodes_parent`}, "missing index nodes_parent", "index nodes_parent", 2, 0},
		{"emptied full-text index", []string{`INSERT INTO node_fts(node_fts) VALUES ('delete-all')`}, "", "", 2, 0},
		{"lost tree", []string{`PRAGMA foreign_keys = OFF`, `DELETE FROM nodes WHERE paper_id = (SELECT min(id) FROM papers)`}, "", "", 2, 1},
		{"bad authors JSON", []string{`UPDATE papers SET authors = '{not json' WHERE id = (SELECT max(id) FROM papers)`}, "", "", 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := damagedLibrary(t, tt.damage...)
			problems, err := s.Check(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if tt.problem != "" {
				if !strings.Contains(strings.Join(problems, "; "), tt.problem) {
					t.Fatalf("Check = %q, want %q", problems, tt.problem)
				}
				herr := s.CheckHealth(ctx)
				if papertree.ErrorCode(herr) != papertree.ECorrupt || !strings.Contains(papertree.ErrorMessage(herr), "run papertree repair") {
					t.Fatalf("CheckHealth = %v", herr)
				}
			}
			rep, err := s.Repair(ctx)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("repair: %+v", rep)
			if tt.recreated != "" && !strings.Contains(strings.Join(rep.Recreated, ","), tt.recreated) {
				t.Errorf("recreated %q, want %q", rep.Recreated, tt.recreated)
			}
			if len(rep.Remaining) > 0 || !rep.FTSRebuilt || !rep.IndexesRebuilt || len(rep.Damaged) != tt.damaged {
				t.Errorf("report %+v: want nothing remaining, FTS rebuilt, %d damaged", rep, tt.damaged)
			}
			if p, _ := s.Check(ctx); len(p) > 0 {
				t.Errorf("after repair: %q", p)
			}
			if as, err := s.ListAnswers(ctx, 0, 0); err != nil || len(as) != tt.answers {
				t.Errorf("answers after repair: %d, %v; want %d", len(as), err, tt.answers)
			}
			if refs, err := s.Refs(ctx); err != nil || len(refs) != 1 {
				t.Errorf("imported references after repair: %d, %v", len(refs), err)
			}
			ps, err := s.ListPapers(ctx)
			if err != nil {
				t.Fatal(err)
			}
			stale := 0
			for _, p := range ps {
				if p.Stale {
					stale++
				}
			}
			if stale != tt.damaged {
				t.Errorf("%d papers marked for re-indexing, want %d", stale, tt.damaged)
			}
			// The full-text index answers again, for every node with text.
			var nodes, indexed int
			s.r.QueryRow(`SELECT count(*) FROM nodes WHERE title <> '' OR text <> ''`).Scan(&nodes)
			s.r.QueryRow(`SELECT count(*) FROM node_fts_docsize`).Scan(&indexed)
			if nodes == 0 || nodes != indexed {
				t.Errorf("full-text index has %d rows for %d nodes", indexed, nodes)
			}
			if hits, err := s.SearchText(ctx, vocab[0], nil, 5); err != nil || len(hits) == 0 {
				t.Errorf("search after repair: %d hits, %v", len(hits), err)
			}
			var fk int
			s.r.QueryRow(`SELECT count(*) FROM pragma_foreign_key_check`).Scan(&fk)
			if fk != 0 {
				t.Errorf("%d rows still point at deleted rows", fk)
			}
			if tt.damaged == 0 {
				consistency(t, s) // damaged papers are whole again once re-indexed (library.Repair)
			}
		})
	}
}

// TestRepairReadOnly: a read-only library is not repaired (coded refusal).
func TestRepairReadOnly(t *testing.T) {
	s := openTemp(t)
	path := s.Path()
	s.Close()
	ro, err := OpenWith(context.Background(), path, Options{MustExist: true, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.Repair(context.Background()); papertree.ErrorCode(err) != papertree.EConflict || !strings.Contains(papertree.ErrorMessage(err), "read-only") {
		t.Fatalf("repair of a read-only library: %v", err)
	}
}

// TestDiskFullIsCoded: a save that does not fit (SQLITE_FULL, made with
// max_page_count) is a coded "disk is full, nothing was lost" error and
// leaves the library as it was.
func TestDiskFullIsCoded(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if _, err := s.EnsureEmbedder(ctx, "e", 8); err != nil {
		t.Fatal(err)
	}
	p := synthPaper("/papers/a.pdf", 1, 2, 1, 2)
	if _, err := s.SavePaper(ctx, p, synthVectors(p, 8, 1), "fp"); err != nil {
		t.Fatal(err)
	}
	n, err := s.PageCount(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetMaxPages(ctx, n); err != nil {
		t.Fatal(err)
	}
	big := synthPaper("/papers/big.pdf", 2, 20, 3, 20)
	_, err = s.SavePaper(ctx, big, synthVectors(big, 8, 2), "fp")
	if !IsDiskFull(err) {
		t.Fatalf("save on a full disk: %v", err)
	}
	if ue := UserError(err); papertree.ErrorCode(ue) != papertree.EConflict || !strings.Contains(papertree.ErrorMessage(ue), "The disk is full") {
		t.Fatalf("UserError = %v", ue)
	}
	if _, err := s.PaperByPath(ctx, "/papers/big.pdf"); papertree.ErrorCode(err) != papertree.ENotFound {
		t.Errorf("part of the paper that did not fit was saved: %v", err)
	}
	if err := s.SetMaxPages(ctx, 0); err != nil {
		t.Fatal(err)
	}
	consistency(t, s)
}
