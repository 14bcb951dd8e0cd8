package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/papertree/papertree/backend/eval"
	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

// cmdEvalLibrary scores strategies on a library question set (library-wide
// questions with gold papers, sections and supporting sentences, plus
// questions no paper answers). Every question is asked like "papertree ask"
// (and saved in the library's history).
func cmdEvalLibrary(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval library", flag.ContinueOnError)
	db := fs.String("db", "", "library database file (with the question set's PDFs indexed)")
	questions := fs.String("questions", "", "question set JSON (e.g. backend/eval/testdata/library_questions.json)")
	strategies := fs.String("strategies", "auto,naive,pt-rag,fable,structrag", "comma-separated strategies to compare")
	budget := fs.Int("budget", retrieve.DefaultBudget, "token budget")
	asJSON := fs.Bool("json", false, "print the scores as JSON (with per-question outcomes)")
	llmo := llmFlags(fs)
	params := paramFlags(fs)
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	if *questions == "" {
		return usageError{"--questions is required"}
	}
	qs, err := eval.LoadLibQuestions(*questions)
	if err != nil {
		return err
	}
	lib, err := openLibraryLLM(ctx, *db, 1, llmo, stderr)
	if err != nil {
		return err
	}
	defer lib.Close()
	papers, err := lib.Papers(ctx)
	if err != nil {
		return err
	}
	files := map[string]int64{}
	for _, p := range papers {
		files[filepath.Base(p.Path)] = p.ID
	}
	opts := eval.LibOptions{IsReference: referenceNode(ctx, lib)}
	var out []eval.LibScores
	for _, name := range strings.Split(*strategies, ",") {
		name = strings.TrimSpace(name)
		if _, err := retrieve.Get(name); err != nil {
			return err
		}
		s, err := eval.ScoreLibrary(ctx, qs, files, func(ctx context.Context, q string) (*papertree.Answer, error) {
			return lib.Ask(ctx, library.AskRequest{Question: q, Strategy: name, Budget: *budget, Params: *params, NoHistory: true})
		}, opts)
		if err != nil {
			return err
		}
		s.Strategy, s.Budget = name, *budget
		out = append(out, s)
	}
	if *asJSON {
		return writeJSON(stdout, out)
	}
	tw := tabwriter.NewWriter(stdout, 2, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "strategy\tpaper hit\tpaper precision\tany gold paper\tsection hit\tsupport hit\tnot-found (unanswerable)\tfalse not-found\tfalse absence\treference evidence\tpapers/answer\tms/question")
	for _, s := range out {
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%d of %d\t%.2f\t%.1f\n", s.Strategy, s.PaperHit, s.PaperPrecision, s.PaperAny, s.SectionHit, s.SupportHit, s.NotFoundRate, s.FalseNotFound, s.FalseAbsence, s.RefEvidence, s.Evidence, s.EvidencePapers, s.MeanMillis)
	}
	tw.Flush()
	if len(out) > 0 {
		fmt.Fprintf(stdout, "%d answerable, %d unanswerable questions, budget %d", out[0].Answerable, out[0].Unanswerable, *budget)
		if out[0].Missing > 0 {
			fmt.Fprintf(stdout, ", %d gold papers not in the index", out[0].Missing)
		}
		fmt.Fprintln(stdout)
	}
	return nil
}

// referenceNode reports whether the tree marks an evidence leaf or one of
// its sections as a reference list (role "references"), reading the
// paper's nodes from the index.
func referenceNode(ctx context.Context, lib *library.Library) func(papertree.Evidence) bool {
	ix := lib.Retrieval()
	return func(e papertree.Evidence) bool {
		d, err := ix.Paper(ctx, e.PaperID)
		if err != nil || d == nil {
			return false
		}
		for _, id := range append([]int64{e.NodeID}, e.PathIDs...) {
			if o := d.Order(id); o >= 0 && d.Nodes[o].Role == papertree.RoleReferences {
				return true
			}
		}
		return false
	}
}
