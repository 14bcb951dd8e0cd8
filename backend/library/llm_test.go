package library

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/papertree"
)

// This file tests the LLM wiring end to end against an in-process
// OpenAI-compatible server (the process boundary). The server recognises
// each operation by its system prompt, checks the request's shape and
// answers with realistic, malformed or failing replies per test.

const (
	chatModel = "chat-m"
	apiKey    = "sk-test"
)

type chatCall struct {
	Op       string
	Model    string
	JSON     bool
	Stream   bool
	System   string
	User     string
	Auth     string
	MaxToken float64
}

// reply is a scripted answer: HTTP status and content (status 0 = 200).
type reply struct {
	status  int
	content string
}

type llmServer struct {
	t   *testing.T
	srv *httptest.Server

	mu      sync.Mutex
	calls   []chatCall
	replies map[string]func(c chatCall) reply // by op; nil = default
	// key is the API key the server expects (default apiKey).
	key string
	// raw, when set, answers chat calls itself (a misbehaving server:
	// budget_test.go); the call is recorded first.
	raw func(w http.ResponseWriter, r *http.Request, c chatCall)
}

var opMarkers = []struct{ marker, op string }{
	{"structure-anchored summaries", llm.OpSummary},
	{"You help search academic papers", llm.OpTitleRelevance},
	{"You split questions", llm.OpDecompose},
	{"You extract named entities", llm.OpEntities},
	{"You rewrite a question about several", llm.OpMultiDocRewrite},
	{"You answer questions about academic papers", llm.OpAnswer},
	{"identify relevant nodes in a document tree", llm.OpRoute},
	{"summarises the sentences of a discourse tree", llm.OpDiscourseSummary},
}

func newLLMServer(t *testing.T) *llmServer {
	s := &llmServer{t: t, replies: map[string]func(chatCall) reply{}, key: apiKey}
	s.srv = httptest.NewServer(http.HandlerFunc(s.handle))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *llmServer) set(op string, f func(c chatCall) reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies[op] = f
}

func (s *llmServer) handle(w http.ResponseWriter, r *http.Request) {
	if got := r.Header.Get("Authorization"); got != "Bearer "+s.key {
		s.t.Errorf("%s %s: Authorization %q", r.Method, r.URL.Path, got)
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		fmt.Fprintf(w, `{"object":"list","data":[{"id":%q},{"id":"text-embedding-3-small"}]}`, chatModel)
		return
	case r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions":
	default:
		s.t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var body struct {
		Model          string        `json:"model"`
		Messages       []llm.Message `json:"messages"`
		Stream         bool          `json:"stream"`
		MaxTokens      float64       `json:"max_tokens"`
		ResponseFormat *struct {
			Type string `json:"type"`
		} `json:"response_format"`
	}
	if err := json.Unmarshal(raw, &body); err != nil || len(body.Messages) < 2 {
		s.t.Errorf("bad chat request: %v: %s", err, raw)
		http.Error(w, "bad request", 400)
		return
	}
	c := chatCall{Model: body.Model, Stream: body.Stream, System: body.Messages[0].Content, User: body.Messages[len(body.Messages)-1].Content,
		JSON: body.ResponseFormat != nil && body.ResponseFormat.Type == "json_object", Auth: r.Header.Get("Authorization"), MaxToken: body.MaxTokens}
	for _, m := range opMarkers {
		if strings.Contains(c.System, m.marker) {
			c.Op = m.op
		}
	}
	if c.Op == "" {
		s.t.Errorf("unknown operation: %s", c.System)
	}
	s.mu.Lock()
	s.calls = append(s.calls, c)
	f, takeover := s.replies[c.Op], s.raw
	s.mu.Unlock()
	if takeover != nil {
		takeover(w, r, c)
		return
	}
	if f == nil {
		f = defaultReply
	}
	rep := f(c)
	if rep.status != 0 && rep.status != 200 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.status)
		fmt.Fprintf(w, `{"error":{"message":"scripted failure %d"}}`, rep.status)
		return
	}
	usage := fmt.Sprintf(`{"prompt_tokens":%d,"completion_tokens":%d}`, len(strings.Fields(c.System+c.User)), len(strings.Fields(rep.content)))
	if !c.Stream {
		w.Header().Set("Content-Type", "application/json")
		b, _ := json.Marshal(rep.content)
		fmt.Fprintf(w, `{"model":%q,"choices":[{"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],"usage":%s}`, chatModel, b, usage)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	words := strings.SplitAfter(rep.content, " ")
	for _, piece := range words {
		b, _ := json.Marshal(piece)
		fmt.Fprintf(w, "data: {\"model\":%q,\"choices\":[{\"delta\":{\"content\":%s}}]}\n\n", chatModel, b)
	}
	fmt.Fprintf(w, "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: {\"choices\":[],\"usage\":%s}\n\ndata: [DONE]\n\n", usage)
}

