package retrieve

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

// structrag is StructRAG (Li et al., "Boosting Knowledge Intensive Reasoning
// of LLMs via Inference-time Hybrid Information Structurization",
// specs/structrag.md): a hybrid router picks one knowledge structure for the
// question (table, graph, algorithm, catalogue or chunk), a structurizer
// rewrites each paper into that structure, and a utilizer decomposes the
// question and keeps the structured knowledge that answers it.
//
// Product departures, as the spec recommends (3.1, 5):
//   - Pre-filtered: the papers to structurize are FABLE's document-level
//     choice (title/ToC match plus dense search, or the LLM's ToC reading),
//     not every paper of the library ("StructRAG (pre-filtered)").
//   - Provenance: every row, triple, step and catalogue entry keeps the
//     leaves it came from (node ids, paths, pages); an LLM item that cites
//     no known source tag is dropped, and the evidence text is always a
//     verbatim sentence of the paper, never the LLM's rewrite.
//   - Offline (no LLM, or a failing step, each listed in the diagnostics):
//     the router is rule-based on the question's form (spec 3.2); the
//     structurizers are extractive (spec 3.3): a table cell is the paper's
//     best sentence for the column, the graph is the citation graph among
//     the library's papers (a reference entry naming another paper's
//     title), an algorithm is an "Algorithm N" block or numbered procedure
//     (else chunk), a catalogue is the PaperTree outline with extractive
//     summaries, a chunk is PT-RAG's evidence; the utilizer splits the
//     question on coordination and keeps the items most similar to a
//     sub-question within the budget.
//   - The final inference (Eq. 6) is the answer step (LLM answer or
//     extractive) over the kept items' evidence; the rendered structure is
//     in the diagnostics (Selection.Rendered) and the context.
type structrag struct{}

func (structrag) Name() string { return "structrag" }
func (structrag) Description() string {
	return "StructRAG: routes the question to a table, graph, algorithm, catalogue or chunk structure, builds it from the chosen papers with its evidence, and keeps what answers the question."
}

func init() { Register(structrag{}) }

// Structure types (the paper's five).
const (
	StructTable     = "table"
	StructGraph     = "graph"
	StructAlgorithm = "algorithm"
	StructCatalogue = "catalogue"
	StructChunk     = "chunk"
)

// StructTypes lists the five types in the code's parser priority order.
var StructTypes = []string{StructTable, StructGraph, StructAlgorithm, StructCatalogue, StructChunk}

// StructDoc is one paper as the LLM structurizer sees it: tagged sources.
type StructDoc struct {
	PaperID int64
	Title   string
	Sources []StructSource
}

// StructSource is one tagged passage ("S3") with its provenance.
type StructSource struct {
	Tag   string
	Path  string
	Pages []int
	Text  string
}

// StructOut is a structurizer's output for one paper: its description b
// and its items (rows, triples, steps, entries), each citing source tags.
type StructOut struct {
	Description string
	Items       []StructItem
}

// StructItem is one row / triple / step / entry.
type StructItem struct {
	Text    string
	Sources []string
}

// sItem is a structured item with its evidence.
type sItem struct {
	d     *PaperData
	text  string // as rendered in the structure
	ev    []papertree.Evidence
	score float64
}

// RouteRules is the offline router (spec 3.2): cue words of the question's
// form score each type; chunk is the default and wins ties. It returns the
// type and the cues that decided it.
func RouteRules(query string, papers int) (string, string) {
	q := " " + strings.ToLower(query) + " "
	score := map[string]int{}
	why := map[string][]string{}
	for _, r := range routeCues {
		if r.re.MatchString(q) {
			score[r.typ]++
			why[r.typ] = append(why[r.typ], r.label)
		}
	}
	best := StructChunk
	for _, t := range StructTypes {
		if score[t] > score[best] {
			best = t
		}
	}
	if papers == 1 && best != StructCatalogue && best != StructAlgorithm && score[StructCatalogue] == 0 {
		if best != StructChunk {
			return StructChunk, "one paper in scope: a single-paper question is answered from chunks (cues: " + strings.Join(why[best], ", ") + ")"
		}
	}
	if best == StructChunk {
		return StructChunk, "no cue for a table, graph, algorithm or catalogue: chunk (single-hop default)"
	}
	return best, "question cues: " + strings.Join(why[best], ", ")
}

