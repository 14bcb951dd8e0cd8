package query

import (
	"regexp"
	"strings"
)

// gistRE reads a question asking for a paper's gist: what it proposes,
// its main contribution, idea or result, what it is about, a summary. The
// last group is what the question asks it of.
var gistRE = regexp.MustCompile(`(?i)^\s*(?:` +
	`what\s+(?:is|are|was|were)\s+(?:the\s+|its\s+|their\s+)?(?:main\s+|key\s+|central\s+|core\s+|principal\s+|primary\s+)?(?:contributions?|ideas?|results?|findings?|claims?|message|takeaways?|point)\s+(?:of|in)\s+(?P<a>.+?)` +
	`|what\s+(?:does|did)\s+(?P<b>.+?)\s+(?:propose|present|introduce|contribute)` +
	`|(?:please\s+)?summari[sz]e\s+(?P<c>.+?)` +
	`|what\s+(?:is|was)\s+(?P<d>.+?)\s+about` +
	`|(?:give|write)\s+(?:me\s+)?(?:a\s+)?(?:short\s+|brief\s+)?(?:summary|overview)\s+of\s+(?P<e>.+?)` +
	`|what\s+problem\s+(?:does|did)\s+(?P<f>.+?)\s+(?:address|solve|tackle)` +
	`)\s*[?.!]?\s*$`)

// paperNounRE: the thing asked of is a publication ("the GloVe paper",
// "this work").
var paperNounRE = regexp.MustCompile(`(?i)\b(?:paper|article|study|work|thesis|dissertation|report|preprint|publication|manuscript)\b`)

// GistOf reports whether text asks for a paper's gist ("What does the GloVe
// paper propose?", "What is the main contribution of this work?",
// "Summarize the FastBERT paper.") and returns what it asks it of ("the
// GloVe paper", "this work"). paper reports that this names a publication
// as one; otherwise the caller decides whether its words name the paper
// (GloVe in "What does GloVe propose?"), since "What is the main idea of
// seminaive evaluation?" asks about a concept the paper explains.
func GistOf(text string) (of string, paper, ok bool) {
	m := gistRE.FindStringSubmatch(text)
	if m == nil {
		return "", false, false
	}
	for _, g := range m[1:] {
		if g != "" {
			of = strings.TrimSpace(g)
		}
	}
	return of, paperNounRE.MatchString(of), true
}
