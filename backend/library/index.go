package library

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/ocr"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/store"
	"github.com/papertree/papertree/backend/treebuild"
	"golang.org/x/sync/errgroup"
)

// FileStatus is the state of one file in an indexing job, as the UI shows it.
type FileStatus string

const (
	StatusQueued    FileStatus = "queued"
	StatusParsing   FileStatus = "parsing"
	StatusBuilding  FileStatus = "building tree"
	StatusEmbedding FileStatus = "embedding"
	StatusSaving    FileStatus = "saving"
	StatusReady     FileStatus = "ready"
	StatusUnchanged FileStatus = "unchanged"
	StatusFailed    FileStatus = "failed"
	// StatusDuplicate: the file's content is a paper of the library
	// already (the same PDF under another path): it is not indexed twice.
	StatusDuplicate FileStatus = "duplicate"
)

// Event reports progress of an indexing job. Events for one job are delivered
// one at a time (never concurrently), in the order they happened.
type Event struct {
	File    string         `json:"file"`
	Status  FileStatus     `json:"status"`
	Done    int            `json:"done"`  // files finished (ready, unchanged, duplicate or failed)
	Total   int            `json:"total"` // files in the job
	ErrCode papertree.Code `json:"err_code,omitempty"`
	ErrMsg  string         `json:"error,omitempty"`
	PaperID int64          `json:"paper_id,omitempty"`
	Title   string         `json:"title,omitempty"`
	Pages   int            `json:"pages,omitempty"`
	// Of is the other file of the same content: the one a duplicate
	// repeats (StatusDuplicate), or where a moved paper was (StatusUnchanged).
	Of string `json:"of,omitempty"`
	// Note says in plain words what happened to a file that is neither
	// read nor failed (a duplicate, a moved paper).
	Note     string `json:"note,omitempty"`
	OCRPage  int    `json:"ocr_page,omitempty"`  // StatusOCR: pages read so far
	OCRPages int    `json:"ocr_pages,omitempty"` // StatusOCR: pages to read
	// Unmatched (StatusReady): the file's heading corrections that found
	// no heading in the new reading (kept, and tried again next time).
	Unmatched []UnmatchedCorrection `json:"unmatched_corrections,omitempty"`
	Elapsed   time.Duration         `json:"elapsed"`
	Remaining time.Duration         `json:"remaining"` // estimate; 0 when unknown
}

// FileError is one failed file of a job.
type FileError struct {
	File  string         `json:"file"`
	Code  papertree.Code `json:"code"`
	Error string         `json:"error"`
}

// Summary is the outcome of an indexing job.
type Summary struct {
	Indexed   int         `json:"indexed"`
	Unchanged int         `json:"unchanged"`
	Failed    []FileError `json:"failed"`
	Pages     int         `json:"pages"` // pages parsed in this job
	// Removed counts the files left out because they were removed from
	// the library (see Library.Remove).
	Removed int `json:"removed,omitempty"`
	// Duplicates are files left out because their content is already a
	// paper of the library (File repeats Of); Moved are papers whose file
	// was moved or renamed (from Of to File), kept whole, counted unchanged.
	Duplicates []SameContent `json:"duplicates,omitempty"`
	Moved      []SameContent `json:"moved,omitempty"`
	// UnmatchedCorrections lists heading corrections of re-indexed files
	// whose heading is no longer in the file (see library/edit.go).
	UnmatchedCorrections []UnmatchedCorrection `json:"unmatched_corrections,omitempty"`
	Seconds              float64               `json:"seconds"`
}

// SameContent pairs a file with another file of the same content.
type SameContent struct {
	File string `json:"file"`
	Of   string `json:"of"`
}

// parsed is a worker's output for the single writer.
type parsed struct {
	path, hash string
	paper      *papertree.Paper
	vecs       store.Vectors
	err        error
	fp         string // overrides the job's fingerprint (incomplete LLM summaries); "" = the job's
	ocr        ocr.Outcome
	tree       *store.TreeChange // the file's heading corrections, replayed on its new tree
	unmatched  []UnmatchedCorrection
	limit      time.Duration // the file's time limit (a time-out is recorded with it)
}

