package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// salvageTables are the tables whose rows cannot be made again from the
// PDFs, or only at great cost: the researcher's saved answers, corrections
// and removals, imported references, the dates papers were added, what LLM
// calls cost (cache and usage) and the words OCR read from scanned pages
// (minutes of tesseract a scan, which the rebuild then does not redo).
// Everything else (papers, trees, full-text and vectors) is indexed again.
var salvageTables = []string{"answers", "paper_ref", "paper_added", "llm_cache", "llm_usage", "paper_edit", "heading_edit", "paper_read_tree", "removed_files", "ocr_cache"}

// SalvageReport says what Salvage read out of a damaged library.
type SalvageReport struct {
	// Rows copied per table.
	Copied map[string]int `json:"copied"`
	// Unreadable counts the rowids that could not be read past (rows on
	// damaged pages, and gaps probed while skipping them), per table.
	Unreadable map[string]int `json:"unreadable,omitempty"`
	// Paths are the PDFs the damaged library held, as far as they could be
	// read, for indexing again.
	Paths []string `json:"-"`
}

// Salvage copies into s (a new, empty library) every row of the damaged
// library at src that can still be read from the tables listed in
// salvageTables, keeping answer ids (exports by id still work), and returns
// the paths of its papers. src is opened read-only and is not changed. Rows
// on damaged pages are skipped: a table is read in rowid order in batches,
// and after a failed batch reading resumes further on, at growing steps,
// until it succeeds or passes the table's last rowid.
func (s *Store) Salvage(ctx context.Context, src string) (SalvageReport, error) {
	rep := SalvageReport{Copied: map[string]int{}, Unreadable: map[string]int{}}
	if s.readOnly {
		return rep, papertree.Errorf(papertree.EConflict, "%s", ReadOnlyMsg)
	}
	old, err := sql.Open(driverName, "file:"+escapeURIPath(src)+"?mode=ro")
	if err != nil {
		return rep, fmt.Errorf("salvage: open %s: %w", src, err)
	}
	defer old.Close()
	old.SetMaxOpenConns(1)
	for _, t := range salvageTables {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		cols, err := s.commonColumns(ctx, old, t)
		if err != nil || len(cols) == 0 {
			rep.Unreadable[t]++
			continue
		}
		n, bad, err := s.copyRows(ctx, old, t, cols)
		if err != nil {
			return rep, UserError(fmt.Errorf("salvage %s: %w", t, err))
		}
		rep.Copied[t], rep.Unreadable[t] = n, rep.Unreadable[t]+bad
		if rep.Unreadable[t] == 0 {
			delete(rep.Unreadable, t)
		}
	}
	var bad int
	err = scanRowid(ctx, old, "papers", "path", func(rows *sql.Rows) (int64, error) {
		var id int64
		var p string
		if err := rows.Scan(&id, &p); err != nil {
			return 0, err
		}
		if p != "" {
			rep.Paths = append(rep.Paths, p)
		}
		return id, nil
	}, &bad)
	if err != nil {
		return rep, err
	}
	if bad > 0 {
		rep.Unreadable["papers"] = bad
	}
	return rep, nil
}

// commonColumns lists the columns table t has both in src and in s.
func (s *Store) commonColumns(ctx context.Context, src *sql.DB, t string) ([]string, error) {
	cols := func(db *sql.DB) (map[string]bool, []string, error) {
		rows, err := db.QueryContext(ctx, `SELECT name FROM pragma_table_info(?)`, t)
		if err != nil {
			return nil, nil, err
		}
		defer rows.Close()
		set, list := map[string]bool{}, []string(nil)
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				return nil, nil, err
			}
			set[n] = true
			list = append(list, n)
		}
		return set, list, rows.Err()
	}
	have, _, err := cols(src)
	if err != nil {
		return nil, err
	}
	_, want, err := cols(s.w)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, c := range want {
		if have[c] {
			out = append(out, c)
		}
	}
	return out, nil
}

// copyRows copies the readable rows of t (columns cols) from src into s.
func (s *Store) copyRows(ctx context.Context, src *sql.DB, t string, cols []string) (copied, bad int, err error) {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = `"` + strings.ReplaceAll(c, `"`, `""`) + `"`
	}
	list := strings.Join(q, ", ")
	ins := `INSERT OR IGNORE INTO "` + t + `"(` + list + `) VALUES (?` + strings.Repeat(", ?", len(cols)-1) + `)`
	var withoutRowid int
	src.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name = ? AND sql LIKE '%WITHOUT ROWID%'`, t).Scan(&withoutRowid)
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols)+1)
	var rowid int64
	ptrs[0] = &rowid
	for i := range vals {
		ptrs[i+1] = &vals[i]
	}
	put := func(rows *sql.Rows, dest []any) error {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, ins, vals...); err != nil {
			return err
		}
		copied++
		return nil
	}
	if withoutRowid > 0 {
		// No rowid to resume at: all that can be read in one scan.
		rows, err := src.QueryContext(ctx, `SELECT `+list+` FROM "`+t+`"`)
		if err != nil {
			bad++
		} else {
			for rows.Next() {
				if err := put(rows, ptrs[1:]); err != nil {
					rows.Close()
					return copied, bad, err
				}
			}
			if rows.Err() != nil {
				bad++
			}
			rows.Close()
		}
	} else {
		err := scanRowid(ctx, src, t, list, func(rows *sql.Rows) (int64, error) {
			err := put(rows, ptrs) // scans rowid first
			return rowid, err
		}, &bad)
		if err != nil {
			return copied, bad, err
		}
	}
	return copied, bad, tx.Commit()
}

// scanRowid reads SELECT rowid, cols FROM table in rowid order, in
// batches, calling fn for each row (fn scans it and returns its rowid). A
// batch that fails to read (a damaged page) counts one bad row, and
// reading resumes past the last good row, so a damaged page loses the rows
// on it and not the rest of the table. Errors of fn
// (writing the copy) stop the scan.
func scanRowid(ctx context.Context, db *sql.DB, table, cols string, fn func(*sql.Rows) (int64, error), bad *int) error {
	const batch = 256
	query := `SELECT rowid, ` + cols + ` FROM "` + table + `" WHERE rowid > ? ORDER BY rowid LIMIT ?`
	maxID := int64(1) << 40 // when the table's last page cannot be read
	var m sql.NullInt64
	if err := db.QueryRowContext(ctx, `SELECT max(rowid) FROM "`+table+`"`).Scan(&m); err == nil {
		if !m.Valid {
			return nil // empty
		}
		maxID = m.Int64
	}
	last, step, fails := int64(math.MinInt64), int64(1), 0
	for last < maxID {
		if err := ctx.Err(); err != nil {
			return err
		}
		rows, err := db.QueryContext(ctx, query, last, batch)
		n := 0
		if err == nil {
			for rows.Next() {
				id, ferr := fn(rows)
				if ferr != nil {
					rows.Close()
					return ferr
				}
				last = id
				n++
			}
			err = rows.Err()
			rows.Close()
		}
		if err != nil {
			// Rowid by rowid past a damaged leaf (its rows only are
			// lost); then at doubling steps, in case a damaged interior
			// page hides a long run of leaves.
			*bad++
			last = max(last, 0) + step
			if fails++; fails > 64 {
				step *= 2
			}
			continue
		}
		step, fails = 1, 0
		if n < batch {
			return nil
		}
	}
	return nil
}
