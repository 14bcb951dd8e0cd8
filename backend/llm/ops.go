package llm

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

// Operation names, used for usage accounting (ChatRequest.Op), in Outcome
// and in answer diagnostics.
const (
	OpHeadingRelation  = "heading_relation"
	OpSummary          = "summary"
	OpTitleRelevance   = "title_relevance"
	OpDecompose        = "decompose"
	OpEntities         = "entities"
	OpMultiDocRewrite  = "multidoc_transform"
	OpAnswer           = "answer"
	reasonNoLLM        = "no LLM configured"
	maxPromptTextBytes = 24000
	// minOpTokens is the smallest completion cap an operation asks for: the
	// caps only stop runaway output (JSON mode can loop on whitespace), and
	// reasoning models spend tokens on a <think> block before answering.
	minOpTokens = 1024
)

// Outcome says how an operation produced its result. Fallback is true when
// the result is the fallback (Reason says why in plain words; Err holds the
// call's error if there was one). When Fallback is false, Reason may still
// note a repair (e.g. titles without a score).
type Outcome struct {
	Op               string        `json:"op"`
	Fallback         bool          `json:"fallback"`
	Reason           string        `json:"reason,omitempty"`
	Err              error         `json:"-"`
	Model            string        `json:"model,omitempty"`
	PromptTokens     int           `json:"prompt_tokens,omitempty"`
	CompletionTokens int           `json:"completion_tokens,omitempty"`
	Duration         time.Duration `json:"duration,omitempty"`
}

// String is one line for Diagnostics.Fallbacks and logs.
func (o Outcome) String() string {
	switch {
	case o.Fallback:
		return o.Op + ": fallback (" + o.Reason + ")"
	case o.Reason != "":
		return o.Op + ": llm (" + o.Reason + ")"
	}
	return o.Op + ": llm"
}

// Ops runs PT-RAG's LLM operations with their fallbacks. A nil *Ops or a
// nil Client makes every operation return its fallback at once, so callers
// never branch on "is there an LLM". Ops is safe for concurrent use.
type Ops struct {
	Client Client
	// RelationThreshold: a heading relation whose top probability is below
	// it is replaced by the caller's rule result (default 0.5).
	RelationThreshold float64
	// SummaryMaxWords bounds summaries (default 80).
	SummaryMaxWords int
	// MaxEntities bounds ExtractEntities' result (default 8).
	MaxEntities int
	// AnswerMaxTokens caps the answer (0 = server default).
	AnswerMaxTokens int
}

// NewOps returns Ops over c (which may be nil) with default settings.
func NewOps(c Client) *Ops { return &Ops{Client: c} }

func (o *Ops) client() Client {
	if o == nil {
		return nil
	}
	return o.Client
}

func (o *Ops) threshold() float64 {
	if o == nil || o.RelationThreshold <= 0 {
		return 0.5
	}
	return o.RelationThreshold
}

// call renders a prompt and runs it. ok=false means the fallback must be
// used; out is then filled with the reason.
func (o *Ops) call(ctx context.Context, op string, data any, jsonMode bool, temp *float64, maxTokens int, onDelta func(string)) (ChatResponse, Outcome, bool) {
	out := Outcome{Op: op}
	c := o.client()
	if c == nil {
		return ChatResponse{}, fallback(out, reasonNoLLM, nil), false
	}
	msgs, err := render(op, data)
	if err != nil {
		return ChatResponse{}, fallback(out, "the prompt could not be built", err), false
	}
	if maxTokens > 0 && maxTokens < minOpTokens {
		maxTokens = minOpTokens
	}
	req := ChatRequest{Messages: msgs, Temperature: temp, MaxTokens: maxTokens, JSON: jsonMode, Op: op}
	var resp ChatResponse
	if onDelta != nil {
		resp, err = c.ChatStream(ctx, req, onDelta)
	} else {
		resp, err = c.Chat(ctx, req)
	}
	out.Model, out.PromptTokens, out.CompletionTokens, out.Duration = resp.Model, resp.PromptTokens, resp.CompletionTokens, resp.Duration
	if err != nil {
		return resp, fallback(out, "the LLM call failed: "+papertree.ErrorMessage(err), err), false
	}
	if strings.TrimSpace(stripThink(resp.Content)) == "" {
		return resp, fallback(out, "the LLM returned an empty output", nil), false
	}
	if what := injected(resp.Content, msgs); what != "" {
		return resp, fallback(out, "the LLM output contains "+what+" that the prompt did not", nil), false
	}
	return resp, out, true
}

