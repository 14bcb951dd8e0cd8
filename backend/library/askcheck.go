package library

import (
	"context"
	"path/filepath"
	"unicode"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// checkAsk refuses what cannot be answered before any retrieval runs:
//   - a question with no searchable words (only punctuation, symbols,
//     emoji or function words such as "AND OR NOT"): retrieval would still
//     rank passages by a meaningless vector and the answer would look
//     confident;
//   - a named paper that does not exist or failed to index: "the papers do
//     not seem to answer" would hide the real reason.
func (l *Library) checkAsk(ctx context.Context, req AskRequest) error {
	if len(embedding.ContentStems(req.Question)) == 0 {
		if hasNoWord(req.Question) {
			return papertree.Errorf(papertree.EInvalid,
				"The question has no searchable words (only punctuation, symbols or emoji). Ask with words that could appear in the papers.")
		}
		return papertree.Errorf(papertree.EInvalid,
			"The question has no searchable words (only common words such as \"and\", \"or\", \"not\", \"what\"). Ask with words that could appear in the papers.")
	}
	for _, id := range req.PaperIDs {
		info, err := l.store.PaperByID(ctx, id)
		if err != nil {
			return err
		}
		if info.Status != store.StatusReady {
			msg := info.ErrMessage
			if msg == "" {
				msg = "it has no usable text."
			}
			return papertree.Errorf(papertree.EConflict, "Paper %d (%s) could not be indexed, so it cannot be asked about: %s",
				id, filepath.Base(info.Path), msg)
		}
	}
	return nil
}

// hasNoWord reports whether text has no letter or digit at all.
func hasNoWord(text string) bool {
	for _, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