// Index indexes PDFs and folders. Unchanged files (same content hash, same
// settings, ready) are skipped; changed files replace their paper atomically;
// a file that fails is recorded with its coded error and the job goes on.
// The returned error is non-nil only when the job itself cannot run or ctx is
// cancelled; per-file errors are in Summary.Failed.
//
// The job itself does not run, or stops, with a coded error when the
// library cannot take it: read-only, damaged (PRAGMA quick_check and the
// schema are checked first), no PDF among paths, or, during the job, a full
// disk or damage found while saving. Papers saved before the stop are kept;
// the paper being saved is rolled back whole.
func (l *Library) Index(ctx context.Context, paths []string, progress func(Event)) (Summary, error) {
	start := time.Now()
	var sum Summary
	sum.Failed = []FileError{}
	if l.store.ReadOnly() {
		return sum, papertree.Errorf(papertree.EConflict, "%s", store.ReadOnlyMsg)
	}
	if err := l.store.CheckHealth(ctx); err != nil {
		return sum, err
	}
	files, missing := findFiles(paths)
	// Files the researcher removed stay out until added back explicitly
	// (AddBack; the CLI's `index FILE`).
	removed, err := l.store.RemovedPaths(ctx)
	if err != nil {
		return sum, store.UserError(err)
	}
	if len(removed) > 0 {
		n := len(files)
		files = slices.DeleteFunc(files, func(f string) bool { return removed[f] })
		sum.Removed = n - len(files)
		if len(files) == 0 && sum.Removed > 0 {
			sum.Failed = append(sum.Failed, missing...)
			sum.Seconds = time.Since(start).Seconds()
			return sum, nil
		}
	}
	if len(files) == 0 && len(missing) > 0 {
		// The paths themselves cannot be read: the summary says why, each.
		sum.Failed = append(sum.Failed, missing...)
		sum.Seconds = time.Since(start).Seconds()
		return sum, nil
	}
	if len(files) == 0 {
		return sum, papertree.Errorf(papertree.EInvalid, "No PDF files were found in %s.", strings.Join(paths, ", "))
	}
	// A full disk, a read-only file or a damaged library would fail every
	// remaining file the same way: the first one stops the job.
	parent := ctx
	ctx, stopJob := context.WithCancel(ctx)
	defer stopJob()
	var fatalMu sync.Mutex
	var fatal error
	stop := func(err error) {
		fatalMu.Lock()
		if fatal == nil {
			fatal = err
		}
		fatalMu.Unlock()
		stopJob()
	}
	var mu sync.Mutex
	done := 0
	returned := false // set when Index returns: late events of abandoned workers are dropped
	emit := func(ev Event) {
		mu.Lock()
		defer mu.Unlock()
		if returned {
			return
		}
		if ev.Status == StatusReady || ev.Status == StatusUnchanged || ev.Status == StatusFailed || ev.Status == StatusDuplicate {
			done++
			switch ev.Status {
			case StatusReady:
				sum.Indexed++
				sum.Pages += ev.Pages
				sum.UnmatchedCorrections = append(sum.UnmatchedCorrections, ev.Unmatched...)
			case StatusUnchanged:
				sum.Unchanged++
				if ev.Of != "" {
					sum.Moved = append(sum.Moved, SameContent{File: ev.File, Of: ev.Of})
				}
			case StatusDuplicate:
				sum.Duplicates = append(sum.Duplicates, SameContent{File: ev.File, Of: ev.Of})
			case StatusFailed:
				sum.Failed = append(sum.Failed, FileError{File: ev.File, Code: ev.ErrCode, Error: ev.ErrMsg})
			}
		}
		ev.Done, ev.Total = done, len(files)
		ev.Elapsed = time.Since(start)
		if done > 0 && done < len(files) {
			ev.Remaining = time.Duration(float64(ev.Elapsed) / float64(done) * float64(len(files)-done))
		}
		if progress != nil {
			progress(ev)
		}
	}
	// A path on the command line that does not exist is reported like a
	// failed file; it never stops the others.
	sum.Failed = append(sum.Failed, missing...)
	for _, f := range files {
		emit(Event{File: f, Status: StatusQueued})
	}

	fp := l.Fingerprint()
	job := &jobFiles{fp: fp, retry: map[string]bool{}, claims: sameContentOwners(ctx, files)}
	// A file that failed before, unchanged since and with the same
	// settings, fails the same way again: a folder's re-index does not read
	// it again (an OCR time-out costs its whole limit each time); naming
	// the file itself (CLI `index FILE`, the app's "Try again") does.
	for _, f := range ExplicitFiles(paths) {
		if a, err := filepath.Abs(f); err == nil {
			f = a
		}
		job.retry[f] = true
	}
	results := make(chan parsed)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(l.cfg.Workers + 1)
	// One writer: SQLite has one writer anyway, and a single goroutine that
	// saves whole papers keeps every transaction short and ordered.
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		for {
			select {
			case r, ok := <-results:
				if !ok {
					return
				}
				l.save(ctx, r, fp, emit, stop)
			case <-ctx.Done():
				return
			}
		}
	}()
	for _, f := range files {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			r, skip := l.prepare(gctx, f, job, emit)
			if skip {
				return nil
			}
			select {
			case results <- r:
				return nil
			case <-gctx.Done():
				return gctx.Err()
			}
		})
	}
	waited := make(chan error, 1)
	go func() { waited <- g.Wait() }()
	var werr error
	select {
	case werr = <-waited:
		close(results)
	case <-ctx.Done():
		// Workers see the cancel at their next check (inside pages for
		// parsing), but a file deep in tree building or embedding can
		// take seconds to get there. Ctrl+C must act at once: give them
		// a moment, then return without them; their results are dropped
		// (the writer has stopped and saves nothing half-done).
		select {
		case werr = <-waited:
		case <-time.After(cancelGrace):
		}
	}
	<-writerDone
	mu.Lock()
	returned = true
	mu.Unlock()
	sum.Seconds = time.Since(start).Seconds()
	if fatal != nil {
		return sum, jobStopped(fatal, sum.Indexed)
	}
	ctx = parent
	if sum.Indexed > 0 && ctx.Err() == nil {
		// sqlite-vec never reuses the slots of replaced vectors; rebuild a
		// space when dead slots outnumber live ones so re-indexing does not
		// grow the file without bound. A failure here loses nothing.
		_, _ = l.store.Compact(context.WithoutCancel(ctx))
		// OCR readings of files no longer in the library (a changed file's
		// old content); a failure here loses nothing either.
		_, _ = l.store.DropUnusedOCR(context.WithoutCancel(ctx))
	}
	if ctx.Err() == nil {
		// The stored document frequencies of the new index, so that the
		// next question reads them instead of counting its words' rows (a
		// no-op when the job changed nothing); until then they are counted.
		_ = l.store.RefreshTermDF(ctx)
	}
	sum.Seconds = time.Since(start).Seconds()
	if err := ctx.Err(); err != nil {
		return sum, papertree.Wrap(err, papertree.ECanceled, "Indexing was cancelled; papers already indexed are kept.")
	}
	if werr != nil && !errors.Is(werr, context.Canceled) {
		return sum, werr
	}
	return sum, nil
}

