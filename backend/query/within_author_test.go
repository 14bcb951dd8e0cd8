package query

import (
	"slices"
	"testing"
)

// A question naming its paper by its authors' possessive keeps what it
// asks about: the walk back from "paper" stops at the names joined to the
// possessive, and within the paper the authors' names go while the title's
// words, all the question says, stay.
func TestWithinKeepsTopicWhenAuthorsName(t *testing.T) {
	q := Parse("Which optimizer does Kingma and Ba's paper propose?")
	for _, w := range []string{"kingma", "ba"} {
		if !q.Refs[w] {
			t.Errorf("Refs %v lack %q", q.Refs, w)
		}
	}
	for _, w := range []string{"optimizer", "does", "which"} {
		if q.Refs[w] {
			t.Errorf("Refs %v hold %q, a word before the citation", q.Refs, w)
		}
	}
	in := q.Within("Adam: A Method for Stochastic Optimization", []string{"Diederik P. Kingma", "Jimmy Ba"})
	if !slices.Equal(in.Terms, []string{"optim"}) {
		t.Errorf("within the paper: %v, want [optim]", in.Terms)
	}
	// A term that does not name the paper keeps the old reading: only it.
	in = Parse("Which learning rate does Kingma and Ba's optimization paper use?").Within("Adam: A Method for Stochastic Optimization", []string{"Diederik P. Kingma", "Jimmy Ba"})
	if slices.Contains(in.Terms, "optim") || slices.Contains(in.Terms, "kingma") || !slices.Contains(in.Terms, "rate") {
		t.Errorf("within the paper: %v", in.Terms)
	}
}
