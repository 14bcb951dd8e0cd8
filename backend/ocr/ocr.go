// Package ocr reads the words of scanned pages with the tesseract command
// line tool, for PDFs that have no text layer or one too poor to trust.
//
// Data flow, one page at a time:
//
//	PDF page --pdftoppm (-r DPI -gray -cropbox)--> PGM --tesseract ... tsv-->
//	words with pixel boxes, grouped by block/paragraph/line --> pdf.Run in
//	PDF points (top-left origin, y down: the same space as the runs that
//	backend/pdf reads from a text layer) --> treebuild, unchanged.
//
// Why the CLI and its TSV output rather than a cgo binding: the tesseract
// and poppler libraries stay out of the PaperTree binary (no cgo build
// dependency, nothing to ship when OCR is not wanted), a crash or a runaway
// page costs one child process and never the app, and every page runs under
// its own time and memory limit and dies with the job's context. TSV gives
// the word boxes with their line membership, which is all the tree builder
// needs; hOCR would add nothing it uses.
//
// Invariants:
//   - At most Options.Workers tesseract processes run at once for one call,
//     each single-threaded (OMP_THREAD_LIMIT=1), each under
//     Options.PageTimeout and, where prlimit exists, an address-space limit.
//   - Cancelling ctx kills the running children (their whole process
//     group) and Pages returns a coded ECanceled error.
//   - One file reads at most Options.MaxPages pages within Options.Timeout
//     (a PDF of 3,000 blank pages must not cost hours).
//   - A page that fails (time limit, tesseract error) is left empty and
//     counted in Result.Failed; the other pages still count. Missing tools
//     fail the call with ENoText and a message that says what to install.
package ocr

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
)

// Options bound and configure OCR. Zero fields take the defaults.
type Options struct {
	Languages   string        // tesseract language codes joined by '+' (default "eng")
	DPI         int           // rendering resolution (default 300)
	PageTimeout time.Duration // time limit for rendering and reading one page (default 60s)
	Workers     int           // tesseract processes at once (default 2)
	MemoryMB    int           // address-space limit of each child in MB (default 1024; <0: none)
	MaxPages    int           // pages of one file read at most (default 500): a longer scan is refused
	Timeout     time.Duration // time limit for all pages of one file (default 20 min)
	// Slots, when set, is shared by several calls (the files of an index
	// job read in parallel): one slot per tesseract process, so Workers is
	// a limit for the whole library, not per file. nil: Workers per call.
	Slots chan struct{}
	// OnPage, when set, is given each page read (its words; none for a
	// page without words) as soon as it is read, also when the file's time
	// runs out later (never concurrently). Failed pages are not given.
	OnPage func(page int, runs []pdf.Run)
}

// CacheVersion is the version of what Pages reads from a page (rendering,
// tesseract's settings, ParseTSV): a reading kept by an older version is
// read again. Change it with any of them.
const CacheVersion = "1"

// Defaults of Options.
const (
	DefaultLanguages   = "eng"
	DefaultDPI         = 300
	DefaultPageTimeout = 60 * time.Second
	DefaultWorkers     = 2
	DefaultMemoryMB    = 1024
	DefaultMaxPages    = 500
	DefaultTimeout     = 20 * time.Minute
)

// Font is the font name of the runs OCR produces.
const Font = "OCR"

func (o Options) withDefaults() Options {
	o.Languages = Langs(o.Languages)
	if o.DPI <= 0 {
		o.DPI = DefaultDPI
	}
	if o.PageTimeout <= 0 {
		o.PageTimeout = DefaultPageTimeout
	}
	if o.Workers <= 0 {
		o.Workers = DefaultWorkers
	}
	if o.MemoryMB == 0 {
		o.MemoryMB = DefaultMemoryMB
	}
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultMaxPages
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	return o
}

// Page is one page to read: its 1-based number and its size in points
// (after /Rotate, as backend/pdf reports it).
type Page struct {
	Number        int
	Width, Height float64
}

// Result is the outcome of Pages.
type Result struct {
	Runs   map[int][]pdf.Run // by page number; a page with no words is absent
	Failed []int             // pages that could not be read (time limit, tool error)
	// FailReason is the first failed page's reason, in plain words.
	FailReason string
}

// Tools names the programs OCR runs; tests point them elsewhere.
type Tools struct {
	Tesseract, Pdftoppm string
}

var (
	toolsMu    sync.Mutex
	toolsCache map[string]checked // by PATH + languages
)

// checked is a cached Check answer; a failure is asked again after a
// minute, so that installing tesseract while the app runs takes effect.
type checked struct {
	err error
	at  time.Time
}

// MissingMessage is the reason shown for a scan when OCR is not installed.
const MissingMessage = "This PDF is a scan and OCR is not installed: install tesseract-ocr (and poppler-utils for pdftoppm), or run make deps."

