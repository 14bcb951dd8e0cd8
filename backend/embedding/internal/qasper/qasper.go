// Package qasper loads the QASPER tune half (../shared/data/qasper), splits
// it deterministically by paper id into a build half and a held-out half, and
// scores paragraph rankers the way the QASPER evaluator scores evidence.
//
// Data flow: Load -> Split -> Evaluate(papers, Method) -> Metrics. The build
// half is what the built-in embedder's static model may be tuned on; the
// held-out half is only ever used to report numbers, so that the reported
// gain over BM25 is not an artefact of fitting the evaluation data.
package qasper

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"sort"
	"strings"
)

// Paper is one QASPER paper reduced to what paragraph retrieval needs.
type Paper struct {
	ID         string
	Title      string
	Abstract   string
	Paragraphs []string // non-empty full_text paragraphs, whitespace-normalised, de-duplicated, in order
	Questions  []Question
}

// Question is one question with its gold evidence per annotation.
type Question struct {
	ID   string
	Text string
	// Gold holds, per annotation, the evidence paragraph strings that are
	// text (captions marked "FLOAT SELECTED:" removed), whitespace-normalised.
	Gold [][]string
}

type rawPaper struct {
	Title    string `json:"title"`
	Abstract string `json:"abstract"`
	FullText []struct {
		SectionName string   `json:"section_name"`
		Paragraphs  []string `json:"paragraphs"`
	} `json:"full_text"`
	QAs []struct {
		Question   string `json:"question"`
		QuestionID string `json:"question_id"`
		Answers    []struct {
			Answer struct {
				Evidence []string `json:"evidence"`
			} `json:"answer"`
		} `json:"answers"`
	} `json:"qas"`
}

// Norm collapses whitespace the way the QASPER evaluator compares evidence.
func Norm(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Load reads a QASPER JSON file (object keyed by paper id) and returns the
// papers sorted by id.
func Load(path string) ([]Paper, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read qasper: %w", err)
	}
	var raw map[string]rawPaper
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("decode qasper: %w", err)
	}
	ids := make([]string, 0, len(raw))
	for id := range raw {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	papers := make([]Paper, 0, len(ids))
	for _, id := range ids {
		r := raw[id]
		p := Paper{ID: id, Title: r.Title, Abstract: r.Abstract}
		seen := map[string]bool{}
		for _, sec := range r.FullText {
			for _, para := range sec.Paragraphs {
				n := Norm(para)
				if n == "" || seen[n] {
					continue
				}
				seen[n] = true
				p.Paragraphs = append(p.Paragraphs, n)
			}
		}
		for _, qa := range r.QAs {
			q := Question{ID: qa.QuestionID, Text: qa.Question}
			for _, a := range qa.Answers {
				var gold []string
				for _, ev := range a.Answer.Evidence {
					n := Norm(ev)
					if n == "" || strings.HasPrefix(n, "FLOAT SELECTED:") {
						continue
					}
					gold = append(gold, n)
				}
				q.Gold = append(q.Gold, gold)
			}
			p.Questions = append(p.Questions, q)
		}
		papers = append(papers, p)
	}
	return papers, nil
}

// IsHeldOut reports whether a paper belongs to the held-out half: FNV-1a of
// the id, odd. A hash rather than sorted position so that the split of a
// paper never depends on which other papers are in the file.
func IsHeldOut(id string) bool {
	h := fnv.New32a()
	h.Write([]byte(id))
	return h.Sum32()%2 == 1
}

// Split returns the build half and the held-out half.
func Split(papers []Paper) (build, heldOut []Paper) {
	for _, p := range papers {
		if IsHeldOut(p.ID) {
			heldOut = append(heldOut, p)
		} else {
			build = append(build, p)
		}
	}
	return build, heldOut
}
