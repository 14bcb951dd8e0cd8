package retrieve

import "context"

// Warm does ahead of time what the first library-wide question on ix would
// otherwise do itself: the identity cards used to tell whether a question
// names one paper (built from the store, no paper loaded).
// Errors are ignored: the question then does the work as before.
func Warm(ctx context.Context, ix Index) {
	all, err := ix.ReadyPapers(ctx)
	if err != nil {
		return
	}
	if cs, ok := ix.(cardSource); ok {
		cs.identityCards(ctx, all)
	}
}
