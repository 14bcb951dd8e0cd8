package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// TestStructuresCommandAndStrategies: the structures command builds the
// missing discourse trees once, and ask answers with both new strategies.
func TestStructuresCommandAndStrategies(t *testing.T) {
	lib := t.TempDir()
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(lib, "a.pdf"))
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, errs, code := cli(t, "index", "--db", db, "--quiet", lib); code != 0 {
		t.Fatalf("index: %s", errs)
	}
	var sum map[string]any
	out, errs, code := cli(t, "structures", "--db", db, "--json")
	if code != 0 || json.Unmarshal([]byte(out), &sum) != nil || sum["built"] != 1.0 || sum["papers_with_trees"] != 1.0 || sum["bytes"].(float64) <= 0 {
		t.Fatalf("structures: %d %s %s", code, out, errs)
	}
	if !strings.Contains(errs, "discourse trees 1/1") {
		t.Errorf("no progress on stderr: %q", errs)
	}
	out, _, _ = cli(t, "structures", "--db", db, "--json")
	if json.Unmarshal([]byte(out), &sum) != nil || sum["built"] != 0.0 {
		t.Fatalf("second run rebuilt: %s", out)
	}
	for _, s := range []string{"rdr2", "disretrieval"} {
		out, errs, code := cli(t, "ask", "--db", db, "--json", "--strategy", s, "--budget", "128", "How are glyphs grouped into words?")
		var a papertree.Answer
		if code != 0 || json.Unmarshal([]byte(out), &a) != nil || a.Strategy != s || len(a.Evidence) == 0 || a.Diag.TokensUsed > 128 {
			t.Fatalf("ask %s: %d %s %s", s, code, out, errs)
		}
	}
}
