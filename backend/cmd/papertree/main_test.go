package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

const fixtures = "../../pdf/testdata"

// cli runs the command in-process and returns stdout, stderr and the exit code.
func cli(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestParseFlagsAnyOrder(t *testing.T) {
	tests := []struct {
		name string
		args []string
		pos  string
		json bool
	}{
		{"flags first", []string{"--json", "a.pdf"}, "a.pdf", true},
		{"flags last", []string{"a.pdf", "--json"}, "a.pdf", true},
		{"no flags", []string{"a.pdf", "b.pdf"}, "a.pdf b.pdf", false},
		{"double dash", []string{"--", "-weird.pdf"}, "-weird.pdf", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := newTestFlagSet()
			j := fs.Bool("json", false, "")
			pos, err := parseFlags(fs, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(pos, " ") != tt.pos || *j != tt.json {
				t.Fatalf("pos=%q json=%v", pos, *j)
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"no command", nil},
		{"unknown command", []string{"frobnicate"}},
		{"parse without file", []string{"parse", "--json"}},
		{"index without db", []string{"index", fixtures}},
		{"unknown flag", []string{"parse", "--nope", "x.pdf"}},
		{"eval without kind", []string{"eval"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, code := cli(t, tt.args...); code != 2 {
				t.Fatalf("exit code %d, want 2", code)
			}
		})
	}
}

func TestParseJSONContract(t *testing.T) {
	out, errs, code := cli(t, "parse", "--json", filepath.Join(fixtures, "twocolumn.pdf"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"file", "title", "pages", "outline_used", "headings", "tree"} {
		if _, ok := got[k]; !ok {
			t.Errorf("parse --json lacks %q", k)
		}
	}
	var hs []papertree.Heading
	if err := json.Unmarshal(got["headings"], &hs); err != nil || len(hs) == 0 {
		t.Fatalf("headings: %v %s", err, got["headings"])
	}
	if hs[0].Level != 1 || hs[0].Page < 1 {
		t.Errorf("first heading %+v", hs[0])
	}
}

func TestParseBadFilesGiveSpecificErrors(t *testing.T) {
	tests := []struct {
		file string
		code papertree.Code
	}{
		{"empty.pdf", papertree.EEmptyFile},
		{"notpdf.pdf", papertree.ENotPDF},
		{"truncated.pdf", papertree.ETruncated},
		{"encrypted.pdf", papertree.EEncrypted},
		{"imageonly.pdf", papertree.ENoText},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, errs, code := cli(t, "parse", "--json", filepath.Join(fixtures, tt.file))
			if code != 1 || !strings.Contains(errs, "["+string(tt.code)+"]") {
				t.Fatalf("exit %d, stderr %q; want code %s", code, errs, tt.code)
			}
		})
	}
}

// copyFile copies src to dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	writeCopy(t, src, dst, "")
}

// copyDistinct copies the PDF src to dst with a comment naming dst after
// its end: a PDF of its own (the same content under two paths is one paper).
func copyDistinct(t *testing.T, src, dst string) {
	t.Helper()
	writeCopy(t, src, dst, "\n% "+dst+"\n")
}

func writeCopy(t *testing.T, src, dst, trailer string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, append(b, trailer...), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestIndexTreeAskRoundTrip(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "papers")
	os.MkdirAll(filepath.Join(lib, "sub"), 0o755)
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(lib, "good.pdf"))
	copyDistinct(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(lib, "sub", "copy.PDF"))
	for _, bad := range []string{"empty.pdf", "notpdf.pdf", "truncated.pdf", "encrypted.pdf", "imageonly.pdf"} {
		copyFile(t, filepath.Join(fixtures, bad), filepath.Join(lib, bad))
	}
	os.WriteFile(filepath.Join(lib, "notes.txt"), []byte("not a pdf, ignored"), 0o644)
	db := filepath.Join(dir, "lib.db")

	out, errs, code := cli(t, "index", "--db", db, "--json", lib)
	if code != 0 {
		t.Fatalf("index exit %d: %s", code, errs)
	}
	var sum indexOutput
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Indexed != 2 || sum.Unchanged != 0 || len(sum.Failed) != 5 {
		t.Fatalf("summary %+v", sum)
	}
	codes := map[string]papertree.Code{}
	for _, f := range sum.Failed {
		codes[filepath.Base(f.File)] = f.Code
		if f.Error == "" {
			t.Errorf("%s failed without a message", f.File)
		}
	}
	want := map[string]papertree.Code{"empty.pdf": papertree.EEmptyFile, "notpdf.pdf": papertree.ENotPDF,
		"truncated.pdf": papertree.ETruncated, "encrypted.pdf": papertree.EEncrypted, "imageonly.pdf": papertree.ENoText}
	if fmt.Sprint(codes) != fmt.Sprint(want) {
		t.Fatalf("failure codes %v, want %v", codes, want)
	}
	if !strings.Contains(errs, "FAILED") || !strings.Contains(errs, "indexed") {
		t.Errorf("progress on stderr missing: %q", errs)
	}

	// Unchanged files are skipped; failed ones are retried and fail again.
	out, _, _ = cli(t, "index", "--db", db, "--json", lib)
	json.Unmarshal([]byte(out), &sum)
	if sum.Indexed != 0 || sum.Unchanged != 2 || len(sum.Failed) != 5 {
		t.Fatalf("re-index summary %+v", sum)
	}

	// A changed file replaces its paper; a removed file is pruned.
	copyFile(t, filepath.Join(fixtures, "leadingjunk.pdf"), filepath.Join(lib, "good.pdf"))
	os.Remove(filepath.Join(lib, "sub", "copy.PDF"))
	out, _, _ = cli(t, "index", "--db", db, "--json", "--prune", lib)
	json.Unmarshal([]byte(out), &sum)
	var pr indexOutput
	json.Unmarshal([]byte(out), &pr)
	if sum.Indexed != 1 || len(pr.Pruned) != 1 || !strings.HasSuffix(pr.Pruned[0], "copy.PDF") {
		t.Fatalf("change+prune summary %s", out)
	}

	out, errs, code = cli(t, "tree", "--db", db, "--json", filepath.Join(lib, "good.pdf"))
	if code != 0 {
		t.Fatalf("tree exit %d: %s", code, errs)
	}
	var p papertree.Paper
	if err := json.Unmarshal([]byte(out), &p); err != nil || p.Root == nil || p.ID == 0 {
		t.Fatalf("tree json: %v %+v", err, p)
	}
	out, _, code = cli(t, "tree", "--db", db, fmt.Sprint(p.ID))
	if code != 0 || !strings.Contains(out, p.Title) {
		t.Fatalf("tree text: %d %q", code, out)
	}
	if _, errs, code := cli(t, "tree", "--db", db, "999"); code != 1 || !strings.Contains(errs, "not_found") {
		t.Fatalf("missing paper: %d %q", code, errs)
	}

	out, errs, code = cli(t, "ask", "--db", db, "--json", "How are glyphs grouped into words?")
	if code != 0 {
		t.Fatalf("ask exit %d: %s", code, errs)
	}
	var ans map[string]any
	if err := json.Unmarshal([]byte(out), &ans); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"question", "answer", "mode", "strategy", "evidence", "diagnostics"} {
		if _, ok := ans[k]; !ok {
			t.Errorf("ask --json lacks %q", k)
		}
	}
	if ans["mode"] != "extractive" || ans["strategy"] != "auto" {
		t.Errorf("mode/strategy %v/%v", ans["mode"], ans["strategy"])
	}
	evs, _ := ans["evidence"].([]any)
	if len(evs) == 0 {
		t.Fatal("no evidence")
	}
	ev := evs[0].(map[string]any)
	for _, k := range []string{"paper_id", "paper_title", "path", "node_id", "text", "pages", "score", "tokens"} {
		if _, ok := ev[k]; !ok {
			t.Errorf("evidence lacks %q", k)
		}
	}
	if path, _ := ev["path"].([]any); len(path) == 0 || path[0] != p.Title {
		t.Errorf("evidence path %v should start at the paper title %q", ev["path"], p.Title)
	}
	diag := ans["diagnostics"].(map[string]any)
	for _, k := range []string{"section_entropy", "tokens_used", "budget"} {
		if _, ok := diag[k]; !ok {
			t.Errorf("diagnostics lack %q", k)
		}
	}
	if _, errs, code := cli(t, "ask", "--db", db, "--strategy", "nope", "q"); code != 1 || !strings.Contains(errs, "Unknown retrieval strategy") {
		t.Fatalf("unknown strategy: %d %q", code, errs)
	}
}

