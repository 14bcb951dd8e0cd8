package app

import (
	"context"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/report"
	"github.com/papertree/papertree/backend/retrieve"
)

// This file maps the rest of backend/library (trees, answers, history,
// reports, the LLM) onto app's view types. IDs travel as decimal strings so
// that JavaScript never rounds an int64.

func idString(id int64) string { return strconv.FormatInt(id, 10) }

func parseID(s, what string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || id <= 0 {
		return 0, papertree.Errorf(papertree.EInvalid, "%q is not a valid %s id.", s, what)
	}
	return id, nil
}

func idStrings(ids []int64) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		out = append(out, idString(id))
	}
	return out
}

func boxViews(bs []papertree.Box) []BoxView {
	out := make([]BoxView, 0, len(bs))
	for _, b := range bs {
		out = append(out, BoxView{Page: b.Page, X0: b.X0, Y0: b.Y0, X1: b.X1, Y1: b.Y1})
	}
	return out
}

func treeView(n *papertree.Node) *TreeNode {
	if n == nil {
		return nil
	}
	t := &TreeNode{
		ID: idString(n.ID), Kind: string(n.Kind), Role: string(n.Role), Title: n.Title, Number: n.Number, Level: n.Level,
		Text: n.Text, PageStart: n.PageStart, PageEnd: n.PageEnd, Boxes: boxViews(n.Boxes),
		Children: make([]*TreeNode, 0, len(n.Children)),
	}
	for _, c := range n.Children {
		t.Children = append(t.Children, treeView(c))
	}
	return t
}

// Paper loads the tree of one paper.
func (b *Backend) Paper(ctx context.Context, id string) (PaperDetail, error) {
	if _, err := parseID(id, "paper"); err != nil {
		return PaperDetail{}, err
	}
	p, err := b.lib.Paper(ctx, id)
	if err != nil {
		return PaperDetail{}, err
	}
	d := PaperDetail{
		ID: idString(p.ID), Title: p.Title, Authors: p.Authors, Abstract: p.Abstract, Year: p.Year,
		Pages: p.Pages, File: p.Path, Warnings: p.Warnings, Root: treeView(p.Root),
	}
	// The reference manager's metadata wins over the PDF's, the
	// researcher's corrections over both.
	if ref, err := b.lib.PaperRefByID(ctx, p.ID); err == nil {
		d.Title, d.Authors, d.Year = ref.Title, ref.Authors, ref.Year
		d.Venue, d.DOI, d.CitationKey = ref.Venue, ref.DOI, ref.CitationKey
	}
	if c, err := b.lib.Corrections(ctx, idString(p.ID)); err == nil {
		d.Corrections = correctionsView(c)
		markEdited(d.Root, c.Headings)
	} else {
		d.Corrections = CorrectionsView{PaperID: idString(p.ID), Fields: []FieldEditView{}, Headings: []HeadingEditView{}}
	}
	if d.Authors == nil {
		d.Authors = []string{}
	}
	if d.Warnings == nil {
		d.Warnings = []string{}
	}
	if d.Root == nil {
		d.Root = &TreeNode{Kind: string(papertree.KindRoot), Title: p.Title, Children: []*TreeNode{}, Boxes: []BoxView{}}
	}
	return d, nil
}

func answerView(a *papertree.Answer) AnswerView {
	v := AnswerView{
		ID: idString(a.ID), Question: a.Question, Text: a.Text, Mode: a.Mode, Strategy: a.Strategy,
		NotFound: a.NotFound, Verdict: a.Verdict, Model: a.Model, PaperIDs: idStrings(a.PaperIDs),
		Evidence: make([]EvidenceView, 0, len(a.Evidence)),
		Diag: DiagView{
			SectionEntropy: a.Diag.SectionEntropy, TokensUsed: a.Diag.TokensUsed, Budget: a.Diag.Budget,
			Sections: a.Diag.Sections, Timings: a.Diag.Timings, LLMTokens: a.Diag.LLMTokens,
			Fallbacks: a.Diag.Fallbacks, DroppedCitations: a.Diag.DroppedCitations,
			Selection: selectionView(a.Diag.Selection), Route: a.Diag.Route, RouteWhy: a.Diag.RouteWhy, RouteBy: a.Diag.RouteBy, Named: namedView(a.Diag.Named),
			Unnamed: a.Diag.Unnamed, AskOf: namedViews(a.Diag.AskOf),
		},
		Papers:        make([]PaperFindingView, 0, len(a.Papers)),
		RemovedPapers: []string{},
	}
	for _, f := range a.Papers {
		path, pages := f.Path, f.Pages
		if path == nil {
			path = []string{}
		}
		if pages == nil {
			pages = []int{}
		}
		v.Papers = append(v.Papers, PaperFindingView{PaperID: idString(f.PaperID), Title: f.Title, Sentence: f.Sentence,
			Path: path, Pages: pages, NodeID: idString(f.NodeID), Score: f.Score, Cite: f.Cite})
	}
	if !a.CreatedAt.IsZero() {
		v.CreatedAt = a.CreatedAt.UTC().Format(time.RFC3339)
	}
	if v.Diag.Timings == nil {
		v.Diag.Timings = map[string]float64{}
	}
	if v.Diag.LLMTokens == nil {
		v.Diag.LLMTokens = map[string]int{}
	}
	if v.Diag.Fallbacks == nil {
		v.Diag.Fallbacks = []string{}
	}
	for _, e := range a.Evidence {
		pages := e.Pages
		if pages == nil {
			pages = []int{}
		}
		path := papertree.DisplayPath(e.Path) // answers saved before evidence named untitled sections
		v.Evidence = append(v.Evidence, EvidenceView{
			PaperID: idString(e.PaperID), PaperTitle: e.PaperTitle, NodeID: idString(e.NodeID), Kind: string(e.Kind),
			Role: string(e.Role), Path: path, PathIDs: idStrings(e.PathIDs), Text: e.Text, Pages: pages, Boxes: boxViews(e.Boxes),
			Score: e.Score, Tokens: e.Tokens,
		})
	}
	return v
}

