package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/papertree/papertree/backend/library"
)

// searchRow is one line of `search --json`: a contract, change additively.
type searchRow struct {
	PaperID int64    `json:"paper_id"`
	Title   string   `json:"title"`
	Score   float64  `json:"score"`
	Snippet string   `json:"snippet"`
	Path    string   `json:"path"`
	Marks   [][2]int `json:"marks"` // byte ranges of the matched words in snippet
	Match   string   `json:"match"` // title, author or text
	NodeID  int64    `json:"node_id,omitempty"`
	Page    int      `json:"page,omitempty"`
	File    string   `json:"file"`
}

func cmdSearch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	db := fs.String("db", "", "library database file")
	asJSON := fs.Bool("json", false, "print JSON")
	limit := fs.Int("limit", 20, "at most this many papers")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	query := strings.TrimSpace(strings.Join(pos, " "))
	if query == "" {
		return usageError{"expected a QUERY"}
	}
	lib, err := openLibrary(ctx, *db, 1)
	if err != nil {
		return err
	}
	defer lib.Close()
	res, err := lib.Search(ctx, query, *limit)
	if err != nil {
		return err
	}
	rows := searchRows(res)
	if *asJSON {
		return writeJSON(stdout, rows)
	}
	if len(rows) == 0 {
		fmt.Fprintf(stdout, "No paper matches %s.\n", termSafe(strconv.Quote(query)))
		return nil
	}
	for i, r := range rows {
		fmt.Fprintf(stdout, "%2d. [%d] %s  (%.2f)\n", i+1, r.PaperID, termSafe(paperName(r.Title, r.File)), r.Score)
		if r.Path != "" {
			fmt.Fprintf(stdout, "    %s\n", termSafe(r.Path))
		}
		fmt.Fprintf(stdout, "    %s\n", termSafe(markedText(r.Snippet, r.Marks)))
	}
	return nil
}

func searchRows(res []library.SearchResult) []searchRow {
	rows := make([]searchRow, 0, len(res))
	for _, r := range res {
		row := searchRow{PaperID: r.PaperID, Title: r.Title, Score: r.Score, Path: strings.Join(r.Path, " > "), Match: r.Match, NodeID: r.NodeID, Page: r.Page, File: r.File, Marks: [][2]int{}}
		var b strings.Builder
		for _, p := range r.Parts {
			if p.Mark {
				row.Marks = append(row.Marks, [2]int{b.Len(), b.Len() + len(p.Text)})
			}
			b.WriteString(p.Text)
		}
		row.Snippet = b.String()
		rows = append(rows, row)
	}
	return rows
}

// markedText brackets the marked words for the terminal: [word].
func markedText(s string, marks [][2]int) string {
	var b strings.Builder
	at := 0
	for _, m := range marks {
		b.WriteString(s[at:m[0]])
		b.WriteString("[" + s[m[0]:m[1]] + "]")
		at = m[1]
	}
	b.WriteString(s[at:])
	return b.String()
}
