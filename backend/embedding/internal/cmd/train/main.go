// Command train rebuilds the built-in embedder's shipped model from the
// QASPER tune papers. Run by hand from the repository root:
//
//	go run ./backend/embedding/internal/cmd/train -out backend/embedding/model/builtin-v1.gob
//
// -half build trains on the build half only (what the held-out numbers in
// README.md use); the shipped model uses -half all.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/papertree/papertree/backend/embedding/internal/qasper"
	"github.com/papertree/papertree/backend/embedding/internal/train"
	"github.com/papertree/papertree/backend/internal/shareddata"
)

func main() {
	data := flag.String("data", "", "qasper-tune.json (default: shared data dir)")
	out := flag.String("out", "", "model file to write")
	half := flag.String("half", "all", "papers to train on: all or build")
	cfg := train.DefaultConfig()
	flag.IntVar(&cfg.Dim, "dim", cfg.Dim, "word-vector width")
	flag.IntVar(&cfg.Window, "window", cfg.Window, "co-occurrence window")
	flag.IntVar(&cfg.MinCount, "mincount", cfg.MinCount, "minimum count for a word vector")
	flag.Float64Var(&cfg.EigPower, "eig", cfg.EigPower, "eigenvalue weighting exponent")
	flag.IntVar(&cfg.Common, "common", cfg.Common, "common components removed")
	flag.BoolVar(&cfg.LSA, "lsa", cfg.LSA, "term-document LSA instead of PPMI")
	flag.Parse()
	if err := run(*data, *out, *half, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
}

func run(data, out, half string, cfg train.Config) error {
	if out == "" {
		return fmt.Errorf("-out is required")
	}
	if data == "" {
		d := shareddata.Find()
		if d == "" {
			return fmt.Errorf("no shared data; pass -data")
		}
		data = filepath.Join(d, "qasper", "qasper-tune.json")
	}
	papers, err := qasper.Load(data)
	if err != nil {
		return err
	}
	source := fmt.Sprintf("QASPER v0.3 test split, tune half (%d papers, CC-BY-4.0, AllenAI): titles, abstracts, full_text paragraphs", len(papers))
	if half == "build" {
		papers, _ = qasper.Split(papers)
		source = fmt.Sprintf("QASPER v0.3 tune half, build split (%d papers, CC-BY-4.0, AllenAI)", len(papers))
	} else if half != "all" {
		return fmt.Errorf("-half must be all or build")
	}
	start := time.Now()
	m, err := train.Train(train.Texts(papers), source, cfg)
	if err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := m.Encode(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	st, _ := os.Stat(out)
	fmt.Printf("wrote %s: %d terms, %d vectors x %d, %d bytes, fingerprint %s, %s\n",
		out, len(m.Terms), m.NVec, m.VecDim, st.Size(), m.Fingerprint(), time.Since(start).Round(time.Millisecond))
	return nil
}
