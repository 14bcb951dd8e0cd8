package app

import (
	"context"
	"strconv"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// Searcher is implemented by libraries that rank papers for a query
// (Backend); the page falls back to SearchPapers without it.
type Searcher interface {
	Search(ctx context.Context, query string, limit int) ([]SearchHitView, error)
}

// SearchHitView is one paper of a ranked library search.
type SearchHitView struct {
	PaperID string  `json:"paperId"`
	Title   string  `json:"title"`
	Score   float64 `json:"score"`
	// Snippet is the matching text split into parts; Mark parts are the
	// matched words. PDF text: the page renders each part as a text node.
	Snippet []SnippetPartView `json:"snippet"`
	Path    []string          `json:"path"`   // section titles, outermost first
	NodeID  string            `json:"nodeId"` // the matching node ("" for a title or author match)
	Page    int               `json:"page"`
	Match   string            `json:"match"` // "title", "author" or "text"
}

// SnippetPartView is a piece of a snippet.
type SnippetPartView struct {
	Text string `json:"text"`
	Mark bool   `json:"mark"`
}

// searchHits is how many papers SearchLibrary returns (the page shows 10).
const searchHits = 20

// maxSearchQuery bounds a search query (longer input is cut).
const maxSearchQuery = 500

// SearchLibrary ranks the library's papers for query, best first (at most
// searchHits), each with a snippet of where it matched and that place's section
// path. Papers being removed are left out.
func (a *App) SearchLibrary(query string) ([]SearchHitView, error) {
	lib, libErr := a.library()
	if libErr != nil {
		return nil, asCoded(libErr, "The library could not be opened.")
	}
	query = strings.TrimSpace(query)
	if lib == nil || query == "" {
		return []SearchHitView{}, nil
	}
	if len(query) > maxSearchQuery {
		query = query[:maxSearchQuery]
	}
	s, ok := lib.(Searcher)
	if !ok {
		return nil, papertree.Errorf(papertree.EConflict, "Ranked search is not available in this build.")
	}
	hits, err := s.Search(a.context(), query, searchHits)
	if err != nil {
		return nil, asCoded(err, "The library could not be searched.")
	}
	hidden := a.removals.hidden()
	out := make([]SearchHitView, 0, len(hits))
	for _, h := range hits {
		if !hidden[h.PaperID] {
			out = append(out, h)
		}
	}
	return out, nil
}

// Search ranks papers for query (library.Search).
func (b *Backend) Search(ctx context.Context, query string, limit int) ([]SearchHitView, error) {
	res, err := b.lib.Search(ctx, query, limit)
	if err != nil {
		return nil, err
	}
	out := make([]SearchHitView, 0, len(res))
	for _, r := range res {
		v := SearchHitView{PaperID: strconv.FormatInt(r.PaperID, 10), Title: r.Title, Score: r.Score, Path: r.Path, Page: r.Page, Match: r.Match,
			Snippet: make([]SnippetPartView, 0, len(r.Parts))}
		if r.NodeID != 0 {
			v.NodeID = strconv.FormatInt(r.NodeID, 10)
		}
		if v.Path == nil {
			v.Path = []string{}
		}
		for _, p := range r.Parts {
			v.Snippet = append(v.Snippet, SnippetPartView{Text: p.Text, Mark: p.Mark})
		}
		out = append(out, v)
	}
	return out, nil
}
