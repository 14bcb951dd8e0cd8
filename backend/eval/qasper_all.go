package eval

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/papertree/papertree/backend/retrieve"
)

// AllStrategies is the --strategy value that runs every registered strategy.
const AllStrategies = "all"

// RunQasperAll runs RunQasper once per strategy (all registered ones when
// names is empty) on one shared index, so the papers are built once. Evidence
// of every strategy is scored the same way: an evidence item counts as the
// QASPER paragraph its node came from, so sentence-level evidence
// (disretrieval) is scored at paragraph level, like QASPER's annotations.
func RunQasperAll(ctx context.Context, dataPath string, names []string, opts QasperOptions) ([]*QasperReport, error) {
	if len(names) == 0 {
		names = retrieve.Names()
	}
	if opts.DBPath == "" {
		dir, err := os.MkdirTemp("", "papertree-qasper-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		opts.DBPath = filepath.Join(dir, "qasper.db")
	}
	var out []*QasperReport
	for _, n := range names {
		o := opts
		o.Strategy = n
		rep, err := RunQasper(ctx, dataPath, o)
		if err != nil {
			return nil, fmt.Errorf("strategy %s: %w", n, err)
		}
		out = append(out, rep)
	}
	return out, nil
}

// WriteQasperTable prints reports as one Markdown table (one row each).
func WriteQasperTable(w io.Writer, reps []*QasperReport) error {
	var b strings.Builder
	b.WriteString("| budget | strategy | evidence F1 | evidence F1 (text) | answer F1 | section entropy | EACE | tokens used | retrieval p50 / p95 ms |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range reps {
		fmt.Fprintf(&b, "| %d | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f | %.2f / %.2f |\n",
			r.Budget, r.Strategy, r.EvidenceF1, r.EvidenceF1Text, r.AnswerF1, r.SectionEntropy, r.EACE, r.TokensUsed, r.LatencyP50, r.LatencyP95)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