var routeCues = func() []struct {
	typ, label string
	re         *regexp.Regexp
} {
	cues := []struct{ typ, pat string }{
		{StructTable, `compar\w*`}, {StructTable, `versus|\bvs\.?`}, {StructTable, `which (?:\w+ ){0,4}(?:highest|lowest|best|most|least|largest|smallest)`},
		{StructTable, `\brank\w*`}, {StructTable, `how many`}, {StructTable, `\baverage\b|\btotal\b`},
		{StructTable, `\b(?:accuracy|f1|bleu|rouge|auc|precision|recall|error rate|perplexity)\b`}, {StructTable, `across (?:the )?papers|in each paper|for each paper`},
		{StructTable, `\btable\b`}, {StructTable, `which (?:papers?|of these|ones?) (?:use|used|uses|evaluate|report|train)`},
		{StructGraph, `\bcit(?:e|es|ed|ation|ations)\b`}, {StructGraph, `\breferenc\w*`}, {StructGraph, `builds? on|built on|extends?\b|extension of`},
		{StructGraph, `relationship|lineage|\bchain\b|connected|depends? on|influenc\w*|inspired`},
		{StructAlgorithm, `should i (?:choose|use|pick)|recommend\w*|\bplan\b|steps? to|procedure|configur\w*|pseudo-?code|\balgorithm\b|how (?:do|does|to) (?:\w+ ){0,3}(?:train|implement|compute)`},
		{StructCatalogue, `summari[sz]\w*|overview|survey|\boutline\b|main (?:themes|ideas|points)|key points|what do (?:these|the) papers say`},
	}
	out := make([]struct {
		typ, label string
		re         *regexp.Regexp
	}, len(cues))
	for i, c := range cues {
		out[i].typ, out[i].re = c.typ, regexp.MustCompile(c.pat)
		out[i].label = strings.NewReplacer(`\b`, "", `\w*`, "…", `(?:`, "(", `\.?`, "", `\w+ `, "…").Replace(c.pat)
	}
	return out
}()

