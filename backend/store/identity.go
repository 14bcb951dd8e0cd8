package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/papertree/papertree/backend/papertree"
)

// IdentityRow is what tells one paper from another when a question names
// it: its metadata, its abstract and the text of its front matter (where
// the author names stand when no reference manager supplied them).
type IdentityRow struct {
	ID       int64
	Title    string
	Authors  []string
	Year     int
	Abstract string // the stored abstract, else the text of the abstract section's leaves
	Front    string // front-matter leaves, and the root's own leaves up to frontChars
}

// frontChars bounds the root's own leaves read as front matter (the leaves
// whose role is front matter are always read), as a loaded paper's
// identity card reads them.
const frontChars = 400

// IdentityRows returns the identity of every ready paper, in id order:
// three reads of the whole library, so that paper identification uses the
// same signals at every library size without loading a paper.
func (s *Store) IdentityRows(ctx context.Context) ([]IdentityRow, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, title, authors, year, abstract FROM papers WHERE status = 'ready' ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("identity rows: %w", err)
	}
	var out []IdentityRow
	at := map[int64]int{}
	for rows.Next() {
		var r IdentityRow
		var authors string
		if err := rows.Scan(&r.ID, &r.Title, &authors, &r.Year, &r.Abstract); err != nil {
			rows.Close()
			return nil, fmt.Errorf("identity rows: %w", err)
		}
		_ = json.Unmarshal([]byte(authors), &r.Authors)
		at[r.ID] = len(out)
		out = append(out, r)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return nil, fmt.Errorf("identity rows: %w", err)
	}
	// Front matter: leaves whose role says so, and the root's own leaves
	// while the text read is short, in document order.
	if err := s.eachLeaf(ctx, `SELECT n.paper_id, n.text, n.role = ?, p.kind = 'root' FROM nodes n JOIN nodes p ON p.id = n.parent_id
		WHERE n.kind <> 'root' AND n.kind <> 'section' AND (n.role = ? OR p.kind = 'root') ORDER BY n.paper_id, n.ord`,
		[]any{string(papertree.RoleFrontMatter), string(papertree.RoleFrontMatter)},
		func(id int64, text string, front, rootChild bool) {
			if i, ok := at[id]; ok && (front || rootChild && len(out[i].Front) < frontChars) {
				out[i].Front += text + " "
			}
		}); err != nil {
		return nil, err
	}
	// The abstract section's leaves, for papers with no stored abstract.
	fromLeaves := map[int64]bool{}
	for _, r := range out {
		fromLeaves[r.ID] = r.Abstract == ""
	}
	if err := s.eachLeaf(ctx, `SELECT n.paper_id, n.text, 0, 0 FROM nodes n JOIN nodes p ON p.id = n.parent_id
		WHERE p.role = ? AND n.kind <> 'section' ORDER BY n.paper_id, n.ord`, []any{string(papertree.RoleAbstract)},
		func(id int64, text string, _, _ bool) {
			if i, ok := at[id]; ok && fromLeaves[id] {
				out[i].Abstract += text + " "
			}
		}); err != nil {
		return nil, err
	}
	return out, nil
}

func (s *Store) eachLeaf(ctx context.Context, q string, args []any, f func(id int64, text string, a, b bool)) error {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("identity rows: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var text string
		var a, b bool
		if err := rows.Scan(&id, &text, &a, &b); err != nil {
			return fmt.Errorf("identity rows: %w", err)
		}
		f(id, text, a, b)
	}
	return rows.Err()
}
