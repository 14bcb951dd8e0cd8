package retrieve

import "github.com/papertree/papertree/backend/papertree"

// skipPaper reports whether a library-wide question may go on without a
// paper it meant to read. The list of papers and each paper's tree are
// separate reads, so a re-indexer running meanwhile can replace a paper
// (new id) or remove it between the two: the question then answers from the
// papers that are still there instead of failing with "Paper N does not
// exist". A paper whose stored row is damaged is left out the same way, so
// one bad row cannot block every library-wide question. A paper the user
// named explicitly is never skipped: its error is the answer.
func skipPaper(req Request, err error) bool {
	if err == nil || len(req.PaperIDs) > 0 {
		return false
	}
	switch papertree.ErrorCode(err) {
	case papertree.ENotFound, papertree.ECorrupt:
		return true
	}
	return false
}