// Check reports whether OCR can run with langs: tesseract and pdftoppm on
// PATH and every language installed. The answer is cached per PATH and
// languages (a failure for a minute). Errors are ENoText with a message
// that says what to install.
func Check(ctx context.Context, langs string) error {
	langs = Options{Languages: langs}.withDefaults().Languages
	key := os.Getenv("PATH") + "\x00" + langs
	toolsMu.Lock()
	if c, ok := toolsCache[key]; ok && (c.err == nil || time.Since(c.at) < time.Minute) {
		toolsMu.Unlock()
		return c.err
	}
	toolsMu.Unlock()
	err := check(ctx, langs)
	if ctx.Err() != nil {
		return err // not cached: the answer is unknown
	}
	toolsMu.Lock()
	if toolsCache == nil {
		toolsCache = map[string]checked{}
	}
	toolsCache[key] = checked{err, time.Now()}
	toolsMu.Unlock()
	return err
}

func check(ctx context.Context, langs string) error {
	for _, t := range []string{"tesseract", "pdftoppm"} {
		if _, err := exec.LookPath(t); err != nil {
			return &papertree.Error{Code: papertree.ENoText, Message: MissingMessage, Op: "ocr", Err: err}
		}
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(cctx, "tesseract", "--list-langs").CombinedOutput()
	if err != nil {
		return &papertree.Error{Code: papertree.ENoText, Message: "This PDF is a scan and OCR cannot run: tesseract does not start (" + firstLine(out) + ").", Op: "ocr", Err: err}
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	var missing []string
	for _, l := range strings.Split(langs, "+") {
		if l = strings.TrimSpace(l); l != "" && !have[l] {
			missing = append(missing, l)
		}
	}
	if len(missing) > 0 {
		return &papertree.Error{Code: papertree.ENoText, Op: "ocr",
			Message: fmt.Sprintf("This PDF is a scan and the OCR language %s is not installed: install tesseract-ocr-%s or change the OCR languages in Settings.", strings.Join(missing, ", "), missing[0])}
	}
	return nil
}

func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 160 {
		s = s[:160]
	}
	if s == "" {
		return "no output"
	}
	return s
}

// Pages reads the words of pages of the PDF at path. progress, when set,
// is called after each page (done of total; never concurrently). The
// error is non-nil only when OCR cannot run at all (tools missing: ENoText)
// or ctx ends (ECanceled / ETimeout); a page that fails is listed in
// Result.Failed.
func Pages(ctx context.Context, path string, pages []Page, opts Options, progress func(done, total int)) (Result, error) {
	opts = opts.withDefaults()
	res := Result{Runs: map[int][]pdf.Run{}}
	if len(pages) == 0 {
		return res, nil
	}
	if err := Check(ctx, opts.Languages); err != nil {
		return res, err
	}
	if len(pages) > opts.MaxPages {
		return res, &papertree.Error{Code: papertree.ETooLarge, Op: "ocr",
			Message: fmt.Sprintf("This scan has %d pages to read with OCR; the limit is %d pages a file.", len(pages), opts.MaxPages)}
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "papertree-ocr-*")
	if err != nil {
		return res, papertree.Wrap(err, papertree.EInternal, "OCR needs a temporary folder and none can be created.")
	}
	defer os.RemoveAll(dir)

	var mu sync.Mutex
	done := 0
	sem := opts.Slots
	if sem == nil {
		sem = make(chan struct{}, opts.Workers)
	}
	var wg sync.WaitGroup
	for _, pg := range pages {
		if ctx.Err() != nil {
			break
		}
		acquired := false
		select {
		case sem <- struct{}{}:
			acquired = true
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			if acquired {
				<-sem // the slots may be shared: never keep one
			}
			break
		}
		wg.Add(1)
		go func(pg Page) {
			defer wg.Done()
			defer func() { <-sem }()
			runs, perr := readPage(ctx, path, dir, pg, opts)
			mu.Lock()
			defer mu.Unlock()
			if perr == nil && opts.OnPage != nil {
				opts.OnPage(pg.Number, runs) // a whole page, even if the file's time ends now
			}
			if ctx.Err() != nil {
				return
			}
			if perr != nil {
				res.Failed = append(res.Failed, pg.Number)
				if res.FailReason == "" {
					res.FailReason = perr.Error()
				}
			} else if len(runs) > 0 {
				res.Runs[pg.Number] = runs
			}
			done++
			if progress != nil {
				progress(done, len(pages))
			}
		}(pg)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return res, papertree.Wrap(err, papertree.ETimeout, fmt.Sprintf("Reading the scanned pages took longer than %s, the OCR time limit per file, so the file was skipped.", opts.Timeout))
		}
		return res, papertree.Wrap(err, papertree.ECanceled, "OCR was cancelled.")
	}
	sort.Ints(res.Failed)
	return res, nil
}

