package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

// The overlay: the researcher's corrections of what was read from a PDF
// (migration 0012). Corrections are kept by the file's path, apart from the
// rows indexing writes, and are applied to those rows in the same
// transaction that writes them: SavePaper applies the metadata corrections to
// the paper it saves, and heading corrections are replayed by the library on
// the tree as read before it is saved (SaveOptions.Tree), so every reader of
// papers and nodes (list, tree, paths, full-text, retrieval) sees the
// corrected paper and none has to know about the overlay.

// Metadata fields a researcher can correct.
const (
	FieldTitle   = "title"
	FieldAuthors = "authors" // value: JSON array of strings
	FieldYear    = "year"    // value: decimal
	FieldVenue   = "venue"
	FieldDOI     = "doi"
	FieldKey     = "key" // citation key (no papers column: applied where references are)
)

// EditFields lists the correctable fields in display order.
var EditFields = []string{FieldTitle, FieldAuthors, FieldYear, FieldVenue, FieldDOI, FieldKey}

// fieldColumn is the papers column a field is shown through ("" for key).
func fieldColumn(f string) string {
	switch f {
	case FieldTitle, FieldAuthors, FieldYear, FieldVenue, FieldDOI:
		return f
	}
	return ""
}

// PaperEdit is one corrected metadata field.
type PaperEdit struct {
	Field    string    `json:"field"`
	Value    string    `json:"value"`
	Read     string    `json:"read"` // what indexing read from the PDF
	EditedAt time.Time `json:"edited_at"`
}

// HeadingEdit is one stored heading correction.
type HeadingEdit struct {
	ID int64 `json:"id"`
	papertree.HeadingOp
	EditedAt time.Time `json:"edited_at"`
	// Unmatched: the last rebuild of the paper found no heading (or line)
	// to apply it to; it is kept and tried again at every rebuild.
	Unmatched bool `json:"unmatched,omitempty"`
}

// Overlay is every correction of one file.
type Overlay struct {
	Fields   []PaperEdit   `json:"fields"`
	Headings []HeadingEdit `json:"headings"`
}

// Empty reports whether there is no correction.
func (o Overlay) Empty() bool { return len(o.Fields) == 0 && len(o.Headings) == 0 }

// Field returns the corrected value of field and whether there is one.
func (o Overlay) Field(field string) (string, bool) {
	for _, f := range o.Fields {
		if f.Field == field {
			return f.Value, true
		}
	}
	return "", false
}

// OverlayOf returns the corrections of the file at path.
func (s *Store) OverlayOf(ctx context.Context, path string) (Overlay, error) {
	return overlayOf(ctx, s.r, path)
}

type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

