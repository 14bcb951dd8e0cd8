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
	want := []Heading{{Text: "1 Intro", Level: 1, Page: 1}, {Text: "2 Method", Level: 1, Page: 2}, {Text: "2.1 Data", Level: 2, Page: 2}}
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

func TestSplitSentences(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"two", "We train a model. It works well.", []string{"We train a model.", "It works well."}},
		{"et al", "As shown by Smith et al. (2019), it works. Next.", []string{"As shown by Smith et al. (2019), it works.", "Next."}},
		{"figure ref", "See Fig. 3 for details. Done!", []string{"See Fig. 3 for details.", "Done!"}},
		{"decimal", "Accuracy is 93.2 on SST. Good?", []string{"Accuracy is 93.2 on SST.", "Good?"}},
		{"eg", "Some tasks, e.g. NER, are hard. Yes.", []string{"Some tasks, e.g. NER, are hard.", "Yes."}},
		{"initial", "Written by J. Smith in 2020. Then.", []string{"Written by J. Smith in 2020.", "Then."}},
		{"closing paren", "It is small (about 5%.) The end.", []string{"It is small (about 5%.)", "The end."}},
		{"lowercase continuation", "We use approx. ten runs. Ok.", []string{"We use approx. ten runs.", "Ok."}},
		{"no terminator", "A heading without period", []string{"A heading without period"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SplitSentences(tt.in)
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.want) {
				t.Errorf("SplitSentences(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}
