package main

import "testing"

func TestHeadingQuestion(t *testing.T) {
	tests := []struct {
		name, heading, want string
	}{
		{"roman numeral", "I. Introduction", "What does the paper say about introduction?"},
		{"unnumbered word starting with a numeral letter", "Introduction", "What does the paper say about introduction?"},
		{"unnumbered word starting with A", "Analysis", "What does the paper say about analysis?"},
		{"dotted number", "3.2 Model Architecture", "What does the paper say about model architecture?"},
		{"appendix letter", "A Proofs", "What does the paper say about proofs?"},
		{"too short", "4 Aim", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := headingQuestion(tc.heading); got != tc.want {
				t.Errorf("headingQuestion(%q) = %q, want %q", tc.heading, got, tc.want)
			}
		})
	}
}