// prepare hashes, parses, builds and embeds one file. skip reports that the
// file needs no save (unchanged, or cancelled). Reading, hashing, parsing
// and tree building run under the file's own deadline (Config.FileTimeout);
// only a regular file within the size limit is opened, checked by stat
// before a byte is read.
func (l *Library) prepare(ctx context.Context, path string, job *jobFiles, emit func(Event)) (r parsed, skip bool) {
	r.path = path
	limit := time.Duration(l.fileTimeout.Load())
	r.limit = limit
	clock := newFileClock(ctx, limit) // paused while OCR runs: it has its own limit per page
	fctx, cancel := clock.ctx, clock.stop
	defer cancel()
	p, hash, unchanged, err := l.readFile(fctx, path, job, limit, clock.pause, &r.ocr, emit)
	r.hash = hash
	if unchanged {
		return r, true
	}
	if err == nil && clock.expired() {
		err = context.DeadlineExceeded
	}
	if err != nil {
		if ctx.Err() != nil {
			return r, true
		}
		if fctx.Err() != nil || clock.expired() {
			err = papertree.Wrap(err, papertree.ETimeout, fmt.Sprintf(
				"Reading this PDF took longer than %s, the time limit per file, so it was skipped.", limit))
		}
		r.err = err
		return r, false
	}
	p.Hash = hash
	cancel() // the deadline covers reading and tree building, not embedding
	if r.tree, r.unmatched, err = l.applyCorrections(ctx, p); err != nil {
		r.err = err
		return r, false
	}
	if l.llmOn() != nil {
		emit(Event{File: path, Status: StatusSummarizing, Title: p.Title, Pages: p.Pages})
	}
	if !l.summarizePaper(ctx, p) {
		r.fp = l.fingerprintWith(partialSummaries)
	}
	if ctx.Err() != nil {
		return r, true
	}
	emit(Event{File: path, Status: StatusEmbedding, Title: p.Title, Pages: p.Pages})
	vecs, err := embedding.EmbedPaper(ctx, l.emb, p)
	if err != nil {
		if ctx.Err() != nil {
			return r, true
		}
		r.err = fmt.Errorf("embed: %w", err)
		return r, false
	}
	r.paper, r.vecs = p, store.Vectors(vecs)
	return r, false
}

