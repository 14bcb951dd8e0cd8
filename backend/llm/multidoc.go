package llm

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// LLM operations of the multi-paper strategies: FABLE's document selection
// and node navigation, StructRAG's router, structurizer and utilizer
// (decompose, extract). Each returns its Outcome; on a fallback the caller
// (the strategy, through library hooks) uses its offline stand-in.
const (
	OpFableSelect       = "fable_select"
	OpFableNavigate     = "fable_navigate"
	OpStructRoute       = "structrag_route"
	OpStructurize       = "structrag_structurize"
	OpStructDecompose   = "structrag_decompose"
	OpStructExtract     = "structrag_extract"
	maxToCEntriesPerDoc = 40
)

// ToCDoc is one document's table of contents for FABLE's prompts.
type ToCDoc struct {
	ID      int64
	Title   string
	Entries []ToCEntry
}

// ToCEntry is one internal node: its id, heading path and summary.
type ToCEntry struct {
	ID      int64
	Path    string
	Summary string
}

func clipToC(docs []ToCDoc) []ToCDoc {
	out := make([]ToCDoc, len(docs))
	budget := maxPromptTextBytes
	for i, d := range docs {
		out[i] = ToCDoc{ID: d.ID, Title: truncate(d.Title, 200)}
		for j, e := range d.Entries {
			if j >= maxToCEntriesPerDoc || budget <= 0 {
				break
			}
			e.Path, e.Summary = truncate(e.Path, 200), truncate(e.Summary, 300)
			budget -= len(e.Path) + len(e.Summary)
			out[i].Entries = append(out[i].Entries, e)
		}
	}
	return out
}

// ids reads a list of integer ids from v (a list, or the list under keys).
func ids(v any, keys ...string) []int64 {
	arr, ok := list(v, keys...)
	if !ok {
		return nil
	}
	var out []int64
	for _, e := range arr {
		switch x := e.(type) {
		case float64:
			out = append(out, int64(x))
		case string:
			if n, err := strconv.ParseInt(strings.Trim(strings.TrimSpace(x), "[]()#doc "), 10, 64); err == nil {
				out = append(out, n)
			}
		case map[string]any:
			if f, ok := field(x, "id", "doc_id", "node_id"); ok {
				if n, ok := num(f); ok {
					out = append(out, int64(n))
				}
			}
		}
	}
	return out
}

// FableSelect asks the LLM which documents hold what the question needs,
// from their ToC entries and summaries (FABLE LLM_select). Unknown ids are
// the caller's to drop. An empty list is a valid answer ("none").
func (o *Ops) FableSelect(ctx context.Context, query string, docs []ToCDoc) ([]int64, string, Outcome) {
	data := struct {
		Query string
		Docs  []ToCDoc
	}{clip(query), clipToC(docs)}
	resp, out, ok := o.call(ctx, OpFableSelect, data, true, Temp(0), 400, nil)
	if !ok {
		return nil, "", out
	}
	v, err := extractJSON(resp.Content)
	if err != nil {
		return nil, "", fallback(out, "the LLM output was not JSON", err)
	}
	got := ids(v, "doc_ids", "docs", "documents", "ids")
	if _, isList := list(v, "doc_ids", "docs", "documents", "ids"); !isList {
		return nil, "", fallback(out, "the LLM output had no document list", nil)
	}
	reason := ""
	if m, ok := v.(map[string]any); ok {
		if r, ok := field(m, "reason", "why", "explanation"); ok {
			reason, _ = str(r)
		}
	}
	return got, truncate(reason, 300), out
}

// FableNavigate asks the LLM for the sections (node ids) of the selected
// documents that cover the question (FABLE LLM_navigate).
func (o *Ops) FableNavigate(ctx context.Context, query string, docs []ToCDoc) ([]int64, Outcome) {
	data := struct {
		Query string
		Docs  []ToCDoc
	}{clip(query), clipToC(docs)}
	resp, out, ok := o.call(ctx, OpFableNavigate, data, true, Temp(0), 400, nil)
	if !ok {
		return nil, out
	}
	v, err := extractJSON(resp.Content)
	if err != nil {
		return nil, fallback(out, "the LLM output was not JSON", err)
	}
	got := ids(v, "node_ids", "nodes", "sections", "ids")
	if len(got) == 0 {
		return nil, fallback(out, "the LLM chose no section", nil)
	}
	return got, out
}