// QuestionAspects returns the table columns a question asks for: the
// coordinated nouns after "compare" ("compare the datasets and metrics of
// ..." -> datasets, metrics), else one column, the question's content words.
func QuestionAspects(query string) []string {
	q := strings.ToLower(strings.TrimSpace(query))
	if m := compareRE.FindStringSubmatch(q); m != nil {
		var out []string
		for _, p := range splitCoord(m[1]) {
			if p = strings.TrimSpace(p); p != "" && len(out) < 6 {
				out = append(out, p)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	terms := contentTerms(query)
	if len(terms) == 0 {
		return []string{strings.TrimRight(query, "?")}
	}
	// the content words as they appear in the question (not the stems)
	var words []string
	for _, w := range strings.Fields(strings.TrimRight(query, "?.")) {
		lw := strings.ToLower(strings.Trim(w, ",;:()\"'"))
		if len(lw) >= 4 && !stopWords[lw] {
			words = append(words, strings.Trim(w, ",;:()\"'"))
		}
	}
	return []string{strings.Join(words, " ")}
}

// compareTopic returns what a comparison question is about ("Compare the
// datasets and metrics of the sentence classification papers" -> "the
// sentence classification papers"): the papers to compare are chosen by
// it, not by the column names, which every paper's headings share.
func compareTopic(query string) string {
	q := strings.ToLower(strings.TrimSpace(query))
	loc := compareRE.FindStringSubmatchIndex(q)
	if loc == nil {
		return ""
	}
	rest := strings.TrimSpace(strings.TrimRight(q[loc[1]:], "?."))
	if len(contentTerms(rest)) == 0 {
		return ""
	}
	return rest
}

var compareRE = regexp.MustCompile(`compar\w*\s+(?:the\s+)?(.+?)\s+(?:of|across|in|between|used|among|for)\s`)

func splitCoord(s string) []string {
	s = strings.NewReplacer(", and ", ",", " and ", ",", " & ", ",", "/", ",").Replace(s)
	return strings.Split(s, ",")
}

// SplitQuestion is the offline decomposition (spec 3.3): a question that
// coordinates several things ("X and Y", "for each ...") becomes one
// sub-question per part; otherwise it stays whole.
func SplitQuestion(query string) []string {
	aspects := QuestionAspects(query)
	if len(aspects) <= 1 {
		return []string{query}
	}
	out := make([]string, len(aspects))
	for i, a := range aspects {
		out[i] = "What " + a + "? (" + query + ")"
	}
	return out
}

func (structrag) Retrieve(ctx context.Context, ix Index, req Request) (Result, error) {
	if err := checkRequest(&req); err != nil {
		return Result{}, err
	}
	t0 := time.Now()
	timings := map[string]float64{}
	h := multiDocLLM(ctx)
	qv, err := ix.Embedder().EmbedQuery(ctx, req.Query)
	if err != nil {
		return Result{}, errf("embed query", err)
	}
	forest, err := loadForest(ctx, ix, req, qv)
	if err != nil {
		return Result{}, err
	}
	var fallbacks []string
	docs := forest
	var all []*docChoice
	reason := ""
	if len(req.PaperIDs) != 1 {
		// Comparison questions choose papers by their topic, not by the
		// column names.
		dreq, dqv := req, qv
		if topic := compareTopic(req.Query); topic != "" {
			if v, err := ix.Embedder().EmbedQuery(ctx, topic); err == nil {
				dreq.Query, dqv = topic, v
			}
		}
		docs, all, reason = selectDocs(ctx, ix, dreq, dqv, forest, &fallbacks)
	}
	sel := &papertree.Selection{}
	if all != nil {
		sel.Papers = paperChoices(all, reason, len(docs)+3)
	} else {
		for _, t := range docs {
			sel.Papers = append(sel.Papers, papertree.PaperChoice{PaperID: t.d.Paper.ID, PaperTitle: t.d.Paper.Title, Chosen: true, By: "scope", Reason: "the only paper in scope"})
		}
	}
	timings["documents"] = ms(time.Since(t0))
	// Router.
	t1 := time.Now()
	typ, why, by := "", "", "rules"
	if h.Route != nil {
		titles := make([]string, len(docs))
		for i, t := range docs {
			titles[i] = t.d.Paper.Title
		}
		ty, r, err := h.Route(ctx, req.Query, titles)
		if err == nil && validType(ty) {
			typ, why, by = ty, r, "llm"
		} else if err != nil {
			fallbacks = append(fallbacks, "structrag router: rules from the question's form ("+papertree.ErrorMessage(err)+")")
		} else {
			fallbacks = append(fallbacks, fmt.Sprintf("structrag router: rules from the question's form (the LLM answered %q)", ty))
		}
	} else {
		fallbacks = append(fallbacks, "structrag router: rules from the question's form (no LLM)")
	}
	if typ == "" {
		typ, why = RouteRules(req.Query, len(docs))
	}
	sel.Structure, sel.RouteReason, sel.RoutedBy = typ, why, by
	timings["route"] = ms(time.Since(t1))
	// Structurizer.
	t2 := time.Now()
	items, descs, rendered, used, err := structurize(ctx, ix, req, qv, typ, docs, &fallbacks)
	if err != nil {
		return Result{}, err
	}
	if used != typ {
		sel.Structure = used
	}
	sel.Rendered = rendered
	timings["structurize"] = ms(time.Since(t2))
	// Utilizer: decompose, extract, keep within the budget.
	t3 := time.Now()
	subs := []string{req.Query}
	if h.Decompose != nil && used != StructChunk {
		s, err := h.Decompose(ctx, req.Query, descs)
		if err == nil && len(s) > 0 {
			subs = s
		} else {
			msg := "the LLM gave no sub-question"
			if err != nil {
				msg = papertree.ErrorMessage(err)
			}
			fallbacks = append(fallbacks, "structrag decompose: split on coordination ("+msg+")")
			subs = SplitQuestion(req.Query)
		}
	} else if used != StructChunk {
		fallbacks = append(fallbacks, "structrag decompose: split on coordination (no LLM)")
		subs = SplitQuestion(req.Query)
	}
	sel.SubQueries = subs
	kept, err := utilize(ctx, ix, req, used, subs, items, &fallbacks)
	if err != nil {
		return Result{}, err
	}
	timings["utilize"] = ms(time.Since(t3))
	res := itemsResult(kept, req.Budget)
	if rendered != "" {
		res.Context = "## Structured knowledge (" + used + ")\n" + rendered + "\n\n" + res.Context
	}
	res.Diag.Selection = sel
	res.Diag.Timings = timings
	res.Diag.Fallbacks = dedupe(fallbacks)
	res.Diag.Timings["total"] = ms(time.Since(t0))
	return res, nil
}

func validType(t string) bool {
	for _, x := range StructTypes {
		if t == x {
			return true
		}
	}
	return false
}

// structurize builds the items of type typ from docs (LLM per paper when
// available, else extractive) and renders the structure. It returns the
// type actually used (algorithm and graph fall back to chunk when the papers
// hold no such structure).
func structurize(ctx context.Context, ix Index, req Request, qv []float32, typ string, docs []*fTree, fallbacks *[]string) ([]sItem, []string, string, string, error) {
	h := multiDocLLM(ctx)
	if typ == StructChunk || len(docs) == 0 {
		items, err := chunkItems(ctx, ix, req, docs)
		return items, nil, renderItems(StructChunk, items), StructChunk, err
	}
	var items []sItem
	var descs []string
	if h.Structurize != nil {
		for _, t := range docs {
			doc, src := structDoc(t, qv, typ)
			out, err := h.Structurize(ctx, req.Query, typ, doc)
			if err != nil {
				*fallbacks = append(*fallbacks, fmt.Sprintf("structrag structurizer (%s): extractive for %q (%s)", typ, t.d.Paper.Title, papertree.ErrorMessage(err)))
				ex, err := extractive(ctx, ix, req, qv, typ, []*fTree{t})
				if err != nil {
					return nil, nil, "", "", err
				}
				items = append(items, ex...)
				continue
			}
			dropped := 0
			for _, it := range out.Items {
				var ev []papertree.Evidence
				for _, tag := range it.Sources {
					if o, ok := src[strings.Trim(strings.ToUpper(strings.TrimSpace(tag)), "[]§")]; ok {
						quote := trimToBudget(t.d.Nodes[o].Text, it.Text+" "+req.Query, 60)
						ev = append(ev, evidenceFor(t.d, o, quote, leafCand(t, qv, o).score))
					}
				}
				if len(ev) == 0 || strings.TrimSpace(it.Text) == "" {
					dropped++
					continue
				}
				items = append(items, sItem{d: t.d, text: strings.TrimSpace(it.Text), ev: ev, score: ev[0].Score})
			}
			if dropped > 0 {
				*fallbacks = append(*fallbacks, fmt.Sprintf("structrag structurizer (%s): %d item(s) of %q dropped: no known source tag", typ, dropped, t.d.Paper.Title))
			}
			if out.Description != "" {
				descs = append(descs, t.d.Paper.Title+": "+out.Description)
			}
		}
	} else {
		*fallbacks = append(*fallbacks, "structrag structurizer ("+typ+"): extractive (no LLM)")
		var err error
		if items, err = extractive(ctx, ix, req, qv, typ, docs); err != nil {
			return nil, nil, "", "", err
		}
	}
	if len(items) == 0 && typ != StructTable {
		*fallbacks = append(*fallbacks, "structrag structurizer: the papers hold no "+typ+" for this question; using chunks")
		items, err := chunkItems(ctx, ix, req, docs)
		return items, nil, renderItems(StructChunk, items), StructChunk, err
	}
	if descs == nil {
		for _, t := range docs {
			n := 0
			for _, it := range items {
				if it.d == t.d {
					n++
				}
			}
			descs = append(descs, fmt.Sprintf("%s: %d %s item(s)", t.d.Paper.Title, n, typ))
		}
	}
	return items, descs, renderItems(typ, items), typ, nil
}

// structDoc tags the paper's leaves most related to the question (about
// 1500 tokens, in reading order) for the LLM structurizer; src maps tags
// to leaf orders.
func structDoc(t *fTree, qv []float32, typ string) (StructDoc, map[string]int) {
	type lf struct {
		o int
		s float64
	}
	var ls []lf
	for o, n := range t.d.Nodes {
		if n.IsLeaf() {
			ls = append(ls, lf{o, leafCand(t, qv, o).score})
		}
	}
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].s > ls[j].s })
	var keep []int
	used := 0
	for _, l := range ls {
		if used+t.d.Nodes[l.o].Tokens > 1500 {
			continue
		}
		used += t.d.Nodes[l.o].Tokens
		keep = append(keep, l.o)
	}
	sort.Ints(keep)
	doc := StructDoc{PaperID: t.d.Paper.ID, Title: t.d.Paper.Title}
	src := map[string]int{}
	for i, o := range keep {
		tag := fmt.Sprintf("S%d", i+1)
		src[tag] = o
		path := t.tocPath(t.d.Parent[o])
		doc.Sources = append(doc.Sources, StructSource{Tag: tag, Path: path, Pages: pageList(t.d.Nodes[o]), Text: t.d.Nodes[o].Text})
	}
	return doc, src
}

