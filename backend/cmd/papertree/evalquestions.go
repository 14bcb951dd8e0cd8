package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/papertree/papertree/backend/eval"
	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

// cmdEvalQuestions scores a real-PDF question set: it indexes the PDFs (or
// reuses --db), asks every question scoped to its paper and library-wide
// with the same Ask the app uses, and prints paper/section/support hits,
// yes/no verdict precision and coverage, not-found rates and latency.
func cmdEvalQuestions(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval questions", flag.ContinueOnError)
	setPath := fs.String("set", "", "question set (JSON, see backend/eval/testdata/questions-single.json)")
	pdfs := fs.String("pdfs", "", "folder holding the question set's PDFs")
	db := fs.String("db", "", "library index to (re)use; default: a temporary file")
	strategy := fs.String("strategy", retrieve.Default, "retrieval strategy: "+strings.Join(retrieve.Names(), ", "))
	budget := fs.Int("budget", retrieve.DefaultBudget, "token budget")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	params := paramFlags(fs)
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	if *setPath == "" || *pdfs == "" {
		return usageError{"--set FILE.json and --pdfs DIR are required"}
	}
	set, err := eval.LoadQuestions(*setPath)
	if err != nil {
		return err
	}
	dbPath := *db
	if dbPath == "" {
		dir, err := os.MkdirTemp("", "papertree-questions-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		dbPath = filepath.Join(dir, "lib.db")
	}
	lib, err := library.Open(ctx, library.Config{DBPath: dbPath, WarmBudget: cliWarmBudget, Upgrading: upgradeNotice})
	if err != nil {
		return err
	}
	defer lib.Close()
	papers, err := IndexForQuestions(ctx, lib, *pdfs)
	if err != nil {
		return err
	}
	var all []int64
	for _, id := range papers {
		all = append(all, id)
	}
	oracle := &eval.AbsenceOracle{All: all, Papers: papers, Paper: func(ctx context.Context, id int64) (*papertree.Paper, error) {
		return lib.Paper(ctx, fmt.Sprint(id))
	}}
	last := -1
	rep, err := eval.RunQuestions(ctx, set, eval.QuestionsOptions{
		Papers:  papers,
		Absence: oracle.Check,
		Ask: func(ctx context.Context, q string, ids []int64) (*papertree.Answer, error) {
			return lib.Ask(ctx, library.AskRequest{Question: q, PaperIDs: ids, Strategy: *strategy, Budget: *budget, Params: *params, NoHistory: true})
		},
		Progress: func(done, total int) {
			if pct := done * 10 / max(total, 1); pct != last {
				last = pct
				fmt.Fprintf(stderr, "\r%d/%d asked", done, total)
				if done == total {
					fmt.Fprintln(stderr)
				}
			}
		},
	})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return rep.WriteTable(stdout)
}

// IndexForQuestions indexes the PDFs of dir into lib and maps each ready
// paper's file base name to its id.
func IndexForQuestions(ctx context.Context, lib *library.Library, dir string) (map[string]int64, error) {
	if _, err := lib.Index(ctx, []string{dir}, nil); err != nil {
		return nil, err
	}
	infos, err := lib.Papers(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, p := range infos {
		if p.Status == "ready" {
			out[filepath.Base(p.Path)] = p.ID
		}
	}
	return out, nil
}
