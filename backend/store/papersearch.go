package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/papertree/papertree/backend/papertree"
)

// Ranked library search: which papers a researcher who half remembers one
// means by a few words (topic words, a method, an author, a dataset).
//
// A paper's score is its paper-level BM25 over the full-text index
// (PaperBM25: a word's frequency is the number of the paper's nodes that
// hold it) plus a bonus for each query word in its title and each query
// word that is one of its authors' names, weighted by how rare the word is
// among the library's titles (or authors). The bonus puts title and author
// matches first without letting one common title word ("learning") beat a
// paper whose text holds every word. Each result carries the node whose
// text matches best (BM25 inside the paper), for a snippet and a path.

// PaperMatch is one paper found by SearchPapers.
type PaperMatch struct {
	PaperID   int64   `json:"paper_id"`
	Score     float64 `json:"score"`
	TextScore float64 `json:"text_score"` // the paper-level BM25 part
	// NodeID is the best matching node of the paper (0 when only its title
	// or authors matched).
	NodeID    int64 `json:"node_id"`
	TitleHit  bool  `json:"title_hit"`
	AuthorHit bool  `json:"author_hit"`
}

const (
	// searchTitleWeight and searchAuthorWeight scale the title and author
	// bonus (per query word, times its IDF among titles or authors).
	searchTitleWeight  = 3.0
	searchAuthorWeight = 3.0
	// searchMaxResults bounds what SearchPapers returns.
	searchMaxResults = 200
)

// paperHead is what the search needs of a paper besides its text: the
// stems of its title words and its authors' name words.
type paperHead struct {
	id      int64
	title   map[string]bool
	authors map[string]bool
}

// headCache holds every ready paper's head for one library state (the same
// version as rangeCache).
type headCache struct {
	mu      sync.Mutex
	version string
	heads   []paperHead
	titleDF map[string]int
	authDF  map[string]int
}

// stemSet returns the Porter stems of the words of s, as the index stems them.
func stemSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range phraseTokens(s) {
		out[termStem(w)] = true
	}
	return out
}

