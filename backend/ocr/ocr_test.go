package ocr

import (
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
)

// A tesseract TSV of a 1275x1650 image (a letter page at 150 dpi): a
// heading line and a body line, plus a speck tesseract does not believe.
const sampleTSV = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n" +
	"1\t1\t0\t0\t0\t0\t0\t0\t1275\t1650\t-1\t\n" +
	"4\t1\t1\t1\t1\t0\t150\t220\t380\t20\t-1\t\n" +
	"5\t1\t1\t1\t1\t1\t150\t220\t14\t20\t96\t1\n" +
	"5\t1\t1\t1\t1\t2\t230\t220\t300\t20\t95\tIntroduction\n" +
	"4\t1\t1\t2\t1\t0\t150\t316\t900\t19\t-1\t\n" +
	"5\t1\t1\t2\t1\t1\t150\t316\t30\t14\t93\tWe\n" +
	"5\t1\t1\t2\t1\t2\t190\t316\t55\t19\t91\tstudy\n" +
	"5\t1\t1\t2\t1\t3\t255\t320\t50\t10\t90\tscans\n" +
	"5\t1\t1\t2\t1\t4\t600\t310\t20\t10\t3\t~\n"

func TestParseTSV(t *testing.T) {
	runs, err := ParseTSV([]byte(sampleTSV), 612, 792)
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, r := range runs {
		words = append(words, r.Text)
	}
	if got := strings.Join(words, " "); got != "1 Introduction We study scans" {
		t.Fatalf("words %q (the low-confidence speck must be dropped)", got)
	}
	k := 612.0 / 1275
	if math.Abs(runs[1].X-230*k) > 0.01 || math.Abs(runs[1].W-300*k) > 0.01 {
		t.Errorf("Introduction at x=%.2f w=%.2f, want %.2f %.2f (pixels scaled to points)", runs[1].X, runs[1].W, 230*k, 300*k)
	}
	// One baseline per line: the bottom of the words without descenders.
	if runs[0].Y != runs[1].Y || math.Abs(runs[1].Y-240*k) > 0.01 {
		t.Errorf("heading baselines %.2f %.2f, want %.2f", runs[0].Y, runs[1].Y, 240*k)
	}
	if runs[2].Y != runs[3].Y || runs[2].Y != runs[4].Y || math.Abs(runs[2].Y-330*k) > 0.01 {
		t.Errorf("body baselines %.2f %.2f %.2f, want %.2f", runs[2].Y, runs[3].Y, runs[4].Y, 330*k)
	}
	// The heading's letters are larger than the body's.
	if !(runs[1].Size > runs[2].Size) || runs[2].Size < 8 || runs[2].Size > 14 {
		t.Errorf("sizes: heading %.1f, body %.1f", runs[1].Size, runs[2].Size)
	}
	for _, r := range runs {
		if r.Font != Font || r.X < 0 || r.X+r.W > 612 || r.Y <= 0 || r.Y > 792 {
			t.Errorf("run %+v outside the page or not marked as OCR", r)
		}
	}
}

func TestParseTSVEmptyPage(t *testing.T) {
	runs, err := ParseTSV([]byte("level\tpage_num\n1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t\n"), 612, 792)
	if err != nil || len(runs) != 0 {
		t.Fatalf("runs %v, err %v", runs, err)
	}
}

func TestSnapSizes(t *testing.T) {
	pages := map[int][]pdf.Run{
		1: {{Text: "Title words here", Size: 17}, {Text: "body text of the paper", Size: 10}, {Text: "more body", Size: 10.5}, {Text: "CAPS LINE", Size: 9}},
		2: {{Text: "body text again and again", Size: 11}, {Text: "a footnote", Size: 7}},
	}
	if body := SnapSizes(pages, 0); body != 10 && body != 10.5 {
		t.Fatalf("body %.1f", body)
	}
	got := []float64{pages[1][0].Size, pages[1][1].Size, pages[1][2].Size, pages[1][3].Size, pages[2][0].Size, pages[2][1].Size}
	b := pages[1][1].Size
	want := []float64{17, b, b, b, b, 7}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("sizes %v, want %v", got, want)
		}
	}
}

func TestLangs(t *testing.T) {
	for in, want := range map[string]string{"": "eng", " eng ": "eng", "eng+deu": "eng+deu", "eng, deu": "eng+deu", "eng++fra": "eng+fra"} {
		if got := Langs(in); got != want {
			t.Errorf("Langs(%q) = %q, want %q", in, got, want)
		}
	}
}

