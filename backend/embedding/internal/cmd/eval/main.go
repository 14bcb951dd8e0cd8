// Command eval prints the paragraph-retrieval table of the built-in embedder
// against BM25 on the QASPER tune data (build half and held-out half).
//
//	go run ./backend/embedding/internal/cmd/eval [-data path] [-model file]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/embedding/internal/qasper"
	"github.com/papertree/papertree/backend/internal/shareddata"
)

func main() {
	data := flag.String("data", "", "qasper-tune.json (default: shared data dir)")
	model := flag.String("model", "", "model file (default: the shipped model)")
	lexDim := flag.Int("lexdim", embedding.DefaultOptions().LexDim, "lexical dimensions")
	lexW := flag.Float64("lexw", embedding.DefaultOptions().LexWeight, "lexical channel weight")
	semW := flag.Float64("semw", embedding.DefaultOptions().SemWeight, "semantic channel weight")
	bigram := flag.Float64("bigram", embedding.DefaultOptions().BigramWeight, "bigram weight")
	semPow := flag.Float64("sempow", embedding.DefaultOptions().SemIDFPower, "semantic IDF power")
	lexScale := flag.Float64("lexscale", embedding.DefaultOptions().LexScale, "BM25 lexical scale (0: cosine)")
	lexMin := flag.Float64("lexmin", embedding.DefaultOptions().LexMinIDF, "minimum IDF in the lexical channel")
	semHalf := flag.Float64("semhalf", embedding.DefaultOptions().SemHalfLen, "semantic half-confidence length")
	fuseW := flag.Float64("fusew", 0.5, "fusion weight of the embedder")
	halves := flag.String("halves", "build,held-out", "halves to report")
	flag.Parse()
	path := *data
	if path == "" {
		d := shareddata.Find()
		if d == "" {
			fmt.Fprintln(os.Stderr, "no shared data; pass -data")
			os.Exit(2)
		}
		path = filepath.Join(d, "qasper", "qasper-tune.json")
	}
	papers, err := qasper.Load(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	build, held := qasper.Split(papers)
	var m *embedding.Model
	if *model != "" {
		f, err := os.Open(*model)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		m, err = embedding.DecodeModel(f)
		f.Close()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	} else {
		m = embedding.ShippedModel()
	}
	opts := embedding.Options{LexDim: *lexDim, LexWeight: *lexW, SemWeight: *semW, BigramWeight: *bigram, SemIDFPower: *semPow, LexScale: *lexScale, LexMinIDF: *lexMin, SemHalfLen: *semHalf}
	emb, err := embedding.NewBuiltinWith(m, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	lexOpts, semOpts := opts, opts
	lexOpts.SemWeight, semOpts.LexWeight = 0, 0
	lexOnly, _ := embedding.NewBuiltinWith(m, lexOpts)
	semOnly, _ := embedding.NewBuiltinWith(m, semOpts)
	// BM25's query side: QueryTerms without the NumTerm pseudo-term.
	queryStems := func(s string) []string {
		var out []string
		for _, t := range embedding.QueryTerms(s) {
			if t != embedding.NumTerm {
				out = append(out, t)
			}
		}
		return out
	}
	lower := func(s string) []string { return strings.Fields(strings.ToLower(s)) }
	words := func(s string) []string {
		var out []string
		for _, t := range embedding.Tokenize(s) {
			out = append(out, t.Word)
		}
		return out
	}
	bm25 := qasper.BM25{Label: "bm25-stem-stop", K1: 1.2, B: 0.75, Analyze: embedding.ContentStems}
	methods := []qasper.Method{
		qasper.BM25{Label: "bm25-whitespace", K1: 1.2, B: 0.75, Analyze: lower},
		qasper.BM25{Label: "bm25-words (like FTS5 unicode61)", K1: 1.2, B: 0.75, Analyze: words},
		qasper.BM25{Label: "bm25-stem-stop", K1: 1.2, B: 0.75, Analyze: embedding.ContentStems},
		qasper.BM25{Label: "bm25-stem-stop-q", K1: 1.2, B: 0.75, Analyze: embedding.ContentStems, Query: queryStems},
		qasper.Embedder{Label: "lexical channel only", E: lexOnly},
		qasper.Embedder{Label: "semantic channel only", E: semOnly},
		qasper.Embedder{Label: emb.Name(), E: emb},
		qasper.Fusion{Label: fmt.Sprintf("fusion %.2f*cos + bm25", *fuseW), A: qasper.Embedder{E: emb}, B: bm25, Weight: *fuseW},
		qasper.Fusion{Label: "rrf(cos, bm25)", A: qasper.Embedder{E: emb}, B: bm25, RRF: true},
	}
	for _, half := range []struct {
		name   string
		papers []qasper.Paper
	}{{"build", build}, {"held-out", held}} {
		if !strings.Contains(*halves, half.name) {
			continue
		}
		var rows []qasper.Metrics
		for _, m := range methods {
			r, err := qasper.Evaluate(half.papers, m)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			rows = append(rows, r)
		}
		fmt.Printf("\n%s half (%d papers)\n%s", half.name, len(half.papers), qasper.Table(rows))
	}
}
