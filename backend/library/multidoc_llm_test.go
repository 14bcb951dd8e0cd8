package library

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/llm"
)

// The multi-paper strategies' LLM steps against the in-test server of
// llm_test.go: the server recognises them by their system prompts.
func init() {
	opMarkers = append(opMarkers,
		struct{ marker, op string }{"You select documents for multi-document retrieval", llm.OpFableSelect},
		struct{ marker, op string }{"You navigate the hierarchical tables of contents", llm.OpFableNavigate},
		struct{ marker, op string }{"You are the hybrid structure router of StructRAG.", llm.OpStructRoute},
		struct{ marker, op string }{"You are the hybrid structure router of StructRAG for a library", llm.OpAutoRoute},
		struct{ marker, op string }{"You are the scattered knowledge structurizer of StructRAG", llm.OpStructurize},
		struct{ marker, op string }{"break down the given query into multiple relatively simple", llm.OpStructDecompose},
		struct{ marker, op string }{"Extract precise knowledge from structured knowledge", llm.OpStructExtract},
	)
}

var (
	docIDRE  = regexp.MustCompile(`(?m)^\[doc (\d+)\]`)
	nodeIDRE = regexp.MustCompile(`(?m)^  \((\d+)\) `)
	tagRE    = regexp.MustCompile(`(?m)^\[(S\d+)\]`)
)

// multiDocReplies answer every multi-paper operation well (from what the
// request shows), like a capable model would.
func multiDocReplies(s *llmServer) {
	s.set(llm.OpFableSelect, func(c chatCall) reply {
		m := docIDRE.FindStringSubmatch(c.User)
		return reply{content: `{"doc_ids": [` + m[1] + `, 999], "reason": "its sections describe glyph grouping"}`}
	})
	s.set(llm.OpFableNavigate, func(c chatCall) reply {
		ms := nodeIDRE.FindAllStringSubmatch(c.User, -1)
		return reply{content: `{"node_ids": [` + ms[len(ms)-1][1] + `]}`}
	})
	s.set(llm.OpStructRoute, func(c chatCall) reply {
		return reply{content: `{"type": "table", "reason": "the question compares papers"}`}
	})
	s.set(llm.OpStructurize, func(c chatCall) reply {
		tags := tagRE.FindAllStringSubmatch(c.User, -1)
		return reply{content: `{"description": "headings and glyphs", "items": [{"text": "Grouping: glyphs by size", "sources": ["` + tags[0][1] + `"]}, {"text": "made up", "sources": ["S999"]}]}`}
	})
	s.set(llm.OpStructDecompose, func(c chatCall) reply {
		return reply{content: `{"subquestions": ["How are glyphs grouped?", "How are headings found?"]}`}
	})
	s.set(llm.OpStructExtract, func(c chatCall) reply { return reply{content: `{"keep": [1]}`} })
}