// TestIndexSurvivesKill builds the real binary, kills it mid-run with SIGKILL,
// and checks that the database opens, holds only whole papers, and that the
// next run resumes (skips what was saved, indexes the rest).
func TestIndexSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "papertree")
	build := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	lib := filepath.Join(dir, "papers")
	os.MkdirAll(lib, 0o755)
	const n = 120
	for i := 0; i < n; i++ {
		copyDistinct(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(lib, fmt.Sprintf("p%03d.pdf", i)))
	}
	db := filepath.Join(dir, "lib.db")
	cmd := exec.Command(bin, "index", "--db", db, "--workers", "1", lib)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	seen := 0
	for sc.Scan() {
		if strings.Contains(sc.Text(), "indexed") {
			seen++
			if seen == 5 {
				break
			}
		}
	}
	cmd.Process.Kill()
	go io.Copy(io.Discard, stderr)
	cmd.Wait()
	if seen < 5 {
		t.Fatalf("the run ended before it could be killed (%d papers)", seen)
	}

	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatalf("database does not open after SIGKILL: %v", err)
	}
	ps, err := st.ListPapers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) == 0 || len(ps) >= n {
		t.Fatalf("%d papers after kill; want some but not all", len(ps))
	}
	for _, p := range ps {
		tree, err := st.LoadPaper(ctx, p.ID)
		if err != nil || tree.Root == nil || len(papertree.Headings(tree.Root)) == 0 {
			t.Fatalf("paper %d is not whole: %v", p.ID, err)
		}
	}
	saved := len(ps)
	st.Close()

	start := time.Now()
	out, err := exec.Command(bin, "index", "--db", db, "--json", "--quiet", lib).Output()
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	var sum indexOutput
	json.Unmarshal(out, &sum)
	if sum.Unchanged != saved || sum.Indexed != n-saved || len(sum.Failed) != 0 {
		t.Fatalf("resume summary %+v (saved before kill: %d, took %s)", sum, saved, time.Since(start))
	}
}

func newTestFlagSet() *flag.FlagSet { return flag.NewFlagSet("t", flag.ContinueOnError) }

// The same PDF twice in a folder is one paper: the summary names the copy
// and the file it repeats, in JSON and in words.
func TestIndexReportsDuplicates(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "papers")
	os.MkdirAll(lib, 0o755)
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(lib, "a.pdf"))
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(lib, "b.pdf"))
	db := filepath.Join(dir, "lib.db")
	out, errs, code := cli(t, "index", "--db", db, "--json", lib)
	if code != 0 {
		t.Fatalf("index exit %d: %s", code, errs)
	}
	var sum indexOutput
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	// The first file in path order is the paper, whichever is read first.
	if sum.Indexed != 1 || len(sum.Duplicates) != 1 || filepath.Base(sum.Duplicates[0].File) != "b.pdf" || filepath.Base(sum.Duplicates[0].Of) != "a.pdf" {
		t.Fatalf("summary %s", out)
	}
	d := sum.Duplicates[0]
	out, _, code = cli(t, "index", "--db", db, lib)
	if code != 0 || !strings.Contains(out, "duplicate: "+d.File+": the same PDF as "+d.Of+", not indexed twice") {
		t.Fatalf("exit %d, text summary %q", code, out)
	}
}