func (l *Library) save(ctx context.Context, r parsed, fp string, emit func(Event), stop func(error)) {
	fail := func(err error) {
		// Record the failure even if ctx is cancelled, so the UI can show it.
		ffp := fp
		if papertree.ErrorCode(err) == papertree.ETimeout {
			ffp = timeoutFingerprint(fp, r.limit)
		}
		if rerr := l.store.RecordFailure(context.WithoutCancel(ctx), r.path, r.hash, ffp, err); jobFatal(rerr) {
			stop(rerr)
		}
		emit(Event{File: r.path, Status: StatusFailed, ErrCode: papertree.ErrorCode(err), ErrMsg: userMessage(err)})
	}
	if r.err != nil {
		fail(r.err)
		return
	}
	if r.fp != "" {
		fp = r.fp
	}
	fp = ocrFingerprint(fp, r.ocr)
	emit(Event{File: r.path, Status: StatusSaving, Title: r.paper.Title, Pages: r.paper.Pages})
	id, err := l.store.SavePaperWith(ctx, r.paper, r.vecs, fp, store.SaveOptions{Tree: r.tree})
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		if jobFatal(err) {
			stop(err) // not this file's fault: no failure is recorded for it
			return
		}
		fail(fmt.Errorf("save: %w", err))
		return
	}
	l.catchUpCorrections(ctx, id, r)
	// The paper's sentence signals, so that its first question does not
	// read every sentence (optional: without them it computes them).
	_ = retrieve.EnsureSignals(ctx, l.store, id)
	l.Retrieval().Invalidate(id)
	emit(Event{File: r.path, Status: StatusReady, PaperID: id, Title: r.paper.Title, Pages: r.paper.Pages, Unmatched: r.unmatched})
}

// jobFatal reports the errors of the library rather than of one file.
func jobFatal(err error) bool {
	return err != nil && (store.IsDiskFull(err) || store.IsReadOnly(err) || store.IsDamaged(err))
}

// jobStopped is the error of a job stopped by a jobFatal error.
func jobStopped(err error, kept int) error {
	switch {
	case store.IsDiskFull(err):
		return papertree.Wrap(err, papertree.EConflict, fmt.Sprintf(
			"The disk is full: indexing stopped, nothing was lost (the %d papers indexed before are kept). Free some space and run index again to go on.", kept))
	case store.IsReadOnly(err):
		return papertree.Wrap(err, papertree.EConflict, store.ReadOnlyMsg)
	}
	return store.UserError(err)
}