func (s *Store) paperHeads(ctx context.Context) (*headCache, error) {
	ranges, err := s.paperRanges(ctx)
	if err != nil {
		return nil, err
	}
	s.ranges.mu.Lock()
	version := s.ranges.version
	s.ranges.mu.Unlock()
	// An import from a reference manager may change titles and authors
	// without touching the papers' rows.
	var refsAt sql.NullInt64
	if err := s.r.QueryRowContext(ctx, `SELECT max(updated_at) FROM paper_ref`).Scan(&refsAt); err != nil {
		return nil, fmt.Errorf("paper search: %w", err)
	}
	version += fmt.Sprintf("|%d", refsAt.Int64)
	c := &s.heads
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.heads != nil && c.version == version {
		return c, nil
	}
	// The reference manager's title and authors count as well as the
	// PDF's (the list shows theirs; the researcher may remember either).
	rows, err := s.r.QueryContext(ctx, `SELECT p.id, p.title || ' ' || coalesce(r.ref_title, ''), p.authors, coalesce(r.ref_authors, '[]')
		FROM papers p LEFT JOIN paper_ref r ON r.path = p.path WHERE p.status = 'ready'`)
	if err != nil {
		return nil, fmt.Errorf("paper search: %w", err)
	}
	defer rows.Close()
	heads := make([]paperHead, 0, len(ranges.paper))
	titleDF, authDF := map[string]int{}, map[string]int{}
	for rows.Next() {
		var h paperHead
		var title, authors, refAuthors string
		if err := rows.Scan(&h.id, &title, &authors, &refAuthors); err != nil {
			return nil, fmt.Errorf("paper search: %w", err)
		}
		h.title = stemSet(title)
		var names, refNames []string
		_ = json.Unmarshal([]byte(authors), &names) // a malformed list is no authors
		_ = json.Unmarshal([]byte(refAuthors), &refNames)
		h.authors = stemSet(strings.Join(append(names, refNames...), " "))
		for w := range h.title {
			titleDF[w]++
		}
		for w := range h.authors {
			authDF[w]++
		}
		heads = append(heads, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("paper search: %w", err)
	}
	c.version, c.heads, c.titleDF, c.authDF = version, heads, titleDF, authDF
	return c, nil
}

// SearchPapers ranks the library's papers for query, best first, at most
// limit (<= 0: 20). Papers that match nothing are not returned.
func (s *Store) SearchPapers(ctx context.Context, query string, limit int) ([]PaperMatch, error) {
	if limit <= 0 {
		limit = 20
	}
	limit = min(limit, searchMaxResults)
	q := FTSQuery(query)
	words, stems := queryTerms(q)
	if len(stems) == 0 {
		return nil, nil
	}
	nodeScore := map[int64]float64{}
	text, textIDF, err := s.paperBM25(ctx, query, nodeScore)
	if err != nil {
		return nil, err
	}
	hc, err := s.paperHeads(ctx)
	if err != nil {
		return nil, err
	}
	n := float64(len(hc.heads))
	headIDF := func(df int) float64 { return math.Max(math.Log((n-float64(df)+0.5)/(float64(df)+0.5)), 0.1) }
	byID := map[int64]*PaperMatch{}
	for id, sc := range text {
		byID[id] = &PaperMatch{PaperID: id, Score: sc, TextScore: sc}
	}
	seen := map[string]bool{}
	for k, st := range stems {
		if seen[st] {
			continue
		}
		seen[st] = true
		// A title or author word weighs what it weighs in the text (a
		// word in every paper's text says little even in a title); a
		// word no text holds (a name only in the metadata) weighs by
		// how rare it is among titles or authors.
		tIDF, aIDF := headIDF(hc.titleDF[st]), headIDF(hc.authDF[st])
		if v, ok := textIDF[words[k]]; ok {
			tIDF, aIDF = (tIDF+v)/2, (aIDF+v)/2
		}
		for i := range hc.heads {
			h := &hc.heads[i]
			t, a := h.title[st], h.authors[st]
			if !t && !a {
				continue
			}
			m := byID[h.id]
			if m == nil {
				m = &PaperMatch{PaperID: h.id}
				byID[h.id] = m
			}
			if t {
				m.TitleHit = true
				m.Score += searchTitleWeight * tIDF
			}
			if a {
				m.AuthorHit = true
				m.Score += searchAuthorWeight * aIDF
			}
		}
	}
	out := make([]PaperMatch, 0, len(byID))
	for _, m := range byID {
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].PaperID < out[j].PaperID
	})
	if len(out) > limit {
		out = out[:limit]
	}
	// Each paper's best node: the one holding the most (by IDF) of the
	// query's words, read by paperBM25 already (no query per paper). The
	// root's title is the paper's title, shown anyway: a section or a
	// passage says more about where the words are, so the root is taken
	// only when nothing else matched.
	ranges, err := s.paperRanges(ctx)
	if err != nil {
		return nil, err
	}
	at := make(map[int64]int, len(out))
	roots := make([]int64, len(out))
	for i, m := range out {
		at[m.PaperID] = i
		roots[i], _, _ = ranges.rangeOf(m.PaperID)
	}
	type cand struct {
		id int64
		sc float64
	}
	cands := make([][]cand, len(out))
	for id, sc := range nodeScore {
		if i, ok := at[ranges.paperOf(id)]; ok {
			cands[i] = append(cands[i], cand{id, sc})
		}
	}
	for i := range out {
		if len(cands[i]) == 0 {
			continue
		}
		// A reference list names the words too (in cited titles) but
		// says little about the paper: its passages are taken only when
		// nothing else matched as well.
		refs, err := s.referenceRanges(ctx, out[i].PaperID)
		if err != nil {
			return nil, err
		}
		best := -1.0
		for _, c := range cands[i] {
			sc := c.sc
			if c.id == roots[i] {
				sc /= 4
			}
			for _, r := range refs {
				if c.id >= r[0] && c.id <= r[1] {
					sc /= 4
					break
				}
			}
			if sc > best || (sc == best && c.id < out[i].NodeID) {
				best, out[i].NodeID = sc, c.id
			}
		}
	}
	return out, nil
}

