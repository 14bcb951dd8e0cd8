package app

import (
	"context"
	"strconv"
	"strings"

	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// Corrections (issue 22): the researcher corrects a paper's metadata and
// tree. The library keeps them as an overlay that survives re-indexing
// (backend/library/edit.go); these are the bound methods and their views.

// Corrector is the part of a Library that stores corrections; the Backend
// implements it (a Library without it refuses corrections).
type Corrector interface {
	Corrections(ctx context.Context, id string) (CorrectionsView, error)
	EditPaper(ctx context.Context, id string, fields map[string]string) (CorrectionsView, error)
	RevertEdit(ctx context.Context, id, field string) (CorrectionsView, error)
	EditHeading(ctx context.Context, id string, in HeadingEditInput) (CorrectionsView, error)
	UndoHeadingEdit(ctx context.Context, id, editID string) (CorrectionsView, error)
}

// CorrectionsView is what a paper's corrections are.
type CorrectionsView struct {
	PaperID  string            `json:"paperId"`
	Fields   []FieldEditView   `json:"fields"`
	Headings []HeadingEditView `json:"headings"`
}

// FieldEditView is one corrected metadata field.
type FieldEditView struct {
	Field string `json:"field"` // title, authors, year, venue, doi, key
	Value string `json:"value"` // authors: "A; B"
	Read  string `json:"read"`  // what was read from the PDF
}

// HeadingEditView is one heading correction.
type HeadingEditView struct {
	ID        string `json:"id"`
	Op        string `json:"op"`     // rename, level, merge, not_heading, promote
	Target    string `json:"target"` // the heading (or line) it applies to
	Arg       string `json:"arg"`    // rename: the new text
	Level     int    `json:"level"`  // level: the new level
	Unmatched bool   `json:"unmatched"`
}

// HeadingEditInput is a correction of the tree, from the tree view.
type HeadingEditInput struct {
	NodeID string `json:"nodeId"`
	Op     string `json:"op"`
	Text   string `json:"text"`
	Level  int    `json:"level"`
}

func (a *App) corrector() (Corrector, error) {
	lib, err := a.ready()
	if err != nil {
		return nil, err
	}
	c, ok := lib.(Corrector)
	if !ok {
		return nil, papertree.Errorf(papertree.EConflict, "Corrections are not available in this build.")
	}
	return c, nil
}

func (a *App) logEdit(what, id string, err error) {
	if err != nil {
		a.log.Error(what, "paper", id, "err", err)
		return
	}
	a.log.Info(what, "paper", id)
}

// Corrections lists a paper's corrections.
func (a *App) Corrections(id string) (CorrectionsView, error) {
	c, err := a.corrector()
	if err != nil {
		return CorrectionsView{}, err
	}
	v, err := c.Corrections(a.context(), id)
	return v, maybeCoded(err, "The corrections could not be read.")
}

// EditPaper corrects metadata fields (title, authors as "A; B", year,
// venue, doi, key) of a paper.
func (a *App) EditPaper(id string, fields map[string]string) (CorrectionsView, error) {
	c, err := a.corrector()
	if err != nil {
		return CorrectionsView{}, err
	}
	v, err := c.EditPaper(a.context(), id, fields)
	a.logEdit("edited paper", id, err)
	return v, maybeCoded(err, "The correction could not be saved.")
}

// RevertEdit reverts one corrected field to what was read.
func (a *App) RevertEdit(id, field string) (CorrectionsView, error) {
	c, err := a.corrector()
	if err != nil {
		return CorrectionsView{}, err
	}
	v, err := c.RevertEdit(a.context(), id, field)
	a.logEdit("reverted field "+field, id, err)
	return v, maybeCoded(err, "The correction could not be reverted.")
}

// EditHeading corrects the tree of a paper at one node.
func (a *App) EditHeading(id string, in HeadingEditInput) (CorrectionsView, error) {
	c, err := a.corrector()
	if err != nil {
		return CorrectionsView{}, err
	}
	v, err := c.EditHeading(a.context(), id, in)
	a.logEdit("edited heading "+in.Op, id, err)
	return v, maybeCoded(err, "The heading could not be corrected.")
}

// UndoHeadingEdit removes a heading correction ("" = the latest).
func (a *App) UndoHeadingEdit(id, editID string) (CorrectionsView, error) {
	c, err := a.corrector()
	if err != nil {
		return CorrectionsView{}, err
	}
	v, err := c.UndoHeadingEdit(a.context(), id, editID)
	a.logEdit("undid heading edit", id, err)
	return v, maybeCoded(err, "The heading correction could not be undone.")
}

func maybeCoded(err error, msg string) error {
	if err == nil {
		return nil
	}
	return asCoded(err, msg)
}

// Backend side.

func correctionsView(c library.Corrections) CorrectionsView {
	v := CorrectionsView{PaperID: idString(c.PaperID), Fields: []FieldEditView{}, Headings: []HeadingEditView{}}
	for _, f := range c.Fields {
		v.Fields = append(v.Fields, FieldEditView{Field: f.Field, Value: fieldText(f.Field, f.Value), Read: fieldText(f.Field, f.Read)})
	}
	for _, h := range c.Headings {
		v.Headings = append(v.Headings, HeadingEditView{ID: idString(h.ID), Op: h.Op, Target: h.Target, Arg: h.Arg, Level: h.Level, Unmatched: h.Unmatched})
	}
	return v
}

// fieldText shows a stored field value as it is typed.
func fieldText(field, v string) string {
	return library.FieldText(field, v)
}

// Corrections implements Corrector.
func (b *Backend) Corrections(ctx context.Context, id string) (CorrectionsView, error) {
	if _, err := parseID(id, "paper"); err != nil {
		return CorrectionsView{}, err
	}
	c, err := b.lib.Corrections(ctx, id)
	return correctionsView(c), err
}

// EditPaper implements Corrector.
func (b *Backend) EditPaper(ctx context.Context, id string, fields map[string]string) (CorrectionsView, error) {
	if _, err := parseID(id, "paper"); err != nil {
		return CorrectionsView{}, err
	}
	c, err := b.lib.EditPaper(ctx, id, fields)
	return correctionsView(c), err
}

// RevertEdit implements Corrector.
func (b *Backend) RevertEdit(ctx context.Context, id, field string) (CorrectionsView, error) {
	if _, err := parseID(id, "paper"); err != nil {
		return CorrectionsView{}, err
	}
	c, err := b.lib.RevertField(ctx, id, field)
	return correctionsView(c), err
}

// EditHeading implements Corrector.
func (b *Backend) EditHeading(ctx context.Context, id string, in HeadingEditInput) (CorrectionsView, error) {
	if _, err := parseID(id, "paper"); err != nil {
		return CorrectionsView{}, err
	}
	node, err := parseID(in.NodeID, "node")
	if err != nil {
		return CorrectionsView{}, err
	}
	c, err := b.lib.EditHeading(ctx, id, library.HeadingEdit{NodeID: node, Op: in.Op, Text: in.Text, Level: in.Level})
	return correctionsView(c), err
}

// UndoHeadingEdit implements Corrector.
func (b *Backend) UndoHeadingEdit(ctx context.Context, id, editID string) (CorrectionsView, error) {
	if _, err := parseID(id, "paper"); err != nil {
		return CorrectionsView{}, err
	}
	var eid int64
	if strings.TrimSpace(editID) != "" {
		var err error
		if eid, err = strconv.ParseInt(strings.TrimSpace(editID), 10, 64); err != nil || eid <= 0 {
			return CorrectionsView{}, papertree.Errorf(papertree.EInvalid, "%q is not a valid correction id.", editID)
		}
	}
	c, err := b.lib.UndoHeading(ctx, id, eid)
	return correctionsView(c), err
}

// markEdited sets Edited on the tree's headings that a matched correction
// made (renamed, moved or promoted).
func markEdited(root *TreeNode, hs []store.HeadingEdit) {
	if root == nil {
		return
	}
	made := map[string]bool{}
	for _, h := range hs {
		if h.Unmatched {
			continue
		}
		switch h.Op {
		case papertree.OpRename:
			made[papertree.HeadingNorm(h.Arg)] = true
		case papertree.OpLevel, papertree.OpPromote:
			made[papertree.HeadingNorm(h.Target)] = true
		}
	}
	var rec func(n *TreeNode)
	rec = func(n *TreeNode) {
		if n.Kind == string(papertree.KindSection) && made[papertree.HeadingNorm(n.Title)] {
			n.Edited = true
		}
		for _, c := range n.Children {
			rec(c)
		}
	}
	rec(root)
}