// userMessage is the plain-words reason shown for a failed file.
func userMessage(err error) string {
	msg := papertree.ErrorMessage(err)
	if papertree.ErrorCode(err) == papertree.EInternal {
		msg = "Unexpected error: " + err.Error()
	}
	return msg
}

// cancelGrace is how long a cancelled Index waits for its workers to stop
// before it returns without them.
const cancelGrace = 300 * time.Millisecond

// DefaultFileTimeout is the default time limit for reading one file.
const DefaultFileTimeout = 30 * time.Second

// SetFileTimeout changes Config.FileTimeout (d < 0: no limit, 0: the
// default). Safe during an index job: files started after it use the new
// limit.
func (l *Library) SetFileTimeout(d time.Duration) {
	if d == 0 {
		d = DefaultFileTimeout
	}
	l.fileTimeout.Store(int64(d))
}

// readFile opens path (a regular file within the size limit only), hashes
// it and, unless it is unchanged, parses it and builds its tree from the
// same open file.
func (l *Library) readFile(ctx context.Context, path string, job *jobFiles, limit time.Duration, pause func() func(), oc *ocr.Outcome, emit func(Event)) (p *papertree.Paper, hash string, unchanged bool, err error) {
	fp := job.fp
	f, size, err := pdf.OpenRegular(path, l.cfg.PDF.MaxBytes)
	if err != nil {
		return nil, "", false, err
	}
	defer f.Close()
	hash, err = hashReader(ctx, f)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", false, err
		}
		return nil, "", false, papertree.Wrap(err, papertree.EInvalid, "The file cannot be read.")
	}
	info, err := l.store.PaperByPath(ctx, path)
	if err != nil && papertree.ErrorCode(err) == papertree.ENotFound && l.sameContent(ctx, path, hash, job, emit) {
		return nil, hash, true, nil
	}
	if err == nil && info.Hash != hash && info.Status == store.StatusReady && l.mergeCopy(ctx, path, hash, info, true, emit) {
		return nil, hash, true, nil
	}
	if err == nil && info.Hash == hash {
		switch {
		case l.sameSettings(info.Fingerprint, fp, info.OCRPages) && info.Status == store.StatusReady && !info.Stale:
			if l.mergeCopy(ctx, path, hash, info, false, emit) {
				return nil, hash, true, nil
			}
			// A paper indexed before its signals were stored gets them now.
			_ = retrieve.EnsureSignals(ctx, l.store, info.ID)
			emit(Event{File: path, Status: StatusUnchanged, PaperID: info.ID, Title: info.Title, Pages: info.Pages})
			return nil, hash, true, nil
		case info.Status == store.StatusFailed && !job.retry[path] && info.Fingerprint == failureFingerprint(fp, info.ErrCode, limit) && settledFailure(info.ErrCode):
			emit(Event{File: path, Status: StatusFailed, PaperID: info.ID, ErrCode: info.ErrCode, ErrMsg: notRetried(info.ErrMessage)})
			return nil, hash, true, nil
		}
	}
	emit(Event{File: path, Status: StatusParsing})
	doc, err := pdf.Parse(ctx, f, size, l.cfg.PDF)
	doc, *oc, err = l.withOCR(ctx, path, hash, f, size, doc, err, pause, emit)
	if err != nil {
		return nil, hash, false, err
	}
	p, err = treebuild.Build(ctx, doc, l.cfg.Tree)
	if err != nil {
		return nil, hash, false, err
	}
	p.OCRPages = oc.Pages
	p.Warnings = append(p.Warnings, oc.Warnings...)
	if abs, err := filepath.Abs(path); err == nil {
		p.Path = abs
	}
	return p, hash, false, nil
}

