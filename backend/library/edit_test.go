package library

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
	"github.com/papertree/papertree/backend/treebuild"
)

// headingTexts lists a paper's headings as "text@level".
func headingTexts(root *papertree.Node) []string {
	var out []string
	for _, h := range papertree.Headings(root) {
		out = append(out, fmt.Sprintf("%s@%d", h.Text, h.Level))
	}
	return out
}

func findSection(t *testing.T, root *papertree.Node, title string) *papertree.Node {
	t.Helper()
	var n *papertree.Node
	root.Walk(func(path []*papertree.Node) bool {
		if c := path[len(path)-1]; c.Kind == papertree.KindSection && c.Title == title {
			n = c
		}
		return n == nil
	})
	if n == nil {
		t.Fatalf("no heading %q in %v", title, headingTexts(root))
	}
	return n
}

func paperOf(t *testing.T, l *Library, path string) *papertree.Paper {
	t.Helper()
	p, err := l.Paper(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// changedFixture is twocolumn.pdf with its heading "2.1 Glyph Grouping"
// (text and bookmark) renamed to "2.1 Glyph Clusters": the same paper in a
// new version (same byte length, so the cross-reference table stays right).
func changedFixture(t *testing.T, dst string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, "twocolumn.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(b, []byte("Glyph Grouping")) == 0 {
		t.Fatal("the fixture no longer has the heading this test changes")
	}
	if err := os.WriteFile(dst, bytes.ReplaceAll(b, []byte("Glyph Grouping"), []byte("Glyph Clusters")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCorrectionsLastAcrossReindex corrects metadata and headings, then
// indexes the file again in each way a library sees it again, and checks
// what is shown, searched and reported each time.
func TestCorrectionsLastAcrossReindex(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	pdfPath := filepath.Join(dir, "a.pdf")
	copyFixture(t, "twocolumn.pdf", pdfPath)
	db := filepath.Join(dir, "lib.db")
	l, err := Open(ctx, Config{DBPath: db, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	index(t, l, pdfPath)
	p := paperOf(t, l, pdfPath)
	readTitle := p.Title
	id := strconv.FormatInt(p.ID, 10)

	if _, err := l.EditPaper(ctx, id, map[string]string{"title": "Glyphs to Structure", "authors": "Ada Lovelace; Alan Turing",
		"year": "2019", "venue": "Proc. of Structure", "key": "lovelace2019glyphs"}); err != nil {
		t.Fatal(err)
	}
	if _, err := l.EditHeading(ctx, id, HeadingEdit{NodeID: findSection(t, p.Root, "2 Method").ID, Op: papertree.OpRename, Text: "2 Approach"}); err != nil {
		t.Fatal(err)
	}
	p = paperOf(t, l, pdfPath)
	if _, err := l.EditHeading(ctx, id, HeadingEdit{NodeID: findSection(t, p.Root, "2.1 Glyph Grouping").ID, Op: papertree.OpLevel, Level: 1}); err != nil {
		t.Fatal(err)
	}
	wantHeadings := []string{"Abstract@1", "1 Introduction@1", "2 Approach@1", "2.1 Glyph Grouping@1", "References@1"}

	check := func(t *testing.T, l *Library, headings []string) *papertree.Paper {
		t.Helper()
		p := paperOf(t, l, pdfPath)
		if got := headingTexts(p.Root); !slices.Equal(got, headings) {
			t.Errorf("headings %v, want %v", got, headings)
		}
		if p.Title != "Glyphs to Structure" || p.Root.Title != "Glyphs to Structure" || p.Year != 2019 {
			t.Errorf("paper shows title %q (root %q), year %d", p.Title, p.Root.Title, p.Year)
		}
		refs, err := l.PapersWithRefs(ctx)
		if err != nil || len(refs) != 1 {
			t.Fatalf("list: %v %+v", err, refs)
		}
		r := refs[0]
		if r.Title != "Glyphs to Structure" || r.Year != 2019 || r.CitationKey != "lovelace2019glyphs" ||
			!slices.Equal(r.Authors, []string{"Ada Lovelace", "Alan Turing"}) || r.Venue != "Proc. of Structure" ||
			!slices.Contains(r.Edited, "title") || r.HeadingEdits != 2 {
			t.Errorf("list row %+v", r)
		}
		// Full-text search and retrieval see the corrected heading.
		hits, err := l.Store().SearchText(ctx, "approach", []int64{p.ID}, 10)
		if err != nil || len(hits) == 0 {
			t.Errorf("full-text search for the corrected heading: %v %d hits", err, len(hits))
		}
		ans, err := l.Ask(ctx, AskRequest{Question: "How are glyphs grouped into lines?", PaperIDs: []int64{p.ID}})
		if err != nil {
			t.Fatal(err)
		}
		sawPath := false
		for _, e := range ans.Evidence {
			joined := strings.Join(e.Path, " > ")
			if strings.Contains(joined, "2 Method") {
				t.Errorf("evidence path still has the heading as read: %s", joined)
			}
			if strings.HasPrefix(joined, "Glyphs to Structure > ") {
				sawPath = true
			}
		}
		if !sawPath {
			t.Errorf("no evidence path starts at the corrected title: %+v", ans.Evidence)
		}
		bib, err := l.BibEntries(ctx, []int64{p.ID})
		if err != nil || len(bib) != 1 || bib[0].Key != "lovelace2019glyphs" || bib[0].Fields["year"] != "2019" ||
			!strings.Contains(bib[0].Fields["title"], "Glyphs to Structure") || bib[0].Fields["author"] != "Ada Lovelace and Alan Turing" {
			t.Errorf("bibtex %v %+v", err, bib)
		}
		return p
	}
	t.Run("after the corrections", func(t *testing.T) { check(t, l, wantHeadings) })

	t.Run("index again, same content", func(t *testing.T) {
		sum := index(t, l, pdfPath)
		if sum.Unchanged != 1 {
			t.Fatalf("summary %+v", sum)
		}
		check(t, l, wantHeadings)
	})
	l.Close()

	t.Run("index again with other settings (as a pipeline version change does)", func(t *testing.T) {
		opts := treebuild.DefaultOptions()
		opts.MaxSegmentTokens = 200
		l2, err := Open(ctx, Config{DBPath: db, Workers: 1, Tree: opts})
		if err != nil {
			t.Fatal(err)
		}
		defer l2.Close()
		sum := index(t, l2, pdfPath)
		if sum.Indexed != 1 || len(sum.UnmatchedCorrections) != 0 {
			t.Fatalf("summary %+v", sum)
		}
		check(t, l2, wantHeadings)
		c, _ := l2.Corrections(ctx, pdfPath)
		if f, _ := c.Field("title"); f != "Glyphs to Structure" {
			t.Errorf("corrections %+v", c)
		}
		if c.Fields[slices.IndexFunc(c.Fields, func(f store.PaperEdit) bool { return f.Field == "title" })].Read != readTitle {
			t.Errorf("what was read is not kept: %+v", c.Fields)
		}
	})

	l, err = Open(ctx, Config{DBPath: db, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	t.Run("the file changes: a corrected heading is gone", func(t *testing.T) {
		changedFixture(t, pdfPath)
		sum := index(t, l, pdfPath)
		if sum.Indexed != 1 || len(sum.UnmatchedCorrections) != 1 || sum.UnmatchedCorrections[0].Target != "2.1 Glyph Grouping" {
			t.Fatalf("summary %+v, want the level correction of 2.1 Glyph Grouping reported", sum)
		}
		p := check(t, l, []string{"Abstract@1", "1 Introduction@1", "2 Approach@1", "2.1 Glyph Clusters@2", "References@1"})
		c, err := l.Corrections(ctx, pdfPath)
		if err != nil || len(c.Headings) != 2 || c.Headings[0].Unmatched || !c.Headings[1].Unmatched {
			t.Fatalf("corrections %v %+v", err, c)
		}
		refs, _ := l.PapersWithRefs(ctx)
		if refs[0].UnmatchedEdits != 1 {
			t.Errorf("list row does not count the unmatched correction: %+v", refs[0])
		}
		_ = p
	})

	t.Run("undo and revert", func(t *testing.T) {
		if _, err := l.UndoHeading(ctx, pdfPath, 0); err != nil { // the unmatched one
			t.Fatal(err)
		}
		if _, err := l.UndoHeading(ctx, pdfPath, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := l.RevertField(ctx, pdfPath, "title"); err != nil {
			t.Fatal(err)
		}
		p := paperOf(t, l, pdfPath)
		if p.Title != readTitle || p.Root.Title != readTitle {
			t.Errorf("title after revert %q (root %q), want %q", p.Title, p.Root.Title, readTitle)
		}
		if got := headingTexts(p.Root); !slices.Equal(got, []string{"Abstract@1", "1 Introduction@1", "2 Method@1", "2.1 Glyph Clusters@2", "References@1"}) {
			t.Errorf("headings after undo %v", got)
		}
		if _, _, ok, _ := l.Store().ReadTree(ctx, pdfPath); ok {
			t.Error("the tree as read is kept after the last heading correction is undone")
		}
		if _, err := l.UndoHeading(ctx, pdfPath, 0); papertree.ErrorCode(err) != papertree.ENotFound {
			t.Errorf("undo with nothing to undo: %v", err)
		}
		if _, err := l.RevertField(ctx, pdfPath, "title"); papertree.ErrorCode(err) != papertree.ENotFound {
			t.Errorf("revert of a field that is not corrected: %v", err)
		}
		refs, _ := l.PapersWithRefs(ctx)
		if refs[0].Year != 2019 || slices.Contains(refs[0].Edited, "title") {
			t.Errorf("other corrections must stay: %+v", refs[0])
		}
	})
}

func TestEditRefusesBadInput(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	pdfPath := filepath.Join(dir, "a.pdf")
	copyFixture(t, "twocolumn.pdf", pdfPath)
	l, err := Open(ctx, Config{DBPath: filepath.Join(dir, "lib.db"), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	index(t, l, pdfPath)
	p := paperOf(t, l, pdfPath)
	id := strconv.FormatInt(p.ID, 10)
	leaf := p.Root.Children[len(p.Root.Children)-1].Children[0]
	cases := []struct {
		name string
		do   func() error
	}{
		{"year not four digits", func() error { _, err := l.EditPaper(ctx, id, map[string]string{"year": "19"}); return err }},
		{"empty title", func() error { _, err := l.EditPaper(ctx, id, map[string]string{"title": " "}); return err }},
		{"unknown field", func() error { _, err := l.EditPaper(ctx, id, map[string]string{"abstract": "x"}); return err }},
		{"key with a space", func() error { _, err := l.EditPaper(ctx, id, map[string]string{"key": "a b"}); return err }},
		{"title with a newline", func() error { _, err := l.EditPaper(ctx, id, map[string]string{"title": "a\nb"}); return err }},
		{"rename a leaf", func() error {
			_, err := l.EditHeading(ctx, id, HeadingEdit{NodeID: leaf.ID, Op: papertree.OpRename, Text: "x"})
			return err
		}},
		{"merge the first section", func() error {
			_, err := l.EditHeading(ctx, id, HeadingEdit{NodeID: findSection(t, p.Root, "Abstract").ID, Op: papertree.OpMerge})
			return err
		}},
		{"promote a line that is not there", func() error {
			_, err := l.EditHeading(ctx, id, HeadingEdit{NodeID: leaf.ID, Op: papertree.OpPromote, Text: "no such line anywhere"})
			return err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.do(); papertree.ErrorCode(err) != papertree.EInvalid {
				t.Fatalf("got %v, want an invalid-input error", err)
			}
			ov, _ := l.Corrections(ctx, id)
			if !ov.Empty() {
				t.Fatalf("a refused correction was stored: %+v", ov)
			}
		})
	}
}

// The crash tests check one invariant after every interrupted write: the
// stored tree is the tree as read with the stored corrections replayed,
// and the paper's row shows exactly the stored metadata corrections.
func checkConsistent(t *testing.T, l *Library, path string) (renames int) {
	t.Helper()
	ctx := context.Background()
	p := paperOf(t, l, path)
	c, err := l.Corrections(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	read, _, ok, err := l.Store().ReadTree(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		if len(c.Headings) > 0 {
			t.Fatalf("%d heading corrections but no tree as read", len(c.Headings))
		}
		return 0
	}
	replay(read, c.Headings)
	if got, want := headingTexts(p.Root), headingTexts(read); !slices.Equal(got, want) {
		t.Fatalf("stored tree %v is not the corrections replayed %v (%d corrections)", got, want, len(c.Headings))
	}
	if v, ok := c.Field("venue"); ok && p.Venue != v {
		t.Fatalf("row venue %q, correction %q", p.Venue, v)
	}
	return len(c.Headings)
}

// TestCorrectionCrashChild is the process TestCorrectionSurvivesKill kills.
func TestCorrectionCrashChild(t *testing.T) {
	db, path := os.Getenv("PT_CORR_DB"), os.Getenv("PT_CORR_PDF")
	if db == "" {
		t.Skip("run by TestCorrectionSurvivesKill")
	}
	ctx := context.Background()
	l, err := Open(ctx, Config{DBPath: db, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		p := paperOf(t, l, path)
		from, text := "1 Introduction", "1 Introduction (checked)"
		if slices.Contains(headingTexts(p.Root), "1 Introduction (checked)@1") {
			from, text = text, from
		}
		sec := findSection(t, p.Root, from)
		if _, err := l.EditHeading(ctx, path, HeadingEdit{NodeID: sec.ID, Op: papertree.OpRename, Text: text}); err != nil {
			t.Fatal(err)
		}
		if _, err := l.EditPaper(ctx, path, map[string]string{"venue": fmt.Sprintf("Venue %d", i)}); err != nil {
			t.Fatal(err)
		}
		fmt.Println("edited", i)
	}
}

// TestCorrectionSurvivesKill kills a process in the middle of correcting
// (SIGKILL at random moments) and checks the library holds either the old
// or the new correction, whole, each time.
func TestCorrectionSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	ctx := context.Background()
	dir := t.TempDir()
	pdfPath := filepath.Join(dir, "a.pdf")
	copyFixture(t, "twocolumn.pdf", pdfPath)
	db := filepath.Join(dir, "lib.db")
	l, err := Open(ctx, Config{DBPath: db, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	index(t, l, pdfPath)
	l.Close()
	rng := rand.New(rand.NewSource(22))
	total := 0
	for round := 0; round < 6; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCorrectionCrashChild$")
		cmd.Env = append(os.Environ(), "PT_CORR_DB="+db, "PT_CORR_PDF="+pdfPath)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(300+rng.Intn(900)) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		if strings.Contains(out.String(), "FAIL") {
			t.Fatalf("the child failed before it was killed:\n%s", out.String())
		}
		total += strings.Count(out.String(), "edited ")
		l, err := Open(ctx, Config{DBPath: db, Workers: 1})
		if err != nil {
			t.Fatalf("round %d: the library does not open after the kill: %v", round, err)
		}
		checkConsistent(t, l, pdfPath)
		l.Close()
	}
	if total == 0 {
		t.Fatal("no correction was made before the kills: the test proves nothing")
	}
	t.Logf("%d corrections made across 6 killed processes", total)
}

// TestCorrectionCancelledMidWrite cancels corrections at random moments
// (a cancelled context rolls the transaction back): each leaves either the
// old or the new tree with its correction.
func TestCorrectionCancelledMidWrite(t *testing.T) {
	dir := t.TempDir()
	pdfPath := filepath.Join(dir, "a.pdf")
	copyFixture(t, "twocolumn.pdf", pdfPath)
	l, err := Open(context.Background(), Config{DBPath: filepath.Join(dir, "lib.db"), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	index(t, l, pdfPath)
	cancelled, done := 0, 0
	for i := 0; i < 40; i++ {
		p := paperOf(t, l, pdfPath)
		sec := findSection(t, p.Root, "2 Method")
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			time.Sleep(time.Duration(i*150) * time.Microsecond)
			cancel()
		}()
		before := checkConsistent(t, l, pdfPath)
		_, err := l.EditHeading(ctx, pdfPath, HeadingEdit{NodeID: sec.ID, Op: papertree.OpRename, Text: "2 Method"})
		cancel()
		after := checkConsistent(t, l, pdfPath)
		switch {
		case err == nil && after == before+1:
			done++
		case err != nil && after == before:
			cancelled++
		default:
			t.Fatalf("edit %d: err %v, corrections %d -> %d", i, err, before, after)
		}
	}
	if cancelled == 0 || done == 0 {
		t.Logf("cancelled %d, completed %d (the timing did not cover both)", cancelled, done)
	}
}

// TestCorrectionDuringReindex: a correction made while its file is being
// read again (between reading and saving) is in the saved tree.
func TestCorrectionDuringReindex(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	pdfPath := filepath.Join(dir, "a.pdf")
	copyFixture(t, "twocolumn.pdf", pdfPath)
	l, err := Open(ctx, Config{DBPath: filepath.Join(dir, "lib.db"), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	index(t, l, pdfPath)
	fp := l.Fingerprint() + "-other" // read again, as with other settings
	r, skip := l.prepare(ctx, pdfPath, &jobFiles{fp: fp}, func(Event) {})
	if skip || r.err != nil {
		t.Fatalf("prepare: skip %v, %v", skip, r.err)
	}
	p := paperOf(t, l, pdfPath)
	if _, err := l.EditHeading(ctx, pdfPath, HeadingEdit{NodeID: findSection(t, p.Root, "2 Method").ID, Op: papertree.OpRename, Text: "2 Approach"}); err != nil {
		t.Fatal(err)
	}
	l.save(ctx, r, fp, func(Event) {}, func(err error) { t.Fatal(err) })
	if got := headingTexts(paperOf(t, l, pdfPath).Root); !slices.Contains(got, "2 Approach@1") {
		t.Fatalf("headings %v: the correction made during the re-index is lost", got)
	}
	checkConsistent(t, l, pdfPath)
}

// allWords is every word of a tree's headings and leaves, sorted: a heading
// correction moves text between headings and body, never loses it.
func allWords(root *papertree.Node) []string {
	var w []string
	root.Walk(func(path []*papertree.Node) bool {
		n := path[len(path)-1]
		if n.Kind != papertree.KindRoot {
			w = append(w, strings.Fields(n.Title+" "+n.Text)...)
		}
		return true
	})
	slices.Sort(w)
	return w
}

// TestHeadingOperationsKeepText applies each kind of heading correction in
// turn to a real paper, checks the tree and that no word is lost, then
// undoes them all back to the tree as read.
func TestHeadingOperationsKeepText(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	pdfPath := filepath.Join(dir, "a.pdf")
	copyFixture(t, "twocolumn.pdf", pdfPath)
	l, err := Open(ctx, Config{DBPath: filepath.Join(dir, "lib.db"), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	index(t, l, pdfPath)
	orig := paperOf(t, l, pdfPath)
	words, heads := allWords(orig.Root), headingTexts(orig.Root)
	leafUnder := func(p *papertree.Paper, title string) int64 {
		return findSection(t, p.Root, title).Children[0].ID
	}
	steps := []struct {
		name string
		edit func(p *papertree.Paper) HeadingEdit
		want []string
	}{
		{"promote a line", func(p *papertree.Paper) HeadingEdit {
			return HeadingEdit{NodeID: leafUnder(p, "2 Method"), Op: papertree.OpPromote, Text: "Words follow in the right column."}
		}, []string{"Abstract@1", "1 Introduction@1", "2 Method@1", "Words follow in the right column.@2", "2.1 Glyph Grouping@2", "References@1"}},
		{"merge into the section before", func(p *papertree.Paper) HeadingEdit {
			return HeadingEdit{NodeID: findSection(t, p.Root, "2.1 Glyph Grouping").ID, Op: papertree.OpMerge}
		}, []string{"Abstract@1", "1 Introduction@1", "2 Method@1", "Words follow in the right column.@2", "References@1"}},
		{"not a heading", func(p *papertree.Paper) HeadingEdit {
			return HeadingEdit{NodeID: findSection(t, p.Root, "Words follow in the right column.").ID, Op: papertree.OpNotHeading}
		}, []string{"Abstract@1", "1 Introduction@1", "2 Method@1", "References@1"}},
		{"level", func(p *papertree.Paper) HeadingEdit {
			return HeadingEdit{NodeID: findSection(t, p.Root, "1 Introduction").ID, Op: papertree.OpLevel, Level: 2}
		}, []string{"Abstract@1", "1 Introduction@2", "2 Method@1", "References@1"}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if _, err := l.EditHeading(ctx, pdfPath, s.edit(paperOf(t, l, pdfPath))); err != nil {
				t.Fatal(err)
			}
			p := paperOf(t, l, pdfPath)
			if got := headingTexts(p.Root); !slices.Equal(got, s.want) {
				t.Errorf("headings %v, want %v", got, s.want)
			}
			if got := allWords(p.Root); !slices.Equal(got, words) {
				t.Errorf("the words changed: %d -> %d", len(words), len(got))
			}
			checkConsistent(t, l, pdfPath)
		})
	}
	for range steps {
		if _, err := l.UndoHeading(ctx, pdfPath, 0); err != nil {
			t.Fatal(err)
		}
	}
	if got := headingTexts(paperOf(t, l, pdfPath).Root); !slices.Equal(got, heads) {
		t.Fatalf("after undoing all: %v, want %v", got, heads)
	}
}

// TestCorrectionsFollowAMovedFile: a file renamed (same content, old path
// gone) keeps its corrections; a copy beside its original is not a paper of
// its own (TestSameContentIsOnePaper), and a changed copy starts without.
func TestCorrectionsFollowAMovedFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := filepath.Join(dir, "a.pdf")
	copyFixture(t, "twocolumn.pdf", a)
	l, err := Open(ctx, Config{DBPath: filepath.Join(dir, "lib.db"), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	index(t, l, a)
	if _, err := l.EditPaper(ctx, a, map[string]string{"title": "Moved Title"}); err != nil {
		t.Fatal(err)
	}
	if _, err := l.EditHeading(ctx, a, HeadingEdit{NodeID: findSection(t, paperOf(t, l, a).Root, "2 Method").ID, Op: papertree.OpRename, Text: "2 Approach"}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		do        func() string // returns the new path
		corrected bool
	}{
		{"a changed copy beside the original", func() string {
			c := filepath.Join(dir, "copy.pdf")
			copyFixture(t, "twocolumn.pdf", c)
			return c
		}, false},
		{"renamed", func() string {
			b := filepath.Join(dir, "sub", "b.pdf")
			os.MkdirAll(filepath.Dir(b), 0o755)
			if err := os.Rename(a, b); err != nil {
				t.Fatal(err)
			}
			return b
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := c.do()
			index(t, l, path)
			p := paperOf(t, l, path)
			got := p.Title == "Moved Title" && slices.Contains(headingTexts(p.Root), "2 Approach@1")
			if got != c.corrected {
				t.Fatalf("title %q, headings %v: corrected %v, want %v", p.Title, headingTexts(p.Root), got, c.corrected)
			}
		})
	}
	if _, err := l.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	refs, _ := l.PapersWithRefs(ctx)
	if len(refs) != 2 {
		t.Fatalf("%d papers after prune", len(refs))
	}
}
