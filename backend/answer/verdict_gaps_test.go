package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// The reader gaps listed by earlier sessions (docs/measurements.md, "Yes/no verdicts"),
// each on sentences written for the case, with a control that keeps its
// verdict: a sentence-initial contrast adverb; "little" and "missing" as
// negations; a predicate word read in a noun ("their total training time",
// "the programmer's direct reach"); a negation in the question's subject
// clause; a clause set off by commas in the subject; "to" before a verb
// read as a preposition; a possessive name read as the object.
func TestVerdictGaps(t *testing.T) {
	tests := []verdictCase{
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
		{"a limitation of something else contrasts nothing", "Do modern accelerators provide more than 100GB of memory?",
			"In contrast, modern accelerators typically provide less than 100GB of memory, and their growth is hindered by physical limitations.", VerdictNo},
		{"control: a shortcoming of the question's subject sets it against the claim", "Is the standard Transformer model computationally universal?",
			"The Universal Transformer is computationally universal, thereby addressing a shortcoming of the standard Transformer model.", VerdictUnclear},
		{"'have to be' is a modal of necessity: the participle after it is the predicate", "Is it true that the interior hashes have to be kept when old blocks are compacted?",
			"When old blocks are compacted, the interior hashes are not kept.", VerdictNo},
		{"'be' alone is no predicate", "Is it true that the interior hashes have to be kept when old blocks are compacted?",
			"When old blocks are compacted, the interior hashes have to be stored on disk.", VerdictUnclear},
		{"a plural noun before a preposition is the subject's, not a bare adjective", "Are the specialist models in Hinton et al.'s distillation paper slow to train?",
			"In the distillation paper, no specialist models are used to train the generalist.", VerdictUnclear},
		{"control: the bare adjective after the subject decides", "Are the specialist models in Hinton et al.'s distillation paper slow to train?",
			"The specialist models in the distillation paper are slow to train.", VerdictYes},
		{"'little' negates what it quantifies", "Is there research on combining test-driven development with mutation testing?",
			"There is little research on combining test-driven development with mutation testing.", VerdictNo},
		{"'very little' negates too", "Is there research on combining test-driven development with mutation testing?",
			"Very little research exists on combining test-driven development with mutation testing.", VerdictNo},
		{"control: 'a little' is some", "Is there research on combining test-driven development with mutation testing?",
			"There is a little research on combining test-driven development with mutation testing.", VerdictYes},
		{"'X is missing' negates X", "Does the checker have runtime contract generation?",
			"In the checker, runtime contract generation is missing.", VerdictNo},
		{"'missing' negates the examples it is said of", "Does the checker have automatic runtime contract generation?",
			"Some features of the checker are missing, such as automatic runtime contract generation and a blame system.", VerdictNo},
		{"'is missing X' negates X", "Does the checker have runtime contract generation?",
			"The checker is still missing runtime contract generation.", VerdictNo},
		{"control: 'missing' as a modifier negates nothing", "Does the checker handle missing values?",
			"The checker handles missing values in every field.", VerdictYes},
		{"a possessive name before the object is its determiner", "Does the optional type system already have Typed Racket's automatic runtime contract generation?",
			"In the optional type system, desirable features from the Typed Racket project are missing, such as automatic runtime contract generation.", VerdictNo},
		{"control: a possessive name's object held", "Does the optional type system already have Typed Racket's automatic runtime contract generation?",
			"The optional type system already has Typed Racket's automatic runtime contract generation.", VerdictYes},
		{"a verb-shaped noun in a noun phrase does not hold the verb", "Is the small model trained with dropout?",
			"Dropout does not change their total training time.", VerdictUnclear},
		{"control: the gerund as a verb holds it", "Is the small model trained with dropout?",
			"We found that the small model is not training with dropout.", VerdictNo},
		{"a word after a possessive and an adjective is a noun, not the predicate", "Does Arrowized FRP keep signals out of the programmer's direct reach?",
			"In Arrowized FRP, programmers can reach signals directly.", VerdictUnclear},
		{"control: the verb before it is the predicate", "Does Arrowized FRP keep signals out of the programmer's direct reach?",
			"Arrowized FRP keeps signals out of the programmer's direct reach.", VerdictYes},
		{"a negation in the subject's clause does not negate the question", "Does the study of what graph neural networks cannot learn depend on their depth?",
			"The study shows that what graph neural networks can learn depends on their depth and width.", VerdictYes},
		{"a negation in the subject's clause is no condition to be met", "Does the study of what graph neural networks cannot learn depend on their depth?",
			"The results depend on the depth of the graph neural networks studied.", VerdictYes},
		{"control: a negation of the main verb still negates", "Does the study of graph neural networks not depend on their depth?",
			"The study of graph neural networks does not depend on their depth.", VerdictYes},
		{"a clause set off by commas in the subject is the subject's", "Is fan-out, where a transaction depends on many earlier transactions, a problem for Bitcoin?",
			"Fan-out, where a transaction depends on several transactions, is not a problem here.", VerdictNo},
		{"control: a comma-set clause, affirmed", "Is fan-out, where a transaction depends on many earlier transactions, a problem for Bitcoin?",
			"Fan-out, where a transaction depends on several transactions, is a problem for Bitcoin.", VerdictYes},
		{"a comma-set clause: the predicate after it is read, not any negation", "Is fan-out, where a transaction depends on many earlier transactions, a problem for Bitcoin?",
			"Fan-out is not rare, and it is a problem for Bitcoin.", VerdictYes},
		{"'to' before a verb opens an infinitive, not a prepositional phrase", "Is greedy decoding used to generate the synthetic content-grounded examples?",
			"The synthetic examples are content-grounded and generated by sampling.", VerdictUnclear},
		{"a passive light verb needs its object, the question's subject", "Is greedy decoding used to generate the synthetic content-grounded examples?",
			"Apart from using a stronger model for the synthetic data, those methods differ from ours.", VerdictUnclear},
		{"control: the participle before the infinitive decides", "Is greedy decoding used to generate the synthetic content-grounded examples?",
			"Greedy decoding is used to generate the synthetic content-grounded examples.", VerdictYes},
	}
	checkVerdicts(t, tests)
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