func overlayOf(ctx context.Context, q querier, path string) (Overlay, error) {
	o := Overlay{Fields: []PaperEdit{}, Headings: []HeadingEdit{}}
	rows, err := q.QueryContext(ctx, `SELECT field, value, read, edited_at FROM paper_edit WHERE path = ?
		ORDER BY CASE field WHEN 'title' THEN 0 WHEN 'authors' THEN 1 WHEN 'year' THEN 2 WHEN 'venue' THEN 3 WHEN 'doi' THEN 4 ELSE 5 END`, path)
	if err != nil {
		return o, UserError(fmt.Errorf("read corrections: %w", err))
	}
	for rows.Next() {
		var e PaperEdit
		var at int64
		if err := rows.Scan(&e.Field, &e.Value, &e.Read, &at); err != nil {
			rows.Close()
			return o, UserError(fmt.Errorf("read corrections: %w", err))
		}
		e.EditedAt = time.UnixMilli(at).UTC()
		o.Fields = append(o.Fields, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return o, UserError(fmt.Errorf("read corrections: %w", err))
	}
	rows, err = q.QueryContext(ctx, `SELECT id, op, target, nth, arg, level, edited_at, unmatched
		FROM heading_edit WHERE path = ? ORDER BY id`, path)
	if err != nil {
		return o, UserError(fmt.Errorf("read heading corrections: %w", err))
	}
	defer rows.Close()
	for rows.Next() {
		var h HeadingEdit
		var at int64
		if err := rows.Scan(&h.ID, &h.Op, &h.Target, &h.Nth, &h.Arg, &h.Level, &at, &h.Unmatched); err != nil {
			return o, UserError(fmt.Errorf("read heading corrections: %w", err))
		}
		h.EditedAt = time.UnixMilli(at).UTC()
		o.Headings = append(o.Headings, h)
	}
	return o, UserError(rows.Err())
}

// EditedPaths returns, for every file with corrections, the corrected
// metadata fields ("key" included) and whether it has heading corrections.
func (s *Store) EditedPaths(ctx context.Context) (map[string]EditMark, error) {
	out := map[string]EditMark{}
	rows, err := s.r.QueryContext(ctx, `SELECT path, field, value FROM paper_edit`)
	if err != nil {
		return nil, UserError(fmt.Errorf("read corrections: %w", err))
	}
	for rows.Next() {
		var p, f, v string
		if err := rows.Scan(&p, &f, &v); err != nil {
			rows.Close()
			return nil, UserError(err)
		}
		m := out[p]
		m.Fields = append(m.Fields, f)
		if f == FieldKey {
			m.Key = v
		}
		out[p] = m
	}
	rows.Close()
	rows, err = s.r.QueryContext(ctx, `SELECT path, count(*), sum(unmatched) FROM heading_edit GROUP BY path`)
	if err != nil {
		return nil, UserError(fmt.Errorf("read heading corrections: %w", err))
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		var n, miss int
		if err := rows.Scan(&p, &n, &miss); err != nil {
			return nil, UserError(err)
		}
		m := out[p]
		m.Headings, m.Unmatched = n, miss
		out[p] = m
	}
	return out, UserError(rows.Err())
}

// EditMark summarizes the corrections of one file for the library list.
type EditMark struct {
	Fields    []string // corrected metadata fields
	Key       string   // the corrected citation key, if any
	Headings  int      // heading corrections
	Unmatched int      // of which found no heading at the last rebuild
}

// ReadTree returns the tree as read of a file with heading corrections
// (ok false when none is stored: the stored tree is then as read).
func (s *Store) ReadTree(ctx context.Context, path string) (root *papertree.Node, hash string, ok bool, err error) {
	var blob []byte
	err = s.r.QueryRowContext(ctx, `SELECT hash, tree FROM paper_read_tree WHERE path = ?`, path).Scan(&hash, &blob)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", false, nil
	}
	if err != nil {
		return nil, "", false, UserError(fmt.Errorf("read tree as read: %w", err))
	}
	root = &papertree.Node{}
	if err := json.Unmarshal(blob, root); err != nil {
		return nil, "", false, papertree.Wrap(err, papertree.ECorrupt, "The tree as read of this paper is damaged in the library; index the file again.")
	}
	return root, hash, true, nil
}

func (s *Store) refuseReadOnly() error {
	if s.readOnly {
		return papertree.Errorf(papertree.EConflict, "%s", ReadOnlyMsg)
	}
	return nil
}

// SetPaperFields corrects metadata fields of a paper (field -> value, in the
// forms of the paper_edit table) in one transaction: the corrections are
// stored and the paper's row (and the root title, which full-text search
// and retrieval read) shows them. The first correction of a field records
// what was read.
func (s *Store) SetPaperFields(ctx context.Context, paperID int64, fields map[string]string) error {
	if err := s.refuseReadOnly(); err != nil {
		return err
	}
	for f := range fields {
		if !validField(f) {
			return papertree.Errorf(papertree.EInvalid, "%q is not a field that can be corrected.", f)
		}
	}
	return s.explainWriteError(ctx, s.inTx(ctx, func(tx *sql.Tx) error {
		path, err := paperPath(ctx, tx, paperID)
		if err != nil {
			return err
		}
		now := time.Now().UnixMilli()
		for _, f := range EditFields {
			v, ok := fields[f]
			if !ok {
				continue
			}
			read := ""
			if col := fieldColumn(f); col != "" {
				if err := tx.QueryRowContext(ctx, `SELECT CAST(`+col+` AS TEXT) FROM papers WHERE id = ?`, paperID).Scan(&read); err != nil {
					return fmt.Errorf("read %s: %w", f, err)
				}
			}
			// The read value of an existing correction stays: the row shows the correction.
			if _, err := tx.ExecContext(ctx, `INSERT INTO paper_edit(path, field, value, read, hash, edited_at)
				VALUES (?, ?, ?, ?, (SELECT hash FROM papers WHERE id = ?), ?)
				ON CONFLICT(path, field) DO UPDATE SET value = excluded.value, edited_at = excluded.edited_at`,
				path, f, v, read, paperID, now); err != nil {
				return fmt.Errorf("save correction of %s: %w", f, err)
			}
		}
		return showFields(ctx, tx, paperID, path, false)
	}))
}

