package app

import (
	"context"
	"io"

	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/retrieve"
)

// Library is the facade the desktop shell needs from the backend. It is
// implemented by an adapter over backend/library; a nil Library means "no
// backend wired yet" and the UI shows an empty library.
type Library interface {
	// ListPapers returns the indexed papers in a stable order (the page
	// sorts and filters them itself).
	ListPapers(ctx context.Context) ([]PaperView, error)
	// Index parses and stores the given PDF files. It reports progress
	// through progress (which may be called from several goroutines, but
	// never after Index returns). One failing file never fails the whole
	// call: it is listed in Summary.Failures. Index returns a coded
	// ECanceled error when ctx is cancelled.
	Index(ctx context.Context, paths []string, progress func(Progress)) (Summary, error)
	// Paper loads one paper's whole tree by id.
	Paper(ctx context.Context, id string) (PaperDetail, error)
	// Ask answers a question; onDelta (may be nil) receives streamed LLM
	// text. The answer is saved in the history and has an ID.
	Ask(ctx context.Context, in AskInput, params retrieve.Params, onDelta func(string)) (AnswerView, error)
	// History lists saved answers, newest first.
	History(ctx context.Context, limit int) ([]HistoryItem, error)
	// Answer loads one saved answer with its evidence.
	Answer(ctx context.Context, id string) (AnswerView, error)
	// DeleteAnswer removes a saved answer.
	DeleteAnswer(ctx context.Context, id string) error
	// Export writes saved answers (all of the history when ids is empty)
	// as a report in format (md, html, pdf, docx).
	Export(ctx context.Context, ids []string, format string, w io.Writer) error
	// Prune drops papers whose file is gone and returns their paths.
	Prune(ctx context.Context) ([]string, error)
	// ConfigureLLM switches the LLM on (or off) and reports what works.
	ConfigureLLM(ctx context.Context, cfg llm.Config) (llm.Status, error)
	// Import imports references with their PDFs from source ("zotero": a
	// Zotero data directory, "bibtex": a .bib file), as an index job.
	Import(ctx context.Context, source, path string, progress func(Progress)) (ImportResult, error)
	// SearchText returns the ids of the papers whose text contains every
	// word of query, the last as a prefix.
	SearchText(ctx context.Context, query string) ([]string, error)
}

// PaperView is one paper as the library list shows it.
type PaperView struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Authors []string `json:"authors"`
	Year    int      `json:"year"`    // 0 when unknown
	Pages   int      `json:"pages"`   // physical pages
	File    string   `json:"file"`    // absolute path of the source PDF
	Status  string   `json:"status"`  // "ready" or "failed"
	Code    string   `json:"code"`    // error code when failed (papertree.Code)
	Message string   `json:"message"` // user-safe reason when failed
	Stale   bool     `json:"stale"`   // indexed with other settings: re-index to refresh
	// From the researcher's reference manager (Zotero, BibTeX) when imported;
	// its title, authors, year, venue and DOI then replace the PDF's, which are the fallback.
	Venue       string   `json:"venue"`
	ArxivID     string   `json:"arxivId"` // from the PDF
	DOI         string   `json:"doi"`
	CitationKey string   `json:"citationKey"`
	Collections []string `json:"collections"`
	Tags        []string `json:"tags"`
	Source      string   `json:"source"`  // "", "zotero" or "bibtex"
	AddedAt     int64    `json:"addedAt"` // unix ms the file entered the library (or the reference manager's date added)
	// Hash is the sha256 of the file's content when it was indexed: the
	// page view is served the file only while it still has this content.
	Hash string `json:"-"`

	// OCRPages counts the pages whose text was read by OCR (0: none): the
	// list marks such papers, whose text may hold recognition errors.
	OCRPages int `json:"ocrPages"`

	// Edited lists the metadata fields the researcher corrected;
	// HeadingEdits counts the corrections of its tree and UnmatchedEdits
	// those a re-index could not apply (app/edit.go).
	Edited         []string `json:"edited"`
	HeadingEdits   int      `json:"headingEdits"`
	UnmatchedEdits int      `json:"unmatchedEdits"`
}

