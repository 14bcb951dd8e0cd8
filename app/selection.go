package app

import "github.com/papertree/papertree/backend/papertree"

// SelectionView says which papers a multi-paper strategy (fable,
// structrag) chose and why, and how StructRAG structured the evidence.
type SelectionView struct {
	Papers      []PaperChoiceView `json:"papers"`
	Branch      string            `json:"branch"`      // fable: "docs" or "nodes"
	Structure   string            `json:"structure"`   // structrag: table, graph, algorithm, catalogue or chunk
	RouteReason string            `json:"routeReason"` // why that structure
	RoutedBy    string            `json:"routedBy"`    // "llm" or "rules"
	SubQueries  []string          `json:"subQueries"`
	Rendered    string            `json:"rendered"` // the structure as Markdown text (shown as text)
}

// PaperChoiceView is one paper the strategy considered.
type PaperChoiceView struct {
	PaperID    string  `json:"paperId"`
	PaperTitle string  `json:"paperTitle"`
	Chosen     bool    `json:"chosen"`
	By         string  `json:"by"`
	Reason     string  `json:"reason"`
	Score      float64 `json:"score"`
}

func selectionView(s *papertree.Selection) *SelectionView {
	if s == nil {
		return nil
	}
	v := &SelectionView{Branch: s.Branch, Structure: s.Structure, RouteReason: s.RouteReason, RoutedBy: s.RoutedBy,
		SubQueries: s.SubQueries, Rendered: s.Rendered, Papers: []PaperChoiceView{}}
	if v.SubQueries == nil {
		v.SubQueries = []string{}
	}
	for _, p := range s.Papers {
		v.Papers = append(v.Papers, PaperChoiceView{PaperID: idString(p.PaperID), PaperTitle: p.PaperTitle, Chosen: p.Chosen, By: p.By, Reason: p.Reason, Score: p.Score})
	}
	return v
}
