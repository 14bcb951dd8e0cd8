package llm

import (
	"context"
	"strings"
)

// The LLM steps of the structure-aware strategies (rdr2, disretrieval).
// Like every operation here they return their fallback with an Outcome that
// says why; the callers (retrieve via library hooks) record the outcomes in
// the answer's diagnostics.
const (
	// OpRoute is RDR²'s router: one serialised retrieval subtree in, lines
	// of [ANSWER]/[EXPAND] actions or "Cannot answer" out (prompt C.2).
	OpRoute = "rdr2_route"
	// OpDiscourseSummary is DISRetrieval's f_LLM: the summary of two child
	// nodes of a discourse tree (prompt of App. B.5).
	OpDiscourseSummary = "discourse_summary"
)

// routeMaxTokens caps the router's output: actions are short (the paper
// reports +0.017k output tokens per routing step).
const routeMaxTokens = 256

// Route asks the LLM router for its actions on one retrieval subtree and
// returns the raw output (parsing and validation need the subtree, so they
// are the caller's: retrieve.parseRoute). ok=false in the Outcome
// (Fallback) means the caller must route offline.
func (o *Ops) Route(ctx context.Context, question, subtree string) (string, Outcome) {
	data := struct{ Question, Context string }{strings.TrimSpace(question), clip(subtree)}
	resp, out, ok := o.call(ctx, OpRoute, data, false, Temp(0), routeMaxTokens, nil)
	if !ok {
		return "", out
	}
	return stripThink(resp.Content), out
}

// SummarizePair condenses two discourse-tree children into one text of at
// most 200 words (DISRetrieval's prompt, at temperature 0 for
// reproducibility; the paper's code samples at 0.95). The fallback is
// extractive(): the caller's extractive condensation.
func (o *Ops) SummarizePair(ctx context.Context, left, right string, extractive func() string) (string, Outcome) {
	fb := func() string {
		if extractive != nil {
			return extractive()
		}
		return leadWords(strings.TrimSpace(left+" "+right), 200)
	}
	if strings.TrimSpace(left+right) == "" {
		return fb(), Outcome{Op: OpDiscourseSummary, Fallback: true, Reason: "empty input"}
	}
	data := struct{ Left, Right string }{truncate(left, maxPromptTextBytes/2), truncate(right, maxPromptTextBytes/2)}
	resp, out, ok := o.call(ctx, OpDiscourseSummary, data, false, Temp(0), 400, nil)
	if !ok {
		return fb(), out
	}
	s := strings.Join(strings.Fields(unquote(cleanText(resp.Content))), " ")
	if s == "" || refusalRE.MatchString(s) {
		return fb(), fallback(out, "the LLM output was empty or a refusal", nil)
	}
	if words := strings.Fields(s); len(words) > 200 {
		s = strings.Join(words[:200], " ")
	}
	return s, out
}
