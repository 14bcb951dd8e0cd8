package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
)

func TestUntitled(t *testing.T) {
	tests := []struct {
		name, question, title, want string
	}{
		{"the title's words go, by stem", "Which classifier is used on top of histograms of oriented gradient descriptors?",
			"Histograms of Oriented Gradients for Human Detection", "Which classifier is used on top of of descriptors?"},
		{"words referring to the paper go too", "In Kim's paper, what filter widths are used?",
			"Convolutional Neural Networks for Sentence Classification", "In paper, what filter widths are used?"},
		{"no title word: the question as typed (none)", "What learning rate is used?", "Deep Residual Networks", ""},
		{"fewer than two content words left: none", "How are histograms of gradients normalized?",
			"Histograms of Oriented Gradients for Human Detection", ""},
		{"no title: none", "What learning rate is used?", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := untitled(tt.question, tt.title, query.RefWords(tt.question)); got != tt.want {
				t.Errorf("untitled(%q, %q) = %q, want %q", tt.question, tt.title, got, tt.want)
			}
		})
	}
}

// The question's words that its paper's title holds are what the whole
// paper is about: the sentence restating them must not outrank the one
// that answers what is asked of them.
func TestUntitledQuestionPicksAnswer(t *testing.T) {
	emb := embedding.NewBuiltin()
	title := "Automated Hate Speech Detection and the Problem of Offensive Language"
	seg := func(score float64, text string) papertree.Evidence {
		return papertree.Evidence{Kind: papertree.KindSegment, Text: text, Score: score, PaperTitle: title}
	}
	tests := []struct {
		name     string
		question string
		evidence []papertree.Evidence
		contains string
		absent   string
	}{
		{"the paper's topic does not outrank the method asked for",
			"In the paper on automated hate speech detection and offensive language, what is used to reduce the dimensionality of the data?",
			[]papertree.Evidence{
				seg(1.0, "If we conflate hate speech and offensive language then we erroneously consider many people to be hate speakers."),
				seg(1.0, "Previous work on hate speech detection has identified this problem but many studies still conflate hate speech and offensive language."),
				seg(0.9, "We first use a logistic regression with L1 regularization to reduce the dimensionality of the data."),
			},
			"logistic regression with L1 regularization", "erroneously consider"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Compose(context.Background(), emb, Input{Question: tt.question, Evidence: tt.evidence, Scoped: true}, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.Text, tt.contains) || strings.Contains(out.Text, tt.absent) {
				t.Errorf("answer %q: want %q quoted, %q not", out.Text, tt.contains, tt.absent)
			}
		})
	}
}
