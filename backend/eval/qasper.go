package eval

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// QASPER data (format: ../shared/data/qasper/README.md).

// QasperPaper is one paper of a QASPER split.
type QasperPaper struct {
	ID       string `json:"-"`
	Title    string `json:"title"`
	Abstract string `json:"abstract"`
	FullText []struct {
		SectionName string   `json:"section_name"`
		Paragraphs  []string `json:"paragraphs"`
	} `json:"full_text"`
	FiguresAndTables []struct {
		File    string `json:"file"`
		Caption string `json:"caption"`
	} `json:"figures_and_tables"`
	QAs []QasperQA `json:"qas"`
}

// QasperQA is one question with its annotations.
type QasperQA struct {
	Question   string `json:"question"`
	QuestionID string `json:"question_id"`
	Answers    []struct {
		Answer QasperAnswer `json:"answer"`
	} `json:"answers"`
}

// QasperAnswer is one annotator's answer.
type QasperAnswer struct {
	Unanswerable    bool     `json:"unanswerable"`
	ExtractiveSpans []string `json:"extractive_spans"`
	YesNo           *bool    `json:"yes_no"`
	FreeFormAnswer  string   `json:"free_form_answer"`
	Evidence        []string `json:"evidence"`
}

// LoadQasper reads a QASPER JSON file; papers come back sorted by id.
func LoadQasper(path string) ([]*QasperPaper, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, papertree.Wrap(err, papertree.ENotFound, "The QASPER file cannot be read.")
	}
	var m map[string]*QasperPaper
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, papertree.Wrap(err, papertree.EInvalid, "The QASPER file is not valid QASPER JSON.")
	}
	out := make([]*QasperPaper, 0, len(m))
	for id, p := range m {
		p.ID = id
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// FloatPrefix marks figure/table evidence in QASPER.
const FloatPrefix = "FLOAT SELECTED:"

// QasperTree is a PaperTree built from QASPER's full_text plus the mapping
// from leaves back to the original paragraph strings (the unit of QASPER's
// evidence).
type QasperTree struct {
	Paper *papertree.Paper
	// Para maps a leaf's Order to the original evidence string it came from.
	Para map[int]string
}

// BuildQasperTree builds the PaperTree of a QASPER paper from its full_text,
// the universe QASPER's evidence annotations were drawn from (the abstract is
// not part of it, so it is kept as Paper.Abstract but not as a leaf). Section names carry
// nesting as " ::: "; every paragraph becomes one segment (split at sentence
// boundaries when longer than maxTokens, every piece mapping back to the
// paragraph); figure and table captions become caption leaves of a
// "Figures and Tables" section, mapping to "FLOAT SELECTED: <caption>".
func BuildQasperTree(q *QasperPaper, maxTokens int) QasperTree {
	root := &papertree.Node{Kind: papertree.KindRoot, Title: q.Title, PageStart: 1, PageEnd: 1}
	type leafRef struct {
		n    *papertree.Node
		para string
	}
	var refs []leafRef
	addLeaves := func(sec *papertree.Node, para string, kind papertree.Kind, evidence string) {
		for _, piece := range splitTokens(para, maxTokens) {
			leaf := &papertree.Node{Kind: kind, Level: sec.Level + 1, Text: piece, Tokens: papertree.CountTokens(piece), PageStart: 1, PageEnd: 1}
			sec.Children = append(sec.Children, leaf)
			refs = append(refs, leafRef{leaf, evidence})
		}
	}
	// open[i] is the currently open section at depth i+1.
	var open []*papertree.Node
	for _, s := range q.FullText {
		names := strings.Split(s.SectionName, ":::")
		for i := range names {
			names[i] = strings.TrimSpace(names[i])
		}
		if len(names) == 1 && names[0] == "" {
			names = []string{"(untitled)"}
		}
		k := 0
		for k < len(open) && k < len(names) && open[k].Title == names[k] {
			k++
		}
		open = open[:k]
		for i := k; i < len(names); i++ {
			parent := root
			if i > 0 {
				parent = open[i-1]
			}
			sec := &papertree.Node{Kind: papertree.KindSection, Title: names[i], Level: i + 1, PageStart: 1, PageEnd: 1}
			lt := strings.ToLower(names[i])
			switch {
			case strings.Contains(lt, "acknowledg"):
				sec.Role = papertree.RoleAcks
			case strings.HasPrefix(lt, "appendix"):
				sec.Role = papertree.RoleAppendix
			}
			parent.Children = append(parent.Children, sec)
			open = append(open, sec)
		}
		sec := open[len(names)-1]
		for _, para := range s.Paragraphs {
			if strings.TrimSpace(para) == "" {
				continue
			}
			addLeaves(sec, para, papertree.KindSegment, para)
		}
	}
	if len(q.FiguresAndTables) > 0 {
		ft := &papertree.Node{Kind: papertree.KindSection, Title: "Figures and Tables", Level: 1, PageStart: 1, PageEnd: 1}
		root.Children = append(root.Children, ft)
		for _, f := range q.FiguresAndTables {
			if strings.TrimSpace(f.Caption) == "" {
				continue
			}
			addLeaves(ft, f.Caption, papertree.KindCaption, FloatPrefix+" "+f.Caption)
		}
	}
	root.Renumber()
	para := make(map[int]string, len(refs))
	for _, r := range refs {
		para[r.n.Order] = r.para
	}
	return QasperTree{
		Paper: &papertree.Paper{Path: "qasper:" + q.ID, Title: q.Title, Abstract: q.Abstract, Pages: 1, Root: root},
		Para:  para,
	}
}

// splitTokens splits text into pieces of at most max tokens at sentence
// boundaries (a single over-long sentence stays whole).
func splitTokens(text string, max int) []string {
	if max <= 0 || papertree.CountTokens(text) <= max {
		return []string{strings.TrimSpace(text)}
	}
	var out []string
	var cur []string
	tok := 0
	for _, s := range papertree.SplitSentences(text) {
		t := papertree.CountTokens(s)
		if tok+t > max && len(cur) > 0 {
			out = append(out, strings.Join(cur, " "))
			cur, tok = nil, 0
		}
		cur = append(cur, s)
		tok += t
	}
	if len(cur) > 0 {
		out = append(out, strings.Join(cur, " "))
	}
	return out
}

// GoldAnswer is the official gold answer string of an annotation.
func GoldAnswer(a QasperAnswer) (text, kind string) {
	switch {
	case a.Unanswerable:
		return "Unanswerable", "none"
	case len(a.ExtractiveSpans) > 0:
		return strings.Join(a.ExtractiveSpans, ", "), "extractive"
	case a.FreeFormAnswer != "":
		return a.FreeFormAnswer, "abstractive"
	case a.YesNo != nil:
		if *a.YesNo {
			return "Yes", "boolean"
		}
		return "No", "boolean"
	}
	return "", "none"
}

func (q QasperQA) String() string { return fmt.Sprintf("%s: %s", q.QuestionID, q.Question) }