// extractive runs the offline structurizer of typ over docs.
func extractive(ctx context.Context, ix Index, req Request, qv []float32, typ string, docs []*fTree) ([]sItem, error) {
	switch typ {
	case StructTable:
		return tableItems(ctx, ix, req, docs)
	case StructGraph:
		return graphItems(ctx, ix, docs)
	case StructAlgorithm:
		return algorithmItems(qv, docs), nil
	case StructCatalogue:
		return catalogueItems(qv, req.Query, docs), nil
	}
	return chunkItems(ctx, ix, req, docs)
}

// tableItems: rows are papers, columns the question's aspects; a cell is the
// paper's best sentence for the column (BestCell).
func tableItems(ctx context.Context, ix Index, req Request, docs []*fTree) ([]sItem, error) {
	cols := QuestionAspects(req.Query)
	ctxText := ""
	if len(cols) > 1 {
		ctxText = req.Query
	}
	var out []sItem
	for _, t := range docs {
		for _, c := range cols {
			cell, err := BestCell(ctx, ix.Embedder(), t.d, c, ctxText)
			if err != nil {
				return nil, err
			}
			if !cell.Found {
				continue
			}
			out = append(out, sItem{d: t.d, text: "| " + cellEsc(t.d.Paper.Title) + " | " + cellEsc(c) + " | " + cellEsc(cell.Sentence) + " |", ev: []papertree.Evidence{cell.Evidence}, score: cell.Score})
		}
	}
	return out, nil
}