// RevertPaperField removes the correction of field: the paper shows what
// was read again (ENotFound when the field is not corrected).
func (s *Store) RevertPaperField(ctx context.Context, paperID int64, field string) error {
	if err := s.refuseReadOnly(); err != nil {
		return err
	}
	if !validField(field) {
		return papertree.Errorf(papertree.EInvalid, "%q is not a field that can be corrected.", field)
	}
	return s.explainWriteError(ctx, s.inTx(ctx, func(tx *sql.Tx) error {
		path, err := paperPath(ctx, tx, paperID)
		if err != nil {
			return err
		}
		var read string
		err = tx.QueryRowContext(ctx, `SELECT read FROM paper_edit WHERE path = ? AND field = ?`, path, field).Scan(&read)
		if errors.Is(err, sql.ErrNoRows) {
			return papertree.Errorf(papertree.ENotFound, "The %s of this paper is not corrected.", field)
		}
		if err != nil {
			return fmt.Errorf("read correction: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM paper_edit WHERE path = ? AND field = ?`, path, field); err != nil {
			return fmt.Errorf("revert %s: %w", field, err)
		}
		if col := fieldColumn(field); col != "" {
			if err := setColumn(ctx, tx, paperID, field, read); err != nil {
				return err
			}
		}
		return nil
	}))
}

func validField(f string) bool {
	for _, x := range EditFields {
		if x == f {
			return true
		}
	}
	return false
}

func paperPath(ctx context.Context, tx *sql.Tx, id int64) (string, error) {
	var path, status string
	err := tx.QueryRowContext(ctx, `SELECT path, status FROM papers WHERE id = ?`, id).Scan(&path, &status)
	if errors.Is(err, sql.ErrNoRows) {
		return "", papertree.Errorf(papertree.ENotFound, "Paper %d does not exist.", id)
	}
	if err != nil {
		return "", fmt.Errorf("read paper %d: %w", id, err)
	}
	if status != StatusReady {
		return "", papertree.Errorf(papertree.EConflict, "Paper %d could not be indexed, so there is nothing to correct.", id)
	}
	return path, nil
}

// setColumn writes one field into the papers row (and the root title).
func setColumn(ctx context.Context, tx *sql.Tx, id int64, field, v string) error {
	var arg any = v
	switch field {
	case FieldYear:
		y, _ := strconv.Atoi(v)
		arg = y
	case FieldAuthors:
		var a []string
		if json.Unmarshal([]byte(v), &a) != nil {
			arg = "[]"
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE papers SET `+fieldColumn(field)+` = ? WHERE id = ?`, arg, id); err != nil {
		return fmt.Errorf("show %s: %w", field, err)
	}
	if field == FieldTitle {
		if _, err := tx.ExecContext(ctx, `UPDATE nodes SET title = ? WHERE paper_id = ? AND ord = 0 AND title <> ?`, v, id, v); err != nil {
			return fmt.Errorf("show title: %w", err)
		}
	}
	return nil
}

// showFields applies the stored metadata corrections of path to paper id.
// refreshRead first records the paper's values as what was read (the paper
// was just read from its PDF).
func showFields(ctx context.Context, tx *sql.Tx, id int64, path string, refreshRead bool) error {
	rows, err := tx.QueryContext(ctx, `SELECT field, value FROM paper_edit WHERE path = ?`, path)
	if err != nil {
		return fmt.Errorf("read corrections: %w", err)
	}
	type fv struct{ f, v string }
	var all []fv
	for rows.Next() {
		var x fv
		if err := rows.Scan(&x.f, &x.v); err != nil {
			rows.Close()
			return fmt.Errorf("read corrections: %w", err)
		}
		all = append(all, x)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read corrections: %w", err)
	}
	if refreshRead && len(all) > 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE paper_edit SET hash = (SELECT hash FROM papers WHERE id = ?) WHERE path = ?`, id, path); err != nil {
			return fmt.Errorf("record the content: %w", err)
		}
	}
	for _, x := range all {
		col := fieldColumn(x.f)
		if col == "" {
			continue
		}
		if refreshRead {
			if _, err := tx.ExecContext(ctx, `UPDATE paper_edit SET read = (SELECT CAST(`+col+` AS TEXT) FROM papers WHERE id = ?)
				WHERE path = ? AND field = ?`, id, path, x.f); err != nil {
				return fmt.Errorf("record what was read: %w", err)
			}
		}
		if err := setColumn(ctx, tx, id, x.f, x.v); err != nil {
			return err
		}
	}
	return nil
}

// TreeChange is what a save changes of the heading corrections, in the
// same transaction as the tree it saves.
type TreeChange struct {
	Add       *papertree.HeadingOp // a new correction (applied to the tree saved)
	Remove    int64                // a correction removed (undo), by id
	ReadTree  *papertree.Node      // the tree as read, kept while corrections exist (nil and none left: dropped)
	ReadHash  string               // the content ReadTree was read from
	Unmatched map[int64]bool       // per correction id: found no heading in this rebuild
}

// SaveOptions are the optional parts of a save.
type SaveOptions struct {
	// Keep rewrites the paper in place: p.ID stays its id (a correction,
	// not a new reading of the file). Its hash must still be the stored one.
	Keep bool
	// Tree records heading corrections with the tree.
	Tree *TreeChange
}

func saveTreeChange(ctx context.Context, tx *sql.Tx, path string, c *TreeChange) error {
	now := time.Now().UnixMilli()
	if c.Add != nil {
		a := c.Add
		if _, err := tx.ExecContext(ctx, `INSERT INTO heading_edit(path, op, target, nth, arg, level, edited_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, path, a.Op, a.Target, a.Nth, a.Arg, a.Level, now); err != nil {
			return fmt.Errorf("save heading correction: %w", err)
		}
	}
	if c.Remove != 0 {
		res, err := tx.ExecContext(ctx, `DELETE FROM heading_edit WHERE id = ? AND path = ?`, c.Remove, path)
		if err != nil {
			return fmt.Errorf("undo heading correction: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return papertree.Errorf(papertree.ENotFound, "That heading correction no longer exists.")
		}
	}
	for id, miss := range c.Unmatched {
		if _, err := tx.ExecContext(ctx, `UPDATE heading_edit SET unmatched = ? WHERE id = ? AND path = ?`, miss, id, path); err != nil {
			return fmt.Errorf("record heading correction: %w", err)
		}
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM heading_edit WHERE path = ?`, path).Scan(&n); err != nil {
		return fmt.Errorf("count heading corrections: %w", err)
	}
	if n == 0 && c.ReadTree == nil {
		_, err := tx.ExecContext(ctx, `DELETE FROM paper_read_tree WHERE path = ?`, path)
		return err
	}
	if c.ReadTree != nil {
		blob, err := json.Marshal(c.ReadTree)
		if err != nil {
			return fmt.Errorf("encode tree as read: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO paper_read_tree(path, hash, tree) VALUES (?, ?, ?)
			ON CONFLICT(path) DO UPDATE SET hash = excluded.hash, tree = excluded.tree`, path, c.ReadHash, blob); err != nil {
			return fmt.Errorf("save tree as read: %w", err)
		}
	}
	return nil
}

// MovedOverlays returns the files with corrections, other than path, whose
// content (when last saved) was hash: where path's file may have been moved
// from (the caller checks that they are gone).
func (s *Store) MovedOverlays(ctx context.Context, path, hash string) ([]string, error) {
	if hash == "" {
		return nil, nil
	}
	rows, err := s.r.QueryContext(ctx, `SELECT path FROM paper_edit WHERE hash = ? AND path <> ?
		UNION SELECT path FROM paper_read_tree WHERE hash = ? AND path <> ?
		UNION SELECT e.path FROM heading_edit e JOIN papers p ON p.path = e.path WHERE p.hash = ? AND e.path <> ?
		ORDER BY 1`, hash, path, hash, path, hash, path)
	if err != nil {
		return nil, UserError(fmt.Errorf("find moved corrections: %w", err))
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, UserError(err)
		}
		out = append(out, p)
	}
	return out, UserError(rows.Err())
}

// MoveOverlay gives the corrections of the file at from to the file at to
// (the same paper, moved or renamed), in one transaction. A file that has
// corrections of its own keeps them and takes none (EConflict).
func (s *Store) MoveOverlay(ctx context.Context, from, to string) error {
	if err := s.refuseReadOnly(); err != nil {
		return err
	}
	return s.explainWriteError(ctx, s.inTx(ctx, func(tx *sql.Tx) error {
		moved, err := moveOverlayTx(ctx, tx, from, to)
		if err == nil && !moved {
			return papertree.Errorf(papertree.EConflict, "%s has corrections of its own.", to)
		}
		return err
	}))
}

// moveOverlayTx moves the corrections of from to to inside tx, unless to
// has corrections of its own: they are kept and none is moved (moved false).
func moveOverlayTx(ctx context.Context, tx *sql.Tx, from, to string) (moved bool, err error) {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM paper_edit WHERE path = ?) + (SELECT count(*) FROM heading_edit WHERE path = ?)`,
		to, to).Scan(&n); err != nil {
		return false, fmt.Errorf("move corrections: %w", err)
	}
	if n > 0 {
		return false, nil
	}
	for _, q := range []string{`UPDATE paper_edit SET path = ? WHERE path = ?`, `UPDATE heading_edit SET path = ? WHERE path = ?`,
		`DELETE FROM paper_read_tree WHERE path = ?1 AND ?2 <> ''`, `UPDATE paper_read_tree SET path = ? WHERE path = ?`} {
		if _, err := tx.ExecContext(ctx, q, to, from); err != nil {
			return false, fmt.Errorf("move corrections: %w", err)
		}
	}
	return true, nil
}
