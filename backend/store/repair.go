package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/papertree/papertree/backend/papertree"
)

// Health and repair.
//
// A library can be damaged in two ways: its pages (a bit flip, a bad
// sector, a torn copy: PRAGMA quick_check sees these), or its schema (a
// table or trigger dropped by a tool, an interrupted manual edit: the file
// is sound but an object the migrations made is gone). Check finds both;
// Repair rebuilds what is derived from other rows (the full-text index from
// the nodes, indexes with REINDEX, missing tables, indexes and triggers
// from the migrations' own statements) and lists the papers whose rows are
// damaged, which the library re-indexes from their PDFs. Nothing the
// researcher made (saved answers, imported references, dates added) is
// deleted by a repair.

// schemaObject is one table, index, trigger or virtual table of a library.
type schemaObject struct {
	typ, name, sql string
}

// refSchema is the schema the migrations make, read from a fresh in-memory
// library (so it never disagrees with the migrations), without the
// internal sqlite_ objects and the shadow tables of virtual tables (which
// their virtual table makes).
// The migrations are compiled in, so it is read once per process.
func refSchema(ctx context.Context) ([]schemaObject, error) {
	refOnce.Lock()
	defer refOnce.Unlock()
	if refObjects != nil {
		return refObjects, nil
	}
	ref, err := Open(ctx, ":memory:")
	if err != nil {
		return nil, err
	}
	defer ref.Close()
	objs, err := ref.schema(ctx, true)
	if err != nil {
		return nil, err
	}
	refObjects = objs
	return objs, nil
}

var (
	refOnce    sync.Mutex
	refObjects []schemaObject
)