// referenceRanges returns the node id ranges of a paper's reference
// sections (a section's subtree is one id range: nodes are stored in
// document order).
func (s *Store) referenceRanges(ctx context.Context, paperID int64) ([][2]int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT n.id, (SELECT max(c.descendant_id) FROM node_closure c WHERE c.ancestor_id = n.id)
		FROM nodes n WHERE n.paper_id = ? AND n.kind = 'section' AND n.role = ?`, paperID, string(papertree.RoleReferences))
	if err != nil {
		return nil, fmt.Errorf("paper search: %w", err)
	}
	defer rows.Close()
	var out [][2]int64
	for rows.Next() {
		var lo int64
		var hi sql.NullInt64
		if err := rows.Scan(&lo, &hi); err != nil {
			return nil, fmt.Errorf("paper search: %w", err)
		}
		out = append(out, [2]int64{lo, max(lo, hi.Int64)})
	}
	return out, rows.Err()
}

// rangeOf returns the node id range of paper id.
func (r *idRanges) rangeOf(id int64) (lo, hi int64, ok bool) {
	for i, p := range r.paper {
		if p == id {
			return r.lo[i], r.hi[i], true
		}
	}
	return 0, 0, false
}

// SnippetPart is a piece of a snippet: plain text, or a matched word
// (Mark). The UI renders marked parts as spans, as text, never as markup.
type SnippetPart struct {
	Text string `json:"text"`
	Mark bool   `json:"mark,omitempty"`
}

// Snippet cuts from text the window of about width words that holds the
// most distinct words of query (as the index stems them), and splits it
// into parts with the matched words marked. An ellipsis marks cut ends.
func Snippet(text, query string, width int) []SnippetPart {
	if width <= 0 {
		width = 30
	}
	_, stems := queryTerms(FTSQuery(query))
	want := map[string]bool{}
	for _, st := range stems {
		want[st] = true
	}
	type word struct {
		start, end int
		stem       string
	}
	var ws []word
	start := -1
	// Porter only rewrites a word's end: a word that does not start with
	// a wanted stem minus its last two letters cannot have it, and is not
	// stemmed (most words of a passage).
	pre := make([]string, 0, len(want))
	for st := range want {
		pre = append(pre, foldDiacritics(st[:max(1, len(st)-2)]))
	}
	could := func(w string) bool {
		for _, p := range pre {
			if strings.HasPrefix(w, p) {
				return true
			}
		}
		return false
	}
	flush := func(end int) {
		if start >= 0 {
			w := strings.ToLower(text[start:end])
			st := ""
			if could(foldDiacritics(w)) {
				if x := termStem(w); want[x] {
					st = x
				}
			}
			ws = append(ws, word{start, end, st})
			start = -1
		}
	}
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(text))
	if len(ws) == 0 {
		return []SnippetPart{{Text: strings.TrimSpace(text)}}
	}
	// Best window: most distinct matched stems, then most matches.
	best, bestD, bestN := 0, -1, -1
	for i := 0; i < len(ws); i++ {
		if ws[i].stem == "" && i > 0 {
			continue
		}
		d := map[string]bool{}
		nm := 0
		for j := i; j < len(ws) && j < i+width; j++ {
			if ws[j].stem != "" {
				d[ws[j].stem] = true
				nm++
			}
		}
		if len(d) > bestD || (len(d) == bestD && nm > bestN) {
			best, bestD, bestN = i, len(d), nm
		}
	}
	// Start a few words before the first match, so it reads in context.
	from := max(0, best-4)
	to := min(len(ws), from+width)
	if to-from < width {
		from = max(0, to-width)
	}
	lo, hi := ws[from].start, ws[to-1].end
	if from == 0 {
		lo = 0
	}
	if to == len(ws) {
		hi = len(text)
	}
	var parts []SnippetPart
	add := func(s string, mark bool) {
		if s == "" {
			return
		}
		if n := len(parts); n > 0 && parts[n-1].Mark == mark && !mark {
			parts[n-1].Text += s
			return
		}
		parts = append(parts, SnippetPart{Text: s, Mark: mark})
	}
	if from > 0 {
		add("…", false)
	}
	pos := lo
	for k, w := range ws[from:to] {
		if w.stem == "" {
			continue
		}
		before := clean(text[pos:w.start])
		if k == 0 && from == 0 {
			before = strings.TrimLeft(before, " ")
		}
		add(before, false)
		add(text[w.start:w.end], true)
		pos = w.end
	}
	rest := clean(text[pos:hi])
	if to == len(ws) {
		rest = strings.TrimRight(rest, " ")
	}
	if len(parts) == 0 {
		rest = strings.TrimLeft(rest, " ")
	}
	add(rest, false)
	if to < len(ws) {
		add("…", false)
	}
	return parts
}

// clean collapses runs of white space (line breaks of the PDF) to one space
// and drops invalid bytes.
func clean(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "")
	}
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// SnippetText joins parts into plain text.
func SnippetText(parts []SnippetPart) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}