var (
	// markupRE finds active web markup: a page, a script, an event
	// handler, a javascript: link. Summaries and answers are text; such
	// markup comes from a hostile or hijacked server (or a web page the
	// model was fed), and would be shown, stored and exported.
	markupRE = regexp.MustCompile(`(?i)<\s*(?:!doctype|html|head|body|script|iframe|object|embed|style|meta|link|form|svg)\b|<[^>]*\bon[a-z]+\s*=|javascript:`)
	// injectionRE finds instructions aimed at the next model that reads
	// the output (summaries go into later prompts): a prompt injection.
	injectionRE = regexp.MustCompile(`(?i)\b(?:ignore|disregard|forget|override)\b[^.\n]{0,40}\b(?:previous|prior|above|earlier|all|your|the system)\b[^.\n]{0,30}\b(?:instructions?|prompts?|rules|directions)\b|\bsystem prompt\b|\bnew instructions\s*:`)
)

// injected says what an output carries that is not the model's work on
// the prompt: web markup or instructions to a model. Text the prompt
// itself contains (a paper about web security quotes <script>) is the
// evidence, not an injection, and passes.
func injected(out string, msgs []Message) string {
	prompt := ""
	for _, m := range msgs {
		prompt += m.Content + "\n"
	}
	switch {
	case markupRE.MatchString(out) && !markupRE.MatchString(prompt):
		return "web markup (HTML or script)"
	case injectionRE.MatchString(out) && !injectionRE.MatchString(prompt):
		return "instructions aimed at a model (a prompt injection)"
	}
	return ""
}

func fallback(o Outcome, reason string, err error) Outcome {
	o.Fallback, o.Reason, o.Err = true, reason, err
	return o
}

func clip(s string) string { return truncate(strings.TrimSpace(s), maxPromptTextBytes) }

// ---- hierarchy inference (PT-RAG 3.2.1) ----

// RelationClass is the relation of a heading candidate to the previous heading.
type RelationClass string

const (
	RelChild      RelationClass = "child"       // one level below the previous heading
	RelSibling    RelationClass = "sibling"     // same level as the previous heading
	RelPop        RelationClass = "pop"         // back up to PopLevel (a descendant of an earlier ancestor)
	RelNotHeading RelationClass = "not_heading" // a false candidate
)

// Relations lists the four classes in a fixed order.
var Relations = []RelationClass{RelChild, RelSibling, RelPop, RelNotHeading}

// Relation is a classified heading pair.
type Relation struct {
	Class RelationClass             `json:"class"`
	Probs map[RelationClass]float64 `json:"probs,omitempty"` // sums to 1 when set
	// PopLevel is the level the next heading takes when Class is RelPop
	// (1 = top-level section); 0 otherwise.
	PopLevel int `json:"pop_level,omitempty"`
}

// HeadingContext describes one heading candidate as the rules see it.
type HeadingContext struct {
	Text  string `json:"text"`  // as printed, with its number ("3.2 Ablation")
	Level int    `json:"level"` // level assigned so far (1 = top-level); required for the previous heading
	// Style is the typography in words, e.g. "bold, 12pt (body 10pt)".
	Style string `json:"style,omitempty"`
	// Snippet is the start of the text after the heading (a few dozen words).
	Snippet string `json:"snippet,omitempty"`
	// Ancestors (previous heading only): titles of the open outline from the
	// paper title (root) down to the heading's parent.
	Ancestors []string `json:"ancestors,omitempty"`
}