// schema lists the objects of the library (shadow tables excluded when
// noShadow).
func (s *Store) schema(ctx context.Context, noShadow bool) ([]schemaObject, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT type, name, coalesce(sql, '') FROM sqlite_master
		WHERE name NOT LIKE 'sqlite_%' ORDER BY rowid`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []schemaObject
	for rows.Next() {
		var o schemaObject
		if err := rows.Scan(&o.typ, &o.name, &o.sql); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if !noShadow {
		return out, nil
	}
	var vtabs []string
	for _, o := range out {
		if o.typ == "table" && strings.HasPrefix(strings.ToUpper(o.sql), "CREATE VIRTUAL TABLE") {
			vtabs = append(vtabs, o.name+"_")
		}
	}
	keep := out[:0]
	for _, o := range out {
		shadow := false
		for _, v := range vtabs {
			if o.typ == "table" && strings.HasPrefix(o.name, v) {
				shadow = true
			}
		}
		if !shadow {
			keep = append(keep, o)
		}
	}
	return keep, nil
}

// missingObjects compares the library's schema with the migrations'. A
// virtual table counts as missing when one of its shadow tables is.
func (s *Store) missingObjects(ctx context.Context, ref []schemaObject) ([]schemaObject, error) {
	have, err := s.schema(ctx, false)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, o := range have {
		names[o.name] = true
	}
	var missing []schemaObject
	for _, o := range ref {
		ok := names[o.name]
		if ok && o.typ == "table" && strings.HasPrefix(strings.ToUpper(o.sql), "CREATE VIRTUAL TABLE") &&
			strings.Contains(strings.ToLower(o.sql), "fts5") {
			for _, suf := range []string{"_data", "_idx", "_docsize", "_config"} {
				ok = ok && names[o.name+suf]
			}
		}
		if !ok {
			missing = append(missing, o)
		}
	}
	return missing, nil
}

// Check returns the library's problems in plain words, none when it is
// sound: pages PRAGMA quick_check finds damaged (at most 20 are listed) and
// schema objects that are missing.
//
// quick_check reads every page but skips the index-content comparison of
// integrity_check; on the 47-paper library (10 MB) it takes about 20 ms.
func (s *Store) Check(ctx context.Context) ([]string, error) {
	var problems []string
	// On the writer's connection: a reader connection of this process
	// keeps FTS5's cached index structure across another connection's
	// deletes, and quick_check (which checks FTS5 tables too) then
	// reported a sound library as damaged after a paper was removed
	// (TestCheckAfterDelete).
	rows, err := s.w.QueryContext(ctx, `PRAGMA quick_check(20)`)
	if err != nil {
		if IsDamaged(err) {
			return []string{"the file cannot be read: " + err.Error()}, nil
		}
		return nil, err
	}
	for rows.Next() {
		var msg string
		if err := rows.Scan(&msg); err != nil {
			rows.Close()
			return nil, err
		}
		if msg != "ok" {
			problems = append(problems, msg)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		if IsDamaged(err) {
			return append(problems, "the file cannot be read: "+err.Error()), nil
		}
		return nil, err
	}
	ref, err := refSchema(ctx)
	if err != nil {
		return nil, err
	}
	missing, err := s.missingObjects(ctx, ref)
	if err != nil {
		if IsDamaged(err) {
			return append(problems, "the schema cannot be read: "+err.Error()), nil
		}
		return nil, err
	}
	for _, o := range missing {
		problems = append(problems, fmt.Sprintf("missing %s %s", o.typ, o.name))
	}
	return problems, nil
}

// CheckHealth is Check as an error: ECorrupt (run papertree repair) when
// the library has problems, nil when it is sound. Indexing into a damaged
// library would add papers on top of the damage (the problems only grow),
// so the indexer checks first.
func (s *Store) CheckHealth(ctx context.Context) error {
	problems, err := s.Check(ctx)
	if err != nil {
		return UserError(fmt.Errorf("check library: %w", err))
	}
	if len(problems) == 0 {
		return nil
	}
	shown := problems
	if len(shown) > 5 {
		shown = append(shown[:5:5], fmt.Sprintf("and %d more", len(problems)-5))
	}
	return papertree.Wrap(errors.New(strings.Join(shown, "; ")), papertree.ECorrupt, damagedMsg)
}

// dropVirtual drops a virtual table and what is left of its shadow tables
// (a virtual table whose shadow tables are partly gone cannot always be
// dropped the normal way; its content is derived, so nothing is lost).
func dropVirtual(ctx context.Context, tx *sql.Tx, name string) error {
	if _, err := tx.ExecContext(ctx, `DROP TABLE IF EXISTS "`+name+`"`); err == nil {
		return nil
	}
	for _, suf := range []string{"_data", "_idx", "_docsize", "_config", "_content"} {
		if _, err := tx.ExecContext(ctx, `DROP TABLE IF EXISTS "`+name+suf+`"`); err != nil {
			return fmt.Errorf("drop %s%s: %w", name, suf, err)
		}
	}
	// The virtual table's own row, which DROP TABLE could not remove.
	if _, err := tx.ExecContext(ctx, `DROP TABLE IF EXISTS "`+name+`"`); err != nil {
		return fmt.Errorf("drop %s: %w", name, err)
	}
	return nil
}

// deleteOrphans removes the rows PRAGMA foreign_key_check reports: rows
// whose parent (a node, a paper) was deleted while foreign keys were off.
// Every table with a foreign key holds derived rows (closure, vectors,
// structures), never the researcher's own. Rows are found by their
// foreign key column, so WITHOUT ROWID tables are cleaned too.
func (s *Store) deleteOrphans(ctx context.Context) (int, error) {
	type fk struct {
		table string
		id    int
	}
	rows, err := s.w.QueryContext(ctx, `SELECT DISTINCT "table", fkid FROM pragma_foreign_key_check`)
	if err != nil {
		return 0, err
	}
	var found []fk
	for rows.Next() {
		var f fk
		if err := rows.Scan(&f.table, &f.id); err != nil {
			rows.Close()
			return 0, err
		}
		found = append(found, f)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	quote := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	n := 0
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		for _, f := range found {
			var parent, from string
			var to sql.NullString
			var cols int
			if err := tx.QueryRowContext(ctx, `SELECT "table", "from", "to", (SELECT count(*) FROM pragma_foreign_key_list(?1) WHERE id = ?2)
				FROM pragma_foreign_key_list(?1) WHERE id = ?2`, f.table, f.id).Scan(&parent, &from, &to, &cols); err != nil {
				return err
			}
			if cols != 1 {
				continue // no multi-column keys in the schema
			}
			target := "rowid"
			if to.Valid && to.String != "" {
				target = quote(to.String)
			}
			res, err := tx.ExecContext(ctx, `DELETE FROM `+quote(f.table)+` WHERE `+quote(from)+` IS NOT NULL AND `+
				quote(from)+` NOT IN (SELECT `+target+` FROM `+quote(parent)+`)`)
			if err != nil {
				return err
			}
			k, _ := res.RowsAffected()
			n += int(k)
		}
		return nil
	})
	return n, err
}

// RepairReport says what Repair did and what is left.
type RepairReport struct {
	// Recreated lists the schema objects that were missing and were made
	// again from the migrations ("table answers", "trigger ...").
	Recreated []string `json:"recreated,omitempty"`
	// FTSRebuilt: the full-text index was rebuilt from the nodes.
	FTSRebuilt bool `json:"fts_rebuilt"`
	// IndexesRebuilt: REINDEX rebuilt every index from its table.
	IndexesRebuilt bool `json:"indexes_rebuilt"`
	// Orphans is the number of rows removed that pointed at a node or
	// paper that is gone (closure rows, vectors: all derived).
	Orphans int `json:"orphans,omitempty"`
	// Damaged lists the papers whose rows cannot be read whole (they are
	// marked stale, so the next index of their file replaces them).
	Damaged []PaperInfo `json:"damaged,omitempty"`
	// Remaining lists the problems a repair could not fix (damaged pages
	// of tables): the file needs a backup, or a new library.
	Remaining []string `json:"remaining,omitempty"`
}

// Repair rebuilds what can be rebuilt in place: missing tables, indexes and
// triggers (from the migrations' statements, so a dropped answers table is
// back, empty), the full-text index from the nodes, every index (REINDEX),
// and marks the papers whose rows are damaged stale so that indexing their
// files replaces them. It deletes no saved answer, imported reference or
// date added. It needs a writable library.
func (s *Store) Repair(ctx context.Context) (RepairReport, error) {
	var rep RepairReport
	if s.readOnly {
		return rep, papertree.Errorf(papertree.EConflict, "%s", ReadOnlyMsg)
	}
	ref, err := refSchema(ctx)
	if err != nil {
		return rep, err
	}
	missing, err := s.missingObjects(ctx, ref)
	if err != nil {
		return rep, UserError(fmt.Errorf("repair: read schema: %w", err))
	}
	// Tables first, then what hangs on them (indexes, triggers).
	order := map[string]int{"table": 0, "index": 1, "view": 1, "trigger": 2}
	sort.SliceStable(missing, func(i, j int) bool { return order[missing[i].typ] < order[missing[j].typ] })
	var fts schemaObject
	for _, o := range ref {
		if o.name == "node_fts" {
			fts = o
		}
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		// The full-text index holds nothing of its own: it is dropped and
		// made again from the migration's statement, then filled from the
		// nodes with the condition SavePaper uses (empty nodes are not
		// indexed; the delete trigger relies on that). A new table, rather
		// than FTS5's 'delete-all', also makes every reader connection drop
		// what it cached of the old index.
		if err := dropVirtual(ctx, tx, fts.name); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, fts.sql); err != nil {
			return fmt.Errorf("recreate full-text index: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO node_fts(rowid, title, text)
			SELECT id, `+ftsTextFunc+`(title), `+ftsTextFunc+`(text) FROM nodes WHERE title <> '' OR text <> ''`); err != nil {
			return fmt.Errorf("rebuild full-text index: %w", err)
		}
		rep.FTSRebuilt = true
		for _, o := range missing {
			if o.name == fts.name {
				rep.Recreated = append(rep.Recreated, o.typ+" "+o.name)
				continue
			}
			if strings.HasPrefix(strings.ToUpper(o.sql), "CREATE VIRTUAL TABLE") {
				if err := dropVirtual(ctx, tx, o.name); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, o.sql); err != nil {
				return fmt.Errorf("recreate %s %s: %w", o.typ, o.name, err)
			}
			rep.Recreated = append(rep.Recreated, o.typ+" "+o.name)
		}
		return nil
	})
	if err != nil {
		rep.Recreated = nil
		return rep, UserError(fmt.Errorf("repair: %w", err))
	}
	n, err := s.deleteOrphans(ctx)
	if err != nil {
		rep.Remaining = append(rep.Remaining, "rows of deleted nodes could not be removed: "+err.Error())
	}
	rep.Orphans = n
	if _, err := s.w.ExecContext(ctx, `REINDEX`); err != nil {
		rep.Remaining = append(rep.Remaining, "indexes could not be rebuilt: "+err.Error())
	} else {
		rep.IndexesRebuilt = true
	}
	ps, err := s.ListPapers(ctx)
	if err != nil {
		rep.Remaining = append(rep.Remaining, "the list of papers cannot be read: "+err.Error())
	}
	for _, p := range ps {
		if p.Status != StatusReady {
			continue
		}
		if p.ErrCode == papertree.ECorrupt {
			rep.Damaged = append(rep.Damaged, p)
			continue
		}
		if _, err := s.LoadPaper(ctx, p.ID); err != nil && ctx.Err() == nil {
			rep.Damaged = append(rep.Damaged, p)
		}
	}
	for _, p := range rep.Damaged {
		if _, err := s.w.ExecContext(ctx, `UPDATE papers SET stale = 1 WHERE id = ?`, p.ID); err != nil {
			rep.Remaining = append(rep.Remaining, fmt.Sprintf("paper %d cannot be marked for re-indexing: %v", p.ID, err))
		}
	}
	problems, err := s.Check(ctx)
	if err != nil {
		return rep, UserError(fmt.Errorf("repair: check: %w", err))
	}
	rep.Remaining = append(rep.Remaining, problems...)
	return rep, nil
}
