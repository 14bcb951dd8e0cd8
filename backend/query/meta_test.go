package query

import "testing"

// Questions about a paper as a publication, and questions that only look
// alike (they ask what the paper says about authors, dates or places).
func TestDetailOf(t *testing.T) {
	for _, tc := range []struct {
		name, q, want string
	}{
		{"who wrote the paper", "Who wrote the BERT paper?", DetailAuthors},
		{"authors of", "Who are the authors of the GloVe paper?", DetailAuthors},
		{"first author", "Who is the first author of RoBERTa?", DetailAuthors},
		{"scoped authors", "Who are the authors?", DetailAuthors},
		{"names of the authors", "What are the names of the authors of this paper?", DetailAuthors},
		{"who wrote a name", "Who wrote GloVe?", DetailAuthors},
		{"by whom", "By whom was this paper written?", DetailAuthors},
		{"which researchers", "Which researchers wrote the capsule network paper?", DetailAuthors},
		{"when published", "When was the GloVe paper published?", DetailYear},
		{"what year published", "In what year was this article published?", DetailYear},
		{"what year from", "What year is the ResNeXt paper from?", DetailYear},
		{"when was a name published", "When was GloVe published?", DetailYear},
		{"publication year", "What is the publication year of the perceptron paper?", DetailYear},
		{"where published", "Where was the BERT paper published?", DetailVenue},
		{"which conference", "Which conference was the GloVe paper presented at?", DetailVenue},
		{"which venue published", "Which journal published this paper?", DetailVenue},
		{"where was a name published", "Where was Deep Residual Learning published?", DetailVenue},
		{"where published, a paper described", "Where was the Cognition paper on object individuation published?", DetailVenue},
		{"when published, a paper described", "When was the paper on capsule networks first published?", DetailYear},
		{"doi", "What is the DOI of the GloVe paper?", DetailDOI},
		{"arxiv id", "What's the arXiv id of this paper?", DetailDOI},

		{"who annotated", "Who annotated the tweets?", ""},
		{"who proposed", "Who first proposed distinguishing between distributive and integrative negotiations?", ""},
		{"who wrote the package", "Who originally wrote the R and C++ integration package, and when did it first appear?", ""},
		{"what the authors used", "What datasets did the authors use?", ""},
		{"the authors of ... use", "The authors of GloVe use which corpus?", ""},
		{"when trained", "When was the model trained?", ""},
		{"when released data", "When was the dataset released?", ""},
		{"where collected", "Where was the data collected?", ""},
		{"which journal recommended", "Which journal do the authors recommend for replication studies?", ""},
		{"published results", "When were the results published?", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := DetailOf(tc.q); got != tc.want {
				t.Errorf("DetailOf(%q) = %q, want %q", tc.q, got, tc.want)
			}
		})
	}
}
