package llm

import (
	"context"
	"strings"
)

// OpAutoRoute is the default strategy's router: StructRAG's hybrid
// structure router prompt (the official code's prompts/route.txt: the
// document titles as core content, few-shot examples, one structure word)
// over the three answer structures the app shows: a comparison table, a
// list of papers, or chunks (passages of the papers).
const OpAutoRoute = "auto_route"

// Auto router structures (AutoRoute's route values).
const (
	AutoTable = "table"
	AutoList  = "list"
	AutoChunk = "chunk"
)

// AutoRoute asks the LLM which structure the question needs, given the
// titles of the papers in scope (the router's core content C). It returns
// AutoTable, AutoList or AutoChunk and the model's reason. Unlike the
// official code, which reads any reply without a type word as "chunk", a
// reply that does not name exactly one of the three is a fallback: the
// caller's rules then decide, not a default the model never chose.
func (o *Ops) AutoRoute(ctx context.Context, query string, titles []string) (string, string, Outcome) {
	ts := make([]string, 0, min(len(titles), 60))
	for _, t := range titles {
		if len(ts) == 60 {
			break
		}
		if t = strings.TrimSpace(t); t != "" {
			ts = append(ts, truncate(t, 200))
		}
	}
	data := struct {
		Query  string
		Titles []string
	}{clip(query), ts}
	resp, out, ok := o.call(ctx, OpAutoRoute, data, true, Temp(0), 120, nil)
	if !ok {
		return "", "", out
	}
	text := strings.TrimSpace(stripThink(resp.Content))
	reason := ""
	if v, err := extractJSON(text); err == nil {
		m, isObj := v.(map[string]any)
		t, hasType := field(m, "type", "structure", "route")
		s, isStr := str(t)
		if !isObj || !hasType || !isStr {
			return "", "", fallback(out, "the LLM router's JSON names no structure", nil)
		}
		text = s
		if r, ok := field(m, "reason", "why"); ok {
			reason, _ = str(r)
		}
	}
	word := strings.Trim(strings.ToLower(strings.TrimSpace(text)), " .\"'`")
	switch word {
	case AutoTable, AutoList, AutoChunk:
		return word, truncate(strings.TrimSpace(reason), 300), out
	case "chunks":
		return AutoChunk, truncate(strings.TrimSpace(reason), 300), out
	}
	return "", "", fallback(out, "the LLM router named no structure (table, list or chunk): "+truncate(text, 80), nil)
}