// Progress reports the state of an indexing job.
type Progress struct {
	Stage  string `json:"stage"`  // "scan" (files found), "index" (working), "done"
	Done   int    `json:"done"`   // files finished (ok, unchanged or failed)
	Total  int    `json:"total"`  // files in the job
	File   string `json:"file"`   // file the latest report is about, may be empty
	Detail string `json:"detail"` // what happens to File: "parsing", "embedding", "failed", ...
	// Message is the plain-words reason when Detail is "failed".
	Message string `json:"message"`
	// Remaining is the estimated time left in milliseconds; 0 when unknown.
	Remaining int64 `json:"remaining"`
	// Files are the files whose status changed since the job's previous
	// event (every file, as queued, on the first event), in the job's
	// order. App fills it in when emitting; the frontend merges them.
	Files []FileState `json:"files"`
	// Job identifies the index job the event belongs to (1, 2, ...), so the
	// page can drop late events of a job that has ended.
	Job int `json:"job"`
	// Background is true for jobs started by the folder watcher.
	Background bool `json:"background"`
}

// FileState is one file's status in an indexing job.
type FileState struct {
	File    string `json:"file"`
	Status  string `json:"status"`  // queued, parsing, building tree, summarizing, embedding, saving, ready, unchanged, failed
	Message string `json:"message"` // plain-words reason when failed
}

// PaperDetail is one paper with its whole tree, for the paper view.
type PaperDetail struct {
	ID       string    `json:"id"`
	Title    string    `json:"title"`
	Authors  []string  `json:"authors"`
	Abstract string    `json:"abstract"`
	Year     int       `json:"year"`
	Pages    int       `json:"pages"`
	File     string    `json:"file"`
	Warnings []string  `json:"warnings"`
	Root     *TreeNode `json:"root"`
	// Venue, DOI and CitationKey as the list shows them (reference
	// manager and corrections applied); Corrections are the researcher's
	// corrections of this paper (app/edit.go).
	Venue       string          `json:"venue"`
	DOI         string          `json:"doi"`
	CitationKey string          `json:"citationKey"`
	Corrections CorrectionsView `json:"corrections"`
}

// TreeNode is one node of a PaperTree: the root (the paper), a section, or
// a leaf (segment or caption) with its text.
type TreeNode struct {
	ID        string      `json:"id"`
	Kind      string      `json:"kind"` // root, section, segment, caption
	Role      string      `json:"role"` // abstract, references, appendix, acknowledgements, front_matter, or ""
	Title     string      `json:"title"`
	Number    string      `json:"number"`
	Level     int         `json:"level"`
	Text      string      `json:"text"`
	PageStart int         `json:"pageStart"`
	PageEnd   int         `json:"pageEnd"`
	Boxes     []BoxView   `json:"boxes"`
	Children  []*TreeNode `json:"children"`
	Edited    bool        `json:"edited"` // a heading the researcher corrected
}

// BoxView is a text box on a page, in PDF points with the origin top-left.
type BoxView struct {
	Page int     `json:"page"`
	X0   float64 `json:"x0"`
	Y0   float64 `json:"y0"`
	X1   float64 `json:"x1"`
	Y1   float64 `json:"y1"`
}

// AskInput is a question from the ask box.
type AskInput struct {
	Question string   `json:"question"`
	PaperIDs []string `json:"paperIds"` // empty: the whole library
	Strategy string   `json:"strategy"` // "": the settings' strategy
	Budget   int      `json:"budget"`   // 0: the settings' budget
	// Unnamed: do not read the question as naming a paper ("Read as a
	// question about X" was wrong): every paper is ranked by its text.
	Unnamed bool `json:"unnamed,omitempty"`
}

// AnswerView is an answer with its evidence, as the ask view shows it.
type AnswerView struct {
	ID        string         `json:"id"`
	Question  string         `json:"question"`
	Text      string         `json:"text"` // with [n] markers, n = 1-based evidence index
	Mode      string         `json:"mode"` // "extractive" or "llm"
	Strategy  string         `json:"strategy"`
	NotFound  bool           `json:"notFound"`
	Verdict   string         `json:"verdict"` // yes/no questions: "yes", "no" or "unclear"; else ""
	Model     string         `json:"model"`
	CreatedAt string         `json:"createdAt"` // RFC 3339
	PaperIDs  []string       `json:"paperIds"`
	Evidence  []EvidenceView `json:"evidence"`
	// Papers answers a which-papers question: one paper a line, each with
	// the sentence of its own text that states it; Cite is the 1-based
	// index of its passage in Evidence (expand it for the path).
	Papers []PaperFindingView `json:"papers"`
	Diag   DiagView           `json:"diag"`
	// RemovedPapers names the cited papers removed from the library since
	// (a saved answer reopened): its passages are shown as saved.
	RemovedPapers []string `json:"removedPapers"`
}