func cellEsc(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(strings.TrimSpace(s))
}

// graphItems: the citation graph among the library's papers: paper A cites
// paper B when a leaf of A's references section names B's title.
func graphItems(ctx context.Context, ix Index, docs []*fTree) ([]sItem, error) {
	ids, err := ix.ReadyPapers(ctx)
	if err != nil {
		return nil, errf("list papers", err)
	}
	type tp struct {
		id    int64
		title string
		key   string
	}
	var lib []tp
	for _, id := range ids {
		d, err := ix.Paper(ctx, id)
		if err != nil {
			return nil, errf("load paper", err)
		}
		if k := titleKey(d.Paper.Title, 6); len(strings.Fields(k)) >= 3 {
			lib = append(lib, tp{id, d.Paper.Title, k})
		}
	}
	inScope := map[int64]bool{}
	for _, t := range docs {
		inScope[t.d.Paper.ID] = true
	}
	var out []sItem
	seen := map[[2]int64]bool{}
	for _, id := range ids {
		d, err := ix.Paper(ctx, id)
		if err != nil {
			return nil, errf("load paper", err)
		}
		for o, n := range d.Nodes {
			if !n.IsLeaf() || !inReferences(d, o) {
				continue
			}
			norm := titleKey(n.Text, 0)
			for _, q := range lib {
				if q.id == id || !(inScope[id] || inScope[q.id]) || seen[[2]int64{id, q.id}] {
					continue
				}
				if strings.Contains(norm, q.key) {
					seen[[2]int64{id, q.id}] = true
					quote := refSnippet(n.Text, q.title)
					out = append(out, sItem{d: d, text: fmt.Sprintf(`{head: %q, relation: "cites", tail: [%q]}`, d.Paper.Title, q.title),
						ev: []papertree.Evidence{evidenceFor(d, o, quote, 0.5)}, score: 0.5})
				}
			}
		}
	}
	return out, nil
}

// inReferences reports whether leaf o sits under a references heading.
func inReferences(d *PaperData, o int) bool {
	for a := d.Parent[o]; a > 0; a = d.Parent[a] {
		t := strings.ToLower(stripNumber(d.Nodes[a].Title))
		if strings.HasPrefix(t, "reference") || strings.HasPrefix(t, "bibliograph") || strings.HasPrefix(t, "literature cited") {
			return true
		}
	}
	return false
}

// titleKey normalises a title (or text) to lower-case words, keeping the
// first n words (0 = all): a title's key is its first 6 words.
func titleKey(s string, n int) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
	if n > 0 && len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}

