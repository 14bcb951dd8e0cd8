package treebuild

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/pdf"
)

// Front-matter cases of issue 21's hold-out misses, rebuilt from positioned
// runs: each checks one general signal (type, position, case) rather than a
// file.

func buildPage(t *testing.T, p *pageBuilder, info pdf.Info) *Paper {
	t.Helper()
	got, err := Build(context.Background(), &pdf.Document{Pages: []pdf.Page{p.page}, Info: info}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return &Paper{got.Title, got.Authors, got.Year}
}

// Paper is the part of a built paper these tests look at.
type Paper struct {
	Title   string
	Authors []string
	Year    int
}

func TestTitleLabelsAndSubtitles(t *testing.T) {
	big := style{font: "Times-Bold", size: 20, bold: true}
	cases := []struct {
		name  string
		build func(p *pageBuilder)
		want  string
	}{
		{"a one-word label in capitals under a mixed-case title", func(p *pageBuilder) {
			p.text(120, 100, big, "Cocco, Gomes, and Maenhout (2005)")
			p.text(240, 125, big, "REMARK")
		}, "Cocco, Gomes, and Maenhout (2005)"},
		{"a title in capitals keeps its last word", func(p *pageBuilder) {
			p.text(120, 100, big, "ATTENTION IS ALL YOU")
			p.text(240, 125, big, "NEED")
		}, "Attention Is All You Need"},
		{"a subtitle after a colon further down", func(p *pageBuilder) {
			p.text(250, 90, big, "Firm Entry and Exit:")
			p.text(100, 150, big, "A Replication of Two Models")
		}, "Firm Entry and Exit: A Replication of Two Models"},
		{"a subtitle after a colon in a smaller display size", func(p *pageBuilder) {
			p.text(150, 90, big, "Deep Trees:")
			p.text(120, 118, titleSt, "Reading Papers as Hierarchies")
		}, "Deep Trees: Reading Papers as Hierarchies"},
		{"a thesis's document type over its title", func(p *pageBuilder) {
			p.text(190, 80, style{font: "CMBX12", size: 25, bold: true}, "Bachelorarbeit")
			p.text(100, 125, big, "Optimale Zuordnungen auf Geometrischen")
			p.text(240, 155, big, "Graphen")
		}, "Optimale Zuordnungen auf Geometrischen Graphen"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPage(1)
			c.build(p)
			p.text(220, 200, body, "Jane Doe")
			p.text(72, 240, sec, "Abstract")
			p.para(72, 256, 460, body, lorem(1, 40))
			if got := buildPage(t, p, pdf.Info{}); got.Title != c.want {
				t.Fatalf("title %q, want %q", got.Title, c.want)
			}
		})
	}
}

// TestTitleNotUnderAddresses: large lettering under the authors' e-mail
// addresses (a logo in a figure) is not the title.
func TestTitleNotUnderAddresses(t *testing.T) {
	p := newPage(1)
	p.text(95, 80, style{font: "Times-Bold", size: 14.5, bold: true}, "PaSa: An LLM Agent for Paper Search")
	p.text(150, 100, style{font: "Times-Bold", size: 12, bold: true}, "Yichen He, Guanhua Huang")
	p.text(150, 160, body, "{hyc,huangguanhua}@bytedance.com")
	p.text(240, 300, style{font: "Rockwell-Bold", size: 20, bold: true}, "Paper Search")
	p.text(72, 340, sec, "Abstract")
	p.para(72, 356, 460, body, lorem(1, 40))
	got := buildPage(t, p, pdf.Info{})
	if got.Title != "PaSa: An LLM Agent for Paper Search" {
		t.Fatalf("title %q", got.Title)
	}
	if strings.Join(got.Authors, "|") != "Yichen He|Guanhua Huang" {
		t.Fatalf("authors %q", got.Authors)
	}
}
