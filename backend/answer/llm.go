package answer

import (
	"context"
	"strings"

	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/papertree"
)

// Generated is an answer written by the LLM from evidence.
type Generated struct {
	// Text carries [n] markers, n = 1-based position in the evidence; every
	// marker resolves to an evidence item (unknown ones were removed).
	Text string
	// NotFound: the model said the evidence does not answer; Text then
	// starts with NotFoundText and gives the model's reason.
	NotFound bool
	// Cited are the cited evidence indexes (0-based), in order of first citation.
	Cited []int
	// Dropped counts citation markers that named no evidence and were removed.
	Dropped int
}

// Refs converts evidence into the answer prompt's numbered items: item i
// is "[i+1]", with its paper, its section path below the paper title, its
// summary and its text.
func Refs(ev []papertree.Evidence) []llm.EvidenceRef {
	refs := make([]llm.EvidenceRef, len(ev))
	for i, e := range ev {
		path := e.Path
		if len(path) > 0 && path[0] == e.PaperTitle {
			path = path[1:]
		}
		refs[i] = llm.EvidenceRef{PaperTitle: e.PaperTitle, Path: path, Summary: e.Summary, Text: e.Text}
	}
	return refs
}

// LLM writes the answer to question from ev with ops.Answer, streaming the
// text (already cleaned of unknown citation markers) to onDelta, which may
// be nil. ok is false when the operation fell back (no LLM, no evidence,
// the call failed, also mid-stream, or the output was empty): the caller
// then gives the extractive answer and records out, and must discard what
// onDelta showed. question is the user's original question, also for
// multi-document questions whose retrieval used a rewritten one.
func LLM(ctx context.Context, ops *llm.Ops, question string, ev []papertree.Evidence, onDelta func(string)) (g Generated, out llm.Outcome, ok bool) {
	res, out := ops.Answer(ctx, llm.AnswerInput{Question: question, Evidence: Refs(ev)}, onDelta)
	if out.Fallback {
		return Generated{}, out, false
	}
	g = Generated{Text: res.Text, NotFound: res.NotFound, Cited: res.Citations, Dropped: res.UnknownCitations}
	if g.NotFound && !strings.HasPrefix(g.Text, NotFoundText) {
		g.Text = strings.TrimSpace(NotFoundText + " " + g.Text)
	}
	return g, out, true
}

// LeadingVerdict reads the verdict a written answer opens with: "Yes" or
// "No" as its first word, else unclear.
func LeadingVerdict(text string) string {
	f := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return r == ' ' || r == ',' || r == '.' || r == ':' || r == ';' || r == '!' || r == '\n'
	})
	if len(f) > 0 {
		switch f[0] {
		case "yes":
			return VerdictYes
		case "no":
			return VerdictNo
		}
	}
	return VerdictUnclear
}