// refSnippet returns the part of a references leaf around the cited title.
func refSnippet(text, title string) string {
	w := strings.Fields(title)
	if len(w) > 3 {
		w = w[:3]
	}
	i := strings.Index(strings.ToLower(text), strings.ToLower(strings.Join(w, " ")))
	if i < 0 {
		return firstWords(text, 60)
	}
	start := max(0, i-150)
	end := min(len(text), i+250)
	for start > 0 && !utf8Start(text[start]) {
		start--
	}
	for end < len(text) && !utf8Start(text[end]) {
		end++
	}
	return strings.TrimSpace(text[start:end])
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

var algoRE = regexp.MustCompile(`(?i)^\s*(?:algorithm\s+\d|procedure\b|step\s*1\b|input\s*:|require\s*:)|\n\s*(?:step\s*\d|\d+[.:]\s+\w+.*\n\s*\d+[.:]\s)`)

// algorithmItems: explicit "Algorithm N" blocks, procedures and numbered
// step lists, or leaves under a heading naming an algorithm or procedure.
func algorithmItems(qv []float32, docs []*fTree) []sItem {
	var out []sItem
	for _, t := range docs {
		for o, n := range t.d.Nodes {
			if !n.IsLeaf() {
				continue
			}
			head := strings.ToLower(stripNumber(t.d.Nodes[t.d.Parent[o]].Title))
			if !algoRE.MatchString(n.Text) && !strings.Contains(head, "algorithm") && !strings.Contains(head, "procedure") {
				continue
			}
			c := leafCand(t, qv, o)
			if c.score <= 0 {
				continue
			}
			quote := firstWords(n.Text, 120)
			out = append(out, sItem{d: t.d, text: fmt.Sprintf("%s — %s: %s", t.d.Paper.Title, t.tocPath(t.d.Parent[o]), firstWords(n.Text, 40)), ev: []papertree.Evidence{evidenceFor(t.d, o, quote, c.score)}, score: c.score})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	if len(out) > 12 {
		out = out[:12]
	}
	return out
}

// catalogueItems: each paper's outline (numbered 1, 1.1, ...) where every
// section's entry is its best sentence for the question (extractive
// summary); sections are ranked by that sentence's leaf score.
func catalogueItems(qv []float32, query string, docs []*fTree) []sItem {
	var out []sItem
	for pi, t := range docs {
		num := map[int]string{0: fmt.Sprint(pi + 1)}
		count := map[int]int{}
		for o, n := range t.d.Nodes {
			if o == 0 || n.IsLeaf() {
				continue
			}
			p := t.d.Parent[o]
			count[p]++
			num[o] = fmt.Sprintf("%s.%d", num[p], count[p])
			best, bs := -1, 0.0
			for _, k := range t.kids[o] {
				if t.d.Nodes[k].IsLeaf() {
					if c := leafCand(t, qv, k); best < 0 || c.score > bs {
						best, bs = k, c.score
					}
				}
			}
			if best < 0 || bs <= 0 {
				continue
			}
			sum := trimToBudget(t.d.Nodes[best].Text, query, 50)
			if sum == "" {
				sum = firstWords(t.d.Nodes[best].Text, 40)
			}
			out = append(out, sItem{d: t.d, text: fmt.Sprintf("%s %s — %s", num[o], stripNumber(n.Title), sum), ev: []papertree.Evidence{evidenceFor(t.d, best, sum, bs)}, score: bs})
		}
	}
	return out
}

// chunkItems: PT-RAG's evidence over the chosen papers, one item per leaf.
func chunkItems(ctx context.Context, ix Index, req Request, docs []*fTree) ([]sItem, error) {
	if len(docs) == 0 {
		return nil, nil
	}
	r := req
	r.PaperIDs = nil
	for _, t := range docs {
		r.PaperIDs = append(r.PaperIDs, t.d.Paper.ID)
	}
	res, err := ptrag{}.Retrieve(ctx, ix, r)
	if err != nil {
		return nil, err
	}
	byID := map[int64]*PaperData{}
	for _, t := range docs {
		byID[t.d.Paper.ID] = t.d
	}
	var out []sItem
	for _, e := range res.Evidence {
		out = append(out, sItem{d: byID[e.PaperID], text: e.Text, ev: []papertree.Evidence{e}, score: e.Score})
	}
	return out, nil
}

// renderItems renders a structure as Markdown.
func renderItems(typ string, items []sItem) string {
	if len(items) == 0 {
		return ""
	}
	var b strings.Builder
	switch typ {
	case StructTable:
		b.WriteString("| Paper | Column | Cell |\n|---|---|---|\n")
		for _, it := range items {
			b.WriteString(it.text + "\n")
		}
	case StructChunk:
		for i, it := range items {
			fmt.Fprintf(&b, "%d. %s\n", i+1, firstWords(it.text, 40))
		}
	default:
		for _, it := range items {
			b.WriteString("- " + it.text + "\n")
		}
	}
	return strings.TrimSpace(b.String())
}

// utilize keeps the items that answer the sub-questions: the LLM's
// extraction per sub-question, or offline the items ranked by their best
// similarity to a sub-question; then the budget.
func utilize(ctx context.Context, ix Index, req Request, typ string, subs []string, items []sItem, fallbacks *[]string) ([]sItem, error) {
	if len(items) == 0 {
		return nil, nil
	}
	h := multiDocLLM(ctx)
	if typ == StructChunk {
		return items, nil // PT-RAG already spent the budget on the best leaves
	}
	texts := make([]string, len(items))
	for i, it := range items {
		texts[i] = it.text
	}
	llmKeep := map[int]bool{}
	if h.Extract != nil {
		ok := false
		for _, s := range subs {
			idx, err := h.Extract(ctx, s, typ, texts)
			if err != nil {
				*fallbacks = append(*fallbacks, "structrag extract: similarity filter ("+papertree.ErrorMessage(err)+")")
				continue
			}
			ok = true
			for _, i := range idx {
				if i >= 0 && i < len(items) {
					llmKeep[i] = true
				}
			}
		}
		if ok && len(llmKeep) == 0 {
			*fallbacks = append(*fallbacks, "structrag extract: the LLM kept no item; similarity filter")
		}
	} else {
		*fallbacks = append(*fallbacks, "structrag extract: similarity filter (no LLM)")
	}
	// Rank: LLM-kept items first, then by the best similarity to a
	// sub-question (the evidence sentence, so scores stay comparable).
	evText := make([]string, len(items))
	for i, it := range items {
		evText[i] = it.ev[0].Text
	}
	vs, err := ix.Embedder().Embed(ctx, evText)
	if err != nil {
		return nil, errf("embed items", err)
	}
	sim := make([]float64, len(items))
	for _, s := range subs {
		sv, err := ix.Embedder().EmbedQuery(ctx, s)
		if err != nil {
			return nil, errf("embed sub-question", err)
		}
		for i := range items {
			sim[i] = max(sim[i], dot(sv, vs[i]))
		}
	}
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ia, ib := idx[a], idx[b]
		if llmKeep[ia] != llmKeep[ib] {
			return llmKeep[ia]
		}
		return sim[ia]+0.5*items[ia].score > sim[ib]+0.5*items[ib].score
	})
	var out []sItem
	used := 0
	for _, i := range idx {
		if len(llmKeep) > 0 && !llmKeep[i] {
			break
		}
		it := items[i]
		cost := 0
		for _, e := range it.ev {
			cost += max(e.Tokens, 1)
		}
		if used+cost > req.Budget {
			continue
		}
		used += cost
		for j := range it.ev {
			it.ev[j].Score = round4(max(it.ev[j].Score, sim[i]))
		}
		out = append(out, it)
	}
	return out, nil
}

// itemsResult turns kept items into evidence (one per leaf: quotes of the
// same leaf are joined) grouped by paper in document order.
func itemsResult(items []sItem, budget int) Result {
	var cs []cand
	at := map[[2]int64]int{}
	for _, it := range items {
		for _, e := range it.ev {
			if it.d == nil {
				continue
			}
			k := [2]int64{e.PaperID, e.NodeID}
			if i, ok := at[k]; ok {
				if !strings.Contains(cs[i].text, e.Text) {
					cs[i].text += " … " + e.Text
					cs[i].cost += e.Tokens
				}
				cs[i].score = max(cs[i].score, e.Score)
				continue
			}
			o := it.d.Order(e.NodeID)
			if o < 0 {
				continue
			}
			at[k] = len(cs)
			cs = append(cs, cand{d: it.d, o: o, S: e.Score, rel: e.Score, cost: max(e.Tokens, 1), text: e.Text, score: e.Score})
		}
	}
	sortDocOrder(cs)
	return assemble(cs, budget)
}
