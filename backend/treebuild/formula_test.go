package treebuild

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
)

// mathPaper is one column of prose with, per case, a display equation, a
// pseudo-code listing, or a prose line dense with "L=12, H=768" that fills
// the column (never a formula).
func mathPaper(kind string) *pdf.Document {
	p := newPage(1)
	p.text(150, 80, titleSt, "Formulas in Scientific Papers")
	p.text(72, 120, sec, "1 Method")
	y := p.para(72, 136, 460, body, lorem(1, 5))
	switch kind {
	case "equation":
		p.text(200, y+8, body, "J = sum f(Xij) (wi · wj + bi − log Xij)")
		p.text(500, y+8, body, "(8)")
		y += 24
	case "code":
		for i, l := range []string{"1: for t ← 1 to I do", "2: x ← x + 1", "3: end for", "4: return x"} {
			p.text(90, y+8+float64(i)*12, body, l)
		}
		y += 58
	case "dense prose":
		p.text(72, y, body, "BASE (L=12, H=768, A=12, P=110M) and LARGE (L=24, H=1024, A=16, P=340M) with")
		y += 13
	}
	p.para(72, y+4, 460, body, lorem(2, 4))
	return &pdf.Document{Pages: []pdf.Page{p.page}}
}

func TestFormulaAndCodeLeaves(t *testing.T) {
	tests := []struct {
		name string
		role papertree.Role // "" = no formula or code leaf
		has  string
	}{
		{"equation", papertree.RoleFormula, "(8)"},
		{"code", papertree.RoleCode, "end for"},
		{"dense prose", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			paper, err := Build(context.Background(), mathPaper(tc.name), DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			var got []*papertree.Node
			paper.Root.Walk(func(path []*papertree.Node) bool {
				if n := path[len(path)-1]; n.Role == papertree.RoleFormula || n.Role == papertree.RoleCode {
					got = append(got, n)
				}
				return true
			})
			if tc.role == "" {
				if len(got) > 0 {
					t.Fatalf("found %s leaf %q, want none", got[0].Role, got[0].Text)
				}
				return
			}
			if len(got) != 1 || got[0].Role != tc.role || !strings.Contains(got[0].Text, tc.has) {
				for _, n := range got {
					t.Logf("%s: %q", n.Role, n.Text)
				}
				t.Fatalf("want one %s leaf holding %q", tc.role, tc.has)
			}
			for _, s := range leafTexts(paper) {
				if s != got[0].Text && strings.Contains(s, tc.has) {
					t.Errorf("a prose leaf still holds %q: %q", tc.has, s)
				}
			}
		})
	}
}
