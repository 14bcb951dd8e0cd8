package app

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// Removing papers with undo.
//
// A removal asked for in the window is deferred: the papers disappear from
// the list and the search at once, and are removed from the library (one
// transaction per removal: the rows go and a tombstone keeps the file out
// of later re-indexes, see store.RemovePapers) when the undo time has
// passed, when the window closes, or before a question is asked (so an
// answer never cites a paper the researcher has removed). Undo before then
// just forgets the removal: the paper comes back as it was, same id, same
// vectors, same links from saved answers. A crash before the removal is
// written loses the removal, never data: the paper is simply still there.
// An Undo that comes after the removal was written adds the files back
// (indexes them again).

// UndoSeconds is how long the window offers Undo; the removal is written
// a little later, so an Undo clicked at the last moment still wins.
const UndoSeconds = 10

const removeGrace = (UndoSeconds + 2) * time.Second

// Remover is implemented by libraries that can remove papers (Backend); a
// Library without it cannot remove.
type Remover interface {
	// CanRemove says (a coded error) why nothing can be removed now:
	// a read-only or damaged library.
	CanRemove(ctx context.Context) error
	// RemovePapers removes papers (never their files) and keeps their
	// files out of later re-indexes.
	RemovePapers(ctx context.Context, ids []string) ([]RemovedView, error)
	// RemovedFiles lists the removed files, newest first.
	RemovedFiles(ctx context.Context) ([]RemovedView, error)
	// AddBack lifts removals and indexes the files again.
	AddBack(ctx context.Context, paths []string, progress func(Progress)) (Summary, error)
}

// RemovedView is a paper removed, or about to be, from the library.
type RemovedView struct {
	ID        string `json:"id"` // the id it had
	Title     string `json:"title"`
	File      string `json:"file"`
	RemovedAt int64  `json:"removedAt"` // unix ms; 0 while undo is offered
}

// RemoveResult is what RemovePapers did: which papers went, and the token
// UndoRemove takes.
type RemoveResult struct {
	Token       string        `json:"token"`
	Papers      []RemovedView `json:"papers"`
	UndoSeconds int           `json:"undoSeconds"`
}

// UndoResult says how a removal was undone: forgotten before it was
// written (Restored), or written already and its files indexed again.
type UndoResult struct {
	Restored  int     `json:"restored"`
	Reindexed Summary `json:"reindexed"`
}

// removals are the removals waiting for their undo time.
type removals struct {
	mu      sync.Mutex
	seq     int
	pending map[string]*pendingRemoval // by token
	done    map[string][]RemovedView   // written, by token (for a late Undo)
	grace   time.Duration              // 0: removeGrace (tests shorten it)
}

type pendingRemoval struct {
	ids    []string
	papers []RemovedView
	timer  *time.Timer
	// writing: the removal is being written; its papers stay hidden
	// until it is (a list read meanwhile must not show them again).
	writing bool
}

// hidden returns the ids of papers waiting to be removed.
func (r *removals) hidden() map[string]bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]bool{}
	for _, p := range r.pending {
		for _, id := range p.ids {
			out[id] = true
		}
	}
	return out
}

// hidePapers drops papers waiting to be removed from a list.
func (a *App) hidePapers(ps []PaperView) []PaperView {
	h := a.removals.hidden()
	if len(h) == 0 {
		return ps
	}
	return slices.DeleteFunc(ps, func(p PaperView) bool { return h[p.ID] })
}

func (a *App) remover() (Remover, error) {
	lib, err := a.ready()
	if err != nil {
		return nil, err
	}
	r, ok := lib.(Remover)
	if !ok {
		return nil, papertree.Errorf(papertree.EConflict, "Removing papers is not available in this build.")
	}
	return r, nil
}

