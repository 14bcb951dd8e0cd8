package library

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/store"
)

// Corrections: the researcher fixes what was read (store/overlay.go keeps
// them by file). Metadata corrections are written into the paper's row at
// once; heading corrections are replayed on the tree as read, and the
// corrected tree is summarized, embedded and saved in place (same paper id)
// in one transaction with the correction, so that full-text search, paths,
// signals and vectors all describe the corrected tree. Every re-index of the
// file replays them again (prepare); those whose heading is gone are kept,
// marked unmatched and reported.

// UnmatchedCorrection is a heading correction a re-index could not apply:
// the file changed and its heading (or line) is no longer there.
type UnmatchedCorrection struct {
	File   string `json:"file"`
	ID     int64  `json:"id"`
	Op     string `json:"op"`
	Target string `json:"target"`
}

// Corrections is what a paper's corrections are, for the CLI and the app.
type Corrections struct {
	PaperID int64 `json:"paper_id"`
	store.Overlay
}

// Corrections returns the corrections of a paper (id or path).
func (l *Library) Corrections(ctx context.Context, ref string) (Corrections, error) {
	info, err := l.ResolvePaper(ctx, ref)
	if err != nil {
		return Corrections{}, err
	}
	ov, err := l.store.OverlayOf(ctx, info.Path)
	return Corrections{PaperID: info.ID, Overlay: ov}, err
}

var (
	yearRe = regexp.MustCompile(`^\d{4}$`)
	keyRe  = regexp.MustCompile(`^[A-Za-z0-9_:.\-+/]+$`)
)

// maxFieldLen bounds one corrected value.
const maxFieldLen = 2000

// EditPaper corrects metadata fields of a paper: set maps a field
// (store.EditFields) to its new value as typed: authors separated by ";",
// year as four digits. Values are checked before anything is written; all
// of them are written in one transaction.
func (l *Library) EditPaper(ctx context.Context, ref string, set map[string]string) (Corrections, error) {
	if len(set) == 0 {
		return Corrections{}, papertree.Errorf(papertree.EInvalid, "Nothing to correct: give a field and its new value.")
	}
	info, err := l.ResolvePaper(ctx, ref)
	if err != nil {
		return Corrections{}, err
	}
	vals := map[string]string{}
	for f, v := range set {
		v = strings.TrimSpace(v)
		if !utf8.ValidString(v) || len(v) > maxFieldLen || strings.ContainsAny(v, "\x00\r\n") {
			return Corrections{}, papertree.Errorf(papertree.EInvalid, "The new %s is not a single line of text (at most %d bytes).", f, maxFieldLen)
		}
		switch f {
		case store.FieldTitle:
			if v == "" {
				return Corrections{}, papertree.Errorf(papertree.EInvalid, "A title cannot be empty.")
			}
		case store.FieldAuthors:
			var names []string
			for _, a := range strings.Split(v, ";") {
				if a = strings.TrimSpace(a); a != "" {
					names = append(names, a)
				}
			}
			b, _ := json.Marshal(append([]string{}, names...))
			v = string(b)
		case store.FieldYear:
			if v != "" && !yearRe.MatchString(v) {
				return Corrections{}, papertree.Errorf(papertree.EInvalid, "A year is four digits, such as 2019 (got %q).", v)
			}
			if v == "" {
				v = "0"
			}
		case store.FieldVenue, store.FieldDOI:
		case store.FieldKey:
			if v != "" && !keyRe.MatchString(v) {
				return Corrections{}, papertree.Errorf(papertree.EInvalid, "A citation key is letters, digits and _:.-+/ without spaces (got %q).", v)
			}
		default:
			return Corrections{}, papertree.Errorf(papertree.EInvalid, "%q is not a field that can be corrected (title, authors, year, venue, doi, key).", f)
		}
		vals[f] = v
	}
	if err := l.store.SetPaperFields(ctx, info.ID, vals); err != nil {
		return Corrections{}, store.UserError(err)
	}
	return l.afterWrite(ctx, info.ID)
}

