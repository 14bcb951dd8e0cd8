package query

import (
	"slices"
	"testing"
)

func TestFocusDropsSuperlativesAndVerbs(t *testing.T) {
	for q, want := range map[string][]string{
		"What is the smallest amount of input DNA that can still be used on a methylation array?":         nil,
		"In the early logical model of networks of neurons, which neurons count as peripheral afferents?": {"neurons"},
		"Which gates control the flow of error?":                                                          {"gates"},
		"What dropout rate does GloVe apply?":                                                             {"dropout", "rate"},
		"What is the largest dataset used?":                                                               {"dataset"},
		"What loss functions are used?":                                                                   {"loss", "functions"},
	} {
		if got := Focus(q); !slices.Equal(got, want) {
			t.Errorf("Focus(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestCompoundsDropAPluralNounsVerb(t *testing.T) {
	q := "In the early logical model of networks of neurons, which neurons count as peripheral afferents?"
	for _, c := range Compounds(q, KindFactual, nil, Focus(q)) {
		if c.Head == "count" {
			t.Errorf("compound %q: %q is the verb of %q", c.Phrase(), c.Head, c.Mod)
		}
	}
	if cs := Compounds("Which radiation dosage was used?", KindFactual, nil, nil); len(cs) != 1 || cs[0].Phrase() != "radiation dosage" {
		t.Errorf("Compounds = %v, want radiation dosage", cs)
	}
}

func TestDoVerb(t *testing.T) {
	for _, tc := range []struct{ q, want string }{
		{"What accuracy on ImageNet did ResNeXt reach?", "reach"},
		{"Which optimizer did the capsule network paper use?", "use"},
		{"What learning rate did AlexNet use?", "use"},
		{"What did Karp show about the clique problem?", ""},
		{"Which datasets did they evaluate on?", ""},
		{"Did the authors use dropout?", ""},
		{"How large is the fee a transaction pays?", ""},
		{"What did they find?", "find"},
	} {
		if got := DoVerb(tc.q); got != tc.want {
			t.Errorf("DoVerb(%q) = %q, want %q", tc.q, got, tc.want)
		}
	}
}
