package retrieve

import "context"

// Warm does ahead of time what the first library-wide question on ix would
// otherwise do itself: the identity cards used to tell whether a question
// names one paper (for a small library every paper is loaded and read once,
// the costliest part of a cold question; for a large one the metadata cards).
// Errors are ignored: the question then does the work as before.
func Warm(ctx context.Context, ix Index) {
	all, err := ix.ReadyPapers(ctx)
	if err != nil {
		return
	}
	const loadAll = 64 // as in identify
	if len(all) <= loadAll {
		for _, id := range all {
			if ctx.Err() != nil {
				return
			}
			if d, err := ix.Paper(ctx, id); err == nil {
				cardOf(d)
			}
		}
	} else if l, ok := ix.(paperInfoLister); ok {
		metaCards(ctx, l, all)
	}
}
