package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Reference metadata (migration 0004): what a reference manager (Zotero, a
// BibTeX file) says about a PDF. It is keyed by the file's path, so it
// survives re-indexing and may exist before the file is indexed. Readers
// prefer it over what was extracted from the PDF (title, authors, year).

// Reference sources.
const (
	SourceZotero = "zotero"
	SourceBibTeX = "bibtex"
)

// RefMeta is one imported reference for one PDF.
type RefMeta struct {
	Path        string    `json:"path"`
	Source      string    `json:"source"`      // SourceZotero or SourceBibTeX
	SourceFile  string    `json:"source_file"` // the zotero.sqlite or .bib file
	SourceID    string    `json:"source_id"`   // Zotero item key or BibTeX entry key
	Title       string    `json:"title"`
	Authors     []string  `json:"authors"`
	Year        int       `json:"year"`
	Venue       string    `json:"venue"`
	DOI         string    `json:"doi"`
	CitationKey string    `json:"citation_key"`
	Collections []string  `json:"collections"`
	Tags        []string  `json:"tags"`
	AddedAt     time.Time `json:"added_at"` // zero: unknown
	// Version is a digest of the fields above (Digest), set by PutRefs.
	Version   string    `json:"version"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Digest identifies the content of a reference: equal digests mean a
// re-import has nothing new for this file.
func (m RefMeta) Digest() string {
	c := m
	c.Version, c.UpdatedAt = "", time.Time{}
	c.AddedAt = c.AddedAt.UTC().Truncate(time.Millisecond)
	b, _ := json.Marshal(c)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

// PutRefs stores refs in one transaction (all or nothing) and reports, for
// each, whether it was new or changed (false: an equal record was stored).
func (s *Store) PutRefs(ctx context.Context, refs []RefMeta) ([]bool, error) {
	changed := make([]bool, len(refs))
	now := time.Now().UnixMilli()
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for i, m := range refs {
			if m.Path == "" {
				return fmt.Errorf("reference %d has no file", i)
			}
			d := m.Digest()
			var old string
			err := tx.QueryRowContext(ctx, `SELECT version FROM paper_ref WHERE path = ?`, m.Path).Scan(&old)
			if err == nil && old == d {
				continue
			}
			if err != nil && err != sql.ErrNoRows {
				return fmt.Errorf("read reference %s: %w", m.Path, err)
			}
			changed[i] = true
			var added int64
			if !m.AddedAt.IsZero() {
				added = m.AddedAt.UnixMilli()
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO paper_ref(path, source, source_file, source_id, ref_title, ref_authors,
				ref_year, ref_venue, ref_doi, citation_key, collections, tags, added_at, version, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT(path) DO UPDATE SET source = excluded.source, source_file = excluded.source_file,
				source_id = excluded.source_id, ref_title = excluded.ref_title, ref_authors = excluded.ref_authors,
				ref_year = excluded.ref_year, ref_venue = excluded.ref_venue, ref_doi = excluded.ref_doi,
				citation_key = excluded.citation_key, collections = excluded.collections, tags = excluded.tags,
				added_at = excluded.added_at, version = excluded.version, updated_at = excluded.updated_at`,
				m.Path, m.Source, m.SourceFile, m.SourceID, m.Title, jsonList(m.Authors), m.Year, m.Venue, m.DOI,
				m.CitationKey, jsonList(m.Collections), jsonList(m.Tags), added, d, now)
			if err != nil {
				return fmt.Errorf("save reference %s: %w", m.Path, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return changed, nil
}

func jsonList(v []string) string {
	if len(v) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

const refCols = `path, source, source_file, source_id, ref_title, ref_authors, ref_year, ref_venue, ref_doi,
	citation_key, collections, tags, added_at, version, updated_at`

func scanRef(r rowScanner) (RefMeta, error) {
	var m RefMeta
	var authors, colls, tags string
	var added, updated int64
	if err := r.Scan(&m.Path, &m.Source, &m.SourceFile, &m.SourceID, &m.Title, &authors, &m.Year, &m.Venue, &m.DOI,
		&m.CitationKey, &colls, &tags, &added, &m.Version, &updated); err != nil {
		return m, err
	}
	for _, f := range []struct {
		s   string
		dst *[]string
	}{{authors, &m.Authors}, {colls, &m.Collections}, {tags, &m.Tags}} {
		if err := json.Unmarshal([]byte(f.s), f.dst); err != nil {
			return m, fmt.Errorf("reference %s: %w", m.Path, err)
		}
	}
	if added > 0 {
		m.AddedAt = time.UnixMilli(added).UTC()
	}
	m.UpdatedAt = time.UnixMilli(updated).UTC()
	return m, nil
}

// Refs returns every stored reference by path.
func (s *Store) Refs(ctx context.Context) (map[string]RefMeta, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+refCols+` FROM paper_ref`)
	if err != nil {
		return nil, fmt.Errorf("list references: %w", err)
	}
	defer rows.Close()
	out := map[string]RefMeta{}
	for rows.Next() {
		m, err := scanRef(rows)
		if err != nil {
			return nil, fmt.Errorf("list references: %w", err)
		}
		out[m.Path] = m
	}
	return out, rows.Err()
}

// RefByPath returns the reference stored for path; ok is false when none.
func (s *Store) RefByPath(ctx context.Context, path string) (m RefMeta, ok bool, err error) {
	m, err = scanRef(s.r.QueryRowContext(ctx, `SELECT `+refCols+` FROM paper_ref WHERE path = ?`, path))
	if err == sql.ErrNoRows {
		return RefMeta{}, false, nil
	}
	if err != nil {
		return RefMeta{}, false, fmt.Errorf("read reference %s: %w", path, err)
	}
	return m, true, nil
}

// AddedDates returns when each file first entered the library.
func (s *Store) AddedDates(ctx context.Context) (map[string]time.Time, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT path, added_at FROM paper_added`)
	if err != nil {
		return nil, fmt.Errorf("list added dates: %w", err)
	}
	defer rows.Close()
	out := map[string]time.Time{}
	for rows.Next() {
		var p string
		var ms int64
		if err := rows.Scan(&p, &ms); err != nil {
			return nil, err
		}
		out[p] = time.UnixMilli(ms).UTC()
	}
	return out, rows.Err()
}

// maxLibraryQueryWords bounds the words of one library search.
const maxLibraryQueryWords = 6

// PapersWithText returns the ids of the papers whose text contains every
// word of query (in any of their nodes), the last word as a prefix (the
// user is still typing it). It is the full-text half of the library's
// search-as-you-type; titles, authors, year and venue are matched by the
// page itself.
func (s *Store) PapersWithText(ctx context.Context, query string) ([]int64, error) {
	words := strings.FieldsFunc(strings.ToLower(query), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) == 0 {
		return nil, nil
	}
	if len(words) > maxLibraryQueryWords {
		words = words[:maxLibraryQueryWords]
	}
	var result map[int64]bool
	for i, w := range words {
		q := ftsPhrase([]string{w}, i == len(words)-1)
		rows, err := s.r.QueryContext(ctx, `SELECT DISTINCT n.paper_id FROM node_fts f JOIN nodes n ON n.id = f.rowid WHERE node_fts MATCH ?`, q)
		if err != nil {
			return nil, fmt.Errorf("library search: %w", err)
		}
		got := map[int64]bool{}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, fmt.Errorf("library search: %w", err)
			}
			if result == nil || result[id] {
				got[id] = true
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("library search: %w", err)
		}
		result = got
		if len(result) == 0 {
			break
		}
	}
	out := make([]int64, 0, len(result))
	for id := range result {
		out = append(out, id)
	}
	slices.Sort(out)
	return out, nil
}
