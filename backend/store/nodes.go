package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

const nodeCols = `n.id, n.parent_id, n.ord, n.kind, n.title, n.number, n.level, n.role, n.text, n.summary,
	n.page_start, n.page_end, n.boxes, n.tokens`

// scanNode reads one nodeCols row; parent is 0 for the root.
func scanNode(r rowScanner) (papertree.Node, int64, error) {
	var n papertree.Node
	var parent sql.NullInt64
	var kind, role string
	var summary, boxes any // TEXT, or BLOB in the compact forms (compact.go)
	err := r.Scan(&n.ID, &parent, &n.Order, &kind, &n.Title, &n.Number, &n.Level, &role, &n.Text, &summary,
		&n.PageStart, &n.PageEnd, &boxes, &n.Tokens)
	if err != nil {
		return n, 0, err
	}
	n.Kind, n.Role = papertree.Kind(kind), papertree.Role(role)
	n.Summary = readSummary(n.Text, summary)
	// Boxes only place highlights on the page: a damaged cell loses the
	// highlight, not the node.
	n.Boxes = readBoxes(boxes)
	return n, parent.Int64, nil
}

func queryNodes(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, query string, args ...any) ([]papertree.Node, []int64, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var nodes []papertree.Node
	var parents []int64
	for rows.Next() {
		n, p, err := scanNode(rows)
		if err != nil {
			return nil, nil, err
		}
		nodes = append(nodes, n)
		parents = append(parents, p)
	}
	return nodes, parents, rows.Err()
}

// LoadPaper returns a ready paper with its whole tree rebuilt (IDs set,
// children in document order). Paper row and nodes are read in one snapshot,
// so a concurrent replace is never seen half-done. A failed paper comes back
// with a nil Root.
func (s *Store) LoadPaper(ctx context.Context, id int64) (*papertree.Paper, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("load paper %d: %w", id, err)
	}
	defer tx.Rollback()
	p := &papertree.Paper{ID: id}
	var authors, sizes, warnings, status, affils string
	err = tx.QueryRowContext(ctx, `SELECT path, hash, title, authors, abstract, year, pages, page_sizes,
		outline_used, warnings, status, venue, doi, arxiv_id, affiliations, ocr_pages FROM papers WHERE id = ?`,
		id).Scan(&p.Path, &p.Hash, &p.Title, &authors, &p.Abstract, &p.Year, &p.Pages, &sizes, &p.OutlineUsed,
		&warnings, &status, &p.Venue, &p.DOI, &p.ArxivID, &affils, &p.OCRPages)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, papertree.Errorf(papertree.ENotFound, "Paper %d does not exist.", id)
	}
	if err != nil {
		return nil, UserError(fmt.Errorf("load paper %d: %w", id, err))
	}
	damaged := false
	for _, j := range []struct {
		src string
		dst any
	}{{authors, &p.Authors}, {sizes, &p.PageSizes}, {warnings, &p.Warnings}, {affils, &p.Affiliations}} {
		if err := json.Unmarshal([]byte(j.src), j.dst); err != nil {
			damaged = true // the tree is still usable; say so instead of failing
		}
	}
	if damaged {
		p.Authors, p.PageSizes = nil, nil
		p.Warnings = append(p.Warnings, damagedRowMsg)
	}
	if len(p.Authors) == 0 {
		p.Authors = nil
	}
	if len(p.Affiliations) == 0 {
		p.Affiliations = nil
	}
	if len(p.PageSizes) == 0 {
		p.PageSizes = nil
	}
	if len(p.Warnings) == 0 {
		p.Warnings = nil
	}
	if status != StatusReady {
		return p, nil
	}
	nodes, parents, err := queryNodes(ctx, tx, `SELECT `+nodeCols+` FROM nodes n WHERE n.paper_id = ? ORDER BY n.ord`, id)
	if err != nil {
		return nil, UserError(fmt.Errorf("load paper %d nodes: %w", id, err))
	}
	if len(nodes) == 0 {
		return nil, papertree.Errorf(papertree.ECorrupt, "Paper %d has no tree in the library (the library is damaged); run papertree repair, which indexes the file again.", id)
	}
	ptrs := make([]*papertree.Node, len(nodes))
	byID := make(map[int64]*papertree.Node, len(nodes))
	for i := range nodes {
		ptrs[i] = &nodes[i]
		byID[nodes[i].ID] = ptrs[i]
	}
	// Pre-order: every parent precedes its children, and appending in ord
	// order keeps siblings in document order.
	for i, n := range ptrs {
		if i == 0 {
			if parents[0] != 0 || n.Kind != papertree.KindRoot {
				return nil, papertree.Errorf(papertree.ECorrupt, "Paper %d has a broken tree in the library (the library is damaged); run papertree repair, which indexes the file again.", id)
			}
			continue
		}
		par := byID[parents[i]]
		if par == nil {
			return nil, papertree.Errorf(papertree.ECorrupt, "Paper %d has a broken tree in the library (the library is damaged); run papertree repair, which indexes the file again.", id)
		}
		par.Children = append(par.Children, n)
	}
	p.Root = ptrs[0]
	return p, nil
}