// RemovePapers takes papers out of the library list now and removes them
// from the library after the undo time (see the comment at the top).
func (a *App) RemovePapers(ids []string) (RemoveResult, error) {
	rm, err := a.remover()
	if err != nil {
		return RemoveResult{}, err
	}
	if len(ids) == 0 {
		return RemoveResult{}, papertree.Errorf(papertree.EInvalid, "Choose the papers to remove.")
	}
	ctx := a.context()
	if err := rm.CanRemove(ctx); err != nil {
		return RemoveResult{}, asCoded(err, "Papers cannot be removed from this library.")
	}
	lib, _ := a.library()
	all, err := lib.ListPapers(ctx)
	if err != nil {
		return RemoveResult{}, asCoded(err, "The library could not be read.")
	}
	byID := make(map[string]PaperView, len(all))
	for _, p := range all {
		byID[p.ID] = p
	}
	hidden := a.removals.hidden()
	var papers []RemovedView
	var keep []string
	for _, id := range ids {
		p, ok := byID[id]
		if !ok || hidden[id] || slices.Contains(keep, id) {
			if !ok {
				return RemoveResult{}, papertree.Errorf(papertree.ENotFound, "Paper %s is not in the library.", id)
			}
			continue
		}
		keep = append(keep, id)
		papers = append(papers, RemovedView{ID: id, Title: p.Title, File: p.File})
	}
	r := &a.removals
	r.mu.Lock()
	if r.pending == nil {
		r.pending, r.done = map[string]*pendingRemoval{}, map[string][]RemovedView{}
	}
	r.seq++
	token := strconv.Itoa(r.seq)
	pr := &pendingRemoval{ids: keep, papers: papers}
	r.pending[token] = pr
	grace := r.grace
	if grace <= 0 {
		grace = removeGrace
	}
	pr.timer = time.AfterFunc(grace, func() { a.commitRemoval(token) })
	r.mu.Unlock()
	a.log.Info("removing papers", "count", len(keep), "undo_seconds", UndoSeconds)
	if papers == nil {
		papers = []RemovedView{}
	}
	return RemoveResult{Token: token, Papers: papers, UndoSeconds: UndoSeconds}, nil
}

// commitRemoval writes a pending removal (no-op when it was undone).
func (a *App) commitRemoval(token string) {
	r := &a.removals
	r.mu.Lock()
	pr := r.pending[token]
	if pr == nil || pr.writing {
		r.mu.Unlock()
		return
	}
	pr.writing = true
	pr.timer.Stop()
	r.mu.Unlock()
	var done []RemovedView
	rm, err := a.remover()
	if err == nil {
		done, err = rm.RemovePapers(context.WithoutCancel(a.context()), pr.ids)
	}
	r.mu.Lock()
	delete(r.pending, token)
	if err == nil {
		r.done[token] = done
	}
	r.mu.Unlock()
	if err != nil {
		// Nothing was removed (one transaction): the papers come back.
		a.log.Error("remove papers", "err", err)
	} else {
		a.log.Info("removed papers", "count", len(done))
	}
	a.rt.EventsEmit(a.context(), EventLibraryChanged)
}

// flushRemovals writes every pending removal now (the window closes, or a
// question is about to be asked).
func (a *App) flushRemovals() {
	r := &a.removals
	r.mu.Lock()
	tokens := make([]string, 0, len(r.pending))
	for t := range r.pending {
		tokens = append(tokens, t)
	}
	r.mu.Unlock()
	slices.Sort(tokens)
	for _, t := range tokens {
		a.commitRemoval(t)
	}
}

// UndoRemove undoes the removal token names: forgotten if it was not
// written yet, else its files are added back (indexed again).
func (a *App) UndoRemove(token string) (UndoResult, error) {
	r := &a.removals
	r.mu.Lock()
	// A removal being written is waited for, then added back.
	for i := 0; i < 500 && r.pending[token] != nil && r.pending[token].writing; i++ {
		r.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		r.mu.Lock()
	}
	if pr := r.pending[token]; pr != nil && !pr.writing {
		pr.timer.Stop()
		delete(r.pending, token)
		r.mu.Unlock()
		a.log.Info("removal undone", "count", len(pr.ids))
		a.rt.EventsEmit(a.context(), EventLibraryChanged)
		return UndoResult{Restored: len(pr.ids), Reindexed: Summary{Failures: []FileFailure{}}}, nil
	}
	done, ok := r.done[token]
	delete(r.done, token)
	r.mu.Unlock()
	if !ok {
		return UndoResult{}, papertree.Errorf(papertree.ENotFound, "There is nothing to undo.")
	}
	paths := make([]string, len(done))
	for i, d := range done {
		paths[i] = d.File
	}
	sum, err := a.AddBack(paths)
	if err != nil {
		return UndoResult{}, err
	}
	return UndoResult{Reindexed: sum}, nil
}

