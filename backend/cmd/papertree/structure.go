package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/eval"
	"github.com/papertree/papertree/backend/retrieve"
)

// structureFlags registers the rdr2 and disretrieval settings on fs.
func structureFlags(fs *flag.FlagSet, p *retrieve.Params) {
	r, d := &p.RDR2, &p.Disc
	fs.IntVar(&r.TopK, "rdr2-top-k", 0, retrieve.RDR2ParamDocs["top_k"]+" (0 = default)")
	fs.IntVar(&r.ExpandIter, "rdr2-expand-iter", 0, retrieve.RDR2ParamDocs["expand_iter"]+" (0 = default)")
	fs.Float64Var(&r.AnsThresh, "rdr2-ans-threshold", 0, retrieve.RDR2ParamDocs["ans_threshold"]+" (0 = default)")
	fs.Float64Var(&r.ExpThresh, "rdr2-exp-threshold", 0, retrieve.RDR2ParamDocs["exp_threshold"]+" (0 = default)")
	fs.BoolVar(&r.NoExpand, "rdr2-no-expand", false, "rdr2 ablation: no [EXPAND] (expand-iter 0)")
	fs.BoolVar(&r.NoRefuse, "rdr2-no-refuse", false, "rdr2 ablation: no refusal (each route answers its best passage)")
	fs.BoolVar(&r.NoRouter, "rdr2-no-router", false, "rdr2 ablation: no router (the top-k retrieved passages)")
	fs.BoolVar(&r.NoHeadings, "rdr2-no-headings", false, "rdr2 offline router ablation: no heading-title similarity")
	fs.BoolVar(&r.NoKeywords, "rdr2-no-keywords", false, "rdr2 offline router ablation: no keyword (BM25) signal")
	fs.BoolVar(&r.NoSibling, "rdr2-no-sibling", false, "rdr2 offline router ablation: no sibling-answered expand bonus")
	fs.BoolVar(&r.NoSummary, "rdr2-no-summary", false, "rdr2 offline router ablation: no summary similarity")
	fs.IntVar(&d.LeafTopK, "disc-leaf-top-k", 0, retrieve.DiscParamDocs["leaf_top_k"]+" (0 = default)")
	fs.BoolVar(&d.LeafOnly, "disc-leaf-only", false, retrieve.DiscParamDocs["leaf_only"])
	fs.BoolVar(&d.Tree.Bisection, "disc-bisection", false, "disretrieval ablation: balanced trees instead of the discourse parse")
	fs.BoolVar(&d.Tree.NoCohesion, "disc-no-cohesion", false, "disretrieval parser ablation: no lexical cohesion")
	fs.BoolVar(&d.Tree.NoConnectives, "disc-no-connectives", false, "disretrieval parser ablation: no connectives/anaphora")
	fs.BoolVar(&d.Tree.NoPunct, "disc-no-punct", false, "disretrieval parser ablation: no punctuation cues")
	fs.BoolVar(&d.Tree.NoPosition, "disc-no-position", false, "disretrieval parser ablation: no sentence position")
	fs.BoolVar(&d.Tree.NoSections, "disc-no-sections", false, "disretrieval: the document tree ignores sections (the paper's setting)")
	fs.BoolVar(&d.Tree.MeanPool, "disc-mean-pool", false, "disretrieval: internal node vectors = mean of their sentences")
}

// evalQasperAll runs every strategy (or the comma-separated list) and prints
// one table.
func evalQasperAll(ctx context.Context, data string, list string, opts eval.QasperOptions, asJSON bool, stdout io.Writer) error {
	var names []string
	if list != eval.AllStrategies {
		for _, n := range strings.Split(list, ",") {
			if n = strings.TrimSpace(n); n != "" {
				if _, err := retrieve.Get(n); err != nil {
					return err
				}
				names = append(names, n)
			}
		}
	}
	reps, err := eval.RunQasperAll(ctx, data, names, opts)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(reps)
	}
	return eval.WriteQasperTable(stdout, reps)
}

// cmdStructures builds the missing index-time structures (discourse trees)
// of a library ahead of time, with progress on stderr; with an LLM the node
// summaries are written by the model. Questions build missing trees lazily
// anyway, so this is optional.
func cmdStructures(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("structures", flag.ContinueOnError)
	db := fs.String("db", "", "library database file")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	params := paramFlags(fs)
	llmo := llmFlags(fs)
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	lib, err := openLibraryLLM(ctx, *db, 1, llmo, stderr)
	if err != nil {
		return err
	}
	defer lib.Close()
	t0 := time.Now()
	sum, err := lib.BuildDiscourseTrees(ctx, params.Disc, func(done, total int, _ int64) {
		fmt.Fprintf(stderr, "\rdiscourse trees %d/%d", done, total)
		if done == total {
			fmt.Fprintln(stderr)
		}
	})
	if err != nil {
		return err
	}
	st, err := lib.Store().StructureStats(ctx, retrieve.DiscourseKind)
	if err != nil {
		return err
	}
	out := map[string]any{"built": sum.Built, "llm_summaries": sum.Summaries, "llm_fallbacks": sum.Fallbacks, "failed": sum.Failed,
		"seconds": time.Since(t0).Seconds(), "papers_with_trees": st.Papers, "bytes": st.Bytes, "build_ms_stored": st.BuildMS}
	if *asJSON {
		return writeJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "built %d discourse trees in %.2f s (%d LLM summaries, %d fell back); %d papers have trees, %d bytes\n",
		sum.Built, time.Since(t0).Seconds(), sum.Summaries, sum.Fallbacks, st.Papers, st.Bytes)
	for _, f := range sum.Failed {
		fmt.Fprintf(stdout, "failed: %s\n", f)
	}
	return nil
}