var (
	segmentRE  = regexp.MustCompile(`(?s)Segment:\n"""\n(.*?)\n"""`)
	titleRE    = regexp.MustCompile(`(?m)^(\d+)\. `)
	evidenceRE = regexp.MustCompile(`(?m)^\[(\d+)\] Paper: `)
	questionRE = regexp.MustCompile(`(?m)^Question(?: about several papers)?: (.*)$`)
	wordRE     = regexp.MustCompile(`\b[A-Z][a-z]{4,}\b`)
)

// defaultReply answers every operation well.
func defaultReply(c chatCall) reply {
	switch c.Op {
	case llm.OpSummary:
		seg := ""
		if m := segmentRE.FindStringSubmatch(c.User); m != nil {
			seg = strings.Join(strings.Fields(m[1])[:min(4, len(strings.Fields(m[1])))], " ")
		}
		return reply{content: "LLM summary: " + seg}
	case llm.OpTitleRelevance:
		var parts []string
		for _, m := range titleRE.FindAllStringSubmatch(c.User, -1) {
			parts = append(parts, fmt.Sprintf(`{"id":%s,"score":0.6}`, m[1]))
		}
		return reply{content: `{"scores":[` + strings.Join(parts, ",") + `]}`}
	case llm.OpDecompose:
		q := questionRE.FindStringSubmatch(c.User)[1]
		b, _ := json.Marshal([]string{q})
		return reply{content: `{"subqueries":` + string(b) + `}`}
	case llm.OpEntities:
		return reply{content: `{"entities":[]}`}
	case llm.OpMultiDocRewrite:
		return reply{content: `{"question":"What is the method of this paper?"}`}
	case llm.OpAutoRoute:
		// Like a capable model: the structure the question's form asks for.
		q := strings.ToLower(c.User[strings.LastIndex(c.User, "Query:\n")+7:])
		switch {
		case strings.HasPrefix(q, "which papers"):
			return reply{content: `{"type": "list", "reason": "asks which papers have a property"}`}
		case strings.HasPrefix(q, "compare"):
			return reply{content: `{"type": "table", "reason": "sets papers side by side"}`}
		}
		return reply{content: `{"type": "chunk", "reason": "asks what the papers say"}`}
	case llm.OpAnswer:
		n := len(evidenceRE.FindAllString(c.User, -1))
		return reply{content: fmt.Sprintf("Headings carry the outline of the paper [1]. Glyphs are grouped by size [%d][%d].", n, n+5)}
	}
	return reply{status: 500}
}

func (s *llmServer) Calls() []chatCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]chatCall(nil), s.calls...)
}

func (s *llmServer) count(op string) int {
	n := 0
	for _, c := range s.Calls() {
		if c.Op == op {
			n++
		}
	}
	return n
}

func (s *llmServer) config() *llm.Config {
	return &llm.Config{Provider: llm.ProviderOpenAI, BaseURL: s.srv.URL + "/v1", ChatModel: chatModel, APIKey: s.key,
		MaxRetries: -1, RetryBaseDelay: time.Millisecond, RetryMaxDelay: 5 * time.Millisecond}
}