func TestAskMultiPaperLLM(t *testing.T) {
	tests := []struct {
		name, strategy string
		counts         map[string]int // exact LLM calls per operation (-1 = at least one)
		check          func(t *testing.T, s *llmServer, fallbacks []string)
	}{
		{"fable", "fable", map[string]int{llm.OpFableSelect: 1, llm.OpFableNavigate: 1, llm.OpDecompose: 0, llm.OpMultiDocRewrite: 0, llm.OpAnswer: 1}, func(t *testing.T, s *llmServer, fb []string) {
			for _, c := range s.Calls() {
				if c.Op == llm.OpFableSelect && (!c.JSON || !strings.Contains(c.User, "Question: How are headings") || !strings.Contains(c.User, "[doc ")) {
					t.Errorf("select request %+v", c)
				}
			}
		}},
		{"structrag", "structrag", map[string]int{llm.OpStructRoute: 1, llm.OpStructurize: -1, llm.OpStructDecompose: 1, llm.OpStructExtract: 2, llm.OpFableSelect: 1, llm.OpAnswer: 1}, func(t *testing.T, s *llmServer, fb []string) {
			if !hasPrefix(fb, "structrag structurizer (table): 1 item(s)") {
				t.Errorf("the item citing an unknown tag was not reported: %v", fb)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newLLMServer(t)
			multiDocReplies(s)
			l := askLib(t, s, "a.pdf", "b.pdf")
			a, err := l.Ask(context.Background(), AskRequest{Question: "How are headings and glyphs grouped?", Strategy: tt.strategy, Budget: 80})
			if err != nil {
				t.Fatal(err)
			}
			if a.Mode != "llm" || len(a.Evidence) == 0 || a.Diag.Selection == nil {
				t.Fatalf("answer mode %s, %d evidence, selection %+v", a.Mode, len(a.Evidence), a.Diag.Selection)
			}
			for op, n := range tt.counts {
				if got := s.count(op); (n >= 0 && got != n) || (n < 0 && got == 0) {
					t.Errorf("%s called %d times, want %d", op, got, n)
				}
			}
			first := a.Diag.Selection.Papers[0]
			if !first.Chosen || !strings.Contains(first.By, "llm") || !strings.Contains(first.Reason, "glyph grouping") {
				t.Errorf("first paper %+v: want the LLM's choice with its reason", first)
			}
			if tt.strategy == "structrag" && (a.Diag.Selection.RoutedBy != "llm" || a.Diag.Selection.Structure != "table" || len(a.Diag.Selection.SubQueries) != 2) {
				t.Errorf("selection %+v", a.Diag.Selection)
			}
			tt.check(t, s, a.Diag.Fallbacks)
			for _, f := range a.Diag.Fallbacks {
				if strings.Contains(f, "(no LLM)") {
					t.Errorf("offline fallback with a working LLM: %v", a.Diag.Fallbacks)
				}
			}
			saved, err := l.Answer(context.Background(), a.ID)
			if err != nil || saved.Diag.Selection == nil || len(saved.Diag.Selection.Papers) != len(a.Diag.Selection.Papers) {
				t.Errorf("saved answer lost the selection: %+v %v", saved, err)
			}
		})
	}
}

func TestAskMultiPaperLLMFallbacks(t *testing.T) {
	tests := []struct {
		name, strategy string
		script         map[string]func(chatCall) reply
		down           bool
		want           []string
		structure      string
	}{
		{"select HTTP 500", "fable", map[string]func(chatCall) reply{llm.OpFableSelect: func(chatCall) reply { return reply{status: 500} }}, false,
			[]string{"fable_select: fallback", "fable document selection: title/ToC match ("}, ""},
		{"navigate malformed JSON", "fable", map[string]func(chatCall) reply{llm.OpFableNavigate: func(chatCall) reply { return reply{content: `{"node_ids": [1, `} }}, false,
			[]string{"fable_navigate: fallback", "fable node navigation: TreeExpansion only ("}, ""},
		{"router prose without a type", "structrag", map[string]func(chatCall) reply{llm.OpStructRoute: func(chatCall) reply { return reply{content: "I would draw a bar chart."} }}, false,
			nil, "chunk"},
		{"structurizer not JSON", "structrag", map[string]func(chatCall) reply{llm.OpStructurize: func(chatCall) reply { return reply{content: "Here is a table: | a | b |"} }}, false,
			[]string{"structrag_structurize: fallback", "structrag structurizer (table): extractive for"}, "table"},
		{"decompose and extract fail", "structrag", map[string]func(chatCall) reply{
			llm.OpStructDecompose: func(chatCall) reply { return reply{status: 503} },
			llm.OpStructExtract:   func(chatCall) reply { return reply{content: "keep the first"} }}, false,
			[]string{"structrag_decompose: fallback", "structrag decompose: split on coordination (", "structrag_extract: fallback", "structrag extract: similarity filter ("}, "table"},
		{"server down", "structrag", nil, true,
			[]string{"fable_select: fallback", "structrag_route: fallback", "structrag router: rules from the question's form (", "answer: fallback"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newLLMServer(t)
			multiDocReplies(s)
			for op, f := range tt.script {
				s.set(op, f)
			}
			l := askLib(t, s, "a.pdf", "b.pdf")
			if tt.down {
				s.srv.Close()
			}
			a, err := l.Ask(context.Background(), AskRequest{Question: "Compare how headings and glyphs are grouped in these papers", Strategy: tt.strategy, Budget: 80})
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Evidence) == 0 || a.Text == "" {
				t.Fatalf("no evidence or answer: %+v", a)
			}
			for _, f := range tt.want {
				if !hasPrefix(a.Diag.Fallbacks, f) {
					t.Errorf("fallback %q missing in %q", f, a.Diag.Fallbacks)
				}
			}
			if tt.structure != "" && a.Diag.Selection.Structure != tt.structure {
				t.Errorf("structure %s, want %s", a.Diag.Selection.Structure, tt.structure)
			}
			if tt.down && a.Mode != "extractive" {
				t.Errorf("mode %s with the server down", a.Mode)
			}
		})
	}
}
