package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/papertree/papertree/backend/eval"
	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

// paramFlags registers the retrieval settings as flags on fs.
func paramFlags(fs *flag.FlagSet) *retrieve.Params {
	p := retrieve.DefaultParams()
	fs.Float64Var(&p.SegmentWeight, "segment-weight", p.SegmentWeight, retrieve.ParamDocs["segment_weight"])
	fs.Float64Var(&p.SectionLLMWeight, "section-llm-weight", p.SectionLLMWeight, retrieve.ParamDocs["section_llm_weight"])
	fs.IntVar(&p.Sections, "sections", p.Sections, retrieve.ParamDocs["sections"])
	fs.IntVar(&p.Paths, "paths", p.Paths, retrieve.ParamDocs["paths"])
	fs.Float64Var(&p.TextWeight, "text-weight", p.TextWeight, retrieve.ParamDocs["text_weight"])
	fs.Float64Var(&p.TitleWeight, "title-weight", p.TitleWeight, retrieve.ParamDocs["title_weight"])
	fs.IntVar(&p.ChunkTokens, "chunk-tokens", p.ChunkTokens, retrieve.ParamDocs["chunk_tokens"])
	fs.Float64Var(&p.LeafWeight, "leaf-weight", p.LeafWeight, retrieve.ParamDocs["leaf_weight"])
	fs.Float64Var(&p.Soft, "soft", p.Soft, retrieve.ParamDocs["soft"]+" Use --soft 0 --sections 2 --paths 3 for the paper's hard scope.")
	fs.Float64Var(&p.SentenceWeight, "sentence-weight", p.SentenceWeight, retrieve.ParamDocs["sentence_weight"])
	fs.Float64Var(&p.Cutoff, "cutoff", p.Cutoff, retrieve.ParamDocs["cutoff"])
	fs.Float64Var(&p.SentenceVectorWeight, "sentence-vector-weight", p.SentenceVectorWeight, retrieve.ParamDocs["sentence_vector_weight"])
	fs.Float64Var(&p.SentenceBM25Weight, "sentence-bm25-weight", p.SentenceBM25Weight, retrieve.ParamDocs["sentence_bm25_weight"])
	fs.BoolVar(&p.NoSummaries, "no-summaries", false, "ablation: ignore the summary channel")
	fs.BoolVar(&p.NoPaths, "no-paths", false, "ablation: no section/path selection (flat ranking)")
	structureFlags(fs, &p)
	return &p
}

func parseIDs(s string) ([]int64, error) {
	var ids []int64
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, usageError{fmt.Sprintf("--papers: %q is not a paper id", f)}
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func cmdAsk(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ask", flag.ContinueOnError)
	db := fs.String("db", "", "library database file")
	asJSON := fs.Bool("json", false, "print the answer as JSON")
	papers := fs.String("papers", "", "comma-separated paper ids (default: whole library)")
	strategy := fs.String("strategy", retrieve.Default, "retrieval strategy: "+strings.Join(retrieve.Names(), ", "))
	budget := fs.Int("budget", retrieve.DefaultBudget, "token budget of the evidence")
	unnamed := fs.Bool("unnamed", false, "do not read the question as naming a paper (when \"Read as a question about ...\" named the wrong one): every paper is ranked by its text")
	params := paramFlags(fs)
	llmo := llmFlags(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"expected a QUESTION"}
	}
	if *budget < 1 {
		return usageError{fmt.Sprintf("--budget must be a positive number of tokens, not %d", *budget)}
	}
	ids, err := parseIDs(*papers)
	if err != nil {
		return err
	}
	lib, err := openLibraryLLMMode(ctx, *db, 1, llmo, stderr, true, true)
	if err != nil {
		return err
	}
	defer lib.Close()
	ans, err := lib.Ask(ctx, library.AskRequest{Question: strings.Join(pos, " "), PaperIDs: ids, Strategy: *strategy, Budget: *budget, Params: *params,
		Unnamed: *unnamed})
	if ans == nil {
		return err
	}
	// An answer that could not be saved is still shown; err says why it
	// was not kept (and makes the exit code non-zero).
	notSaved := ""
	switch {
	case err != nil:
		notSaved = "not saved"
	case ans.ID == 0 && lib.Store().ReadOnly():
		notSaved = "not saved: the library is read-only"
	}
	if *asJSON {
		if werr := writeJSON(stdout, ans); werr != nil {
			return werr
		}
		if notSaved != "" && err == nil {
			fmt.Fprintf(stderr, "papertree ask: the answer was %s\n", notSaved)
		}
		return err
	}
	printAnswer(termWriter{stdout}, ans, notSaved) // the answer quotes the question and the papers: no raw control sequences
	return err
}

