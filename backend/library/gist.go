package library

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
	"github.com/papertree/papertree/backend/retrieve"
)

// maxGistSentences bounds the sentences a gist answer quotes.
const maxGistSentences = 3

// contributionRE marks a sentence in which the paper says what it does:
// its subject is the paper or its authors ("We propose ...", "Our model
// achieves ...", "In this paper, we ...", "To speed it up, we ...").
var contributionRE = regexp.MustCompile(`(?i)(?:^|[,;:]\s*)(?:we|our|this\s+(?:paper|work|article|study|thesis|report|chapter))\b`)

// quoteGist answers a question asking for a paper's gist ("What does the
// GloVe paper propose?", "What is the main contribution of this work?",
// "Summarize ...": query.GistOf) from its abstract ev (gistEvidence): the
// abstract's sentences that say what the paper does ("We propose ...",
// "Our model achieves ..."), at most three in their order, else its first
// two, each citing its passage. The passages that match such a question's
// words are whatever mentions "contribute" or "propose" ("word pairs ...
// contribute 1/d to the total count"). ok is false when the abstract has no
// readable sentence: the question then gets the ordinary answer.
func quoteGist(ev []papertree.Evidence) (text string, ok bool) {
	type sentence struct {
		text string
		ev   int
	}
	var all, picked []sentence
	for i, e := range ev {
		for _, s := range papertree.SplitSentences(e.Text) {
			if papertree.Readable(s) {
				all = append(all, sentence{s, i})
			}
		}
	}
	for _, s := range all {
		if len(picked) < maxGistSentences && contributionRE.MatchString(s.text) {
			picked = append(picked, s)
		}
	}
	if len(picked) == 0 {
		picked = all[:min(2, len(all))]
	}
	if len(picked) == 0 {
		return "", false
	}
	parts := make([]string, len(picked))
	for i, s := range picked {
		parts[i] = fmt.Sprintf("%s [%d]", s.text, s.ev+1)
	}
	return strings.Join(parts, " "), true
}

// gistEvidence is paper id's abstract when q asks for that paper's gist
// (query.GistOf, asked of the paper), the evidence a gist answer, quoted
// (quoteGist) or written by a model, is made from. ok is false when the
// question asks it of something other than the paper ("the main idea of
// seminaive evaluation") or the paper has no abstract section.
func (l *Library) gistEvidence(ctx context.Context, q *query.Question, id int64) ([]papertree.Evidence, bool) {
	of, isPaper, gist := query.GistOf(q.Text)
	if !gist || id == 0 {
		return nil, false
	}
	if !isPaper && !l.namesPaper(ctx, of, id) {
		return nil, false
	}
	ev, err := retrieve.Abstract(ctx, l.Retrieval(), id)
	if err != nil || len(ev) == 0 {
		return nil, false
	}
	return ev, true
}

// namesPaper reports whether every content word of of names paper id: its
// title's words or its authors' names ("GloVe" in "What does GloVe
// propose?").
func (l *Library) namesPaper(ctx context.Context, of string, id int64) bool {
	p, err := l.store.PaperByID(ctx, id)
	if err != nil {
		return false
	}
	naming := map[string]bool{}
	for _, t := range embedding.QueryTerms(p.Title + " " + strings.Join(p.Authors, " ")) {
		naming[t] = true
	}
	terms := embedding.QueryTerms(of)
	for _, t := range terms {
		if !naming[t] {
			return false
		}
	}
	return len(terms) > 0
}