// RevertField removes the correction of one field: the paper shows what was
// read from its PDF (or the reference manager's value) again.
func (l *Library) RevertField(ctx context.Context, ref, field string) (Corrections, error) {
	info, err := l.ResolvePaper(ctx, ref)
	if err != nil {
		return Corrections{}, err
	}
	if err := l.store.RevertPaperField(ctx, info.ID, field); err != nil {
		return Corrections{}, store.UserError(err)
	}
	return l.afterWrite(ctx, info.ID)
}

// afterWrite refreshes what retrieval derived from a paper that changed in
// place and returns its corrections. The write is committed: a context
// cancelled since must not make it look failed.
func (l *Library) afterWrite(ctx context.Context, id int64) (Corrections, error) {
	ctx = context.WithoutCancel(ctx)
	_ = retrieve.EnsureSignals(ctx, l.store, id)
	l.Retrieval().Invalidate(id)
	return l.Corrections(ctx, strconv.FormatInt(id, 10))
}

// HeadingEdit is one correction of a paper's tree, as asked: the node it
// starts from (a section; for OpPromote a leaf) and its argument.
type HeadingEdit struct {
	NodeID int64
	Op     string // papertree.Op*
	Text   string // OpRename: the new heading; OpPromote: the line (default: the leaf's first line)
	Level  int    // OpLevel: the new level (1 = top-level section)
}

// treeToCorrect resolves ref once, refuses a read-only library and loads
// the paper's tree (Paper would resolve ref a second time).
func (l *Library) treeToCorrect(ctx context.Context, ref string) (store.PaperInfo, *papertree.Paper, error) {
	info, err := l.ResolvePaper(ctx, ref)
	if err != nil {
		return info, nil, err
	}
	if l.store.ReadOnly() {
		return info, nil, papertree.Errorf(papertree.EConflict, "%s", store.ReadOnlyMsg)
	}
	p, err := l.loadReady(ctx, info)
	return info, p, err
}

// EditHeading corrects the tree of a paper and returns its corrections.
// The correction is kept by the heading's text, so it survives re-indexing.
func (l *Library) EditHeading(ctx context.Context, ref string, e HeadingEdit) (Corrections, error) {
	info, p, err := l.treeToCorrect(ctx, ref)
	if err != nil {
		return Corrections{}, err
	}
	var node *papertree.Node
	p.Root.Walk(func(path []*papertree.Node) bool {
		if path[len(path)-1].ID == e.NodeID {
			node = path[len(path)-1]
		}
		return node == nil
	})
	if node == nil {
		return Corrections{}, papertree.Errorf(papertree.ENotFound, "Node %d is not in paper %d (open the paper again: its tree may have changed).", e.NodeID, info.ID)
	}
	op := papertree.HeadingOp{Op: e.Op}
	switch e.Op {
	case papertree.OpRename, papertree.OpLevel, papertree.OpMerge, papertree.OpNotHeading:
		if node.Kind != papertree.KindSection {
			return Corrections{}, papertree.Errorf(papertree.EInvalid, "Node %d is not a heading; only headings can be renamed, moved, merged or unmarked (the paper's title is corrected with edit --title).", e.NodeID)
		}
		if strings.TrimSpace(node.Title) == "" {
			return Corrections{}, papertree.Errorf(papertree.EInvalid, "Node %d is an untitled section; rename needs a heading to find again.", e.NodeID)
		}
		op.Target, op.Nth = node.Title, papertree.HeadingNth(p.Root, node)
		op.Arg, op.Level = strings.TrimSpace(e.Text), e.Level
		if e.Op == papertree.OpRename && (op.Arg == "" || strings.ContainsAny(op.Arg, "\x00\r\n") || len(op.Arg) > maxFieldLen) {
			return Corrections{}, papertree.Errorf(papertree.EInvalid, "A heading is one line of text.")
		}
	case papertree.OpPromote:
		if node.Kind != papertree.KindSegment {
			return Corrections{}, papertree.Errorf(papertree.EInvalid, "Node %d is not a text segment; a line of body text becomes a heading.", e.NodeID)
		}
		line := strings.TrimSpace(e.Text)
		if line == "" {
			line, _, _ = strings.Cut(strings.TrimSpace(node.Text), "\n")
		}
		if papertree.HeadingNorm(line) == "" || !strings.Contains(papertree.HeadingNorm(node.Text), papertree.HeadingNorm(line)) {
			return Corrections{}, papertree.Errorf(papertree.EInvalid, "%q is not a line of node %d.", line, e.NodeID)
		}
		op.Target, op.Nth = strings.TrimSpace(line), papertree.LineNth(p.Root, node, line)
	default:
		return Corrections{}, papertree.Errorf(papertree.EInvalid, "Unknown heading correction %q (rename, level, merge, not_heading, promote).", e.Op)
	}
	ov, err := l.store.OverlayOf(ctx, p.Path)
	if err != nil {
		return Corrections{}, err
	}
	if err := l.rebuildCorrected(ctx, p, info.Fingerprint, ov.Headings, &store.TreeChange{Add: &op}); err != nil {
		return Corrections{}, err
	}
	return l.afterWrite(ctx, info.ID)
}