// StructTypes are StructRAG's five structure types in the official code's
// parser priority order.
var StructTypes = []string{"table", "graph", "algorithm", "catalogue", "chunk"}

// StructRoute asks the LLM for the structure type (StructRAG router). A
// JSON answer is read first; otherwise the code's substring parser (table
// > graph > algorithm > catalogue) applies and anything else is chunk, which
// is reported as a repair.
func (o *Ops) StructRoute(ctx context.Context, query string, titles []string) (string, string, Outcome) {
	ts := make([]string, 0, len(titles))
	for i, t := range titles {
		if i >= 60 {
			break
		}
		ts = append(ts, truncate(t, 200))
	}
	data := struct {
		Query  string
		Titles []string
	}{clip(query), ts}
	resp, out, ok := o.call(ctx, OpStructRoute, data, true, Temp(0), 200, nil)
	if !ok {
		return "", "", out
	}
	text := stripThink(resp.Content)
	reason := ""
	if v, err := extractJSON(text); err == nil {
		if m, ok := v.(map[string]any); ok {
			if t, ok := field(m, "type", "structure", "decision"); ok {
				if s, ok := str(t); ok {
					text = s
				}
			}
			if r, ok := field(m, "reason", "why"); ok {
				reason, _ = str(r)
			}
		}
	}
	low := strings.ToLower(text)
	for _, t := range StructTypes[:4] {
		if strings.Contains(low, t) {
			return t, truncate(reason, 300), out
		}
	}
	if strings.Contains(low, "chunk") {
		return "chunk", truncate(reason, 300), out
	}
	out.Reason = "the LLM named no structure type; chunk"
	return "chunk", "", out
}

// StructSource is one tagged passage of a paper for the structurizer.
type StructSource struct {
	Tag   string
	Path  string
	Pages string
	Text  string
}

// StructItem is one structured item with the source tags it cites.
type StructItem struct {
	Text    string
	Sources []string
}

// structInstructions are the paper's structurizer instructions (Fig. 7),
// with the provenance requirement added; Example shows one item's text.
var structInstructions = map[string]struct{ Instruction, Example string }{
	"table": {"According to the requirements described in the Requirement section, extract the complete relevant tables from the Raw Content. Note that when constructing the table, you should include the table title and source information. First, identify the keywords in the Requirement, including entity names and attribute names, and then use these keywords to extract information from the Raw Content. If the Raw Content does not contain the information required by the Requirement, extract only a small amount of information that is most relevant to the Requirement. Output one table row per item, as 'column: value'.",
		"Dataset: SST-2 (movie reviews)"},
	"graph": {"According to the requirements described in the Requirement section, extract the necessary triples from the Raw Content. Instead of extracting all triples from the text, analyze the relationships and entities mentioned in the Requirement and only extract the relevant triples. Ensure that the head and tail are as complete as possible and consistent with the original text without any abbreviations. Output one triple per item.",
		"{head: \"...\", relation: \"...\", tail: [\"...\"]}"},
	"algorithm": {"Based on the requirements described in the Requirement section, extract the necessary algorithm pseudocode from the Raw Content, ensuring that each action in the pseudocode is linked to specific information from the original document. If the requirements cannot be resolved using pseudocode, do not force it; simply list the information that can address the requirements. Output one step per item.",
		"1. if the data is small: use the pre-trained model (according to the original content)"},
	"catalogue": {"According to the requirements described in the Requirement section, extract the necessary directory structure, which is a hierarchical summary. The levels and the number of nodes at each level should be determined based on the specific context. Make sure that each level of the summary has a unique identifier (1., 1.1, 1.1.1) and that each summary is detailed. Output one catalogue entry per item.",
		"1.1 Evaluation: the paper reports accuracy on ..."},
}