// ClassifyHeadingRelation asks the LLM how next relates to prev (child,
// sibling, pop, not_heading) with a probability per class. Fallback: rule,
// the caller's rule-based result, returned unchanged when there is no LLM,
// the call fails, the output has no usable probabilities, or the top
// probability is below RelationThreshold.
func (o *Ops) ClassifyHeadingRelation(ctx context.Context, prev, next HeadingContext, rule Relation) (Relation, Outcome) {
	data := struct {
		Paper      string
		Ancestors  []string
		Prev, Next HeadingContext
	}{Prev: prev, Next: next}
	if len(prev.Ancestors) > 0 {
		data.Paper, data.Ancestors = prev.Ancestors[0], prev.Ancestors[1:]
	}
	data.Prev.Snippet, data.Next.Snippet = truncate(prev.Snippet, 300), truncate(next.Snippet, 300)
	resp, out, ok := o.call(ctx, OpHeadingRelation, data, true, Temp(0), 200, nil)
	if !ok {
		return rule, out
	}
	rel, reason := parseRelation(resp.Content, prev.Level)
	if reason != "" {
		return rule, fallback(out, reason, nil)
	}
	if p := rel.Probs[rel.Class]; p < o.threshold() {
		return rule, fallback(out, fmt.Sprintf("low confidence (%.2f < %.2f) for %q", p, o.threshold(), rel.Class), nil)
	}
	return rel, out
}

var relationAliases = map[string]RelationClass{
	"child": RelChild, "subsection": RelChild, "children": RelChild,
	"sibling": RelSibling, "same": RelSibling, "samelevel": RelSibling,
	"pop": RelPop, "popup": RelPop, "ancestor": RelPop, "descendantofancestor": RelPop, "descendantofanearlierancestor": RelPop, "uncle": RelPop,
	"notheading": RelNotHeading, "notaheading": RelNotHeading, "none": RelNotHeading, "noheading": RelNotHeading,
}

// parseRelation reads {"child":p,...,"pop_level":n}, the same under
// "probs"/"probabilities", or {"relation":"sibling","confidence":0.9}.
// It returns a plain-words reason when the output is unusable.
func parseRelation(content string, prevLevel int) (Relation, string) {
	v, err := extractJSON(content)
	obj, isObj := v.(map[string]any)
	if err != nil || !isObj {
		return Relation{}, "the LLM output was not a JSON object"
	}
	src := obj
	if p, ok := field(obj, "probs", "probabilities", "distribution", "scores"); ok {
		if m, ok := p.(map[string]any); ok {
			src = m
		}
	}
	probs := map[RelationClass]float64{}
	for k, val := range src {
		if cls, ok := relationAliases[normKey(k)]; ok {
			if f, ok := num(val); ok && f >= 0 {
				probs[cls] += f
			}
		}
	}
	if len(probs) == 0 {
		if l, ok := field(obj, "relation", "label", "class", "answer"); ok {
			s, _ := l.(string)
			if cls, ok := relationAliases[normKey(s)]; ok {
				conf := 1.0
				if c, ok := field(obj, "confidence", "probability", "prob"); ok {
					if f, ok := num(c); ok {
						conf = math.Min(math.Max(f, 0), 1)
					}
				}
				probs[cls] = conf
				for _, r := range Relations {
					if r != cls {
						probs[r] = (1 - conf) / 3
					}
				}
			}
		}
	}
	sum := 0.0
	for _, p := range probs {
		sum += p
	}
	if sum <= 0 {
		return Relation{}, "the LLM output had no probabilities for the four relations"
	}
	rel := Relation{Probs: map[RelationClass]float64{}}
	best := -1.0
	for _, r := range Relations { // fixed order breaks ties deterministically
		p := probs[r] / sum
		rel.Probs[r] = p
		if p > best {
			best, rel.Class = p, r
		}
	}
	if rel.Class == RelPop {
		lvl := prevLevel - 1
		if l, ok := field(obj, "pop_level", "level", "target_level"); ok {
			if f, ok := num(l); ok && f >= 1 && f == math.Trunc(f) {
				lvl = int(f)
			}
		}
		if prevLevel > 0 && lvl >= prevLevel {
			// "pop" to the previous heading's own level is a sibling.
			rel.Class, lvl = RelSibling, 0
			rel.Probs[RelSibling] += rel.Probs[RelPop]
			rel.Probs[RelPop] = 0
		} else if lvl < 1 {
			return Relation{}, "the LLM chose \"pop\" without a valid level"
		}
		rel.PopLevel = lvl
	}
	return rel, ""
}

// ---- structure-anchored summaries (PT-RAG 3.2.2) ----

// SummaryInput carries the four signals of a structure-anchored summary.
type SummaryInput struct {
	PaperTitle  string
	Path        []string // root-to-section titles
	Segment     string
	PrevSummary string // "" for the first segment of a section (the prompt then uses a start token)
}

