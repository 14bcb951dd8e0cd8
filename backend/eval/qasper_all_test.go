package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tinyQasper writes a one-paper QASPER file whose gold evidence is one
// three-sentence paragraph; the question targets its middle sentence.
func tinyQasper(t *testing.T) string {
	t.Helper()
	gold := "We collect tweets with a keyword search. The final corpus has 24,802 tweets labelled by CrowdFlower workers. Each tweet got three labels."
	paper := map[string]any{
		"title": "Hate speech detection", "abstract": "We detect hate speech.",
		"full_text": []map[string]any{
			{"section_name": "Introduction", "paragraphs": []string{"Hate speech is a problem on social media platforms. Detecting it automatically is hard."}},
			{"section_name": "Data", "paragraphs": []string{gold, "Annotators disagreed on many offensive tweets."}},
			{"section_name": "Model", "paragraphs": []string{"We train a logistic regression with n-gram features. Regularisation is L2."}},
		},
		"figures_and_tables": []any{},
		"qas": []map[string]any{{
			"question": "How many tweets does the final corpus have?", "question_id": "q1",
			"answers": []map[string]any{{"answer": map[string]any{"unanswerable": false, "extractive_spans": []string{"24,802"}, "yes_no": nil,
				"free_form_answer": "", "evidence": []string{gold}}}},
		}},
	}
	b, err := json.Marshal(map[string]any{"p1": paper})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "tiny.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSentenceEvidenceScoredAsParagraph: disretrieval cites sentences, and
// a sentence counts as the QASPER paragraph it comes from.
func TestSentenceEvidenceScoredAsParagraph(t *testing.T) {
	data := tinyQasper(t)
	var preds bytes.Buffer
	rep, err := RunQasper(context.Background(), data, QasperOptions{Strategy: "disretrieval", Budget: 24, Predictions: &preds})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Questions != 1 || rep.TokensUsed > 24 {
		t.Fatalf("report %+v", rep)
	}
	var p struct {
		Evidence []string `json:"predicted_evidence"`
	}
	if err := json.Unmarshal(preds.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Evidence) != 1 || !strings.HasPrefix(p.Evidence[0], "We collect tweets") {
		t.Fatalf("predicted evidence %q: want the whole gold paragraph", p.Evidence)
	}
	if rep.EvidenceF1Text != 1 {
		t.Fatalf("evidence F1 %.3f, want 1 (sentence scored at paragraph level)", rep.EvidenceF1Text)
	}
}

func TestRunQasperAllOneTable(t *testing.T) {
	data := tinyQasper(t)
	reps, err := RunQasperAll(context.Background(), data, nil, QasperOptions{Budget: 64})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteQasperTable(&b, reps); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"naive", "pt-rag", "rdr2", "disretrieval"} {
		if !strings.Contains(b.String(), "| 64 | "+s+" |") {
			t.Fatalf("table lacks %s:\n%s", s, b.String())
		}
	}
	if n := strings.Count(b.String(), "\n"); n != len(reps)+2 {
		t.Fatalf("%d lines for %d reports:\n%s", n, len(reps), b.String())
	}
}
