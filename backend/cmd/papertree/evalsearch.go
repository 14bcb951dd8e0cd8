package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// searchSet is backend/eval/testdata/search_queries.json: queries, each
// with the file (base name) of the paper it means.
type searchSet struct {
	Queries []struct {
		Query string `json:"query"`
		File  string `json:"file"`
	} `json:"queries"`
}

type searchEvalRow struct {
	Query string  `json:"query"`
	File  string  `json:"file"`
	Rank  int     `json:"rank"` // 1-based rank of the meant paper; 0 = not in the results
	Top   string  `json:"top"`  // file of the first result
	Ms    float64 `json:"ms"`
}

type searchEvalOut struct {
	Queries int             `json:"queries"`
	First   int             `json:"first"` // meant paper ranked first
	Top5    int             `json:"top5"`
	MRR     float64         `json:"mrr"`
	P50Ms   float64         `json:"p50_ms"`
	Rows    []searchEvalRow `json:"rows"`
}

// cmdEvalSearch scores library search on a query set: how often the meant
// paper is first, in the top five, and the mean reciprocal rank.
func cmdEvalSearch(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("eval search", flag.ContinueOnError)
	db := fs.String("db", "", "library database file")
	set := fs.String("set", "", "query set (JSON)")
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	if *set == "" {
		return usageError{"--set FILE.json is required"}
	}
	b, err := os.ReadFile(*set)
	if err != nil {
		return err
	}
	var qs searchSet
	if err := json.Unmarshal(b, &qs); err != nil {
		return fmt.Errorf("read %s: %w", *set, err)
	}
	lib, err := openLibrary(ctx, *db, 1)
	if err != nil {
		return err
	}
	defer lib.Close()
	out := searchEvalOut{Queries: len(qs.Queries), Rows: []searchEvalRow{}}
	var ms []float64
	for _, q := range qs.Queries {
		t := time.Now()
		res, err := lib.Search(ctx, q.Query, 20)
		if err != nil {
			return err
		}
		row := searchEvalRow{Query: q.Query, File: q.File, Ms: float64(time.Since(t).Microseconds()) / 1000}
		ms = append(ms, row.Ms)
		for i, r := range res {
			if i == 0 {
				row.Top = filepath.Base(r.File)
			}
			if filepath.Base(r.File) == q.File && row.Rank == 0 {
				row.Rank = i + 1
			}
		}
		if row.Rank == 1 {
			out.First++
		}
		if row.Rank > 0 && row.Rank <= 5 {
			out.Top5++
		}
		if row.Rank > 0 {
			out.MRR += 1 / float64(row.Rank)
		}
		out.Rows = append(out.Rows, row)
	}
	if len(qs.Queries) > 0 {
		out.MRR /= float64(len(qs.Queries))
		sort.Float64s(ms)
		out.P50Ms = ms[len(ms)/2]
	}
	if *asJSON {
		return writeJSON(stdout, out)
	}
	for _, r := range out.Rows {
		fmt.Fprintf(stdout, "%3d  %-60s %s\n", r.Rank, termSafe(r.Query), termSafe(r.Top))
	}
	fmt.Fprintf(stdout, "first %d/%d, top-5 %d/%d, MRR %.3f, p50 %.1f ms\n", out.First, out.Queries, out.Top5, out.Queries, out.MRR, out.P50Ms)
	return nil
}