// mergeCopy handles a paper of the library whose file is the same PDF as
// another paper's file, both in place: two papers made for one PDF before the
// index recognised copies (sameContent), or a file overwritten with a copy of
// another paper's PDF (changed: info's paper is of the file's old content).
// They would split the PDF's evidence and list it twice. Of two papers of
// one PDF the one that carries the researcher's records (corrections, a
// reference record: store.HasOwnRecords) is kept, else the oldest; a file's
// old content gives way to the paper its new content already is. info's
// paper is removed when it has no records of its own and another is kept,
// and its file is reported as a duplicate of the kept paper's, as a new copy
// would be. Saved answers keep their evidence (it is stored with the
// answer). Two papers that both carry records are left as they are.
func (l *Library) mergeCopy(ctx context.Context, path, hash string, info store.PaperInfo, changed bool, emit func(Event)) bool {
	if l.store.ReadOnly() {
		return false
	}
	others, err := l.store.PapersWithContent(ctx, hash, path)
	if err != nil || len(others) == 0 {
		return false
	}
	if own, err := l.store.HasOwnRecords(ctx, path); err != nil || own {
		return false
	}
	for _, o := range others { // oldest first
		if _, err := os.Stat(o.Path); err != nil {
			continue // a moved file's old path: sameContent's case
		}
		own, err := l.store.HasOwnRecords(ctx, o.Path)
		if err != nil {
			return false
		}
		if !changed && o.ID > info.ID && !own {
			continue // the younger: removed when its own file is seen
		}
		if l.store.DeletePaper(ctx, info.ID) != nil {
			return false
		}
		l.Retrieval().Invalidate(info.ID)
		emit(Event{File: path, Status: StatusDuplicate, PaperID: o.ID, Title: o.Title, Pages: o.Pages, Of: o.Path, Note: fmt.Sprintf(
			"The same PDF as %s, already in the library: this file's paper is merged into that one.", o.Path)})
		return true
	}
	return false
}

// timeoutFingerprint is the settings fingerprint a time-out is recorded
// with: the time limit is one of the settings it depends on, so that a file
// that timed out is read again once the limit is raised.
func timeoutFingerprint(fp string, limit time.Duration) string {
	return fp + "+timeout=" + limit.String()
}

// failureFingerprint is the fingerprint a failure with code was recorded
// with under today's settings.
func failureFingerprint(fp string, code papertree.Code, limit time.Duration) string {
	if code == papertree.ETimeout {
		return timeoutFingerprint(fp, limit)
	}
	return fp
}

// settledFailure reports whether a file's failure is its own, so that the
// same file read with the same settings fails the same way: not a
// cancelled job, a full disk or a damaged library, which say nothing of
// the file.
func settledFailure(code papertree.Code) bool {
	switch code {
	case papertree.EEmptyFile, papertree.ENotPDF, papertree.ETruncated, papertree.EEncrypted, papertree.EMalformed,
		papertree.ENoText, papertree.ETooLarge, papertree.EGarbled, papertree.ETooComplex, papertree.ETimeout:
		return true
	}
	return false
}

// notRetried is the message of a failed file that was not read again.
func notRetried(msg string) string {
	msg = strings.TrimSpace(msg)
	if msg != "" && !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return strings.TrimSpace(msg + " Not read again: the file and the settings are unchanged since it failed; index the file itself (Try again) to read it again.")
}