// RemovedFiles lists the files removed from the library (newest first),
// for "Add back".
func (a *App) RemovedFiles() ([]RemovedView, error) {
	rm, err := a.remover()
	if err != nil {
		return nil, err
	}
	out, err := rm.RemovedFiles(a.context())
	if err != nil {
		return nil, asCoded(err, "The removed papers could not be listed.")
	}
	if out == nil {
		out = []RemovedView{}
	}
	return out, nil
}

// AddBack lifts the removal of files and indexes them again, as a job.
func (a *App) AddBack(paths []string) (Summary, error) {
	rm, err := a.remover()
	if err != nil {
		return Summary{}, err
	}
	if len(paths) == 0 {
		return Summary{}, papertree.Errorf(papertree.EInvalid, "Choose the files to add back.")
	}
	var sum Summary
	err = a.runJob(paths, false, func(ctx context.Context, progress func(Progress)) (err error) {
		sum, err = rm.AddBack(ctx, paths, progress)
		return err
	})
	if err != nil {
		return Summary{}, asCoded(err, "The papers could not be added back.")
	}
	return sum, nil
}

// CanRemove says why papers cannot be removed (read-only, damaged).
func (b *Backend) CanRemove(ctx context.Context) error {
	if b.lib.Store().ReadOnly() {
		return papertree.Errorf(papertree.EConflict, "%s", store.ReadOnlyMsg)
	}
	return b.lib.Store().CheckHealth(ctx)
}

// RemovePapers removes papers from the library (never their files).
func (b *Backend) RemovePapers(ctx context.Context, ids []string) ([]RemovedView, error) {
	nums := make([]int64, 0, len(ids))
	for _, s := range ids {
		n, err := parseID(s, "paper")
		if err != nil {
			return nil, err
		}
		nums = append(nums, n)
	}
	rf, err := b.lib.Remove(ctx, nums)
	if err != nil {
		return nil, err
	}
	return removedViews(rf), nil
}

// RemovedFiles lists removed files, newest first.
func (b *Backend) RemovedFiles(ctx context.Context) ([]RemovedView, error) {
	rf, err := b.lib.RemovedFiles(ctx)
	if err != nil {
		return nil, err
	}
	return removedViews(rf), nil
}

// AddBack lifts removals and indexes the files again.
func (b *Backend) AddBack(ctx context.Context, paths []string, progress func(Progress)) (Summary, error) {
	if err := b.CanRemove(ctx); err != nil {
		return Summary{}, err
	}
	if _, err := b.lib.Store().AddBack(ctx, paths); err != nil {
		return Summary{}, err
	}
	return b.Index(ctx, paths, progress)
}

func removedViews(rf []store.RemovedFile) []RemovedView {
	out := make([]RemovedView, 0, len(rf))
	for _, r := range rf {
		out = append(out, RemovedView{ID: strconv.FormatInt(r.PaperID, 10), Title: r.Title, File: r.Path, RemovedAt: r.RemovedAt.UnixMilli()})
	}
	return out
}

// removedCited returns the titles of the papers a saved answer cites that
// were removed from the library since ([] when none).
func (b *Backend) removedCited(ctx context.Context, a *papertree.Answer) []string {
	out := []string{}
	seen := map[int64]bool{}
	for _, e := range a.Evidence {
		if seen[e.PaperID] {
			continue
		}
		seen[e.PaperID] = true
		if _, err := b.lib.Store().PaperByID(ctx, e.PaperID); papertree.ErrorCode(err) != papertree.ENotFound {
			continue
		}
		title := e.PaperTitle
		if rf, err := b.lib.Store().RemovedPaper(ctx, e.PaperID); err == nil && rf.Title != "" {
			title = rf.Title
		}
		if title == "" {
			title = "Paper " + strconv.FormatInt(e.PaperID, 10)
		}
		out = append(out, title)
	}
	return out
}
