package retrieve

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// dstPaper is a small DST in document order:
//
//	0 P
//	1   1 Intro        2 a, 3 b
//	4   2 Method
//	5     2.1 Data     6 c, 7 d
//	8     2.2 Model    9 e
//	10  References     11 r   (skipped)
func dstPaper() *PaperData {
	leaf := func(t string) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSegment, Text: t, Tokens: papertree.CountTokens(t)}
	}
	sec := func(t string, kids ...*papertree.Node) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSection, Title: t, Children: kids}
	}
	refs := sec("References", leaf("r one two"))
	refs.Role = papertree.RoleReferences
	root := &papertree.Node{Kind: papertree.KindRoot, Title: "P", Children: []*papertree.Node{
		sec("1 Intro", leaf("a alpha text"), leaf("b beta text")),
		sec("2 Method", sec("2.1 Data", leaf("c gamma text"), leaf("d delta text")), sec("2.2 Model", leaf("e epsilon text"))),
		refs,
	}}
	return NewPaperData(&papertree.Paper{ID: 1, Title: "P", Root: root}, nil, nil, nil)
}

func TestLightNodesAndSerialize(t *testing.T) {
	d := dstPaper()
	tr := newDST(d)
	tests := []struct {
		name    string
		anchors []int
		lit     []int
		text    string
	}{
		{"anchor lights its content siblings only", []int{2}, []int{2, 3},
			"0: P\n\t1: 1 Intro\n\t\t2: a alpha text\n\t\t3: b beta text\n\t4: 2 Method\n\t\t5: 2.1 Data\n\t\t8: 2.2 Model\n"},
		{"deep anchor; all headings stay visible", []int{9}, []int{9},
			"0: P\n\t1: 1 Intro\n\t4: 2 Method\n\t\t5: 2.1 Data\n\t\t8: 2.2 Model\n\t\t\t9: e epsilon text\n"},
		{"two anchors", []int{6, 2}, []int{2, 3, 6, 7}, ""},
		{"references are never lit", []int{11}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tr.subtree()
			s.LightNodes(tt.anchors)
			if got := s.Lit(); !reflect.DeepEqual(got, tt.lit) {
				t.Fatalf("lit %v, want %v", got, tt.lit)
			}
			if tt.text != "" && s.Serialize() != tt.text {
				t.Fatalf("serialised:\n%s\nwant:\n%s", s.Serialize(), tt.text)
			}
			if strings.Contains(s.Serialize(), "References") {
				t.Fatal("skipped section rendered")
			}
		})
	}
	s := tr.subtree()
	s.LightNodes([]int{2})
	if !s.Collapsed(4) || !s.Collapsed(5) || s.Collapsed(1) || s.Collapsed(0) {
		t.Fatalf("collapsed: 4=%v 5=%v 1=%v 0=%v", s.Collapsed(4), s.Collapsed(5), s.Collapsed(1), s.Collapsed(0))
	}
}

func TestParseRoute(t *testing.T) {
	d := dstPaper()
	s := newDST(d).subtree()
	s.LightNodes([]int{2}) // visible content: 2, 3; collapsed: 4, 5, 8
	tests := []struct {
		name string
		raw  string
		want RouteActions
	}{
		{"answer and expand", "[ANSWER] 2: a alpha text\n[EXPAND] 5: 2.1 Data", RouteActions{Answer: []int{2}, Expand: []int{5}}},
		{"lowercase tags, comma list", "[answer] 2, 3\n[expand] 8", RouteActions{Answer: []int{2, 3}, Expand: []int{8}}},
		{"demo shorthand on one line", "[ANSWER] 3 [EXPAND] 4", RouteActions{Answer: []int{3}, Expand: []int{4}}},
		{"refusal", "Cannot answer", RouteActions{Refused: true}},
		{"refusal wins over actions", "[ANSWER] 2: a\nCannot answer.", RouteActions{Refused: true}},
		{"refuse tag", "[REFUSE]", RouteActions{Refused: true}},
		{"answer id not visible", "[ANSWER] 6: c gamma", RouteActions{Expelled: []int{6}}},
		{"answer a heading", "[ANSWER] 4: 2 Method", RouteActions{Expelled: []int{4}}},
		{"expand a content node", "[EXPAND] 2: a", RouteActions{Expelled: []int{2}}},
		{"expand a heading that is not collapsed", "[EXPAND] 1: 1 Intro", RouteActions{Expelled: []int{1}}},
		{"expand a skipped section", "[EXPAND] 10: References", RouteActions{Expelled: []int{10}}},
		{"id out of range", "[ANSWER] 99: x\n[ANSWER] -1: y", RouteActions{Expelled: []int{99, -1}}},
		{"prose is collapsed", "The answer is probably in the data section.", RouteActions{Collapsed: true}},
		{"malformed tag line", "[MAYBE] 2: a\n[ANSWER] 3: b", RouteActions{Answer: []int{3}, Malformed: 1}},
		{"think block ignored", "<think>[ANSWER] 6</think>\n[ANSWER] 3: b", RouteActions{Answer: []int{3}}},
		{"duplicate ids once", "[ANSWER] 2: a\n[ANSWER] 2: a", RouteActions{Answer: []int{2}}},
		{"empty", "", RouteActions{Collapsed: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseRoute(tt.raw, s)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("parseRoute(%q) = %+v, want %+v", tt.raw, got, tt.want)
			}
		})
	}
}

