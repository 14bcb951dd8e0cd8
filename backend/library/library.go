// Package library is the composition root shared by the GUI, the CLI and the
// end-to-end tests. It wires the one-way pipeline
//
//	pdf.Open -> treebuild.Build -> embedding -> store.SavePaper
//
// and owns the indexing job: discovering PDFs, skipping unchanged files,
// bounded parallel parsing/embedding, one writer that saves each paper in its
// own transaction, and per-file failure records. A failing file never stops
// the job; a crash mid-job leaves only whole papers, and the next run resumes
// by skipping what is already indexed.
package library

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/ocr"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/store"
	"github.com/papertree/papertree/backend/treebuild"
)

// PipelineVersion changes whenever parsing or tree building changes in a way
// that should re-index existing papers.
// 2: prose after a reference list is no longer bibliography.
// 3: column layout: three-column grids, the paper's column grid kept on
// pages whose display equations fake a gutter, lines of neighbouring
// columns and superscripts no longer merged, mirrored running headers
// removed, an article starting mid-page after the previous one.
// 4: OCR of scans, poor OCR layers and garbled fonts (papers indexed
// before kept a poor OCR layer as it was).
// 5: tables as table leaves (role "table", one row per line with its
// header), display equations and pseudo-code as their own leaves.
// 6: front-matter metadata read from the arXiv stamp, the first page's
// running lines and every column of the author block; composed accents
// (5 and 6 were made side by side; 6 so that no library built with only
// one of them keeps it).
// 7: headings set smaller than the body in their own font, letter-spaced
// names, text drawn twice read once, list and reference lines not headings.
// 8: captioned tables read when their rows are staggered, dense or set
// beside wrapped text, abbreviated headers spelled out from the paper;
// titles, authors and years of more front-matter layouts (label words,
// subtitles, drop capitals, small capitals, name grids, copyright years).
// 9: a title must read as words (a formula or a routing list read by OCR
// gives way to the Info dictionary's title or page 1's first title-like
// line), placeholders ("Microsoft Word - x.doc") are never titles, and a
// "Reprinted from:" header is never the title.
// 10: a line's first word of one or two letters at a column edge near the
// page edge ("in", "of", "We", "A." of "A. Krizhevsky") is no longer taken
// for a margin stamp when many lines of the page open so.
const PipelineVersion = "10"

// Config configures a Library. Zero values mean defaults.
type Config struct {
	DBPath   string
	Embedder papertree.Embedder // default: the built-in embedder
	Tree     treebuild.Options  // default: treebuild.DefaultOptions()
	PDF      pdf.Options        // default: DefaultPDFOptions()
	Workers  int                // parallel parse/embed workers; default min(NumCPU, 4)
	// LLM, when set, is detected at Open (within ctx and LLMDetectTimeout)
	// and switches LLM operations on if its chat model is usable; nil means
	// no LLM (extractive summaries and answers). See ConfigureLLM.
	LLM *llm.Config
	// LLMDetectTimeout bounds detection at Open (default 5s).
	LLMDetectTimeout time.Duration
	// SummaryWorkers bounds the sections summarized in parallel with an
	// LLM (default: the LLM client's MaxConcurrency, 4).
	SummaryWorkers int
	// FileTimeout bounds the time spent reading one file and building its
	// tree (default DefaultFileTimeout); a file over it fails with
	// papertree.ETimeout and the job goes on. Negative: no limit.
	FileTimeout time.Duration
	// MustExist refuses to create a library when DBPath has no file (for
	// commands that only read); see store.Options.
	MustExist bool
	// ReadOnly opens the library without writing (chosen automatically
	// when the file is not writable). Answers are then not saved.
	ReadOnly bool
	// OneQuestion: the process asks one question and exits (the CLI's
	// ask); the warm-up then fills no paper-vector cache (see
	// store.Options.OneQuestion).
	OneQuestion bool
	// Upgrading is called once before an existing library is upgraded to
	// this build's schema (store.Options.Upgrading), e.g. to say why the
	// open takes a while.
	Upgrading func(from, to int)
	// OCR reads scanned pages with tesseract (on by default); see SetOCR.
	OCR OCRConfig
	// WarmBudget bounds the memory the warm-up may spend loading every
	// paper for retrieval ahead of the first question (default
	// DefaultWarmBudget; negative: load none). A library whose papers do
	// not fit is not loaded at all; see retrieve.StoreIndex.WarmPapers.
	WarmBudget int64
}

// DefaultWarmBudget is the default Config.WarmBudget: 256 MB, about 190
// papers like the development ones (148 of them take 202 MB).
const DefaultWarmBudget = 256 << 20

