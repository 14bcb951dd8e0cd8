package main

import (
	"context"
	"flag"
	"io"
	"strings"

	"github.com/papertree/papertree/backend/eval"
)

// dirList is a repeatable flag (--pdfs A --pdfs B, or --pdfs A,B).
type dirList []string

func (d *dirList) String() string { return strings.Join(*d, ",") }
func (d *dirList) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*d = append(*d, s)
		}
	}
	return nil
}

// cmdEvalMeta scores the metadata read from PDFs (title, authors, year,
// arXiv id, DOI) against a hand-written gold file.
func cmdEvalMeta(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("eval meta", flag.ContinueOnError)
	gold := fs.String("gold", "", "gold metadata file ({\"papers\": [...]}, e.g. backend/treebuild/testdata/metadata_gold.json)")
	var pdfs dirList
	fs.Var(&pdfs, "pdfs", "folder of the PDFs (repeat the flag or separate by commas for several folders)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	if *gold == "" || len(pdfs) == 0 {
		return usageError{"--gold FILE and --pdfs DIR are required"}
	}
	g, err := eval.LoadMetaGold(*gold)
	if err != nil {
		return err
	}
	rep, err := eval.RunMeta(ctx, g, pdfs, eval.DefaultMetaBuilder)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	return rep.WriteTable(stdout)
}
