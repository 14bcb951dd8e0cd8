package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
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
	// while the text read is short, in document order. Built up in one
	// buffer per paper: appending to the string copied it at every leaf.
	front := make([]strings.Builder, len(out))
	if err := s.eachLeaf(ctx, identityFrontSQL,
		func(id int64, text string, isFront, rootChild bool) {
			if i, ok := at[id]; ok && (isFront || rootChild && front[i].Len() < frontChars) {
				front[i].WriteString(text)
				front[i].WriteByte(' ')
			}
		}); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Front = front[i].String()
	}
	// The abstract section's leaves, for papers with no stored abstract.
	abstract := make([]strings.Builder, len(out))
	if err := s.eachLeaf(ctx, identityAbstractSQL,
		func(id int64, text string, _, _ bool) {
			if i, ok := at[id]; ok && out[i].Abstract == "" {
				abstract[i].WriteString(text)
				abstract[i].WriteByte(' ')
			}
		}); err != nil {
		return nil, err
	}
	for i := range out {
		if abstract[i].Len() > 0 {
			out[i].Abstract = abstract[i].String()
		}
	}
	return out, nil
}

// The identity reads. Each is driven by a partial index of migration 0014
// from the few rows it wants, instead of a pass over every node with a
// parent lookup per row: the roles are literals so that SQLite can match
// those indexes, and the rows are put in document order in Go (an ORDER BY
// makes SQLite walk the whole (paper_id, ord) index instead). The second
// arm of identityFrontSQL takes the root's other leaves (the first has every
// front-matter leaf). Rows: paper id, ord, text, front matter, root child.
const (
	identityFrontSQL = `SELECT n.paper_id, n.ord, n.text, 1, p.kind = 'root' FROM nodes n JOIN nodes p ON p.id = n.parent_id
		WHERE n.role = 'front_matter' AND n.kind <> 'root' AND n.kind <> 'section'
		UNION ALL
		SELECT n.paper_id, n.ord, n.text, 0, 1 FROM nodes p JOIN nodes n ON n.parent_id = p.id
		WHERE p.kind = 'root' AND n.kind <> 'root' AND n.kind <> 'section' AND n.role <> 'front_matter'`
	identityAbstractSQL = `SELECT n.paper_id, n.ord, n.text, 0, 0 FROM nodes p JOIN nodes n ON n.parent_id = p.id
		WHERE p.role = 'abstract' AND n.kind <> 'section'`
)

// eachLeaf runs q (an identity read) and calls f with each row but its
// ord, in (paper id, ord) order.
func (s *Store) eachLeaf(ctx context.Context, q string, f func(id int64, text string, a, b bool)) error {
	rows, err := s.r.QueryContext(ctx, q)
	if err != nil {
		return fmt.Errorf("identity rows: %w", err)
	}
	defer rows.Close()
	type leaf struct {
		id, ord int64
		text    string
		a, b    bool
	}
	var ls []leaf
	for rows.Next() {
		var l leaf
		if err := rows.Scan(&l.id, &l.ord, &l.text, &l.a, &l.b); err != nil {
			return fmt.Errorf("identity rows: %w", err)
		}
		ls = append(ls, l)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("identity rows: %w", err)
	}
	sort.Slice(ls, func(i, j int) bool { return ls[i].id < ls[j].id || ls[i].id == ls[j].id && ls[i].ord < ls[j].ord })
	for _, l := range ls {
		f(l.id, l.text, l.a, l.b)
	}
	return nil
}