// Summarize writes the summary of one segment. Fallback: extractive(in)
// when extractive is non-nil, otherwise the segment's leading sentences up
// to SummaryMaxWords words; used when there is no LLM, the call fails, or
// the output is empty or a refusal.
func (o *Ops) Summarize(ctx context.Context, in SummaryInput, extractive func(SummaryInput) string) (string, Outcome) {
	maxWords := 80
	if o != nil && o.SummaryMaxWords > 0 {
		maxWords = o.SummaryMaxWords
	}
	fb := func() string {
		if extractive != nil {
			return extractive(in)
		}
		return leadWords(in.Segment, maxWords)
	}
	if strings.TrimSpace(in.Segment) == "" {
		return fb(), Outcome{Op: OpSummary, Fallback: true, Reason: "empty segment"}
	}
	data := struct {
		SummaryInput
		MaxWords int
	}{in, maxWords}
	data.Segment, data.PrevSummary = clip(in.Segment), truncate(in.PrevSummary, 2000)
	resp, out, ok := o.call(ctx, OpSummary, data, false, Temp(0), maxWords*3, nil)
	if !ok {
		return fb(), out
	}
	s := strings.Join(strings.Fields(unquote(cleanText(resp.Content))), " ")
	if s == "" || refusalRE.MatchString(s) {
		return fb(), fallback(out, "the LLM output was empty or a refusal", nil)
	}
	if words := strings.Fields(s); len(words) > 2*maxWords {
		s = leadWords(s, 2*maxWords)
	}
	return s, out
}

var refusalRE = regexp.MustCompile(`(?i)^(i'?m sorry|i am sorry|sorry, i|i cannot|i can't|as an ai)`)

// leadWords returns the leading sentences of s that fit in max words (at
// least the first sentence, cut at max words).
func leadWords(s string, max int) string {
	words := strings.Fields(s)
	if len(words) <= max {
		return strings.Join(words, " ")
	}
	cut := strings.Join(words[:max], " ")
	if i := strings.LastIndexAny(cut, ".!?"); i > len(cut)/3 {
		return cut[:i+1]
	}
	return cut + " ..."
}

// ---- F_sec: title relevance (PT-RAG 3.3, Eq. 1) ----

// TitleRelevance scores how well the query's intent matches each section
// title's conventional role, in [0,1], one score per title in order.
// Fallback: nil (the caller uses embedding similarity, Table 5) when there
// is no LLM, the call fails, the output is not JSON, or more than half of
// the titles got no score. Scores outside [0,1] are rescaled when the model
// used a 0-10 or 0-100 scale and clamped otherwise; titles the model left
// out score 0 (Outcome.Reason says how many).
func (o *Ops) TitleRelevance(ctx context.Context, query string, titles []string) ([]float64, Outcome) {
	if len(titles) == 0 {
		return []float64{}, Outcome{Op: OpTitleRelevance}
	}
	data := struct {
		Query  string
		Titles []string
	}{clip(query), titles}
	resp, out, ok := o.call(ctx, OpTitleRelevance, data, true, Temp(0), 40+12*len(titles), nil)
	if !ok {
		return nil, out
	}
	scores, missing, reason := parseTitleScores(resp.Content, titles)
	if reason != "" {
		return nil, fallback(out, reason, nil)
	}
	if missing*2 > len(titles) {
		return nil, fallback(out, fmt.Sprintf("the LLM scored only %d of %d titles", len(titles)-missing, len(titles)), nil)
	}
	if missing > 0 {
		out.Reason = fmt.Sprintf("%d of %d titles had no score (0 used)", missing, len(titles))
	}
	return scores, out
}

// JudgeTitles adapts TitleRelevance to the retrieval engine's
// SectionJudge hook (func(ctx, query, titles) ([]float64, error)): the
// fallback becomes an ELLM error carrying the Outcome's reason, on which the
// engine uses embedding similarity only.
func (o *Ops) JudgeTitles(ctx context.Context, query string, titles []string) ([]float64, error) {
	scores, out := o.TitleRelevance(ctx, query, titles)
	if out.Fallback {
		return nil, &papertree.Error{Code: papertree.ELLM, Message: "section title judgment unavailable: " + out.Reason, Op: OpTitleRelevance, Err: out.Err}
	}
	return scores, nil
}