// Without tesseract on PATH, OCR says what to install, and a document
// with usable text keeps it with a warning instead of failing.
func TestMissingTesseract(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	ctx := context.Background()
	err := Check(ctx, "eng")
	if papertree.ErrorCode(err) != papertree.ENoText || !strings.Contains(papertree.ErrorMessage(err), "install tesseract-ocr") {
		t.Fatalf("Check without tesseract: %v", err)
	}
	// A scan: no text at all.
	f, size := openFixture(t, "../pdf/testdata/imageonly.pdf")
	_, perr := pdf.Parse(ctx, f, size, pdf.Options{})
	_, _, err = Apply(ctx, f.Name(), f, size, pdf.Options{}, nil, perr, Config{}, Hooks{})
	if papertree.ErrorCode(err) != papertree.ENoText || papertree.ErrorMessage(err) != MissingMessage {
		t.Fatalf("scan without tesseract: %v (%s)", err, papertree.ErrorMessage(err))
	}
	// Garbled fonts: said as such, with what to install.
	garbled := &pdf.Document{Garbled: true, Pages: []pdf.Page{{Number: 1, Width: 612, Height: 792, Runs: invisibleRuns("x y z")}}}
	if _, _, err := Apply(ctx, "g.pdf", nil, 0, pdf.Options{}, garbled, nil, Config{}, Hooks{}); papertree.ErrorCode(err) != papertree.EGarbled ||
		!strings.Contains(papertree.ErrorMessage(err), "install tesseract-ocr") {
		t.Errorf("garbled PDF without tesseract: %v", err)
	}
	// Text with one empty page among OCR-layer pages: kept, with a warning.
	doc := &pdf.Document{Pages: []pdf.Page{
		{Number: 1, Width: 612, Height: 792, Runs: invisibleRuns("The method reads every page of the paper and keeps the words it finds there in order.")},
		{Number: 2, Width: 612, Height: 792},
	}}
	got, out, err := Apply(ctx, "x.pdf", nil, 0, pdf.Options{}, doc, nil, Config{}, Hooks{})
	if err != nil || got != doc || out.Pages != 0 || len(out.Warnings) != 1 || !strings.Contains(out.Warnings[0], "not installed") {
		t.Fatalf("text PDF without tesseract: doc kept %v, outcome %+v, err %v", got == doc, out, err)
	}
}

func invisibleRuns(text string) []pdf.Run {
	var rs []pdf.Run
	for i, w := range strings.Fields(text) {
		rs = append(rs, pdf.Run{Text: w, Font: "F", Size: 10, X: float64(72 + 30*(i%12)), Y: float64(100 + 12*(i/12)), W: 25, Invisible: true})
	}
	return rs
}

func openFixture(t *testing.T, path string) (*os.File, int64) {
	t.Helper()
	f, size, err := pdf.OpenRegular(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f, size
}

// needTools skips when the OCR tools (and img2pdf, to make scans) are
// not installed; CI has them through make deps.
func needTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"tesseract", "pdftoppm", "img2pdf"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping: %s is not installed (make deps installs it)", tool)
		}
	}
}

// makeScan turns a text PDF into an image-only one the way a scanner
// would: every page rendered to a grey image at dpi, the images put back
// into a PDF of the same page size.
func makeScan(t *testing.T, src string, dpi int) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("pdftoppm", "-r", strconv.Itoa(dpi), "-gray", "-png", src, filepath.Join(dir, "p")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v: %s", err, out)
	}
	imgs, _ := filepath.Glob(filepath.Join(dir, "p*.png"))
	dst := filepath.Join(dir, "scan.pdf")
	args := append(imgs, "-o", dst)
	if out, err := exec.Command("img2pdf", args...).CombinedOutput(); err != nil {
		t.Fatalf("img2pdf: %v: %s", err, out)
	}
	return dst
}

// Cancelling the context stops OCR at once: the running tesseract is
// killed and Pages returns ECanceled instead of finishing the pages.
func TestPagesCancel(t *testing.T) {
	needTools(t)
	scan := makeScan(t, "../pdf/testdata/twocolumn.pdf", 150)
	ctx, cancel := context.WithCancel(context.Background())
	pages := []Page{{1, 612, 792}, {2, 612, 792}, {1, 612, 792}, {2, 612, 792}, {1, 612, 792}, {2, 612, 792}}
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	start := time.Now()
	slots := make(chan struct{}, 1) // shared by a library's files
	_, err := Pages(ctx, scan, pages, Options{Slots: slots}, nil)
	if papertree.ErrorCode(err) != papertree.ECanceled || !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want ECanceled", err)
	}
	if len(slots) != 0 {
		t.Errorf("%d shared slots kept after the cancel", len(slots))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancel took %s to act", d)
	}
}

// A page over its time limit is reported as failed, not as the file's
// error, and the other pages still count.
func TestPagesTimeLimit(t *testing.T) {
	needTools(t)
	scan := makeScan(t, "../pdf/testdata/twocolumn.pdf", 150)
	res, err := Pages(context.Background(), scan, []Page{{1, 612, 792}}, Options{PageTimeout: time.Millisecond}, nil)
	if err != nil || len(res.Failed) != 1 || !strings.Contains(res.FailReason, "longer than") {
		t.Fatalf("res %+v, err %v", res, err)
	}
}

// A file with more pages to read than MaxPages is refused before any
// page is rendered (a PDF of thousands of blank pages must not cost hours).
func TestPagesMaxPages(t *testing.T) {
	if err := Check(context.Background(), "eng"); err != nil {
		t.Skipf("skipping: %v", err)
	}
	pages := []Page{{1, 612, 792}, {2, 612, 792}, {3, 612, 792}}
	_, err := Pages(context.Background(), "/nonexistent.pdf", pages, Options{MaxPages: 2}, nil)
	if papertree.ErrorCode(err) != papertree.ETooLarge {
		t.Fatalf("err %v, want ETooLarge", err)
	}
}
