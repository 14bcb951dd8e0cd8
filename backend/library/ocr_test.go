package library

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/ocr"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/treebuild"
)

// needOCRTools skips when tesseract, pdftoppm or img2pdf (used to make the
// scan) is not installed; CI has them through make deps.
func needOCRTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"tesseract", "pdftoppm", "img2pdf"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping: %s is not installed (make deps installs it)", tool)
		}
	}
}

// makeScan writes an image-only copy of the fixture name into dir as dst:
// each page rendered to a grey 150 dpi image, the images put back into a
// PDF of the same page size, as a scanner without OCR would. Generated in
// the test, never committed.
func makeScan(t *testing.T, name, dir, dst string) string {
	t.Helper()
	tmp := t.TempDir()
	if out, err := exec.Command("pdftoppm", "-r", "150", "-gray", "-png", filepath.Join(fixtures, name), filepath.Join(tmp, "p")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v: %s", err, out)
	}
	imgs, _ := filepath.Glob(filepath.Join(tmp, "p*.png"))
	path := filepath.Join(dir, dst)
	if out, err := exec.Command("img2pdf", append(imgs, "-o", path)...).CombinedOutput(); err != nil {
		t.Fatalf("img2pdf: %v: %s", err, out)
	}
	return path
}

func headingTitles(p *papertree.Paper) []string {
	var out []string
	for _, h := range papertree.Headings(p.Root) {
		out = append(out, strings.ToLower(h.Text))
	}
	return out
}