func parseTitleScores(content string, titles []string) ([]float64, int, string) {
	v, err := extractJSON(content)
	if err != nil {
		return nil, 0, "the LLM output was not JSON"
	}
	n := len(titles)
	raw := make([]float64, n)
	set := make([]bool, n)
	put := func(id int, val any) {
		if id < 1 || id > n || set[id-1] {
			return
		}
		if f, ok := num(val); ok {
			raw[id-1], set[id-1] = f, true
		}
	}
	byTitle := func(t string) int {
		for i, x := range titles {
			if strings.EqualFold(strings.TrimSpace(x), strings.TrimSpace(t)) {
				return i + 1
			}
		}
		return 0
	}
	arr, isList := list(v, "scores", "results", "titles", "relevance", "items")
	switch {
	case isList:
		allNums := len(arr) == n
		for _, e := range arr {
			if _, ok := num(e); !ok {
				allNums = false
			}
		}
		for i, e := range arr {
			if allNums {
				put(i+1, e)
				continue
			}
			m, ok := e.(map[string]any)
			if !ok {
				continue
			}
			id := 0
			if x, ok := field(m, "id", "index", "idx", "number", "n"); ok {
				if f, ok := num(x); ok && f == math.Trunc(f) {
					id = int(f)
				}
			}
			if id == 0 {
				if t, ok := field(m, "title", "section"); ok {
					if s, ok := t.(string); ok {
						id = byTitle(s)
					}
				}
			}
			if sc, ok := field(m, "score", "relevance", "value", "s", "probability"); ok {
				put(id, sc)
			}
		}
	default:
		m, _ := v.(map[string]any)
		if inner, ok := field(m, "scores", "relevance"); ok {
			if im, ok := inner.(map[string]any); ok {
				m = im
			}
		}
		if m == nil {
			return nil, 0, "the LLM output had no scores"
		}
		for k, val := range m {
			if id, err := strconv.Atoi(strings.TrimSpace(k)); err == nil {
				put(id, val)
			} else if id := byTitle(k); id > 0 {
				put(id, val)
			}
		}
	}
	max, missing := 0.0, 0
	for i := range raw {
		if !set[i] {
			missing++
		} else if raw[i] > max {
			max = raw[i]
		}
	}
	if missing == n {
		return nil, missing, "the LLM output had no usable scores"
	}
	scale := 1.0
	switch {
	case max > 1 && max <= 10:
		scale = 10
	case max > 10 && max <= 100:
		scale = 100
	}
	out := make([]float64, n)
	for i := range raw {
		out[i] = math.Min(math.Max(raw[i]/scale, 0), 1)
	}
	return out, missing, ""
}

// ---- multi-hop (PT-RAG 3.4.1) ----

// Decompose rewrites query into at most maxHops sub-queries (maxHops <= 0
// means 3; 1 returns the query without a call). Fallbacks (Table 5): when
// the output cannot be split into sub-queries, the LLM's whole output is
// the single query; when there is no LLM, the call fails or the output is
// empty, the original query.
func (o *Ops) Decompose(ctx context.Context, query string, maxHops int) ([]string, Outcome) {
	if maxHops <= 0 {
		maxHops = 3
	}
	if maxHops == 1 || strings.TrimSpace(query) == "" {
		return []string{query}, Outcome{Op: OpDecompose}
	}
	data := struct {
		Query   string
		MaxHops int
	}{clip(query), maxHops}
	resp, out, ok := o.call(ctx, OpDecompose, data, true, Temp(0), 120*maxHops, nil)
	if !ok {
		return []string{query}, out
	}
	var subs []string
	if v, err := extractJSON(resp.Content); err == nil {
		if arr, ok := list(v, "subqueries", "sub_queries", "queries", "questions", "steps", "subquestions"); ok {
			for _, e := range arr {
				if s, ok := str(e); ok {
					subs = append(subs, unquote(s))
				}
			}
		} else if m, ok := v.(map[string]any); ok {
			if s, ok := str(m); ok {
				subs = []string{s}
			}
		}
	} else {
		subs = listItems(cleanText(resp.Content))
	}
	subs = dedupe(subs, maxHops)
	if len(subs) == 0 {
		whole := strings.Join(strings.Fields(unquote(cleanText(resp.Content))), " ")
		if whole == "" || strings.HasPrefix(whole, "{") || strings.HasPrefix(whole, "[") {
			return []string{query}, fallback(out, "the LLM output had no sub-queries", nil)
		}
		return []string{whole}, fallback(out, "the LLM output could not be split into sub-queries; using it whole", nil)
	}
	return subs, out
}