// hashReader returns the hex sha256 of r, checking ctx between chunks.
func hashReader(ctx context.Context, r io.Reader) (string, error) {
	h := sha256.New()
	buf := make([]byte, 1<<20)
	for {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		n, err := r.Read(buf)
		h.Write(buf[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// findFiles is FindPDFs that reports each path that cannot be read as a
// failed file instead of failing the whole job.
func findFiles(paths []string) (files []string, missing []FileError) {
	var ok []string
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			abs, aerr := filepath.Abs(p)
			if aerr != nil {
				abs = p
			}
			code, msg := papertree.ENotFound, "The path does not exist."
			if !errors.Is(err, os.ErrNotExist) {
				// Say why: permission denied, a symlink loop, ...
				fe := pdf.FileError(err)
				code, msg = fe.Code, fe.Message
			}
			missing = append(missing, FileError{File: abs, Code: code, Error: msg})
			continue
		}
		ok = append(ok, p)
	}
	files, unreadable, err := FindPDFsReport(ok)
	missing = append(missing, unreadable...) // folders left out: reported, not skipped silently
	if err != nil {
		// A path that vanished between the two checks: report it the
		// same way.
		missing = append(missing, FileError{Code: papertree.ErrorCode(err), Error: papertree.ErrorMessage(err)})
	}
	return files, missing
}

// jobFiles is what the files of one index job share: the settings
// fingerprint, the files named exactly (read again even after a failure) and
// the content hashes claimed so far by the job's files.
type jobFiles struct {
	fp     string
	retry  map[string]bool
	mu     sync.Mutex
	claims map[string]string // content hash -> the job's first file with it
}

// claim records that path has the content hash and returns the job's file
// that claimed that content first ("" when path is the first).
func (j *jobFiles) claim(hash, path string) string {
	j.mu.Lock()
	defer j.mu.Unlock()
	if first, ok := j.claims[hash]; ok && first != path {
		return first
	}
	if j.claims == nil {
		j.claims = map[string]string{}
	}
	j.claims[hash] = path
	return ""
}

// sameContentOwners finds the files of a job that have the same content:
// only files of equal size can, and only those are hashed here (a job's
// files are otherwise hashed once, by the worker that reads them). Each
// content's first file in the job's (sorted) order owns it: the paper is
// the same file whichever worker gets there first. It returns the owners by
// content hash, the job's initial claims.
func sameContentOwners(ctx context.Context, files []string) map[string]string {
	bySize := map[int64][]string{}
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() && st.Size() > 0 {
			bySize[st.Size()] = append(bySize[st.Size()], f)
		}
	}
	owners := map[string]string{}
	for _, group := range bySize {
		if len(group) < 2 {
			continue
		}
		for _, f := range group { // in the job's order
			h, err := hashFile(ctx, f)
			if err != nil {
				continue
			}
			if _, ok := owners[h]; !ok {
				owners[h] = f
			}
		}
	}
	return owners
}

// hashFile is hashReader of the file at path.
func hashFile(ctx context.Context, path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return hashReader(ctx, f)
}

// sameContent handles a file new to the library whose content is a paper of
// it already and reports whether the file needs no reading. The same PDF
// under a second path (a copy in another folder, a folder of links) is one
// paper, not two that would split its evidence and list it twice: the file is
// reported as a duplicate of the other. When the other file is gone, the
// paper was moved or renamed: it moves to the new path whole (its id, saved
// answers, corrections and reference record), without reading the PDF again
// (a scan's OCR costs minutes). Two new copies in one job: the first in path
// order is read, the other is its duplicate (sameContentOwners).
func (l *Library) sameContent(ctx context.Context, path, hash string, job *jobFiles, emit func(Event)) bool {
	if first := job.claim(hash, path); first != "" {
		emit(Event{File: path, Status: StatusDuplicate, Of: first, Note: fmt.Sprintf(
			"The same PDF as %s (read in this job): not indexed twice.", first)})
		return true
	}
	others, err := l.store.PapersWithContent(ctx, hash, path)
	if err != nil || len(others) == 0 {
		return false
	}
	var gone []store.PaperInfo
	for _, o := range others {
		if _, err := os.Stat(o.Path); errors.Is(err, os.ErrNotExist) {
			gone = append(gone, o)
			continue
		}
		emit(Event{File: path, Status: StatusDuplicate, PaperID: o.ID, Title: o.Title, Pages: o.Pages, Of: o.Path, Note: fmt.Sprintf(
			"The same PDF as %s, already in the library: not indexed twice.", o.Path)})
		return true
	}
	o := gone[0] // the oldest paper of that content whose file is gone
	if l.store.MovePaper(ctx, o.Path, path) != nil {
		return false // read it as a new file
	}
	l.Retrieval().Invalidate(o.ID)
	if !l.sameSettings(o.Fingerprint, job.fp, o.OCRPages) || o.Stale {
		return false // read again at its new path with today's settings
	}
	emit(Event{File: path, Status: StatusUnchanged, PaperID: o.ID, Title: o.Title, Pages: o.Pages, Of: o.Path, Note: fmt.Sprintf(
		"Moved from %s: the paper is kept as it was, with its corrections and saved answers.", o.Path)})
	return true
}