// An image-only PDF indexes with OCR: its title, headings and words come
// back like the text version's, its evidence boxes lie on the page, the
// list marks it, progress says "OCR page i of n", and indexing it again
// leaves it unchanged.
func TestIndexImageOnlyWithOCR(t *testing.T) {
	needOCRTools(t)
	dir := t.TempDir()
	copyFixture(t, "twocolumn.pdf", filepath.Join(dir, "text.pdf"))
	scan := makeScan(t, "twocolumn.pdf", dir, "scan.pdf")
	ctx := context.Background()
	lib, err := Open(ctx, Config{DBPath: filepath.Join(dir, "lib.db"), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	var mu sync.Mutex
	var ocrEvents []string
	sum, err := lib.Index(ctx, []string{dir}, func(ev Event) {
		if ev.Status == StatusOCR {
			mu.Lock()
			ocrEvents = append(ocrEvents, filepath.Base(ev.File)+": "+ev.Detail())
			mu.Unlock()
		}
	})
	if err != nil || sum.Indexed != 2 || len(sum.Failed) != 0 {
		t.Fatalf("index: %+v, %v", sum, err)
	}
	if got := strings.Join(ocrEvents, "; "); !strings.Contains(got, "scan.pdf: OCR page 2 of 2") || strings.Contains(got, "text.pdf") {
		t.Errorf("OCR progress events: %s", got)
	}
	text, err := lib.Paper(ctx, filepath.Join(dir, "text.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := lib.Paper(ctx, scan)
	if err != nil {
		t.Fatal(err)
	}
	if text.OCRPages != 0 || p.OCRPages != 2 {
		t.Errorf("OCR pages: text %d, scan %d; want 0 and 2", text.OCRPages, p.OCRPages)
	}
	if !strings.EqualFold(strings.Join(strings.Fields(p.Title), " "), strings.Join(strings.Fields(text.Title), " ")) {
		t.Errorf("title %q, want %q", p.Title, text.Title)
	}
	// The text version uses the PDF outline, which the scan has lost: its
	// headings come from the page images alone.
	got := strings.Join(headingTitles(p), " | ")
	for _, want := range []string{"abstract", "introduction", "method", "glyph grouping", "references"} {
		if !strings.Contains(got, want) {
			t.Errorf("headings %q lack %q (text version: %q)", got, want, strings.Join(headingTitles(text), " | "))
		}
	}
	var all strings.Builder
	boxes := 0
	p.Root.Walk(func(path []*papertree.Node) bool {
		n := path[len(path)-1]
		all.WriteString(n.Text + " ")
		for _, b := range n.Boxes {
			boxes++
			sz := p.PageSizes[b.Page-1]
			if b.X0 < 0 || b.Y0 < 0 || b.X1 > sz.W+0.5 || b.Y1 > sz.H+0.5 || b.X0 >= b.X1 || b.Y0 >= b.Y1 {
				t.Errorf("box %+v outside page %d (%.0fx%.0f)", b, b.Page, sz.W, sz.H)
			}
		}
		return true
	})
	if boxes == 0 {
		t.Error("no evidence boxes")
	}
	words := strings.ToLower(all.String())
	for _, w := range []string{"glyph", "reading order", "column"} {
		if !strings.Contains(words, w) {
			t.Errorf("OCR text lacks %q", w)
		}
	}
	list, _ := lib.Papers(ctx)
	for _, pi := range list {
		if want := map[bool]int{true: 2, false: 0}[pi.Path == scan]; pi.OCRPages != want {
			t.Errorf("list: %s has ocr_pages %d, want %d", filepath.Base(pi.Path), pi.OCRPages, want)
		}
	}
	sum, err = lib.Index(ctx, []string{dir}, nil)
	if err != nil || sum.Unchanged != 2 {
		t.Errorf("second index: %+v, %v (the OCR paper must stay unchanged)", sum, err)
	}
	// Other languages re-read exactly the OCR paper.
	lib.SetOCR(OCRConfig{Languages: "eng+osd"})
	if sum, err = lib.Index(ctx, []string{dir}, nil); err != nil || sum.Unchanged != 1 || sum.Indexed != 1 {
		t.Errorf("index after a language change: %+v, %v", sum, err)
	}
}

// OCR switched off: a scan fails as before (no text layer) and the rest
// of the folder indexes.
func TestIndexOCROff(t *testing.T) {
	needOCRTools(t)
	dir := t.TempDir()
	copyFixture(t, "twocolumn.pdf", filepath.Join(dir, "text.pdf"))
	makeScan(t, "twocolumn.pdf", dir, "scan.pdf")
	ctx := context.Background()
	lib, err := Open(ctx, Config{DBPath: filepath.Join(dir, "lib.db"), OCR: OCRConfig{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	sum, err := lib.Index(ctx, []string{dir}, nil)
	if err != nil || sum.Indexed != 1 || len(sum.Failed) != 1 || sum.Failed[0].Code != papertree.ENoText {
		t.Fatalf("index: %+v, %v", sum, err)
	}
}

// Without tesseract on PATH the scan fails with a message that says what
// to install, and the text PDF beside it indexes.
func TestIndexScanWithoutTesseract(t *testing.T) {
	dir := t.TempDir()
	copyFixture(t, "twocolumn.pdf", filepath.Join(dir, "text.pdf"))
	copyFixture(t, "imageonly.pdf", filepath.Join(dir, "scan.pdf"))
	t.Setenv("PATH", t.TempDir())
	ctx := context.Background()
	lib, err := Open(ctx, Config{DBPath: filepath.Join(dir, "lib.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	sum, err := lib.Index(ctx, []string{dir}, nil)
	if err != nil || sum.Indexed != 1 || len(sum.Failed) != 1 {
		t.Fatalf("index: %+v, %v", sum, err)
	}
	if f := sum.Failed[0]; filepath.Base(f.File) != "scan.pdf" || f.Code != papertree.ENoText || f.Error != ocr.MissingMessage {
		t.Errorf("failure %+v, want %q", f, ocr.MissingMessage)
	}
}

// Cancelling an index job during OCR stops it at once (the tesseract
// child is killed) and saves nothing half-read. No clock: tesseract is a
// wrapper that reads no page, it records its pid and sleeps for an hour, and
// the job is cancelled once it runs; Index can only return if the child is
// killed, and the child's pid must then be gone.
func TestIndexOCRCancel(t *testing.T) {
	needOCRTools(t)
	real, _ := exec.LookPath("tesseract")
	dir := t.TempDir()
	makeScan(t, "twocolumn.pdf", dir, "scan.pdf")
	bin, marker := t.TempDir(), filepath.Join(t.TempDir(), "pid")
	script := "#!/bin/sh\ncase \"$1\" in --list-langs|--version) exec " + real + " \"$@\";; esac\n" +
		"echo $$ > " + marker + ".tmp && mv " + marker + ".tmp " + marker + "\nexec sleep 3600\n"
	if err := os.WriteFile(filepath.Join(bin, "tesseract"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lib, err := Open(context.Background(), Config{DBPath: filepath.Join(dir, "lib.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	started := make(chan string, 1)
	go func() {
		for ctx.Err() == nil {
			if b, err := os.ReadFile(marker); err == nil {
				started <- strings.TrimSpace(string(b))
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	_, err = lib.Index(ctx, []string{dir}, nil)
	if papertree.ErrorCode(err) != papertree.ECanceled {
		t.Fatalf("err %v, want ECanceled", err)
	}
	var pid string
	select {
	case pid = <-started:
	default:
		t.Fatal("the job ended before tesseract ran")
	}
	if _, err := os.Stat("/proc/" + pid); err == nil {
		t.Errorf("tesseract (pid %s) still runs after Index returned", pid)
	}
	if list, _ := lib.Papers(context.Background()); len(list) != 0 {
		t.Errorf("a cancelled OCR saved %d papers", len(list))
	}
}

// What OCR did to a paper decides when it is read again: languages
// changed (OCR papers only), OCR switched on (papers that needed it and
// did not get it); a born-digital paper never.
func TestOCRFingerprint(t *testing.T) {
	l := &Library{}
	tests := []struct {
		name   string
		oc     ocr.Outcome
		now    OCRConfig
		stored func(fp string) string
		same   bool
	}{
		{"born-digital, OCR off", ocr.Outcome{}, OCRConfig{Off: true}, nil, true},
		{"OCR paper, same languages", ocr.Outcome{Pages: 3, Languages: "eng"}, OCRConfig{}, nil, true},
		{"OCR paper, other languages", ocr.Outcome{Pages: 3, Languages: "eng"}, OCRConfig{Languages: "eng+deu"}, nil, false},
		{"OCR paper, OCR now off: kept", ocr.Outcome{Pages: 3, Languages: "eng"}, OCRConfig{Off: true}, nil, true},
		{"skipped, still off", ocr.Outcome{Skipped: 2}, OCRConfig{Off: true}, nil, true},
		{"skipped, OCR now on", ocr.Outcome{Skipped: 2}, OCRConfig{}, nil, false},
		{"other settings", ocr.Outcome{Pages: 1}, OCRConfig{}, func(string) string { return "other+ocr:eng" }, false},
		{"pages OCR could not read: read again", ocr.Outcome{Pages: 3, Failed: 1, Languages: "eng"}, OCRConfig{}, nil, false},
		{"pages OCR could not read, OCR now off: kept", ocr.Outcome{Pages: 3, Failed: 1, Languages: "eng"}, OCRConfig{Off: true}, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stored := ocrFingerprint("fp", tc.oc)
			if tc.stored != nil {
				stored = tc.stored("fp")
			}
			l.SetOCR(tc.now)
			if got := l.sameSettings(stored, "fp", tc.oc.Pages); got != tc.same {
				t.Errorf("stored %q, now %+v: same = %v, want %v", stored, tc.now, got, tc.same)
			}
		})
	}
}

// The file's time limit stops while OCR runs and goes on afterwards with
// the time that was left.
func TestFileClockPause(t *testing.T) {
	c := newFileClock(context.Background(), 150*time.Millisecond)
	defer c.stop()
	resume := c.pause()
	time.Sleep(250 * time.Millisecond)
	if c.ctx.Err() != nil {
		t.Fatal("the time limit ran out while paused")
	}
	resume()
	select {
	case <-c.ctx.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("the time limit did not run out after the pause")
	}
	// Without a limit nothing ever runs out.
	n := newFileClock(context.Background(), 0)
	n.pause()()
	if n.ctx.Err() != nil {
		t.Error("a clock without a limit ran out")
	}
	n.stop()
}

// A scan read again (other settings: here another segment size) takes its
// pages' words from the library's OCR cache: tesseract does not run, and
// the paper's text is the same. Another language reads it again.
func TestOCRReadingIsKept(t *testing.T) {
	needOCRTools(t)
	dir := t.TempDir()
	scan := makeScan(t, "twocolumn.pdf", dir, "scan.pdf")
	ctx := context.Background()
	db := filepath.Join(dir, "lib.db")
	index := func(cfg Config, ocrCfg OCRConfig) (events int, text string) {
		t.Helper()
		cfg.DBPath = db
		lib, err := Open(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer lib.Close()
		lib.SetOCR(ocrCfg)
		var mu sync.Mutex
		sum, err := lib.Index(ctx, []string{scan}, func(ev Event) {
			if ev.Status == StatusOCR {
				mu.Lock()
				events++
				mu.Unlock()
			}
		})
		if err != nil || sum.Indexed != 1 {
			t.Fatalf("index: %+v, %v", sum, err)
		}
		p, err := lib.Paper(ctx, scan)
		if err != nil {
			t.Fatal(err)
		}
		if p.OCRPages != 2 {
			t.Errorf("OCR pages %d, want 2", p.OCRPages)
		}
		var all strings.Builder
		p.Root.Walk(func(path []*papertree.Node) bool {
			all.WriteString(path[len(path)-1].Text + " ")
			return true
		})
		return events, strings.Join(strings.Fields(all.String()), " ")
	}
	tree := treebuild.DefaultOptions()
	first, text := index(Config{Tree: tree}, OCRConfig{})
	if first == 0 {
		t.Fatal("the first reading ran no OCR")
	}
	tree.MaxSegmentTokens = 300
	again, text2 := index(Config{Tree: tree}, OCRConfig{})
	if again != 0 {
		t.Errorf("read again with other settings: %d OCR events, want none (the cache)", again)
	}
	if text2 != text {
		t.Errorf("the text changed when read from the cache:\n%s\nvs\n%s", text2, text)
	}
	if other, _ := index(Config{Tree: tree}, OCRConfig{Languages: "eng+osd"}); other == 0 {
		t.Error("another language did not run OCR")
	}
}
