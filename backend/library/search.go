package library

import (
	"context"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// SearchResult is one paper found by Search, with where it matched.
type SearchResult struct {
	PaperID int64    `json:"paper_id"`
	Title   string   `json:"title"`
	Authors []string `json:"authors,omitempty"`
	Year    int      `json:"year,omitempty"`
	File    string   `json:"file"`
	Score   float64  `json:"score"`
	// Snippet is the matching text (plain); Parts is the same text split
	// with the matched words marked.
	Snippet string              `json:"snippet"`
	Parts   []store.SnippetPart `json:"parts"`
	// Path is the section path of the matching node, outermost first
	// ("3 Experiments", "3.2 Setup"); empty for a match in the title,
	// the authors, or text before the first section.
	Path   []string `json:"path"`
	NodeID int64    `json:"node_id,omitempty"`
	Page   int      `json:"page,omitempty"`
	// Match says what matched: "title", "author" or "text" (the first
	// that applies, in that order).
	Match string `json:"match"`
}

// snippetWords is the length of a snippet in words.
const snippetWords = 28

// Search ranks the library's papers for query (see store.SearchPapers),
// best first, each with a snippet of its best matching passage and that
// passage's section path.
func (l *Library) Search(ctx context.Context, query string, limit int) ([]SearchResult, error) {
	ms, err := l.store.SearchPapers(ctx, query, limit)
	if err != nil {
		return nil, store.UserError(err)
	}
	out := make([]SearchResult, 0, len(ms))
	for _, m := range ms {
		// The reference manager's title and authors win, as in the list.
		ref, err := l.PaperRefByID(ctx, m.PaperID)
		if papertree.ErrorCode(err) == papertree.ENotFound {
			continue // removed since the search began
		}
		if err != nil {
			return nil, store.UserError(err)
		}
		info := ref.PaperInfo
		r := SearchResult{PaperID: m.PaperID, Title: info.Title, Authors: info.Authors, Year: info.Year, File: info.Path, Score: m.Score, Match: "text", Path: []string{}}
		switch {
		case m.TitleHit:
			r.Match = "title"
		case m.AuthorHit:
			r.Match = "author"
		}
		if m.NodeID != 0 {
			path, err := l.store.NodePath(ctx, m.NodeID)
			if err != nil && papertree.ErrorCode(err) != papertree.ENotFound {
				return nil, store.UserError(err)
			}
			if len(path) > 0 {
				n := path[len(path)-1]
				r.NodeID, r.Page = m.NodeID, n.PageStart
				for _, a := range path {
					if a.Kind == papertree.KindSection && strings.TrimSpace(a.Title) != "" {
						r.Path = append(r.Path, strings.Join(strings.Fields(a.Title), " "))
					}
				}
				text := n.Text
				if text == "" {
					text = n.Title
				}
				r.Parts = store.Snippet(text, query, snippetWords)
			}
		}
		if len(r.Parts) == 0 {
			// Only the title or the authors matched.
			src := info.Title
			if r.Match == "author" {
				src = strings.Join(info.Authors, ", ")
			}
			r.Parts = store.Snippet(src, query, snippetWords)
		}
		r.Snippet = store.SnippetText(r.Parts)
		out = append(out, r)
	}
	return out, nil
}
