package treebuild

import (
	"fmt"
	"strings"
	"testing"
)

func numHead(text string, size float64) *heading {
	h := &heading{text: text, style: styleKey{size: size, bold: true}, strong: true}
	h.num, h.hasNum = ParseNumbering(text)
	h.role = roleFor(text)
	_, h.conv = ConventionalName(text)
	return h
}

func levelsOf(hs []*heading) string {
	var out []string
	for _, h := range hs {
		out = append(out, fmt.Sprintf("%d %s", h.level, h.text))
	}
	return strings.Join(out, "|")
}

func TestChapterExcerptLevels(t *testing.T) {
	cases := []struct {
		name  string
		heads []string
		want  string
	}{
		{"a chapter on its own", []string{"Abstract", "1.1 Introduction", "1.2 Growth", "1.2.1 Setup", "1.3 Remarks", "References"},
			"1 Abstract|1 1.1 Introduction|1 1.2 Growth|2 1.2.1 Setup|1 1.3 Remarks|1 References"},
		{"a paper with its top level", []string{"1 Introduction", "1.1 Scope", "1.2 Aims", "2 Method", "References"},
			"1 1 Introduction|2 1.1 Scope|2 1.2 Aims|1 2 Method|1 References"},
		{"two chapters", []string{"1.1 Scope", "1.2 Aims", "2.1 Data", "2.2 Model"},
			"1 1.1 Scope|2 1.2 Aims|2 2.1 Data|2 2.2 Model"},
		{"too few to tell", []string{"1.1 Scope", "1.2 Aims"}, "1 1.1 Scope|2 1.2 Aims"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var hs []*heading
			for _, s := range c.heads {
				hs = append(hs, numHead(s, 12))
			}
			assignLevels(hs)
			if got := levelsOf(hs); got != c.want {
				t.Fatalf("levels\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestAcronymStyles(t *testing.T) {
	mixed := styleKey{size: 11.5, bold: true}
	caps := styleKey{size: 11.5, bold: true, caps: true}
	sub := styleKey{size: 11, bold: true, italic: true}
	cases := []struct {
		name   string
		styles []styleKey
		texts  []string
		want   string
	}{
		{"an acronym among mixed-case sections",
			[]styleKey{mixed, sub, mixed, caps}, []string{"Background", "Study participants", "Results", "ORCID"},
			"1 Background|2 Study participants|1 Results|1 ORCID"},
		{"a capitals style confirmed by a longer heading",
			[]styleKey{caps, caps, mixed, caps}, []string{"INTRODUCTION", "RELATED WORK", "Setup", "METHOD"},
			"1 INTRODUCTION|1 RELATED WORK|2 Setup|1 METHOD"},
		{"capitals with no mixed-case twin",
			[]styleKey{caps, sub, caps}, []string{"INTRODUCTION", "Scope", "METHOD"},
			"1 INTRODUCTION|2 Scope|1 METHOD"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var hs []*heading
			for i, s := range c.texts {
				hs = append(hs, &heading{text: s, style: c.styles[i], strong: true})
			}
			assignLevels(hs)
			if got := levelsOf(hs); got != c.want {
				t.Fatalf("levels\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestRepeatsTitle(t *testing.T) {
	title := "The K2NiF4-Type Cuprate Superconductors La2−xMxCuO4"
	cases := []struct {
		name, text string
		want       bool
	}{
		{"the title again", "The K2NiF4-Type Cuprate Superconductors La2−xMxCuO4", true},
		{"chapter label over the title's first words", "Chapter 1 The K2NiF4-Type Cuprate", true},
		{"a section that starts like the title", "The K2NiF4", false},
		{"a numbered section", "1 The K2NiF4-Type Cuprate", false},
		{"a conventional name", "Introduction", false},
		{"another heading", "Crystal Growth", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := repeatsTitle(numHead(c.text, 14), title); got != c.want {
				t.Fatalf("repeatsTitle(%q) = %v, want %v", c.text, got, c.want)
			}
		})
	}
}
