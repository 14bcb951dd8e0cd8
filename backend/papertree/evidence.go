package papertree

import "time"

// Evidence is one retrieved leaf, always resolvable to its node, its
// root-to-leaf path, its pages and its boxes. Answers may cite only evidence
// they were given.
type Evidence struct {
	PaperID    int64    `json:"paper_id"`
	PaperTitle string   `json:"paper_title"`
	NodeID     int64    `json:"node_id"`
	Kind       Kind     `json:"kind"`
	Role       Role     `json:"role,omitempty"` // the leaf's role: "table" leaves hold a grid (ParseTable)
	Path       []string `json:"path"`           // titles from the paper title down to the leaf's section
	PathIDs    []int64  `json:"path_ids"`       // node ids along Path (same length)
	SectionID  int64    `json:"section_id"`
	Text       string   `json:"text"`
	Summary    string   `json:"summary,omitempty"`
	Pages      []int    `json:"pages"`
	Boxes      []Box    `json:"boxes,omitempty"`
	Score      float64  `json:"score"`
	Tokens     int      `json:"tokens"`
	Order      int      `json:"order"` // document order inside the paper
	// Span, when set, says that Text is the part [Start, End) (byte offsets)
	// of the node's full text: sentence-level strategies (disretrieval) cite
	// sentences inside their segment, and the UI highlights them there.
	Span *TextSpan `json:"span,omitempty"`
}

// TextSpan is a byte range of a node's text.
type TextSpan struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Diagnostics describes how an answer's context was assembled (PT-RAG sec. 3.6).
type Diagnostics struct {
	SectionEntropy   float64            `json:"section_entropy"`
	TokensUsed       int                `json:"tokens_used"`
	Budget           int                `json:"budget"`
	Sections         int                `json:"sections"` // distinct sections in the context
	Timings          map[string]float64 `json:"timings_ms,omitempty"`
	LLMTokens        map[string]int     `json:"llm_tokens,omitempty"` // prompt/completion tokens per operation
	Fallbacks        []string           `json:"fallbacks,omitempty"`  // LLM operations that fell back, with reasons
	DroppedCitations int                `json:"dropped_citations,omitempty"`
	// Selection says, for multi-paper strategies (fable, structrag), which
	// papers were chosen and why, and how the evidence was structured.
	Selection *Selection `json:"selection,omitempty"`
	// Absent lists the words a "not in these papers" reply says are never
	// mentioned, each with the papers it speaks of: checked against the
	// full-text index before it was said, and checkable again by anyone.
	Absent []AbsenceClaim `json:"absent,omitempty"`
	// Route is the kind of answer the default strategy (auto) chose for
	// the question: "single" (pt-rag), "which-papers" (a list of papers)
	// or "compare" (structrag's table); RouteWhy says why.
	Route    string `json:"route,omitempty"`
	RouteWhy string `json:"route_why,omitempty"`
	RouteBy  string `json:"route_by,omitempty"` // "llm" (the router prompt) or "rules" (the question's form)
	// Named is the paper a library-wide question was read as naming ("the
	// GloVe paper", "Pennington et al."), shown with the answer so that a
	// wrong reading is seen at once; nil when it names none.
	Named *NamedPaper `json:"named,omitempty"`
	// Unnamed: the question was, as the researcher asked, not read as
	// naming a paper (every paper ranked by its text).
	Unnamed bool `json:"unnamed,omitempty"`
	// AskOf lists the papers a reply that could not tell which paper the
	// question means offers to ask it of (a details question naming no
	// one paper clearly: the papers its closest passages come from).
	AskOf []NamedPaper `json:"ask_of,omitempty"`
}

// NamedPaper is the paper a library-wide question names.
type NamedPaper struct {
	ID    int64  `json:"paper_id"`
	Title string `json:"title"`
	// Alone: it was searched alone (it holds what the question asks);
	// otherwise it was ranked first among others.
	Alone bool `json:"alone,omitempty"`
}

// AbsenceClaim is one word a reply says is never mentioned.
type AbsenceClaim struct {
	Word string `json:"word"`
	// Papers the claim speaks of; empty = every paper of the library.
	Papers []int64 `json:"papers,omitempty"`
}