// TestRouteDocument checks the routing loop with a scripted router:
// replacement on expand, no re-expansion, never the same subtree twice, the
// expand-iter cap, and headings at any depth ("not top-down").
func TestRouteDocument(t *testing.T) {
	type call struct{ lit []int }
	script := func(calls *[]call, rules map[int]string) func(*rdr2Paper, *RetrievalSubtree) RouteActions {
		return func(rp *rdr2Paper, s *RetrievalSubtree) RouteActions {
			lit := s.Lit()
			*calls = append(*calls, call{lit})
			raw := "Cannot answer"
			if len(lit) > 0 {
				if r, ok := rules[lit[0]]; ok {
					raw = r
				}
			}
			return parseRoute(raw, s)
		}
	}
	tests := []struct {
		name       string
		anchors    []int
		iter       int
		rules      map[int]string // first lit node -> router output
		wantCalls  [][]int
		wantAnswer []int
	}{
		{"expand a subsection directly, then answer there", []int{2}, 5,
			map[int]string{2: "[EXPAND] 8: 2.2 Model", 9: "[ANSWER] 9: e"},
			[][]int{{2, 3}, {9}}, []int{9}},
		{"answers are united over steps", []int{2}, 5,
			map[int]string{2: "[ANSWER] 3: b\n[EXPAND] 5: 2.1", 6: "[ANSWER] 7: d"},
			[][]int{{2, 3}, {6, 7}}, []int{3, 7}},
		{"heading with only sub-headings consumes an iteration", []int{2}, 1,
			map[int]string{2: "[EXPAND] 4: 2 Method\n[EXPAND] 5: 2.1 Data"},
			[][]int{{2, 3}}, nil},
		{"expand-iter 0 is w/o [EXP]", []int{2}, 0,
			map[int]string{2: "[EXPAND] 5: 2.1 Data"},
			[][]int{{2, 3}}, nil},
		{"same subtree routed once; viewed headings not queued", []int{2, 3, 6}, 5,
			map[int]string{2: "[EXPAND] 5: 2.1 Data", 6: "[ANSWER] 6: c"},
			[][]int{{2, 3}, {6, 7}}, []int{6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := dstPaper()
			rp := &rdr2Paper{t: newDST(d), z: make([]float64, len(d.Nodes)), answers: map[int]bool{}}
			var calls []call
			rp.routeDocument(tt.anchors, RDR2Params{ExpandIter: tt.iter}, script(&calls, tt.rules))
			var got [][]int
			for _, c := range calls {
				got = append(got, c.lit)
			}
			if !reflect.DeepEqual(got, tt.wantCalls) {
				t.Fatalf("routed subtrees %v, want %v", got, tt.wantCalls)
			}
			var ans []int
			for o := range d.Nodes {
				if rp.answers[o] {
					ans = append(ans, o)
				}
			}
			if !reflect.DeepEqual(ans, tt.wantAnswer) {
				t.Fatalf("answers %v, want %v", ans, tt.wantAnswer)
			}
		})
	}
}