// Node returns one node without its children (ENotFound when missing).
func (s *Store) Node(ctx context.Context, id int64) (papertree.Node, error) {
	n, _, err := scanNode(s.r.QueryRowContext(ctx, `SELECT `+nodeCols+` FROM nodes n WHERE n.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return n, papertree.Errorf(papertree.ENotFound, "Node %d does not exist.", id)
	}
	if err != nil {
		return n, fmt.Errorf("read node %d: %w", id, err)
	}
	return n, nil
}

// NodeTexts returns the text of each of the given nodes that exists, by id
// (one query per 500 ids).
func (s *Store) NodeTexts(ctx context.Context, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	for len(ids) > 0 {
		part := ids[:min(len(ids), 500)]
		ids = ids[len(part):]
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		rows, err := s.r.QueryContext(ctx, `SELECT id, text FROM nodes WHERE id IN (?`+strings.Repeat(",?", len(part)-1)+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("node texts: %w", err)
		}
		for rows.Next() {
			var id int64
			var text string
			if err := rows.Scan(&id, &text); err != nil {
				rows.Close()
				return nil, fmt.Errorf("node texts: %w", err)
			}
			out[id] = text
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("node texts: %w", err)
		}
	}
	return out, nil
}

// NodePaper returns the id of the paper a node belongs to.
func (s *Store) NodePaper(ctx context.Context, nodeID int64) (int64, error) {
	var pid int64
	err := s.r.QueryRowContext(ctx, `SELECT paper_id FROM nodes WHERE id = ?`, nodeID).Scan(&pid)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, papertree.Errorf(papertree.ENotFound, "Node %d does not exist.", nodeID)
	}
	return pid, err
}

// NodePath returns the nodes from the root down to nodeID inclusive (one
// closure-table query). Nodes carry no children.
func (s *Store) NodePath(ctx context.Context, nodeID int64) ([]papertree.Node, error) {
	nodes, _, err := queryNodes(ctx, s.r, `SELECT `+nodeCols+` FROM node_closure c
		JOIN nodes n ON n.id = c.ancestor_id
		WHERE c.descendant_id = ? ORDER BY c.depth DESC`, nodeID)
	if err != nil {
		return nil, fmt.Errorf("path of node %d: %w", nodeID, err)
	}
	if len(nodes) == 0 {
		return nil, papertree.Errorf(papertree.ENotFound, "Node %d does not exist.", nodeID)
	}
	return nodes, nil
}

// Leaves returns the leaves (segments and captions) of a paper in document
// order. An unknown paper has no leaves.
func (s *Store) Leaves(ctx context.Context, paperID int64) ([]papertree.Node, error) {
	nodes, _, err := queryNodes(ctx, s.r, `SELECT `+nodeCols+` FROM nodes n
		WHERE n.paper_id = ? AND n.kind IN ('segment', 'caption') ORDER BY n.ord`, paperID)
	if err != nil {
		return nil, fmt.Errorf("leaves of paper %d: %w", paperID, err)
	}
	return nodes, nil
}

// SectionLeaves returns every leaf under sectionID at any depth (one closure
// query), in document order. A leaf id returns just that leaf.
func (s *Store) SectionLeaves(ctx context.Context, sectionID int64) ([]papertree.Node, error) {
	nodes, _, err := queryNodes(ctx, s.r, `SELECT `+nodeCols+` FROM node_closure c
		JOIN nodes n ON n.id = c.descendant_id
		WHERE c.ancestor_id = ? AND n.kind IN ('segment', 'caption') ORDER BY n.ord`, sectionID)
	if err != nil {
		return nil, fmt.Errorf("leaves of node %d: %w", sectionID, err)
	}
	return nodes, nil
}

// Sections returns the section nodes of a paper in document order (no
// children), the candidates of stage-1 section selection.
func (s *Store) Sections(ctx context.Context, paperID int64) ([]papertree.Node, error) {
	nodes, _, err := queryNodes(ctx, s.r, `SELECT `+nodeCols+` FROM nodes n
		WHERE n.paper_id = ? AND n.kind = 'section' ORDER BY n.ord`, paperID)
	if err != nil {
		return nil, fmt.Errorf("sections of paper %d: %w", paperID, err)
	}
	return nodes, nil
}