// printAnswer prints a; notSaved, when set, replaces "answer #ID" (an
// answer that is not in the history has no number to export it by).
func printAnswer(w io.Writer, a *papertree.Answer, notSaved string) {
	label := "Answer"
	if a.Mode == "extractive" {
		label = "Answer (extractive: sentences quoted from the papers)"
	} else if a.Mode == papertree.ModeDetails {
		label = "Answer (from the paper's details: title, authors, year, venue, DOI)"
	} else if a.Model != "" {
		label = "Answer (" + a.Model + ")"
	}
	if n := a.Diag.Named; n != nil {
		// Which paper the question was read as naming, first: a wrong
		// reading is seen before the answer is read.
		how := "ranked first among the papers searched"
		if n.Alone {
			how = "searched alone"
		}
		fmt.Fprintf(w, "Read as a question about “%s” (%s; not this paper? ask again with --unnamed).\n", n.Title, how)
	} else if a.Diag.Unnamed {
		fmt.Fprintln(w, "Searched every paper (--unnamed): the question was not read as naming one.")
	}
	if len(a.Papers) > 0 {
		// A which-papers answer: the list, each paper with the sentence
		// of its own text that states it and where it stands.
		fmt.Fprintf(w, "Papers (%d, each with the sentence of its own text that states it):\n", len(a.Papers))
		for i, f := range a.Papers {
			fmt.Fprintf(w, "%d. %s\n   “%s”\n   %s (p. %s) [%d]\n", i+1, f.Title, excerpt(f.Sentence, 300), papertree.JoinPath(f.Path), joinInts(f.Pages), f.Cite)
		}
		fmt.Fprintf(w, "\nEvidence:\n")
	} else {
		fmt.Fprintf(w, "%s:\n%s\n\nEvidence:\n", label, a.Text)
	}
	for i, e := range a.Evidence {
		fmt.Fprintf(w, "[%d] %s  (p. %s, score %.3f, %d tok)\n    %s\n", i+1, papertree.JoinPath(e.Path), joinInts(e.Pages), e.Score, e.Tokens, excerpt(e.Text, 160))
	}
	saved := fmt.Sprintf("answer #%d", a.ID)
	if notSaved != "" {
		saved = "answer " + notSaved
	}
	fmt.Fprintf(w, "\nsection entropy %.3f, %d/%d tokens, %s strategy, %s\n", a.Diag.SectionEntropy, a.Diag.TokensUsed, a.Diag.Budget, a.Strategy, saved)
	if a.Diag.Route != "" {
		by := ""
		if a.Diag.RouteBy != "" {
			by = " by " + a.Diag.RouteBy
		}
		fmt.Fprintf(w, "route: %s%s (%s)\n", a.Diag.Route, by, a.Diag.RouteWhy)
	}
	printSelection(w, a.Diag.Selection)
	for _, f := range a.Diag.Fallbacks {
		fmt.Fprintf(w, "fallback: %s\n", f)
	}
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

func cmdEvalQasper(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval qasper", flag.ContinueOnError)
	data := fs.String("data", "", "QASPER JSON file")
	strategy := fs.String("strategy", retrieve.Default, "retrieval strategy: "+strings.Join(retrieve.Names(), ", ")+"; \"all\" or a comma list prints one table")
	budget := fs.Int("budget", retrieve.DefaultBudget, "token budget")
	limit := fs.Int("limit", 0, "at most N questions (0 = all)")
	preds := fs.String("predictions", "", "write official JSONL predictions to this file")
	db := fs.String("db", "", "keep the QASPER index in this file (reused by later runs)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	params := paramFlags(fs)
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	if *data == "" {
		return usageError{"--data FILE.json is required"}
	}
	opts := eval.QasperOptions{Strategy: *strategy, Budget: *budget, Limit: *limit, Params: *params, DBPath: *db}
	if *preds != "" {
		f, err := os.Create(*preds)
		if err != nil {
			return err
		}
		defer f.Close()
		opts.Predictions = f
	}
	last := -1
	opts.Progress = func(done, total int) {
		if pct := done * 10 / max(total, 1); pct != last {
			last = pct
			fmt.Fprintf(stderr, "\r%d/%d questions", done, total)
			if done == total {
				fmt.Fprintln(stderr)
			}
		}
	}
	if *strategy == eval.AllStrategies || strings.Contains(*strategy, ",") {
		return evalQasperAll(ctx, *data, *strategy, opts, *asJSON, stdout)
	}
	rep, err := eval.RunQasper(ctx, *data, opts)
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