// DefaultPDFOptions bounds the work spent on one file: a 200 MB or 3000-page
// PDF is refused with a clear error instead of exhausting memory.
func DefaultPDFOptions() pdf.Options {
	return pdf.Options{MaxBytes: 200 << 20, MaxPages: 3000}
}

// Library is an open paper library (one SQLite file).
type Library struct {
	cfg   Config
	store *store.Store
	emb   papertree.Embedder

	ixOnce sync.Once
	ix     *retrieve.StoreIndex

	llmMu     sync.RWMutex
	llm       *llmState // nil: LLM operations off
	llmStatus llm.Status

	// fileTimeout is cfg.FileTimeout as SetFileTimeout last set it; the
	// Settings view may change it while an index job runs.
	fileTimeout atomic.Int64

	ocr ocrState

	// The warm-up Open starts: Close cancels it and waits for it before
	// closing the database.
	warmStop context.CancelFunc
	warmDone chan struct{}
}

// Open opens (creating if needed) the library database.
func Open(ctx context.Context, cfg Config) (*Library, error) {
	if cfg.DBPath == "" {
		return nil, papertree.Errorf(papertree.EInvalid, "No library database path was given.")
	}
	if cfg.Embedder == nil {
		cfg.Embedder = embedding.NewBuiltin()
	}
	if cfg.Tree == (treebuild.Options{}) {
		cfg.Tree = treebuild.DefaultOptions()
	}
	if cfg.PDF == (pdf.Options{}) {
		cfg.PDF = DefaultPDFOptions()
	}
	if cfg.FileTimeout == 0 {
		cfg.FileTimeout = DefaultFileTimeout
	}
	if cfg.Workers <= 0 {
		cfg.Workers = min(runtime.NumCPU(), 4)
	}
	if cfg.WarmBudget == 0 {
		cfg.WarmBudget = DefaultWarmBudget
	}
	if dir := filepath.Dir(cfg.DBPath); dir != "" && !cfg.MustExist && !cfg.ReadOnly {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, papertree.Wrap(err, papertree.EInvalid, "The library folder cannot be created.")
		}
	}
	st, err := store.OpenWith(ctx, cfg.DBPath, store.Options{MustExist: cfg.MustExist, ReadOnly: cfg.ReadOnly, OneQuestion: cfg.OneQuestion,
		Upgrading: cfg.Upgrading})
	if err != nil {
		return nil, store.UserError(fmt.Errorf("open library: %w", err))
	}
	if _, err := st.EnsureEmbedder(ctx, cfg.Embedder.Name(), cfg.Embedder.Dim()); err != nil {
		st.Close()
		return nil, store.UserError(fmt.Errorf("open library: %w", err))
	}
	if cfg.SummaryWorkers <= 0 {
		cfg.SummaryWorkers = llm.DefaultMaxConcurrency
	}
	l := &Library{cfg: cfg, store: st, emb: cfg.Embedder, llmStatus: llm.Status{Provider: llm.ProviderNone}}
	l.fileTimeout.Store(int64(cfg.FileTimeout))
	l.ocr.cfg, l.ocr.slots = cfg.OCR, make(chan struct{}, ocrSlots())
	if cfg.LLM != nil {
		timeout := cfg.LLMDetectTimeout
		if timeout <= 0 {
			timeout = DefaultLLMDetectTimeout
		}
		dctx, cancel := context.WithTimeout(ctx, timeout)
		// A server that is down is not an error here: the library works
		// without it and LLMStatus says why.
		_, _ = l.ConfigureLLM(dctx, *cfg.LLM)
		cancel()
	}
	wctx, stop := context.WithCancel(context.Background())
	l.warmStop, l.warmDone = stop, make(chan struct{})
	go func() {
		defer close(l.warmDone)
		l.Warm(wctx)
	}()
	return l, nil
}

// Warm prepares what the first library-wide question would otherwise pay
// for: the embedder's first query, the store's paper-vector cache and
// full-text statistics, the papers' identity cards in the retrieval
// index, the stored document frequencies (Store.RefreshTermDF), and, when they all fit Config.WarmBudget, every paper loaded for
// retrieval. Open runs it in the background; it is safe to call again (a
// fill under way is not repeated). A one-question process
// (Config.OneQuestion) loads no papers ahead.
func (l *Library) Warm(ctx context.Context) retrieve.PaperWarmth {
	_, _ = l.emb.EmbedQuery(ctx, "warm up")
	l.store.WarmPaperCache(ctx)
	retrieve.Warm(ctx, l.Retrieval())
	if l.cfg.OneQuestion {
		return retrieve.PaperWarmth{}
	}
	// Stored document frequencies left stale by a change since the last
	// index job (a removal, an edit): rebuilt here, in the background of
	// a long-lived process (the app). A CLI command (negative WarmBudget)
	// does not pay seconds for it at 5,000 papers on its way out: its
	// questions count their words, as before, until the next index job.
	if l.cfg.WarmBudget >= 0 {
		_ = l.store.RefreshTermDF(ctx)
	}
	return l.Retrieval().WarmPapers(ctx, l.cfg.WarmBudget)
}