// PaperFindingView is one paper of a which-papers answer.
type PaperFindingView struct {
	PaperID  string   `json:"paperId"`
	Title    string   `json:"title"`
	Sentence string   `json:"sentence"`
	Path     []string `json:"path"`
	Pages    []int    `json:"pages"`
	NodeID   string   `json:"nodeId"`
	Score    float64  `json:"score"`
	Cite     int      `json:"cite"`
}

// EvidenceView is one evidence passage and its root-to-leaf path.
type EvidenceView struct {
	PaperID    string    `json:"paperId"`
	PaperTitle string    `json:"paperTitle"`
	NodeID     string    `json:"nodeId"` // the leaf
	Kind       string    `json:"kind"`
	Role       string    `json:"role,omitempty"` // the leaf's role: "table" (Text in papertree's table form), "formula", "code", ...
	Path       []string  `json:"path"`           // titles from the paper down to the leaf's section
	PathIDs    []string  `json:"pathIds"`        // node ids along Path (same length)
	Text       string    `json:"text"`
	Pages      []int     `json:"pages"`
	Boxes      []BoxView `json:"boxes"`
	Score      float64   `json:"score"`
	Tokens     int       `json:"tokens"`
}

// DiagView is how an answer was made.
type DiagView struct {
	SectionEntropy   float64            `json:"sectionEntropy"`
	TokensUsed       int                `json:"tokensUsed"`
	Budget           int                `json:"budget"`
	Sections         int                `json:"sections"`
	Timings          map[string]float64 `json:"timings"` // milliseconds per step
	LLMTokens        map[string]int     `json:"llmTokens"`
	Fallbacks        []string           `json:"fallbacks"`
	DroppedCitations int                `json:"droppedCitations"`
	Selection        *SelectionView     `json:"selection,omitempty"` // fable/structrag: papers chosen and why (selection.go)
	// Route is the kind of answer the default strategy (auto) chose:
	// "single", "which-papers" or "compare"; RouteWhy says why and
	// RouteBy who chose it: "llm" (the router prompt) or "rules".
	Route    string `json:"route"`
	RouteWhy string `json:"routeWhy"`
	RouteBy  string `json:"routeBy,omitempty"`
	// Named is the paper a library-wide question was read as naming (the
	// answer shows it first); nil when it names none.
	Named *NamedView `json:"named,omitempty"`
	// Unnamed: asked, at the researcher's word, without reading the
	// question as naming a paper (AskInput.Unnamed).
	Unnamed bool `json:"unnamed,omitempty"`
	// AskOf: papers the reply offers to ask the question of, when it
	// could not tell which one the question means.
	AskOf []NamedView `json:"askOf,omitempty"`
}

// NamedView is the paper a library-wide question names: searched alone,
// or ranked first among others.
type NamedView struct {
	PaperID string `json:"paperId"`
	Title   string `json:"title"`
	Alone   bool   `json:"alone"`
}

// HistoryItem is one saved answer in the history list.
type HistoryItem struct {
	ID        string `json:"id"`
	Question  string `json:"question"`
	Text      string `json:"text"`
	Mode      string `json:"mode"`
	NotFound  bool   `json:"notFound"`
	Evidence  int    `json:"evidence"`
	CreatedAt string `json:"createdAt"`
}

// FileFailure is one file that could not be indexed.
type FileFailure struct {
	Path    string `json:"path"`
	Code    string `json:"code"`    // papertree.Code, e.g. "encrypted"
	Message string `json:"message"` // user-safe
}

// Summary is the result of an indexing job.
type Summary struct {
	Indexed  int           `json:"indexed"`
	Skipped  int           `json:"skipped"` // already indexed and unchanged
	Failures []FileFailure `json:"failures"`
	Millis   int64         `json:"millis"` // wall time of the job
	// Duplicates are files not added because the same PDF is in the
	// library under another path (Of); Moved are papers whose file was
	// moved or renamed (from Of to Path), kept with their corrections.
	Duplicates []SameFile `json:"duplicates"`
	Moved      []SameFile `json:"moved"`
}

// SameFile pairs a file with another file of the same content.
type SameFile struct {
	Path string `json:"path"`
	Of   string `json:"of"`
}

// AppInfo describes the running app for the status bar.
type AppInfo struct {
	Name       string `json:"name"`
	Version    string `json:"version"`
	LibraryDir string `json:"libraryDir"`
	Backend    bool   `json:"backend"` // false while no Library is wired
}

// ErrorView is what a failed bound call rejects with in the frontend.
type ErrorView struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}