// UndoHeading removes one heading correction (id 0: the latest) and
// rebuilds the tree with the others.
func (l *Library) UndoHeading(ctx context.Context, ref string, id int64) (Corrections, error) {
	info, p, err := l.treeToCorrect(ctx, ref)
	if err != nil {
		return Corrections{}, err
	}
	ov, err := l.store.OverlayOf(ctx, p.Path)
	if err != nil {
		return Corrections{}, err
	}
	if len(ov.Headings) == 0 {
		return Corrections{}, papertree.Errorf(papertree.ENotFound, "This paper has no heading correction to undo.")
	}
	if id == 0 {
		id = ov.Headings[len(ov.Headings)-1].ID
	}
	var keep []store.HeadingEdit
	found := false
	for _, h := range ov.Headings {
		if h.ID == id {
			found = true
			continue
		}
		keep = append(keep, h)
	}
	if !found {
		return Corrections{}, papertree.Errorf(papertree.ENotFound, "Heading correction %d is not one of this paper's.", id)
	}
	if err := l.rebuildCorrected(ctx, p, info.Fingerprint, keep, &store.TreeChange{Remove: id}); err != nil {
		return Corrections{}, err
	}
	return l.afterWrite(ctx, info.ID)
}

// rebuildCorrected replays ops (and change.Add) on the tree as read of p
// and saves the result in place with change, in one transaction.
func (l *Library) rebuildCorrected(ctx context.Context, p *papertree.Paper, fp string, ops []store.HeadingEdit, change *store.TreeChange) error {
	read, hash, ok, err := l.store.ReadTree(ctx, p.Path)
	if err != nil {
		return err
	}
	if !ok || hash != p.Hash {
		read = p.Root // no correction yet: the stored tree is as read
	}
	tree, err := cloneTree(read)
	if err != nil {
		return err
	}
	change.Unmatched = replay(tree, ops)
	if change.Add != nil {
		found, err := papertree.ApplyHeading(tree, *change.Add)
		if err != nil {
			return err
		}
		if !found {
			return papertree.Errorf(papertree.ENotFound, "%q was not found in the paper's tree.", change.Add.Target)
		}
	}
	if len(ops) > 0 || change.Add != nil { // kept while there are corrections to replay
		if change.ReadTree, err = cloneTree(read); err != nil {
			return err
		}
		change.ReadHash = p.Hash
	}
	p.Root = tree
	clearDerived(p.Root)
	l.summarizePaper(ctx, p) // the fingerprint stays the file's: a correction is not a new reading
	vecs, err := embedding.EmbedPaper(ctx, l.emb, p)
	if err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	if _, err := l.store.SavePaperWith(ctx, p, store.Vectors(vecs), fp, store.SaveOptions{Keep: true, Tree: change}); err != nil {
		return store.UserError(err)
	}
	return nil
}

// replay applies heading corrections in order and returns, per correction,
// whether it found nothing to apply to (or could not be applied).
func replay(root *papertree.Node, ops []store.HeadingEdit) map[int64]bool {
	miss := make(map[int64]bool, len(ops))
	for _, h := range ops {
		found, err := papertree.ApplyHeading(root, h.HeadingOp)
		miss[h.ID] = !found || err != nil
	}
	return miss
}

