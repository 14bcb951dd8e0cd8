package library

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/papertree/papertree/backend/ocr"
	"github.com/papertree/papertree/backend/pdf"
	"github.com/papertree/papertree/backend/store"
)

// StatusOCR is the indexing state of a file whose scanned pages are being
// read by OCR; Event.OCRPage and Event.OCRPages say how far it is.
const StatusOCR FileStatus = "OCR"

// Detail is the event's status in words for a progress line: "OCR page 3
// of 12" while OCR runs, else the status.
func (e Event) Detail() string {
	if e.Status == StatusOCR && e.OCRPages > 0 {
		return fmt.Sprintf("OCR page %d of %d", e.OCRPage, e.OCRPages)
	}
	return string(e.Status)
}

// OCRConfig switches OCR on or off and picks its languages. The zero value
// is OCR on, in English.
type OCRConfig = ocr.Config

// ocrState is the library's OCR configuration (changed by SetOCR while a
// job may run) and the slots shared by all files of all jobs, so that at
// most ocrSlots tesseract processes run at once whatever the number of
// files read in parallel.
type ocrState struct {
	mu    sync.Mutex
	cfg   OCRConfig
	slots chan struct{}
}

func (s *ocrState) get() OCRConfig {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg
}

// ocrSlots is how many tesseract processes run at once in one library: two
// (each single-threaded), never more than the CPUs.
func ocrSlots() int { return max(1, min(ocr.DefaultWorkers, runtime.NumCPU())) }

// SetOCR changes the OCR configuration; files started after it use it.
func (l *Library) SetOCR(c OCRConfig) {
	l.ocr.mu.Lock()
	l.ocr.cfg = c
	l.ocr.mu.Unlock()
}

// OCR returns the OCR configuration.
func (l *Library) OCR() OCRConfig { return l.ocr.get() }

// ocrFingerprint is the fingerprint of a paper given what OCR did to it:
// fp for a paper that needed none; marked with the languages when some of
// its text came from OCR (changing them re-reads exactly those papers);
// marked as skipped when it needed OCR and did not get it (OCR off or not
// installed), so that switching OCR on re-reads it.
func ocrFingerprint(fp string, oc ocr.Outcome) string {
	switch {
	case oc.Pages > 0 && oc.Failed > 0:
		return fp + "+ocr:" + ocr.Langs(oc.Languages) + ocrIncomplete
	case oc.Pages > 0:
		return fp + "+ocr:" + ocr.Langs(oc.Languages)
	case oc.Skipped > 0:
		return fp + ocrSkipped
	}
	return fp
}

const ocrSkipped = "+ocr-skipped"

// ocrIncomplete marks a paper some of whose pages OCR could not read (a
// page over its time limit on a loaded machine, a tool that failed): its
// text is incomplete for a reason that may pass, so the next index reads it
// again, and the OCR cache makes that cost only the missing pages.
const ocrIncomplete = "+incomplete"

// sameSettings reports whether a paper stored with fingerprint stored
// (and OCR text on ocrPages pages) was indexed with the job's settings fp.
// A paper read with OCR stays unchanged while OCR is off: its text is the
// best there is, and reading it again without OCR would lose it.
func (l *Library) sameSettings(stored, fp string, ocrPages int) bool {
	c := l.ocr.get()
	switch {
	case stored == fp:
		return true
	case stored == fp+ocrSkipped:
		return c.Off
	case ocrPages == 0:
		return false
	case c.Off:
		return strings.HasPrefix(stored, fp+"+ocr:")
	}
	return stored == fp+"+ocr:"+ocr.Langs(c.Languages)
}

// withOCR is ocr.Apply with the library's configuration, its shared
// tesseract slots, and progress reported as StatusOCR events.
func (l *Library) withOCR(ctx context.Context, path, hash string, f io.ReaderAt, size int64, doc *pdf.Document, perr error,
	pause func() func(), emit func(Event)) (*pdf.Document, ocr.Outcome, error) {
	cfg := l.ocr.get()
	return ocr.Apply(ctx, path, f, size, l.cfg.PDF, doc, perr, cfg, ocr.Hooks{
		Slots: l.ocr.slots,
		Pause: pause,
		Cache: &ocrCache{ctx: ctx, st: l.store, key: store.OCRKey{Hash: hash, Langs: ocr.Langs(cfg.Languages), Version: ocr.CacheVersion}},
		Progress: func(done, total int) {
			emit(Event{File: path, Status: StatusOCR, OCRPage: done, OCRPages: total})
		},
	})
}

// fileClock is a file's time limit that can be paused: reading and tree
// building count, OCR (bounded per page) does not.
type fileClock struct {
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	timer  *time.Timer
	left   time.Duration
	start  time.Time
}

// newFileClock returns a context cancelled once limit has run out (limit
// <= 0: never).
func newFileClock(ctx context.Context, limit time.Duration) *fileClock {
	c := &fileClock{}
	c.ctx, c.cancel = context.WithCancel(ctx)
	if limit > 0 {
		c.left, c.start = limit, time.Now()
		c.timer = time.AfterFunc(limit, c.cancel)
	}
	return c
}

// pause stops the clock; the returned function restarts it with the time
// that was left.
func (c *fileClock) pause() func() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer == nil || !c.timer.Stop() {
		return func() {}
	}
	c.left -= time.Since(c.start)
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.start = time.Now()
		c.timer = time.AfterFunc(max(c.left, time.Millisecond), c.cancel)
	}
}

// expired reports whether the running time (pauses excluded) has used up
// the limit. The timer cancels the context as soon as it fires, but a file
// read quicker than the timer goroutine is scheduled would pass unnoticed;
// measuring keeps the limit a fact rather than a race.
func (c *fileClock) expired() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer == nil {
		return false // no limit
	}
	return time.Since(c.start) >= c.left
}

func (c *fileClock) stop() {
	c.mu.Lock()
	if c.timer != nil {
		c.timer.Stop()
	}
	c.mu.Unlock()
	c.cancel()
}

// ocrCache keeps a file's OCR readings in the library (store.OCRPages), so
// that reading the file again (a new pipeline version, other settings, a
// retry after a time-out) does not run tesseract on pages it has read. A
// reading that cannot be kept or read back is only read again next time.
type ocrCache struct {
	ctx context.Context
	st  *store.Store
	key store.OCRKey
}

func (c *ocrCache) Get() map[int][]pdf.Run {
	rows, err := c.st.OCRPages(c.ctx, c.key)
	if err != nil {
		return nil
	}
	out := make(map[int][]pdf.Run, len(rows))
	for page, b := range rows {
		var runs []pdf.Run
		if json.Unmarshal(b, &runs) == nil {
			out[page] = runs
		}
	}
	return out
}

func (c *ocrCache) Put(page int, runs []pdf.Run) {
	if runs == nil {
		runs = []pdf.Run{}
	}
	if b, err := json.Marshal(runs); err == nil {
		_ = c.st.PutOCRPage(context.WithoutCancel(c.ctx), c.key, page, b)
	}
}