// Close stops the warm-up Open started, waits for it, and closes the
// database: no goroutine of the library reads the file after Close.
func (l *Library) Close() error {
	if l.warmStop != nil {
		l.warmStop()
		<-l.warmDone
	}
	return l.store.Close()
}

// Store exposes the underlying store to downstream packages (retrieval, app).
func (l *Library) Store() *store.Store { return l.store }

// Embedder is the embedder the index was built with.
func (l *Library) Embedder() papertree.Embedder { return l.emb }

// Fingerprint identifies the settings a paper was indexed with; a paper whose
// stored fingerprint differs is re-indexed.
func (l *Library) Fingerprint() string {
	return l.fingerprintWith(l.summarizer())
}

// fingerprintWith is Fingerprint with the given summarizer ("" =
// extractive, which leaves the fingerprint as it was before LLMs).
func (l *Library) fingerprintWith(summarizer string) string {
	b, _ := json.Marshal(struct {
		V    string
		Tree treebuild.Options
		Emb  string
		Sum  string `json:",omitempty"`
	}{PipelineVersion, l.cfg.Tree, l.emb.Name(), summarizer})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// ParseFile parses one PDF into a PaperTree without touching the database,
// reading scanned pages with OCR (default OCRConfig; see ParseFileOCR).
func ParseFile(ctx context.Context, path string, popts pdf.Options, topts treebuild.Options) (*papertree.Paper, error) {
	return ParseFileOCR(ctx, path, popts, topts, OCRConfig{})
}

// ParseFileOCR is ParseFile with an OCR configuration.
func ParseFileOCR(ctx context.Context, path string, popts pdf.Options, topts treebuild.Options, oc OCRConfig) (*papertree.Paper, error) {
	f, size, err := pdf.OpenRegular(path, popts.MaxBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := pdf.Parse(ctx, f, size, popts)
	doc, out, err := ocr.Apply(ctx, path, f, size, popts, doc, err, oc, ocr.Hooks{})
	if err != nil {
		return nil, err
	}
	p, err := treebuild.Build(ctx, doc, topts)
	if err != nil {
		return nil, err
	}
	p.OCRPages = out.Pages
	p.Warnings = append(p.Warnings, out.Warnings...)
	if abs, err := filepath.Abs(path); err == nil {
		p.Path = abs
	}
	return p, nil
}

// FindPDFs expands files and folders (recursively) into a sorted, de-duplicated
// list of absolute PDF paths. A path that does not exist is an error.
// Sub-folders that cannot be read are left out; FindPDFsReport says which.
func FindPDFs(paths []string) ([]string, error) {
	out, _, err := FindPDFsReport(paths)
	return out, err
}

// walkDir is filepath.WalkDir; tests replace it to make a folder fail the
// way an unreadable one does for a non-root user.
var walkDir = filepath.WalkDir

// FindPDFsReport is FindPDFs that also returns the sub-folders it could not
// read (permission denied, I/O error), each with a plain-words reason, so
// that a folder of papers never goes missing without a word.
func FindPDFsReport(paths []string) ([]string, []FileError, error) {
	seen := map[string]bool{}
	var out []string
	var unreadable []FileError
	add := func(p string) {
		if abs, err := filepath.Abs(p); err == nil && !seen[abs] {
			seen[abs] = true
			out = append(out, abs)
		}
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			if fsCode(err) == papertree.ENotFound {
				return nil, nil, papertree.Wrap(err, papertree.ENotFound, fmt.Sprintf("%s does not exist.", p))
			}
			return nil, nil, papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("%s cannot be read (%s).", p, plainFSError(err)))
		}
		if !st.IsDir() {
			add(p)
			continue
		}
		err = walkDir(p, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				// Keep walking the rest, but say what was left out.
				abs, aerr := filepath.Abs(path)
				if aerr != nil {
					abs = path
				}
				unreadable = append(unreadable, FileError{File: abs, Code: fsCode(err),
					Error: "This folder cannot be read (" + plainFSError(err) + "); the PDFs in it were not indexed."})
				if d != nil && d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() && path != p && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.EqualFold(filepath.Ext(path), ".pdf") {
				add(path)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	sort.Strings(out)
	return out, unreadable, nil
}

// fsCode is the code of a file-system error: not_found only for what does
// not exist; a folder that exists but cannot be read (permission denied, an
// I/O error) is invalid input, as the indexer codes an unreadable path.
func fsCode(err error) papertree.Code {
	if errors.Is(err, fs.ErrNotExist) {
		return papertree.ENotFound
	}
	return papertree.EInvalid
}

// plainFSError names a file-system error without Go's "open /x/y:" prefix.
func plainFSError(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, fs.ErrNotExist):
		return "it disappeared while it was being read"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// HashFile returns the hex sha256 of a file's content. Only a regular file
// is read (a FIFO or a device would block or never end; see
// pdf.OpenRegular).
func HashFile(path string) (string, error) {
	f, _, err := pdf.OpenRegular(path, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return hashReader(context.Background(), f)
}

// ResolvePaper finds a paper by id or by file path.
func (l *Library) ResolvePaper(ctx context.Context, ref string) (store.PaperInfo, error) {
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil {
		pi, err := l.store.PaperByID(ctx, id)
		if papertree.ErrorCode(err) == papertree.ENotFound {
			// An old answer or link may name a paper removed since.
			if rf, rerr := l.store.RemovedPaper(ctx, id); rerr == nil {
				title := rf.Title
				if title == "" {
					title = filepath.Base(rf.Path)
				}
				return pi, papertree.Errorf(papertree.ENotFound, "%q was removed from the library (its file %s was kept); add it back to open it.", title, rf.Path)
			}
		}
		return pi, store.UserError(err)
	}
	abs, err := filepath.Abs(ref)
	if err != nil {
		return store.PaperInfo{}, err
	}
	pi, err := l.store.PaperByPath(ctx, abs)
	return pi, store.UserError(err)
}

// Paper loads a paper's full tree by id or path.
func (l *Library) Paper(ctx context.Context, ref string) (*papertree.Paper, error) {
	info, err := l.ResolvePaper(ctx, ref)
	if err != nil {
		return nil, err
	}
	return l.loadReady(ctx, info)
}

// loadReady loads the tree of a resolved paper that indexed.
func (l *Library) loadReady(ctx context.Context, info store.PaperInfo) (*papertree.Paper, error) {
	if info.Status != store.StatusReady {
		return nil, papertree.Errorf(papertree.EConflict, "%s could not be indexed: %s", filepath.Base(info.Path), info.ErrMessage)
	}
	p, err := l.store.LoadPaper(ctx, info.ID)
	return p, store.UserError(err)
}

// Papers lists the library.
func (l *Library) Papers(ctx context.Context) ([]store.PaperInfo, error) {
	ps, err := l.store.ListPapers(ctx)
	return ps, store.UserError(err)
}

// Prune removes papers whose file no longer exists.
func (l *Library) Prune(ctx context.Context) ([]string, error) {
	return l.store.Prune(ctx, func(path string) bool {
		_, err := os.Stat(path)
		return !errors.Is(err, os.ErrNotExist)
	})
}

// RepairReport is what Repair did: the store's repair, then the papers
// indexed again from their PDFs.
type RepairReport struct {
	store.RepairReport
	// Reindexed lists the papers indexed again from their files (damaged
	// rows, or stale after their vectors had to be rebuilt).
	Reindexed []string `json:"reindexed,omitempty"`
	// Lost lists damaged papers whose file is gone: they stay listed, and
	// indexing the file again (once it is back) replaces them.
	Lost []string `json:"lost,omitempty"`
	// Failed lists re-indexed files that failed again.
	Failed []FileError `json:"failed,omitempty"`
}

// Repair repairs a damaged library in place (see store.Repair) and indexes
// again, from their PDFs, the papers whose rows are damaged or stale when
// the files are still there. Saved answers, imported references and the
// dates papers were added are kept. It needs a writable library.
func (l *Library) Repair(ctx context.Context) (RepairReport, error) {
	var rep RepairReport
	if l.store.ReadOnly() {
		return rep, papertree.Errorf(papertree.EConflict, "%s", store.ReadOnlyMsg)
	}
	srep, err := l.store.Repair(ctx)
	rep.RepairReport = srep
	if err != nil {
		return rep, store.UserError(err)
	}
	if len(srep.Remaining) > 0 {
		// Pages the repair could not fix: indexing on top would add to the
		// damage, so papers are not re-indexed.
		return rep, nil
	}
	ps, err := l.store.ListPapers(ctx)
	if err != nil {
		return rep, store.UserError(err)
	}
	var paths []string
	for _, p := range ps {
		if p.Status != store.StatusReady || !p.Stale {
			continue
		}
		if _, err := os.Stat(p.Path); err != nil {
			rep.Lost = append(rep.Lost, p.Path)
			continue
		}
		paths = append(paths, p.Path)
	}
	if len(paths) == 0 {
		return rep, nil
	}
	sum, err := l.Index(ctx, paths, nil)
	rep.Failed = sum.Failed
	for _, p := range paths {
		if info, ierr := l.store.PaperByPath(ctx, p); ierr == nil && info.Status == store.StatusReady && !info.Stale {
			rep.Reindexed = append(rep.Reindexed, p)
		}
	}
	return rep, err
}

// RebuildReport is what Rebuild did.
type RebuildReport struct {
	// Salvaged: the rows read out of the damaged file (answers,
	// references, dates added, LLM cache and usage) and what was lost.
	Salvaged store.SalvageReport `json:"salvaged"`
	// Index is the job that indexed the papers again from their PDFs.
	Index Summary `json:"index"`
	// Lost lists papers of the damaged library whose PDF is gone.
	Lost []string `json:"lost,omitempty"`
	// DamagedCopy is where the damaged file was kept (never deleted).
	DamagedCopy string `json:"damaged_copy"`
}

// Rebuild replaces a library that Repair cannot fix in place (damaged
// pages) with a new one: every readable row of what cannot be made again
// (saved answers with their ids, imported references, dates added, the LLM
// cache and usage) is copied into a new file, the papers are indexed again
// from their PDFs, and the new file takes the library's name. The damaged
// file is kept beside it as NAME.damaged-TIME (with its -wal), untouched.
// cfg.DBPath names the library; no other program may have it open.
func Rebuild(ctx context.Context, cfg Config) (RebuildReport, error) {
	var rep RebuildReport
	dbPath := cfg.DBPath
	if err := store.CheckLibraryFile(ctx, dbPath); err != nil {
		return rep, err
	}
	tmp := dbPath + ".rebuild"
	for _, suf := range []string{"", "-wal", "-shm"} {
		os.Remove(tmp + suf)
	}
	cleanup := func() {
		for _, suf := range []string{"", "-wal", "-shm"} {
			os.Remove(tmp + suf)
		}
	}
	cfg.DBPath, cfg.MustExist, cfg.ReadOnly = tmp, false, false
	lib, err := Open(ctx, cfg)
	if err != nil {
		cleanup()
		return rep, err
	}
	rep.Salvaged, err = lib.store.Salvage(ctx, dbPath)
	if err != nil {
		lib.Close()
		cleanup()
		return rep, err
	}
	var paths []string
	for _, p := range rep.Salvaged.Paths {
		if _, err := os.Stat(p); err != nil {
			rep.Lost = append(rep.Lost, p)
			continue
		}
		paths = append(paths, p)
	}
	if len(paths) > 0 {
		rep.Index, err = lib.Index(ctx, paths, nil)
		if err != nil {
			lib.Close()
			cleanup()
			return rep, err
		}
	}
	if err := lib.Close(); err != nil {
		cleanup()
		return rep, store.UserError(fmt.Errorf("rebuild: close: %w", err))
	}
	rep.DamagedCopy = dbPath + ".damaged-" + time.Now().UTC().Format("20060102T150405")
	// The damaged file's -wal goes with it: left beside the new file, SQLite
	// would apply it to the new library.
	if err := os.Rename(dbPath, rep.DamagedCopy); err != nil {
		cleanup()
		return rep, papertree.Wrap(err, papertree.EConflict, "The damaged library could not be moved aside; nothing was changed.")
	}
	for _, suf := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(dbPath + suf); err == nil {
			os.Rename(dbPath+suf, rep.DamagedCopy+suf)
		}
	}
	if err := os.Rename(tmp, dbPath); err != nil {
		return rep, papertree.Wrap(err, papertree.EConflict, fmt.Sprintf(
			"The rebuilt library could not take the library's name; it is at %s and the damaged one at %s.", tmp, rep.DamagedCopy))
	}
	// A clean close leaves no -wal; if one is left it belongs to the new file.
	for _, suf := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(tmp + suf); err == nil {
			os.Rename(tmp+suf, dbPath+suf)
		}
	}
	return rep, nil
}