// readPage renders one page and reads its words.
func readPage(ctx context.Context, path, dir string, pg Page, o Options) ([]pdf.Run, error) {
	pctx, cancel := context.WithTimeout(ctx, o.PageTimeout)
	defer cancel()
	base := filepath.Join(dir, "p"+strconv.Itoa(pg.Number))
	// An uncompressed grey image (PGM): writing and decoding PNG cost
	// 1.4 of a page's 3.5 CPU seconds. PGM carries no resolution, so
	// tesseract is told it (else it guesses, and reads differently).
	img := base + ".pgm"
	defer os.Remove(img)
	n, dpi := strconv.Itoa(pg.Number), strconv.Itoa(o.DPI)
	if _, err := run(pctx, o, "pdftoppm", "-r", dpi, "-gray", "-cropbox", "-f", n, "-l", n, "-singlefile", path, base); err != nil {
		return nil, pageError(pctx, pg.Number, "pdftoppm", o.PageTimeout, err)
	}
	out, err := run(pctx, o, "tesseract", img, "-", "--dpi", dpi, "--psm", "1", "-l", o.Languages, "tsv")
	if err != nil {
		return nil, pageError(pctx, pg.Number, "tesseract", o.PageTimeout, err)
	}
	return ParseTSV(out, pg.Width, pg.Height)
}

func pageError(ctx context.Context, page int, tool string, limit time.Duration, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("page %d took longer than %s", page, limit)
	}
	return fmt.Errorf("page %d: %s failed: %w", page, tool, err)
}

// run runs one tool under ctx, single-threaded, in its own process group
// (killed whole when ctx ends), under the memory limit where prlimit is
// available. It returns the standard output.
func run(ctx context.Context, o Options, name string, args ...string) ([]byte, error) {
	if o.MemoryMB > 0 {
		if pl, err := exec.LookPath("prlimit"); err == nil {
			args = append([]string{"--as=" + strconv.Itoa(o.MemoryMB<<20), "--", name}, args...)
			name = pl
		}
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	ownGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %s", err, firstLine(stderr.Bytes()))
	}
	return stdout.Bytes(), nil
}

// tsvWord is one word row of tesseract's TSV output.
type tsvWord struct {
	key              [3]int // block, paragraph, line
	left, top, w, h  float64
	conf             float64
	text             string
	hasAsc, hasDesc  bool
	letters, nonWord int
}

// minConf drops words tesseract itself does not believe (specks, picture
// texture read as "b78t.w"); a real word it is unsure of scores above it.
// minLineConf drops a whole line whose words average below it: the
// letterhead rule of a memo's cover sheet read as "aaa TSS hha UY" (30-42, mean 38)
// became its title. Text lines of the development scans average over 80.
const (
	minConf     = 20
	minLineConf = 40
)

// ParseTSV turns tesseract's TSV output for one page image into runs in
// PDF points for a page of w x h points: one run per word, every word of a
// tesseract line on the line's baseline with the line's font size.
func ParseTSV(tsv []byte, pageW, pageH float64) ([]pdf.Run, error) {
	var imgW, imgH float64
	var words []tsvWord
	sc := bufio.NewScanner(bytes.NewReader(tsv))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 12 || f[0] == "level" {
			continue
		}
		num := func(i int) float64 { v, _ := strconv.ParseFloat(f[i], 64); return v }
		switch f[0] {
		case "1":
			imgW, imgH = num(8), num(9)
		case "5":
			text := strings.TrimSpace(f[11])
			if text == "" || num(10) < minConf {
				continue
			}
			w := tsvWord{key: [3]int{int(num(2)), int(num(3)), int(num(4))},
				left: num(6), top: num(7), w: num(8), h: num(9), conf: num(10), text: text}
			classify(&w)
			words = append(words, w)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read tesseract output: %w", err)
	}
	if imgW <= 0 || imgH <= 0 {
		if len(words) == 0 {
			return nil, nil
		}
		return nil, errors.New("tesseract output has no page size")
	}
	sx, sy := pageW/imgW, pageH/imgH
	var runs []pdf.Run
	for i := 0; i < len(words); {
		j := i
		conf := 0.0
		for j < len(words) && words[j].key == words[i].key {
			conf += words[j].conf
			j++
		}
		if conf/float64(j-i) >= minLineConf {
			runs = append(runs, lineRuns(words[i:j], sx, sy)...)
		}
		i = j
	}
	return runs, nil
}