func cloneTree(n *papertree.Node) (*papertree.Node, error) {
	b, err := json.Marshal(n)
	if err != nil {
		return nil, fmt.Errorf("copy tree: %w", err)
	}
	out := &papertree.Node{}
	if err := json.Unmarshal(b, out); err != nil {
		return nil, fmt.Errorf("copy tree: %w", err)
	}
	return out, nil
}

// clearDerived drops ids and summaries: the store assigns new ids and the
// summaries are made again for the corrected paths.
func clearDerived(root *papertree.Node) {
	root.Walk(func(path []*papertree.Node) bool {
		n := path[len(path)-1]
		n.ID, n.Summary = 0, ""
		return true
	})
}

// applyCorrections replays a file's heading corrections on a tree just read
// from it (prepare): it returns the change to save with the paper and the
// corrections that found nothing, or nil when the file has none.
func (l *Library) applyCorrections(ctx context.Context, p *papertree.Paper) (*store.TreeChange, []UnmatchedCorrection, error) {
	ov, err := l.store.OverlayOf(ctx, p.Path)
	if err != nil {
		return nil, nil, err
	}
	if ov.Empty() && l.adoptMoved(ctx, p) {
		if ov, err = l.store.OverlayOf(ctx, p.Path); err != nil {
			return nil, nil, err
		}
	}
	if len(ov.Headings) == 0 {
		return nil, nil, nil
	}
	read, err := cloneTree(p.Root)
	if err != nil {
		return nil, nil, err
	}
	c := &store.TreeChange{ReadTree: read, ReadHash: p.Hash, Unmatched: replay(p.Root, ov.Headings)}
	var miss []UnmatchedCorrection
	for _, h := range ov.Headings {
		if c.Unmatched[h.ID] {
			miss = append(miss, UnmatchedCorrection{File: p.Path, ID: h.ID, Op: h.Op, Target: h.Target})
		}
	}
	return c, miss, nil
}

// FieldText shows a stored correction value as it is typed (authors as
// "A; B", an unknown year as "").
func FieldText(field, v string) string {
	switch field {
	case store.FieldAuthors:
		var a []string
		if json.Unmarshal([]byte(v), &a) == nil {
			return strings.Join(a, "; ")
		}
	case store.FieldYear:
		if v == "0" {
			return ""
		}
	}
	return v
}

// catchUpCorrections replays the file's heading corrections again when
// they changed while the file was being read (a correction made or undone
// in the app during a re-index): the saved tree must be the one the stored
// corrections describe. Failing that, the next re-index does it.
func (l *Library) catchUpCorrections(ctx context.Context, id int64, r parsed) {
	ov, err := l.store.OverlayOf(ctx, r.path)
	if err != nil {
		return
	}
	replayed := 0
	if r.tree != nil {
		replayed = len(r.tree.Unmatched)
	}
	same := len(ov.Headings) == replayed
	for _, h := range ov.Headings {
		if r.tree == nil {
			break
		}
		if _, ok := r.tree.Unmatched[h.ID]; !ok {
			same = false
		}
	}
	if same {
		return
	}
	p, err := l.store.LoadPaper(ctx, id)
	if err != nil {
		return
	}
	info, err := l.store.PaperByID(ctx, id)
	if err != nil {
		return
	}
	_ = l.rebuildCorrected(ctx, p, info.Fingerprint, ov.Headings, &store.TreeChange{})
}

// adoptMoved gives a file without corrections those of the one file with
// the same content whose path is gone: the same paper, moved or renamed
// (a copy, whose original is still there, starts without corrections).
func (l *Library) adoptMoved(ctx context.Context, p *papertree.Paper) bool {
	cands, err := l.store.MovedOverlays(ctx, p.Path, p.Hash)
	if err != nil || len(cands) == 0 {
		return false
	}
	var gone []string
	for _, c := range cands {
		if _, err := os.Stat(c); errors.Is(err, fs.ErrNotExist) {
			gone = append(gone, c)
		}
	}
	return len(gone) == 1 && l.store.MoveOverlay(ctx, gone[0], p.Path) == nil
}
