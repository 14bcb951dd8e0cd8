package papertree

import (
	"errors"
	"fmt"
	"testing"
)

func TestCountTokens(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int
	}{
		{"empty", "", 0},
		{"spaces", "   \n\t", 0},
		{"one short word", "tree", 1},
		{"long word splits", "internationalization", 4},
		{"punctuation counts", "a, b.", 4},
		{"digits", "F1 = 0.52", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CountTokens(tt.in); got != tt.want {
				t.Errorf("CountTokens(%q) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}

func TestErrorCodeThroughWrapping(t *testing.T) {
	base := Errorf(EEncrypted, "The PDF is password-protected.")
	wrapped := fmt.Errorf("open %s: %w", "x.pdf", base)
	if got := ErrorCode(wrapped); got != EEncrypted {
		t.Fatalf("code = %q", got)
	}
	if got := ErrorMessage(wrapped); got != "The PDF is password-protected." {
		t.Fatalf("message = %q", got)
	}
	if got := ErrorCode(errors.New("boom")); got != EInternal {
		t.Fatalf("plain error code = %q", got)
	}
	if ErrorCode(nil) != "" {
		t.Fatal("nil error must have no code")
	}
}

func TestWalkHeadingsAndRenumber(t *testing.T) {
	root := &Node{Kind: KindRoot, Title: "Paper", Children: []*Node{
		{Kind: KindSection, Title: "1 Intro", Level: 1, PageStart: 1, Children: []*Node{
			{Kind: KindSegment, Text: "hello", Level: 2},
		}},
		{Kind: KindSection, Title: "2 Method", Level: 1, PageStart: 2, Children: []*Node{
			{Kind: KindSection, Title: "2.1 Data", Level: 2, PageStart: 2, Children: []*Node{
				{Kind: KindSegment, Text: "data", Level: 3},
			}},
		}},
	}}
	if n := root.Renumber(); n != 6 {
		t.Fatalf("renumber = %d", n)
	}
	hs := Headings(root)
	want := []Heading{{"1 Intro", 1, 1}, {"2 Method", 1, 2}, {"2.1 Data", 2, 2}}
	if fmt.Sprint(hs) != fmt.Sprint(want) {
		t.Fatalf("headings = %v", hs)
	}
	var leafPath []string
	root.Walk(func(p []*Node) bool {
		if p[len(p)-1].Text == "data" {
			leafPath = PathTitles(p)
		}
		return true
	})
	if JoinPath(leafPath) != "Paper > 2 Method > 2.1 Data" {
		t.Fatalf("path = %v", leafPath)
	}
}
