package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// The reader gaps listed by earlier sessions (README, "Yes/no verdicts"),
// each on sentences written for the case, with a control that keeps its
// verdict: a sentence-initial contrast adverb; "little" and "missing" as
// negations; a predicate word read in a noun ("their total training time",
// "the programmer's direct reach"); a negation in the question's subject
// clause; a clause set off by commas in the subject; "to" before a verb
// read as a preposition; a possessive name read as the object.
func TestVerdictGaps(t *testing.T) {
	tests := []struct{ name, q, s, want string }{
		{"a sentence-initial 'In contrast,' leaves the polarity to be read", "Do modern accelerators provide more than 100GB of memory?",
			"In contrast, modern accelerators typically provide less than 100GB of memory.", VerdictNo},
		{"a light verb's object after 'more than': 'more than' answered by 'less than'... affirmed by 'more than'", "Do modern accelerators provide more than 100GB of memory?",
			"In contrast, modern accelerators typically provide more than 100GB of memory.", VerdictYes},
		{"'By contrast,' opening the sentence, affirmed", "Does the end-to-end model have an explicit dialogue manager?",
			"By contrast, the end-to-end model has an explicit dialogue manager.", VerdictYes},
		{"'in contrast' inside the sentence still sets two clauses against each other", "Does the end-to-end model have an explicit dialogue manager?",
			"The pipeline has an explicit dialogue manager; the end-to-end model, in contrast, has none.", VerdictUnclear},
		{"'whereas' still sets two clauses against each other", "Do modern accelerators provide more than 100GB of memory?",
			"Modern accelerators provide less than 100GB of memory, whereas host machines provide more.", VerdictUnclear},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Verdict(tc.q, tc.s); got != tc.want {
				t.Errorf("Verdict(%q, %q) = %s, want %s", tc.q, tc.s, got, tc.want)
			}
		})
	}
}

// The deciding sentences name the question's subject: when one does, a
// sentence that names none of it (its words may count through the paper's
// title) speaks of something else and neither decides, confirms nor vetoes.
func TestComposeSubjectNamed(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := func(score float64, text string) papertree.Evidence {
		return papertree.Evidence{Kind: papertree.KindSegment, PaperID: 1, PaperTitle: "RoBERTa: A Robustly Optimized Pretraining Approach", Text: text, Score: score}
	}
	const q = "Is RoBERTa trained with the next sentence prediction loss?"
	other := "In the original procedure, the model is trained with an auxiliary next sentence prediction loss."
	tests := []struct{ name, first, second, verdict string }{
		{"a best sentence without the subject does not decide", other,
			"RoBERTa is trained without the next sentence prediction loss.", VerdictNo},
		{"a runner-up without the subject does not veto", "RoBERTa is trained without the next sentence prediction loss.",
			other, VerdictNo},
		{"control: a runner-up naming the subject vetoes", "RoBERTa is trained without the next sentence prediction loss.",
			"RoBERTa is trained with the next sentence prediction loss on long inputs.", VerdictUnclear},
		{"control: no sentence names the subject, the best decides", other, "The base model is trained with next sentence prediction loss for longer.", VerdictYes},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Question: q, Evidence: []papertree.Evidence{ev(0.9, tc.first), ev(0.5, tc.second)}, Terms: 5, Scoped: true}
			out, err := Compose(context.Background(), emb, in, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if out.Verdict != tc.verdict {
				t.Errorf("verdict %q, want %q; text %q", out.Verdict, tc.verdict, out.Text)
			}
			if tc.verdict == VerdictNo && !strings.Contains(out.Text, "RoBERTa") {
				t.Errorf("deciding sentence %q does not name the subject", out.Text)
			}
		})
	}
}