func dedupe(in []string, max int) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		k := strings.ToLower(strings.Join(strings.Fields(s), " "))
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, s)
		if len(out) == max {
			break
		}
	}
	return out
}

// Entity is an extracted entity with the model's confidence.
type Entity struct {
	Name       string  `json:"name"`
	Confidence float64 `json:"confidence"`
}

// ExtractEntities returns the names of entities in text whose confidence is
// at least threshold, best first. See ExtractEntitiesFor.
func (o *Ops) ExtractEntities(ctx context.Context, text string, threshold float64) ([]string, Outcome) {
	return o.ExtractEntitiesFor(ctx, text, "", threshold)
}

// ExtractEntitiesFor is ExtractEntities focused on what the next sub-query
// needs (Table 5: "entities relevant to the next query statement").
// Entities must appear verbatim (ignoring case) in text, so hallucinated
// names are dropped; an entry without a confidence counts as 1. An empty
// list from the model is a valid answer (Fallback false). Fallback: nil
// (the caller keeps the next sub-query unchanged) when there is no LLM, the
// call fails or the output is not JSON.
func (o *Ops) ExtractEntitiesFor(ctx context.Context, text, nextQuery string, threshold float64) ([]string, Outcome) {
	max := 8
	if o != nil && o.MaxEntities > 0 {
		max = o.MaxEntities
	}
	if strings.TrimSpace(text) == "" {
		return nil, Outcome{Op: OpEntities}
	}
	data := struct {
		Text, NextQuery string
		Max             int
	}{clip(text), nextQuery, max}
	resp, out, ok := o.call(ctx, OpEntities, data, true, Temp(0), 40+30*max, nil)
	if !ok {
		return nil, out
	}
	v, err := extractJSON(resp.Content)
	if err != nil {
		return nil, fallback(out, "the LLM output was not JSON", nil)
	}
	arr, ok := list(v, "entities", "items", "names", "results")
	if !ok {
		return nil, fallback(out, "the LLM output had no entity list", nil)
	}
	lower := strings.ToLower(text)
	var ents []Entity
	for _, e := range arr {
		name, ok := str(e)
		if !ok {
			continue
		}
		conf := 1.0
		if m, ok := e.(map[string]any); ok {
			if c, ok := field(m, "confidence", "score", "probability", "prob"); ok {
				f, ok := num(c)
				if !ok {
					continue
				}
				conf = f
			}
		}
		name = unquote(name)
		if conf < threshold || name == "" || !strings.Contains(lower, strings.ToLower(name)) {
			continue
		}
		ents = append(ents, Entity{Name: name, Confidence: conf})
	}
	sort.SliceStable(ents, func(i, j int) bool { return ents[i].Confidence > ents[j].Confidence })
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		names = append(names, e.Name)
	}
	return dedupe(names, max), out
}

// ---- multi-document (PT-RAG 3.4.2) ----

// TransformMultiDoc rewrites a question about several papers into the
// canonical single-paper question asked of each paper. Fallback: the
// original query when there is no LLM, the call fails, or the output is
// empty or far longer than a question.
func (o *Ops) TransformMultiDoc(ctx context.Context, query string) (string, Outcome) {
	if strings.TrimSpace(query) == "" {
		return query, Outcome{Op: OpMultiDocRewrite}
	}
	data := struct{ Query string }{clip(query)}
	resp, out, ok := o.call(ctx, OpMultiDocRewrite, data, true, Temp(0), 200, nil)
	if !ok {
		return query, out
	}
	var q string
	if v, err := extractJSON(resp.Content); err == nil {
		if s, ok := str(v); ok {
			q = s
		} else if m, ok := v.(map[string]any); ok {
			if x, ok := field(m, "rewritten", "transformed", "single_question", "canonical"); ok {
				q, _ = str(x)
			}
		}
	} else {
		q = cleanText(resp.Content)
		if i := strings.IndexByte(q, '\n'); i > 0 {
			q = q[:i]
		}
	}
	q = strings.Join(strings.Fields(unquote(q)), " ")
	if q == "" || strings.HasPrefix(q, "{") {
		return query, fallback(out, "the LLM output had no question", nil)
	}
	if len(q) > 3*len(query)+300 {
		return query, fallback(out, "the LLM output was too long to be a question", nil)
	}
	return q, out
}