// Selection is the trace of a multi-paper strategy: the papers it considered
// with the signals that chose them (scores, or the LLM's choice) and, for
// StructRAG, the structure type the router picked and why.
type Selection struct {
	Papers      []PaperChoice `json:"papers"`
	Branch      string        `json:"branch,omitempty"`       // fable: "docs" (whole papers fit the budget) or "nodes"
	Structure   string        `json:"structure,omitempty"`    // structrag: table, graph, algorithm, catalogue or chunk
	RouteReason string        `json:"route_reason,omitempty"` // why the router chose Structure
	RoutedBy    string        `json:"routed_by,omitempty"`    // "llm" or "rules"
	SubQueries  []string      `json:"sub_queries,omitempty"`  // structrag utilizer's decomposition
	Rendered    string        `json:"rendered,omitempty"`     // the structure as Markdown (table rows, triples, outline)
}

// PaperChoice is one paper a multi-paper strategy considered.
type PaperChoice struct {
	PaperID    int64   `json:"paper_id"`
	PaperTitle string  `json:"paper_title"`
	Chosen     bool    `json:"chosen"`
	By         string  `json:"by"`     // the paths that chose it: "llm", "toc", "vector", joined with "+"
	Reason     string  `json:"reason"` // one line: the scores or the LLM's choice
	Score      float64 `json:"score"`  // the fused document score used for ordering
}

// PaperFinding is one paper of a which-papers answer: the sentence of the
// paper's own text (a body passage, not its reference list, not a sentence
// about other work) that states what was asked, where it is, and how
// strongly it states it. Evidence[Cite-1] is the passage that holds it.
type PaperFinding struct {
	PaperID  int64    `json:"paper_id"`
	Title    string   `json:"title"`
	Sentence string   `json:"sentence"`
	Path     []string `json:"path"`
	Pages    []int    `json:"pages"`
	NodeID   int64    `json:"node_id"`
	Score    float64  `json:"score"`
	// Mentions counts the paper's own sentences that state it.
	Mentions int `json:"mentions"`
	// Cite is the 1-based index of the finding's passage in the answer's
	// Evidence (its citation marker).
	Cite int `json:"cite"`
}

// Answer is a question's answer with its evidence.
type Answer struct {
	ID       int64  `json:"answer_id,omitempty"`
	Question string `json:"question"`
	Text     string `json:"answer"`
	Mode     string `json:"mode"` // "extractive", "llm" or ModeDetails
	Strategy string `json:"strategy"`
	NotFound bool   `json:"not_found"`
	// Verdict answers a yes/no question: "yes", "no", or "unclear" when the
	// evidence does not decide it; empty for other questions.
	Verdict  string     `json:"verdict,omitempty"`
	Evidence []Evidence `json:"evidence"`
	// Papers answers a which-papers question: every paper of the scope
	// whose own text states what was asked, strongest first; empty for
	// other questions and when no paper states it (NotFound).
	Papers    []PaperFinding `json:"paper_findings,omitempty"`
	Diag      Diagnostics    `json:"diagnostics"`
	PaperIDs  []int64        `json:"papers,omitempty"` // the scope asked about; empty = whole library
	Model     string         `json:"model,omitempty"`
	CreatedAt time.Time      `json:"created_at"`
}

// RouteList is Diagnostics.Route of a which-papers answer (the same value
// as query.RouteList, which papertree cannot import).
const RouteList = "which-papers"

// FindingsFromEvidence rebuilds a which-papers answer's list from its
// evidence (one passage a paper, its stating sentence as Span), for answers
// read back from the history, which stores the evidence only.
func FindingsFromEvidence(ev []Evidence) []PaperFinding {
	var out []PaperFinding
	for i, e := range ev {
		f := PaperFinding{PaperID: e.PaperID, Title: e.PaperTitle, Sentence: e.Text, Path: e.Path, Pages: e.Pages,
			NodeID: e.NodeID, Score: e.Score, Cite: i + 1}
		if e.Span != nil && e.Span.Start >= 0 && e.Span.Start <= e.Span.End && e.Span.End <= len(e.Text) {
			f.Sentence = e.Text[e.Span.Start:e.Span.End]
		}
		out = append(out, f)
	}
	return out
}

// ModeDetails is the Mode of an answer read from the paper's details (who
// wrote it, when and where it appeared, its DOI) instead of its text.
const ModeDetails = "details"