// Ask runs one question through the library.
func (b *Backend) Ask(ctx context.Context, in AskInput, params retrieve.Params, onDelta func(string)) (AnswerView, error) {
	req := library.AskRequest{Question: in.Question, Strategy: in.Strategy, Budget: in.Budget, Params: params, OnDelta: onDelta,
		Unnamed: in.Unnamed}
	for _, s := range in.PaperIDs {
		id, err := parseID(s, "paper")
		if err != nil {
			return AnswerView{}, err
		}
		req.PaperIDs = append(req.PaperIDs, id)
	}
	a, err := b.lib.Ask(ctx, req)
	if err != nil {
		return AnswerView{}, err
	}
	return answerView(a), nil
}

// History lists saved answers, newest first.
func (b *Backend) History(ctx context.Context, limit int) ([]HistoryItem, error) {
	infos, err := b.lib.Answers(ctx, limit, 0)
	if err != nil {
		return nil, err
	}
	out := make([]HistoryItem, 0, len(infos))
	for _, in := range infos {
		out = append(out, HistoryItem{
			ID: idString(in.ID), Question: in.Question, Text: in.Text, Mode: in.Mode, NotFound: in.NotFound,
			Evidence: in.Evidence, CreatedAt: in.CreatedAt.UTC().Format(time.RFC3339),
		})
	}
	return out, nil
}

// Answer loads a saved answer.
func (b *Backend) Answer(ctx context.Context, id string) (AnswerView, error) {
	n, err := parseID(id, "answer")
	if err != nil {
		return AnswerView{}, err
	}
	a, err := b.lib.Answer(ctx, n)
	if err != nil {
		return AnswerView{}, err
	}
	v := answerView(a)
	v.RemovedPapers = b.removedCited(ctx, a)
	return v, nil
}

// DeleteAnswer removes a saved answer.
func (b *Backend) DeleteAnswer(ctx context.Context, id string) error {
	n, err := parseID(id, "answer")
	if err != nil {
		return err
	}
	return b.lib.DeleteAnswer(ctx, n)
}

// Export renders saved answers as a report (the whole history, up to 500
// answers, when ids is empty).
func (b *Backend) Export(ctx context.Context, ids []string, format string, w io.Writer) error {
	answers, err := b.exportedAnswers(ctx, ids)
	if err != nil {
		return err
	}
	doc := report.Doc{Generated: time.Now().UTC(), Papers: map[int64]report.PaperMeta{}}
	if len(ids) == 0 {
		doc.Title = "PaperTree question history"
	}
	for _, a := range answers {
		doc.Answers = append(doc.Answers, a)
		for _, e := range a.Evidence {
			if _, ok := doc.Papers[e.PaperID]; ok || e.PaperID == 0 {
				continue
			}
			// Reference metadata (Zotero, BibTeX) wins, with its citation key.
			pi, err := b.lib.PaperRefByID(ctx, e.PaperID)
			if err != nil {
				doc.Papers[e.PaperID] = report.PaperMeta{}
				continue
			}
			doc.Papers[e.PaperID] = report.PaperMeta{Title: pi.Title, Authors: pi.Authors, Year: pi.Year, File: pi.Path, CitationKey: pi.CitationKey}
		}
	}
	return report.Write(w, format, doc)
}

// exportedAnswers loads the saved answers an export is of: ids, or the
// whole history (up to 500 answers, oldest first) when ids is empty.
func (b *Backend) exportedAnswers(ctx context.Context, ids []string) ([]papertree.Answer, error) {
	var nums []int64
	if len(ids) == 0 {
		infos, err := b.lib.Answers(ctx, 500, 0)
		if err != nil {
			return nil, err
		}
		for i := len(infos) - 1; i >= 0; i-- { // oldest first reads like a lab notebook
			nums = append(nums, infos[i].ID)
		}
	}
	for _, s := range ids {
		n, err := parseID(s, "answer")
		if err != nil {
			return nil, err
		}
		nums = append(nums, n)
	}
	if len(nums) == 0 {
		return nil, papertree.Errorf(papertree.EInvalid, "There are no saved answers to export yet.")
	}
	out := make([]papertree.Answer, 0, len(nums))
	for _, n := range nums {
		a, err := b.lib.Answer(ctx, n)
		if err != nil {
			return nil, err
		}
		out = append(out, *a)
	}
	return out, nil
}

// Prune drops papers whose file is gone.
func (b *Backend) Prune(ctx context.Context) ([]string, error) { return b.lib.Prune(ctx) }

// ConfigureLLM switches the library's LLM.
func (b *Backend) ConfigureLLM(ctx context.Context, cfg llm.Config) (llm.Status, error) {
	return b.lib.ConfigureLLM(ctx, cfg)
}

// LLMStatus reports the library's LLM state.
func (b *Backend) LLMStatus() (llm.Status, bool) { return b.lib.LLMStatus() }

// namedViews is namedView of each paper (nil: none).
func namedViews(ps []papertree.NamedPaper) []NamedView {
	var out []NamedView
	for i := range ps {
		out = append(out, *namedView(&ps[i]))
	}
	return out
}

func namedView(n *papertree.NamedPaper) *NamedView {
	if n == nil {
		return nil
	}
	return &NamedView{PaperID: strconv.FormatInt(n.ID, 10), Title: n.Title, Alone: n.Alone}
}