// testPDF copies the two-column fixture to dir under name.
func testPDF(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "pdf", "testdata", "twocolumn.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	// A comment naming the copy makes its content its own (one content is one paper).
	if err := os.WriteFile(p, append(b, "\n% "+name+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func openLib(t *testing.T, cfg *llm.Config) *Library {
	t.Helper()
	l, err := Open(context.Background(), Config{DBPath: filepath.Join(t.TempDir(), "lib.db"), LLM: cfg, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func index(t *testing.T, l *Library, paths ...string) Summary {
	t.Helper()
	sum, err := l.Index(context.Background(), paths, nil)
	if err != nil || len(sum.Failed) > 0 {
		t.Fatalf("index: %+v %v", sum, err)
	}
	return sum
}

func hasPrefix(ss []string, p string) bool {
	for _, s := range ss {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func TestLLMSummariesCached(t *testing.T) {
	s := newLLMServer(t)
	l := openLib(t, s.config())
	if st, on := l.LLMStatus(); !on || st.ChatModel != chatModel {
		t.Fatalf("LLM not on after Open: %+v", st)
	}
	dir := t.TempDir()
	var statuses []FileStatus
	if _, err := l.Index(context.Background(), []string{testPDF(t, dir, "a.pdf")}, func(ev Event) { statuses = append(statuses, ev.Status) }); err != nil {
		t.Fatal(err)
	}
	if want := []FileStatus{StatusQueued, StatusParsing, StatusSummarizing, StatusEmbedding, StatusSaving, StatusReady}; !slices.Equal(statuses, want) {
		t.Errorf("statuses %v, want %v", statuses, want)
	}
	n := s.count(llm.OpSummary)
	if n == 0 {
		t.Fatal("no summary calls")
	}
	for _, c := range s.Calls() {
		if c.Op != llm.OpSummary {
			t.Errorf("unexpected %s call while indexing", c.Op)
		}
		if c.Model != chatModel || c.JSON || c.Stream || !strings.Contains(c.User, "Paper title: Recovering Paper Structure from Glyphs") || !strings.Contains(c.User, "Section path: ") {
			t.Errorf("summary request: %+v", c)
		}
	}
	p, err := l.Paper(context.Background(), "1")
	if err != nil {
		t.Fatal(err)
	}
	segs := 0
	p.Root.Walk(func(path []*papertree.Node) bool {
		nd := path[len(path)-1]
		if nd.Kind == papertree.KindSegment {
			segs++
			if !strings.HasPrefix(nd.Summary, "LLM summary: ") {
				t.Errorf("segment %d summary %q is not the LLM's", nd.Order, nd.Summary)
			}
		}
		return true
	})
	if segs != n {
		t.Errorf("%d segments, %d summary calls", segs, n)
	}
	// The same content at another path: every summary comes from the cache.
	index(t, l, testPDF(t, dir, "b.pdf"))
	if got := s.count(llm.OpSummary); got != n {
		t.Errorf("second index of the same paper made %d summary calls", got-n)
	}
	// Unchanged files are skipped altogether.
	if sum := index(t, l, dir); sum.Unchanged != 2 {
		t.Errorf("re-index: %+v", sum)
	}
	// Usage was recorded in the store.
	tot, err := l.LLMUsage(context.Background(), time.Time{})
	if err != nil || len(tot) != 1 || tot[0].Op != llm.OpSummary || tot[0].Calls != n || tot[0].PromptTokens == 0 {
		t.Errorf("usage = %+v %v", tot, err)
	}
}

func TestLLMSummaryFailureRetriedLater(t *testing.T) {
	s := newLLMServer(t)
	s.set(llm.OpSummary, func(chatCall) reply { return reply{status: 500} })
	l := openLib(t, s.config())
	dir := t.TempDir()
	index(t, l, testPDF(t, dir, "a.pdf"))
	failed := s.count(llm.OpSummary)
	p, _ := l.Paper(context.Background(), "1")
	p.Root.Walk(func(path []*papertree.Node) bool {
		if nd := path[len(path)-1]; nd.Kind == papertree.KindSegment && (nd.Summary == "" || strings.HasPrefix(nd.Summary, "LLM summary")) {
			t.Errorf("segment %d: summary %q, want the extractive fallback", nd.Order, nd.Summary)
		}
		return true
	})
	// The paper is not "unchanged" while its summaries are incomplete.
	s.set(llm.OpSummary, nil)
	if sum := index(t, l, dir); sum.Indexed != 1 {
		t.Errorf("paper with failed summaries not re-indexed: %+v", sum)
	}
	if s.count(llm.OpSummary) <= failed {
		t.Error("failed summaries were not retried")
	}
	if sum := index(t, l, dir); sum.Unchanged != 1 {
		t.Errorf("complete paper re-indexed: %+v", sum)
	}
}

// askLib returns a library with the fixture indexed (without LLM calls)
// and the LLM switched on.
func askLib(t *testing.T, s *llmServer, copies ...string) *Library {
	t.Helper()
	l := openLib(t, nil)
	dir := t.TempDir()
	for _, c := range copies {
		testPDF(t, dir, c)
	}
	index(t, l, dir)
	if _, err := l.ConfigureLLM(context.Background(), *s.config()); err != nil {
		t.Fatal(err)
	}
	return l
}

var markerRE = regexp.MustCompile(`\[(\d+)\]`)

func TestAskLLM(t *testing.T) {
	s := newLLMServer(t)
	l := askLib(t, s, "a.pdf")
	var streamed strings.Builder
	a, err := l.Ask(context.Background(), AskRequest{Question: "How are headings and glyphs grouped?", Budget: 256, OnDelta: func(d string) { streamed.WriteString(d) }})
	if err != nil {
		t.Fatal(err)
	}
	if a.Mode != "llm" || a.Model != chatModel || a.ID == 0 || len(a.Evidence) < 2 {
		t.Fatalf("answer: mode %s model %s id %d evidence %d", a.Mode, a.Model, a.ID, len(a.Evidence))
	}
	if a.Diag.DroppedCitations != 1 || strings.Contains(a.Text, fmt.Sprintf("[%d]", len(a.Evidence)+5)) {
		t.Errorf("invalid marker kept or not counted: %q dropped %d", a.Text, a.Diag.DroppedCitations)
	}
	for _, m := range markerRE.FindAllStringSubmatch(a.Text, -1) {
		var n int
		fmt.Sscan(m[1], &n)
		if n < 1 || n > len(a.Evidence) {
			t.Errorf("marker %s does not resolve to evidence", m[0])
		}
	}
	if streamed.String() != a.Text {
		t.Errorf("streamed %q, answer %q", streamed.String(), a.Text)
	}
	if len(a.Diag.Fallbacks) != 0 {
		t.Errorf("fallbacks: %v", a.Diag.Fallbacks)
	}
	for _, k := range []string{"answer.prompt", "answer.completion", "title_relevance.prompt", "decompose.prompt"} {
		if a.Diag.LLMTokens[k] <= 0 {
			t.Errorf("LLMTokens[%s] = %d (%v)", k, a.Diag.LLMTokens[k], a.Diag.LLMTokens)
		}
	}
	byOp := map[string]chatCall{}
	for _, c := range s.Calls() {
		byOp[c.Op] = c
	}
	if c := byOp[llm.OpTitleRelevance]; !c.JSON || c.Stream || !strings.Contains(c.User, "Question: How are headings") || !strings.Contains(c.User, "Introduction") {
		t.Errorf("title relevance request: %+v", c)
	}
	if c := byOp[llm.OpDecompose]; !c.JSON || !strings.Contains(c.User, "at most 3 sub-questions") {
		t.Errorf("decompose request: %+v", c)
	}
	if c := byOp[llm.OpAnswer]; c.JSON || !c.Stream || !strings.Contains(c.User, "Question: How are headings and glyphs grouped?") || !strings.Contains(c.User, "[1] Paper: Recovering Paper Structure from Glyphs") {
		t.Errorf("answer request: %+v", c)
	}
	if _, ok := byOp[llm.OpMultiDocRewrite]; ok {
		t.Error("single-paper question was rewritten as multi-document")
	}
	saved, err := l.Answer(context.Background(), a.ID)
	if err != nil || saved.Text != a.Text || saved.Mode != "llm" || saved.Diag.DroppedCitations != 1 || len(saved.Evidence) != len(a.Evidence) {
		t.Errorf("saved answer %+v %v", saved, err)
	}
	set, _ := l.Store().AnswerSettings(context.Background(), a.ID)
	if strings.Contains(string(set), apiKey) || !strings.Contains(string(set), `"chat_model":"chat-m"`) {
		t.Errorf("saved settings %s", set)
	}
}

func TestAskLLMFallbacks(t *testing.T) {
	cases := []struct {
		name      string
		script    map[string]func(chatCall) reply
		down      bool
		wantMode  string
		fallbacks []string
	}{
		{
			name:      "title judgment malformed JSON: embedding-only sections",
			script:    map[string]func(chatCall) reply{llm.OpTitleRelevance: func(chatCall) reply { return reply{content: `{"scores": [ {"id": 1, "score":`} }},
			wantMode:  "llm",
			fallbacks: []string{"title_relevance: fallback", "section titles: embedding similarity only"},
		},
		{
			name:      "HTTP 500 on the answer: extractive answer",
			script:    map[string]func(chatCall) reply{llm.OpAnswer: func(chatCall) reply { return reply{status: 500} }},
			wantMode:  "extractive",
			fallbacks: []string{"answer: fallback (the LLM call failed"},
		},
		{
			name:      "refusal-free but empty answer: extractive",
			script:    map[string]func(chatCall) reply{llm.OpAnswer: func(chatCall) reply { return reply{content: "  "} }},
			wantMode:  "extractive",
			fallbacks: []string{"answer: fallback"},
		},
		{
			name:      "server down at ask time: every step falls back",
			down:      true,
			wantMode:  "extractive",
			fallbacks: []string{"decompose: fallback", "title_relevance: fallback", "answer: fallback", "section titles: embedding similarity only"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newLLMServer(t)
			for op, f := range c.script {
				s.set(op, f)
			}
			l := askLib(t, s, "a.pdf")
			if c.down {
				s.srv.Close()
			}
			streamed := 0
			a, err := l.Ask(context.Background(), AskRequest{Question: "How are headings and glyphs grouped?", Budget: 256, OnDelta: func(string) { streamed++ }})
			if err != nil {
				t.Fatal(err)
			}
			if a.Mode != c.wantMode || a.Text == "" || a.ID == 0 {
				t.Errorf("mode %s text %q id %d", a.Mode, a.Text, a.ID)
			}
			for _, f := range c.fallbacks {
				if !hasPrefix(a.Diag.Fallbacks, f) {
					t.Errorf("fallback %q missing in %q", f, a.Diag.Fallbacks)
				}
			}
			if c.wantMode == "extractive" && streamed > 0 {
				t.Logf("%d deltas streamed before the fallback (the caller replaces them)", streamed)
			}
		})
	}
}

func TestAskMultiHop(t *testing.T) {
	s := newLLMServer(t)
	s.set(llm.OpDecompose, func(chatCall) reply {
		return reply{content: `{"subqueries": ["What do structured documents carry?", "How are words grouped?", "What does the method do?"]}`}
	})
	var entityPrompts []string
	var mu sync.Mutex
	s.set(llm.OpEntities, func(c chatCall) reply {
		mu.Lock()
		entityPrompts = append(entityPrompts, c.User)
		mu.Unlock()
		// A real entity from the passage, a hallucinated one, and a weak one.
		passage := c.User[strings.Index(c.User, `"""`):]
		ent := wordRE.FindString(passage)
		return reply{content: fmt.Sprintf(`{"entities":[{"name":%q,"confidence":0.95},{"name":"GPT-9","confidence":0.99},{"name":"Notes","confidence":0.1}]}`, ent)}
	})
	l := askLib(t, s, "a.pdf")
	a, err := l.Ask(context.Background(), AskRequest{Question: "What do documents carry and how are their words grouped?", Budget: 300})
	if err != nil {
		t.Fatal(err)
	}
	if len(entityPrompts) == 0 {
		t.Fatal("no entity extraction between hops")
	}
	if !strings.Contains(entityPrompts[0], "Next question: How are words grouped?") {
		t.Errorf("entity prompt does not name the next sub-query: %s", entityPrompts[0])
	}
	raw, err := l.Store().AnswerSettings(context.Background(), a.ID)
	if err != nil {
		t.Fatal(err)
	}
	var set answerSettings
	if err := json.Unmarshal(raw, &set); err != nil || set.Trace == nil {
		t.Fatalf("settings %s: %v", raw, err)
	}
	hops := set.Trace.Hops
	if len(hops) < 2 || hops[0].Query != "What do structured documents carry?" || !strings.HasPrefix(hops[1].Query, "How are words grouped? (") {
		t.Fatalf("hops %+v", hops)
	}
	if strings.Contains(hops[1].Query, "GPT-9") || strings.Contains(hops[1].Query, "Notes") {
		t.Errorf("hallucinated or weak entity carried: %q", hops[1].Query)
	}
	budget := 0
	for _, h := range hops {
		budget += h.Tokens
	}
	if a.Diag.TokensUsed > 300 || budget != a.Diag.TokensUsed {
		t.Errorf("tokens used %d (hops %d) of 300", a.Diag.TokensUsed, budget)
	}
	seen := map[int64]bool{}
	last := -1
	for _, e := range a.Evidence {
		if seen[e.NodeID] || e.Order < last {
			t.Errorf("merged evidence not de-duplicated in document order: %+v", a.Evidence)
		}
		seen[e.NodeID], last = true, e.Order
	}
	if a.Diag.LLMTokens["entities.prompt"] == 0 {
		t.Errorf("entity tokens not counted: %v", a.Diag.LLMTokens)
	}
}

func TestAskMultiDoc(t *testing.T) {
	s := newLLMServer(t)
	l := askLib(t, s, "a.pdf", "b.pdf")
	papers, _ := l.Papers(context.Background())
	if len(papers) != 2 {
		t.Fatalf("papers %+v", papers)
	}
	q := "Compare the methods of these papers."
	a, err := l.Ask(context.Background(), AskRequest{Question: q, PaperIDs: []int64{papers[0].ID, papers[1].ID}, Budget: 300})
	if err != nil {
		t.Fatal(err)
	}
	if a.Mode != "llm" || a.Question != q {
		t.Fatalf("answer %+v", a)
	}
	if s.count(llm.OpMultiDocRewrite) != 1 || s.count(llm.OpDecompose) != 0 {
		t.Errorf("calls: rewrite %d decompose %d", s.count(llm.OpMultiDocRewrite), s.count(llm.OpDecompose))
	}
	from := map[int64]int{}
	for _, e := range a.Evidence {
		from[e.PaperID]++
		if len(e.Path) == 0 || e.PaperTitle == "" || len(e.Pages) == 0 {
			t.Errorf("evidence lost its provenance: %+v", e)
		}
	}
	if len(from) != 2 {
		t.Errorf("evidence from %d papers, want 2: %v", len(from), from)
	}
	for _, c := range s.Calls() {
		switch c.Op {
		case llm.OpTitleRelevance:
			if !strings.Contains(c.User, "Question: What is the method of this paper?") {
				t.Errorf("per-paper retrieval did not use the canonical question: %s", c.User)
			}
		case llm.OpAnswer:
			if !strings.Contains(c.User, "Question: "+q) {
				t.Errorf("answer not asked with the original question: %s", c.User)
			}
		case llm.OpMultiDocRewrite:
			if !c.JSON || !strings.Contains(c.User, q) {
				t.Errorf("rewrite request %+v", c)
			}
		}
	}
	if s.count(llm.OpTitleRelevance) < 2 {
		t.Errorf("%d title judgments for 2 papers", s.count(llm.OpTitleRelevance))
	}
}

func TestAskWithoutLLM(t *testing.T) {
	// A configured server that does not answer: Open still works and the
	// library is extractive (the port is closed, so no limit is waited for;
	// the detection's own limit is not timed here, a loaded machine would
	// break a wall-clock bound).
	dead := httptest.NewServer(http.NotFoundHandler())
	url := dead.URL
	dead.Close()
	l := openLib(t, &llm.Config{Provider: llm.ProviderOpenAI, BaseURL: url, ChatModel: chatModel, APIKey: apiKey})
	if st, on := l.LLMStatus(); on || len(st.Problems) == 0 {
		t.Errorf("LLM on with a dead server: %+v", st)
	}
	index(t, l, testPDF(t, t.TempDir(), "a.pdf"))
	a, err := l.Ask(context.Background(), AskRequest{Question: "How are glyphs grouped?"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Mode != "extractive" || a.Model != "" || len(a.Diag.Fallbacks) != 0 || a.Diag.LLMTokens != nil || a.ID == 0 {
		t.Errorf("answer without LLM: %+v", a)
	}
	list, err := l.Answers(context.Background(), 10, 0)
	if err != nil || len(list) != 1 || list[0].ID != a.ID {
		t.Errorf("answers %+v %v", list, err)
	}
	// An evaluation's question is answered the same but not kept.
	b, err := l.Ask(context.Background(), AskRequest{Question: "How are glyphs grouped?", NoHistory: true})
	if err != nil || b.ID != 0 || b.Text != a.Text {
		t.Errorf("NoHistory answer: %+v %v", b, err)
	}
	if list, err := l.Answers(context.Background(), 10, 0); err != nil || len(list) != 1 {
		t.Errorf("NoHistory saved the answer: %+v %v", list, err)
	}
	// Provider "none" switches off without a probe.
	if st, err := l.ConfigureLLM(context.Background(), llm.Config{Provider: llm.ProviderNone}); err != nil || st.Provider != llm.ProviderNone {
		t.Errorf("none: %+v %v", st, err)
	}
}

func TestRemoteEmbedder(t *testing.T) {
	var embedCalls int
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/models":
			fmt.Fprint(w, `{"data":[{"id":"chat-m"},{"id":"emb-m"}]}`)
		case "/v1/embeddings":
			var req struct {
				Model string   `json:"model"`
				Input []string `json:"input"`
			}
			if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "emb-m" || len(req.Input) == 0 {
				t.Errorf("embedding request %+v %v", req, err)
			}
			mu.Lock()
			embedCalls++
			mu.Unlock()
			// A bag of hashed words: similar texts get similar vectors.
			type item struct {
				Index     int       `json:"index"`
				Embedding []float64 `json:"embedding"`
			}
			var data []item
			for i, text := range req.Input {
				v := make([]float64, 32)
				for _, w := range strings.Fields(strings.ToLower(text)) {
					h := 0
					for _, c := range w {
						h = h*31 + int(c)
					}
					v[(h%32+32)%32]++
				}
				v[0] += 0.01
				data = append(data, item{Index: i, Embedding: v})
			}
			json.NewEncoder(w).Encode(map[string]any{"data": data, "usage": map[string]int{"prompt_tokens": 5}})
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	cfg := llm.Config{Provider: llm.ProviderOpenAI, BaseURL: srv.URL, EmbedModel: "emb-m", MaxRetries: -1}
	emb, err := RemoteEmbedder(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if emb.Name() != "openai:emb-m" || emb.Dim() != 32 {
		t.Errorf("embedder %s dim %d", emb.Name(), emb.Dim())
	}
	l, err := Open(context.Background(), Config{DBPath: filepath.Join(t.TempDir(), "lib.db"), Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	index(t, l, testPDF(t, t.TempDir(), "a.pdf"))
	a, err := l.Ask(context.Background(), AskRequest{Question: "How are glyphs grouped into words?"})
	if err != nil || len(a.Evidence) == 0 {
		t.Fatalf("ask with remote embeddings: %+v %v", a, err)
	}
	if embedCalls < 3 {
		t.Errorf("%d embedding calls", embedCalls)
	}
	for name, c := range map[string]llm.Config{
		"missing model": {Provider: llm.ProviderOpenAI, BaseURL: srv.URL, EmbedModel: "nope", MaxRetries: -1},
		"no model":      {Provider: llm.ProviderOpenAI, BaseURL: srv.URL, MaxRetries: -1},
	} {
		if _, err := RemoteEmbedder(context.Background(), c, nil); papertree.ErrorCode(err) != papertree.ELLM {
			t.Errorf("%s: %v", name, err)
		}
	}
}