// Structurize rewrites one paper's tagged sources into items of typ
// (StructRAG structurizer); it returns the description b and the items.
func (o *Ops) Structurize(ctx context.Context, query, typ, title string, sources []StructSource) (string, []StructItem, Outcome) {
	ins, ok := structInstructions[typ]
	if !ok {
		return "", nil, fallback(Outcome{Op: OpStructurize}, fmt.Sprintf("no structurizer for type %q", typ), nil)
	}
	budget := maxPromptTextBytes
	var src []StructSource
	for _, s := range sources {
		s.Text = truncate(s.Text, 2000)
		if budget -= len(s.Text); budget < 0 {
			break
		}
		src = append(src, s)
	}
	data := struct {
		Instruction, Example, Query, Title string
		Sources                            []StructSource
	}{ins.Instruction, ins.Example, clip(query), truncate(title, 200), src}
	resp, out, ok := o.call(ctx, OpStructurize, data, true, Temp(0), 1200, nil)
	if !ok {
		return "", nil, out
	}
	v, err := extractJSON(resp.Content)
	if err != nil {
		return "", nil, fallback(out, "the LLM output was not JSON", err)
	}
	arr, ok := list(v, "items", "rows", "triples", "steps", "entries")
	if !ok {
		return "", nil, fallback(out, "the LLM output had no items", nil)
	}
	var items []StructItem
	for _, e := range arr {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		var it StructItem
		if t, ok := field(m, "text", "row", "triple", "step", "entry", "content"); ok {
			switch x := t.(type) {
			case string:
				it.Text = strings.TrimSpace(x)
			default:
				it.Text = strings.TrimSpace(fmt.Sprint(x))
			}
		}
		if s, ok := field(m, "sources", "source", "tags", "tag"); ok {
			switch x := s.(type) {
			case string:
				it.Sources = []string{x}
			case []any:
				for _, y := range x {
					if ys, ok := y.(string); ok {
						it.Sources = append(it.Sources, ys)
					}
				}
			}
		}
		if it.Text != "" {
			items = append(items, it)
		}
	}
	desc := ""
	if m, ok := v.(map[string]any); ok {
		if d, ok := field(m, "description", "summary"); ok {
			desc, _ = str(d)
		}
	}
	if len(items) == 0 {
		return desc, nil, fallback(out, "the LLM output had no usable item", nil)
	}
	return truncate(desc, 128), items, out
}

// StructDecompose splits the question into sub-questions given the
// descriptions of the structured knowledge (StructRAG utilizer, Eq. 4).
func (o *Ops) StructDecompose(ctx context.Context, query string, descriptions []string) ([]string, Outcome) {
	var ds []string
	for i, d := range descriptions {
		if i >= 40 {
			break
		}
		ds = append(ds, truncate(d, 300))
	}
	data := struct {
		Query        string
		Descriptions []string
	}{clip(query), ds}
	resp, out, ok := o.call(ctx, OpStructDecompose, data, true, Temp(0), 400, nil)
	if !ok {
		return nil, out
	}
	var subs []string
	if v, err := extractJSON(resp.Content); err == nil {
		if arr, ok := list(v, "subquestions", "sub_questions", "subqueries", "questions"); ok {
			for _, e := range arr {
				if s, ok := str(e); ok {
					subs = append(subs, unquote(s))
				}
			}
		}
	} else {
		subs = listItems(cleanText(resp.Content))
	}
	subs = dedupe(subs, 6)
	if len(subs) == 0 {
		return nil, fallback(out, "the LLM output had no sub-questions", nil)
	}
	return subs, out
}

// StructExtract returns the 0-based indexes of the items that help answer
// subQuery (StructRAG utilizer, Eq. 5).
func (o *Ops) StructExtract(ctx context.Context, subQuery, typ string, items []string) ([]int, Outcome) {
	its := make([]string, 0, len(items))
	budget := maxPromptTextBytes
	for _, t := range items {
		t = truncate(t, 600)
		if budget -= len(t); budget < 0 {
			break
		}
		its = append(its, t)
	}
	data := struct {
		Query, Kind string
		Items       []string
	}{clip(subQuery), typ, its}
	resp, out, ok := o.call(ctx, OpStructExtract, data, true, Temp(0), 300, nil)
	if !ok {
		return nil, out
	}
	v, err := extractJSON(resp.Content)
	if err != nil {
		return nil, fallback(out, "the LLM output was not JSON", err)
	}
	if _, ok := list(v, "keep", "items", "indexes", "ids"); !ok {
		return nil, fallback(out, "the LLM output had no item list", nil)
	}
	var keep []int
	for _, n := range ids(v, "keep", "items", "indexes", "ids") {
		if n >= 1 && int(n) <= len(its) {
			keep = append(keep, int(n)-1)
		}
	}
	return keep, out
}