// classify notes which parts of the em box a word's letters reach, so
// its height can be turned into a font size.
func classify(w *tsvWord) {
	for _, r := range w.text {
		switch {
		case strings.ContainsRune("gjpqy", r):
			w.hasDesc = true
			w.letters++
		case unicode.IsUpper(r), unicode.IsDigit(r), strings.ContainsRune("bdfhklt", r):
			w.hasAsc = true
			w.letters++
		case strings.ContainsRune("()[]{}|", r):
			w.hasAsc, w.hasDesc = true, true
		case unicode.IsLetter(r):
			w.letters++
		default:
			w.nonWord++
		}
	}
}

// emShare is the share of the font size a word's box spans: ascender to
// descender, x-height only, and the cases between (Times-like fonts).
func emShare(w tsvWord) float64 {
	switch {
	case w.hasAsc && w.hasDesc:
		return 0.92
	case w.hasAsc:
		return 0.70
	case w.hasDesc:
		return 0.68
	}
	return 0.47
}

// lineRuns makes the runs of one tesseract line: font size the median of
// its words' estimates, baseline the median bottom of its words without
// descenders (or the bottom less a descender when all have one).
func lineRuns(ws []tsvWord, sx, sy float64) []pdf.Run {
	var sizes, bases []float64
	for _, w := range ws {
		if w.letters >= 2 {
			sizes = append(sizes, w.h*sy/emShare(w))
		}
		if !w.hasDesc && w.letters > 0 {
			bases = append(bases, (w.top+w.h)*sy)
		}
	}
	if len(sizes) == 0 {
		for _, w := range ws {
			sizes = append(sizes, w.h*sy/emShare(w))
		}
	}
	size := median(sizes)
	var base float64
	if len(bases) > 0 {
		base = median(bases)
	} else {
		var bottoms []float64
		for _, w := range ws {
			bottoms = append(bottoms, (w.top+w.h)*sy)
		}
		base = median(bottoms) - 0.2*size
	}
	size = math.Round(size*2) / 2
	if size < 1 {
		size = 1
	}
	// Text set vertically (the arXiv stamp up the margin) reads as a line
	// much taller than wide: marked Rotated, as backend/pdf marks it in a
	// text layer, so that the tree builder leaves it out of the body.
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	chars := 0
	for _, w := range ws {
		x0, y0 = math.Min(x0, w.left), math.Min(y0, w.top)
		x1, y1 = math.Max(x1, w.left+w.w), math.Max(y1, w.top+w.h)
		chars += len([]rune(w.text))
	}
	rotated := chars > 1 && (y1-y0)*sy > 2*(x1-x0)*sx
	out := make([]pdf.Run, 0, len(ws))
	for _, w := range ws {
		out = append(out, pdf.Run{Text: w.text, Font: Font, Size: size, Rotated: rotated,
			X: round2(w.left * sx), Y: round2(base), W: round2(w.w * sx)})
	}
	return out
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// SnapSizes evens out the font sizes of OCR runs across a document. Size
// estimates from letter heights scatter by 10-15% (a line of capitals or of
// short words measures differently), which the tree builder would read as
// headings, or as headings of different levels. Sizes are clustered by
// characters: the body size (the size with the most characters, counting
// its half-point neighbours) takes every size within 15% of it, then each
// remaining size, most characters first, takes the sizes within 10% (not
// more: a title at 14.5 pt over its authors at 13 pt must stay apart, so
// a two-line title measured 13 and 14.5 pt loses a line).
// body, when positive, is the size to snap the body to (that of the pages
// that kept their text layer, so OCR pages match them). It returns the
// body size used.
func SnapSizes(pages map[int][]pdf.Run, body float64) float64 {
	chars := map[float64]int{}
	for _, runs := range pages {
		for _, r := range runs {
			if !r.Rotated {
				chars[r.Size] += len([]rune(r.Text))
			}
		}
	}
	if len(chars) == 0 {
		return body
	}
	sizes := make([]float64, 0, len(chars))
	for s := range chars {
		sizes = append(sizes, s)
	}
	weight := func(s float64) int { return chars[s] + chars[s-0.5] + chars[s+0.5] }
	sort.Slice(sizes, func(i, j int) bool {
		if wi, wj := weight(sizes[i]), weight(sizes[j]); wi != wj {
			return wi > wj
		}
		return sizes[i] < sizes[j]
	})
	center := sizes[0]
	if body <= 0 {
		body = center
	}
	to := map[float64]float64{}
	for _, s := range sizes {
		if math.Abs(s-center) <= 0.15*center {
			to[s] = body
		}
	}
	for _, c := range sizes {
		if _, done := to[c]; done {
			continue
		}
		for _, s := range sizes {
			if _, done := to[s]; !done && math.Abs(s-c) <= 0.10*c {
				to[s] = c
			}
		}
	}
	for _, runs := range pages {
		for i := range runs {
			if s, ok := to[runs[i].Size]; ok && !runs[i].Rotated {
				runs[i].Size = s
			}
		}
	}
	return body
}
