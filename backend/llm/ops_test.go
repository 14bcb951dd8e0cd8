package llm

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// opsWith returns Ops over a fake server of kind answering with reply.
func opsWith(t *testing.T, kind string, reply replyFunc) (*Ops, *fake) {
	t.Helper()
	f := newFake(t, kind, reply)
	c, err := New(f.config(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return NewOps(c), f
}

func fail500(kind string) replyFunc { return errorReply(kind, 500, "CUDA out of memory") }

func wantFallback(t *testing.T, out Outcome, op string, fb bool, reason string) {
	t.Helper()
	if out.Op != op || out.Fallback != fb || !strings.Contains(out.Reason, reason) {
		t.Errorf("outcome %+v, want op %s fallback=%v reason containing %q", out, op, fb, reason)
	}
}

func TestNilOpsFallBack(t *testing.T) {
	for name, o := range map[string]*Ops{"nil ops": nil, "nil client": NewOps(nil)} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			rule := Relation{Class: RelSibling}
			if r, out := o.ClassifyHeadingRelation(ctx, HeadingContext{Text: "2 Method", Level: 1}, HeadingContext{Text: "3 Results"}, rule); !reflect.DeepEqual(r, rule) {
				t.Errorf("relation %+v", r)
			} else {
				wantFallback(t, out, OpHeadingRelation, true, reasonNoLLM)
			}
			s, out := o.Summarize(ctx, SummaryInput{Segment: "One. Two."}, func(SummaryInput) string { return "extractive" })
			if s != "extractive" {
				t.Errorf("summary %q", s)
			}
			wantFallback(t, out, OpSummary, true, reasonNoLLM)
			if sc, out := o.TitleRelevance(ctx, "q", []string{"Intro"}); sc != nil {
				t.Errorf("scores %v", sc)
			} else {
				wantFallback(t, out, OpTitleRelevance, true, reasonNoLLM)
			}
			if qs, out := o.Decompose(ctx, "which datasets?", 3); !reflect.DeepEqual(qs, []string{"which datasets?"}) {
				t.Errorf("decompose %v", qs)
			} else {
				wantFallback(t, out, OpDecompose, true, reasonNoLLM)
			}
			if es, out := o.ExtractEntities(ctx, "ImageNet", 0.5); es != nil {
				t.Errorf("entities %v", es)
			} else {
				wantFallback(t, out, OpEntities, true, reasonNoLLM)
			}
			if q, out := o.TransformMultiDoc(ctx, "compare these papers"); q != "compare these papers" {
				t.Errorf("transform %q", q)
			} else {
				wantFallback(t, out, OpMultiDocRewrite, true, reasonNoLLM)
			}
			a, out := o.Answer(ctx, AnswerInput{Question: "q", Evidence: []EvidenceRef{{Text: "t"}}}, nil)
			if a.Text != "" {
				t.Errorf("answer %+v", a)
			}
			wantFallback(t, out, OpAnswer, true, reasonNoLLM)
		})
	}
}

func TestClassifyHeadingRelation(t *testing.T) {
	prev := HeadingContext{Text: "3.2.1 Ablation on depth", Level: 3, Style: "bold 10pt", Snippet: "We vary the number of layers.",
		Ancestors: []string{"PT-RAG: Structure-Fidelity RAG", "3 Experiments", "3.2 Analysis"}}
	next := HeadingContext{Text: "4 Conclusion", Style: "bold 12pt", Snippet: "We presented PT-RAG."}
	rule := Relation{Class: RelPop, PopLevel: 1}
	cases := []struct {
		name, content string
		want          Relation // Probs checked only for Class
		fallback      bool
		reason        string
	}{
		{"plain JSON", `{"child": 0.05, "sibling": 0.1, "pop": 0.8, "not_heading": 0.05, "pop_level": 1}`, Relation{Class: RelPop, PopLevel: 1}, false, ""},
		{"json fence", "```json\n{\"child\": 0.9, \"sibling\": 0.05, \"pop\": 0.03, \"not_heading\": 0.02}\n```", Relation{Class: RelChild}, false, ""},
		{"think block and prose", "<think>numbering goes 3.2.1 -> 4</think>Here is my answer: {\"probs\": {\"child\": 0.1, \"sibling\": 0.1, \"pop\": 0.7, \"not heading\": 0.1}, \"pop_level\": \"2\"} Hope it helps.", Relation{Class: RelPop, PopLevel: 2}, false, ""},
		{"percent strings", `{"child": "5%", "sibling": "80%", "pop": "10%", "not_heading": "5%"}`, Relation{Class: RelSibling}, false, ""},
		{"label form", `{"relation": "not heading", "confidence": 0.95}`, Relation{Class: RelNotHeading}, false, ""},
		{"unnormalised", `{"child": 1, "sibling": 7, "pop": 1, "not_heading": 1}`, Relation{Class: RelSibling}, false, ""},
		{"pop to its own level is a sibling", `{"pop": 0.9, "child": 0.1, "pop_level": 3}`, Relation{Class: RelSibling}, false, ""},
		{"trailing comma", `{"child": 0.1, "sibling": 0.1, "pop": 0.7, "not_heading": 0.1,}`, Relation{Class: RelPop, PopLevel: 2}, false, ""},
		{"low confidence", `{"child": 0.3, "sibling": 0.35, "pop": 0.2, "not_heading": 0.15}`, rule, true, "low confidence (0.35 < 0.50)"},
		{"not JSON", "It is a sibling of the previous heading.", rule, true, "not a JSON object"},
		{"wrong types", `{"child": "high", "sibling": null, "pop": [0.3]}`, rule, true, "no probabilities"},
		{"JSON array", `[0.1, 0.2, 0.6, 0.1]`, rule, true, "not a JSON object"},
		{"empty", "", rule, true, "empty output"},
	}
	for _, kind := range kinds {
		for _, tc := range cases {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				o, f := opsWith(t, kind, replyContent(kind, tc.content))
				got, out := o.ClassifyHeadingRelation(context.Background(), prev, next, rule)
				wantFallback(t, out, OpHeadingRelation, tc.fallback, tc.reason)
				if got.Class != tc.want.Class || got.PopLevel != tc.want.PopLevel {
					t.Errorf("relation %+v, want %+v", got, tc.want)
				}
				if !tc.fallback {
					sum := 0.0
					for _, p := range got.Probs {
						sum += p
					}
					if math.Abs(sum-1) > 1e-9 || got.Probs[got.Class] < 0.5 {
						t.Errorf("probs %v do not sum to 1 or do not favour %s", got.Probs, got.Class)
					}
				}
				checkChat(t, kind, f.Calls()[0], false, true, "3.2.1 Ablation on depth", "4 Conclusion", "Paper: PT-RAG: Structure-Fidelity RAG",
					"level 1: 3 Experiments", "level 2: 3.2 Analysis", "bold 12pt", "We presented PT-RAG.", `"not_heading"`)
			})
		}
	}
	t.Run("server fails", func(t *testing.T) {
		o, f := opsWith(t, ProviderOpenAI, fail500(ProviderOpenAI))
		got, out := o.ClassifyHeadingRelation(context.Background(), prev, next, rule)
		wantFallback(t, out, OpHeadingRelation, true, "HTTP 500")
		if !reflect.DeepEqual(got, rule) || papertree.ErrorCode(out.Err) != papertree.ELLM || len(f.Calls()) != 4 {
			t.Errorf("got %+v err %v after %d calls", got, out.Err, len(f.Calls()))
		}
	})
	t.Run("threshold setting", func(t *testing.T) {
		o, _ := opsWith(t, ProviderOpenAI, replyContent(ProviderOpenAI, `{"child": 0.7, "sibling": 0.3}`))
		o.RelationThreshold = 0.75
		if _, out := o.ClassifyHeadingRelation(context.Background(), prev, next, rule); !out.Fallback {
			t.Errorf("0.7 passed a 0.75 threshold: %+v", out)
		}
	})
}

func TestSummarize(t *testing.T) {
	in := SummaryInput{PaperTitle: "PT-RAG", Path: []string{"PT-RAG", "3 Method", "3.2 Indexing"},
		Segment: "We parse each PDF into Markdown. Headings become candidates. A language model infers the hierarchy."}
	extractive := func(s SummaryInput) string { return "EXTRACTIVE: " + s.Path[len(s.Path)-1] }
	long := strings.Repeat("word ", 300)
	cases := []struct {
		name, content, prev string
		want                string
		fallback            bool
		reason              string
	}{
		{"plain", "This segment describes how PT-RAG turns PDFs into heading candidates and infers their hierarchy.", "",
			"This segment describes how PT-RAG turns PDFs into heading candidates and infers their hierarchy.", false, ""},
		{"label, quotes and previous summary", "**Summary:** \"Continuing the parsing step, headings are validated by an LLM.\"", "The section introduces parsing.",
			"Continuing the parsing step, headings are validated by an LLM.", false, ""},
		{"think block", "<think>short</think>\n\nHeadings are inferred.", "", "Headings are inferred.", false, ""},
		{"refusal", "I'm sorry, but I cannot summarize this.", "", "EXTRACTIVE: 3.2 Indexing", true, "refusal"},
		{"empty", "   ", "", "EXTRACTIVE: 3.2 Indexing", true, "empty output"},
		{"runaway", long, "", strings.TrimSpace(strings.Repeat("word ", 160)) + " ...", false, ""},
	}
	for _, kind := range kinds {
		for _, tc := range cases {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				o, f := opsWith(t, kind, replyContent(kind, tc.content))
				in := in
				in.PrevSummary = tc.prev
				got, out := o.Summarize(context.Background(), in, extractive)
				wantFallback(t, out, OpSummary, tc.fallback, tc.reason)
				if got != tc.want {
					t.Errorf("summary %q, want %q", got, tc.want)
				}
				prevPart := "<START>"
				if tc.prev != "" {
					prevPart = tc.prev
				}
				checkChat(t, kind, f.Calls()[0], false, false, "Paper title: PT-RAG", "Section path: PT-RAG > 3 Method > 3.2 Indexing",
					"A language model infers the hierarchy.", "Previous segment summary: "+prevPart, "at most 80 words")
			})
		}
	}
	t.Run("default extractive fallback", func(t *testing.T) {
		o, _ := opsWith(t, ProviderOllama, fail500(ProviderOllama))
		o.SummaryMaxWords = 12
		got, out := o.Summarize(context.Background(), in, nil)
		wantFallback(t, out, OpSummary, true, "HTTP 500")
		if got != "We parse each PDF into Markdown. Headings become candidates." {
			t.Errorf("lead summary %q", got)
		}
	})
}

func TestTitleRelevance(t *testing.T) {
	titles := []string{"1 Introduction", "4.1 Experimental Setup", "4.2 Results", "5 Related Work"}
	cases := []struct {
		name, content string
		want          []float64 // nil = fallback
		reason        string
	}{
		{"ids shuffled", `{"scores": [{"id": 2, "score": 0.9}, {"id": 1, "score": 0.1}, {"id": 4, "score": 0.0}, {"id": 3, "score": 0.4}]}`, []float64{0.1, 0.9, 0.4, 0}, ""},
		{"positional numbers in a fence", "```json\n{\"scores\": [0.2, 0.95, 0.5, 0.05]}\n```", []float64{0.2, 0.95, 0.5, 0.05}, ""},
		{"map on a 0-10 scale", `{"1": 1, "2": 9, "3": "5", "4": 0}`, []float64{0.1, 0.9, 0.5, 0}, ""},
		{"0-100 scale, clamped", `[{"id":1,"score":-5},{"id":2,"score":85},{"id":3,"score":40},{"id":4,"score":0}]`, []float64{0, 0.85, 0.4, 0}, ""},
		{"by title", `{"scores": [{"title": "4.1 experimental setup", "relevance": 0.8}, {"title": "4.2 Results", "relevance": 0.6}, {"title": "1 Introduction", "relevance": 0.1}]}`, []float64{0.1, 0.8, 0.6, 0}, "1 of 4 titles had no score"},
		{"unknown and duplicate ids ignored", `{"scores": [{"id": 2, "score": 0.7}, {"id": 2, "score": 0.1}, {"id": 9, "score": 1}, {"id": 1, "score": 0.3}, {"id": 3, "score": 0.2}]}`, []float64{0.3, 0.7, 0.2, 0}, "1 of 4 titles had no score"},
		{"most ids missing", `{"scores": [{"id": 2, "score": 0.9}]}`, nil, "scored only 1 of 4"},
		{"wrong types", `{"scores": [{"id": 1, "score": "high"}, {"id": 2, "score": null}]}`, nil, "no usable scores"},
		{"not JSON", "Experimental Setup is the most relevant.", nil, "not JSON"},
		{"empty", "", nil, "empty output"},
	}
	for _, kind := range kinds {
		for _, tc := range cases {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				o, f := opsWith(t, kind, replyContent(kind, tc.content))
				got, out := o.TitleRelevance(context.Background(), "Which hyperparameters were used?", titles)
				wantFallback(t, out, OpTitleRelevance, tc.want == nil, tc.reason)
				if len(got) != len(tc.want) {
					t.Fatalf("scores %v, want %v", got, tc.want)
				}
				for i := range got {
					if math.Abs(got[i]-tc.want[i]) > 1e-9 {
						t.Errorf("scores %v, want %v", got, tc.want)
						break
					}
				}
				checkChat(t, kind, f.Calls()[0], false, true, "Question: Which hyperparameters were used?", "1. 1 Introduction", "2. 4.1 Experimental Setup", "4. 5 Related Work", "each of the 4 ids")
			})
		}
	}
	t.Run("no titles, no call", func(t *testing.T) {
		o, f := opsWith(t, ProviderOpenAI, fail500(ProviderOpenAI))
		if got, out := o.TitleRelevance(context.Background(), "q", nil); got == nil || len(got) != 0 || out.Fallback || len(f.Calls()) != 0 {
			t.Errorf("%v %+v %d calls", got, out, len(f.Calls()))
		}
	})
	t.Run("server fails", func(t *testing.T) {
		o, _ := opsWith(t, ProviderOllama, fail500(ProviderOllama))
		got, out := o.TitleRelevance(context.Background(), "q", titles)
		wantFallback(t, out, OpTitleRelevance, true, "CUDA out of memory")
		if got != nil {
			t.Errorf("scores %v on failure", got)
		}
		if s, err := o.JudgeTitles(context.Background(), "q", titles); s != nil || papertree.ErrorCode(err) != papertree.ELLM ||
			!strings.Contains(papertree.ErrorMessage(err), "CUDA out of memory") {
			t.Errorf("JudgeTitles on failure: %v %v", s, err)
		}
	})
	t.Run("JudgeTitles passes scores", func(t *testing.T) {
		o, _ := opsWith(t, ProviderOpenAI, replyContent(ProviderOpenAI, `{"scores": [0.2, 0.9, 0.5, 0]}`))
		if s, err := o.JudgeTitles(context.Background(), "q", titles); err != nil || fmt.Sprint(s) != "[0.2 0.9 0.5 0]" {
			t.Errorf("%v %v", s, err)
		}
	})
}

func TestDecompose(t *testing.T) {
	const q = "Which datasets was ViT pre-trained on, and which papers introduced them?"
	cases := []struct {
		name, content string
		hops          int
		want          []string
		fallback      bool
		reason        string
	}{
		{"json", `{"subqueries": ["Which datasets was ViT pre-trained on?", "Which paper introduced each dataset?"]}`, 3,
			[]string{"Which datasets was ViT pre-trained on?", "Which paper introduced each dataset?"}, false, ""},
		{"capped at hops, deduped", `{"sub_queries": ["A?", "a?", "B?", "C?", "D?"]}`, 3, []string{"A?", "B?", "C?"}, false, ""},
		{"objects in a fence", "```json\n[{\"question\": \"A?\"}, {\"question\": \"B?\"}]\n```", 3, []string{"A?", "B?"}, false, ""},
		{"numbered list", "Sub-questions:\n1. Which datasets was ViT pre-trained on?\n2) Who introduced ImageNet-21k?\n", 3,
			[]string{"Which datasets was ViT pre-trained on?", "Who introduced ImageNet-21k?"}, false, ""},
		{"prose: whole output is the query", "Find the pre-training datasets of ViT and their original papers.", 3,
			[]string{"Find the pre-training datasets of ViT and their original papers."}, true, "using it whole"},
		{"json without list", `{"answer": 42}`, 3, []string{q}, true, "no sub-queries"},
		{"empty", "", 3, []string{q}, true, "empty output"},
	}
	for _, kind := range kinds {
		for _, tc := range cases {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				o, f := opsWith(t, kind, replyContent(kind, tc.content))
				got, out := o.Decompose(context.Background(), q, tc.hops)
				wantFallback(t, out, OpDecompose, tc.fallback, tc.reason)
				if !reflect.DeepEqual(got, tc.want) {
					t.Errorf("sub-queries %q, want %q", got, tc.want)
				}
				checkChat(t, kind, f.Calls()[0], false, true, "Question: "+q, "at most 3 sub-questions")
			})
		}
	}
	t.Run("one hop needs no call", func(t *testing.T) {
		o, f := opsWith(t, ProviderOpenAI, fail500(ProviderOpenAI))
		if got, out := o.Decompose(context.Background(), q, 1); !reflect.DeepEqual(got, []string{q}) || out.Fallback || len(f.Calls()) != 0 {
			t.Errorf("%q %+v", got, out)
		}
	})
	t.Run("server fails", func(t *testing.T) {
		o, _ := opsWith(t, ProviderOpenAI, fail500(ProviderOpenAI))
		got, out := o.Decompose(context.Background(), q, 3)
		wantFallback(t, out, OpDecompose, true, "HTTP 500")
		if !reflect.DeepEqual(got, []string{q}) {
			t.Errorf("%q", got)
		}
	})
}

func TestExtractEntities(t *testing.T) {
	const text = "ViT is pre-trained on ImageNet, ImageNet-21k and JFT-300M, then fine-tuned on CIFAR-10."
	cases := []struct {
		name, content string
		want          []string
		fallback      bool
		reason        string
	}{
		{"threshold, hallucination and duplicates", `{"entities": [{"name": "JFT-300M", "confidence": 0.8}, {"name": "ImageNet-21k", "confidence": 0.95},
			{"name": "CIFAR-10", "confidence": 0.3}, {"name": "ResNet-50", "confidence": 0.99}, {"name": "imagenet-21K", "confidence": 0.9}]}`,
			[]string{"ImageNet-21k", "JFT-300M"}, false, ""},
		{"strings count as confident", "```json\n{\"entities\": [\"ImageNet\", \"CIFAR-10\"]}\n```", []string{"ImageNet", "CIFAR-10"}, false, ""},
		{"none found is not a fallback", `{"entities": []}`, []string{}, false, ""},
		{"string confidence", `{"entities": [{"name": "ViT", "confidence": "0.7"}, {"name": "ImageNet", "confidence": "n/a"}]}`, []string{"ViT"}, false, ""},
		{"not JSON", "ImageNet, JFT-300M", nil, true, "not JSON"},
		{"no list", `{"result": "ImageNet"}`, nil, true, "no entity list"},
	}
	for _, kind := range kinds {
		for _, tc := range cases {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				o, f := opsWith(t, kind, replyContent(kind, tc.content))
				got, out := o.ExtractEntitiesFor(context.Background(), text, "Which paper introduced each dataset?", 0.5)
				wantFallback(t, out, OpEntities, tc.fallback, tc.reason)
				if len(got) != len(tc.want) || (len(got) > 0 && !reflect.DeepEqual(got, tc.want)) {
					t.Errorf("entities %q, want %q", got, tc.want)
				}
				checkChat(t, kind, f.Calls()[0], false, true, "Next question: Which paper introduced each dataset?", "JFT-300M, then fine-tuned")
			})
		}
	}
	t.Run("server fails", func(t *testing.T) {
		o, _ := opsWith(t, ProviderOllama, fail500(ProviderOllama))
		got, out := o.ExtractEntities(context.Background(), text, 0.5)
		wantFallback(t, out, OpEntities, true, "HTTP 500")
		if got != nil {
			t.Errorf("%q", got)
		}
	})
}

func TestTransformMultiDoc(t *testing.T) {
	const q = "Please analyze the research motivations presented in these papers and their interrelationships"
	const want = "What is the research motivation of this paper?"
	cases := []struct {
		name, content, want string
		fallback            bool
		reason              string
	}{
		{"json", `{"question": "What is the research motivation of this paper?"}`, want, false, ""},
		{"fenced json", "```json\n{\"query\": \"What is the research motivation of this paper?\"}\n```", want, false, ""},
		{"labelled plain text", "Rewritten question: \"What is the research motivation of this paper?\"\n\nThis keeps the intent.", want, false, ""},
		{"empty", "", q, true, "empty output"},
		{"json without question", `{"n": 1}`, q, true, "no question"},
		{"rambling", strings.Repeat("This is not a question. ", 60), q, true, "too long"},
	}
	for _, kind := range kinds {
		for _, tc := range cases {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				o, f := opsWith(t, kind, replyContent(kind, tc.content))
				got, out := o.TransformMultiDoc(context.Background(), q)
				wantFallback(t, out, OpMultiDocRewrite, tc.fallback, tc.reason)
				if got != tc.want {
					t.Errorf("%q, want %q", got, tc.want)
				}
				checkChat(t, kind, f.Calls()[0], false, true, "Question about several papers: "+q, "this paper")
			})
		}
	}
	t.Run("server fails", func(t *testing.T) {
		o, _ := opsWith(t, ProviderOpenAI, fail500(ProviderOpenAI))
		got, out := o.TransformMultiDoc(context.Background(), q)
		wantFallback(t, out, OpMultiDocRewrite, true, "HTTP 500")
		if got != q {
			t.Errorf("%q", got)
		}
	})
}

var testEvidence = []EvidenceRef{
	{Marker: "[1]", PaperTitle: "An Image is Worth 16x16 Words", Path: []string{"An Image is Worth 16x16 Words", "4 Experiments", "4.1 Setup"},
		Summary: "Datasets used for pre-training.", Text: "We pre-train on ImageNet, ImageNet-21k and JFT-300M."},
	{Marker: "[2]", PaperTitle: "An Image is Worth 16x16 Words", Path: []string{"An Image is Worth 16x16 Words", "4 Experiments", "4.2 Results"},
		Text: "ViT-H/14 reaches 88.55% on ImageNet."},
	{Marker: "[3]", PaperTitle: "BERT", Path: []string{"BERT", "3 BERT", "3.1 Pre-training"}, Text: "We use BooksCorpus and English Wikipedia."},
}

func TestAnswer(t *testing.T) {
	cases := []struct {
		name, content string
		want          AnswerOutput
	}{
		{"plain markers", "ViT is pre-trained on ImageNet-21k and JFT-300M [1] and reaches 88.55% [2].",
			AnswerOutput{Text: "ViT is pre-trained on ImageNet-21k and JFT-300M [1] and reaches 88.55% [2].", Citations: []int{0, 1}}},
		{"grouped, adjacent and ranged markers", "BERT uses Wikipedia [3]; ViT uses JFT-300M [1, 2] and ImageNet [2][1] across papers [1-3].",
			AnswerOutput{Text: "BERT uses Wikipedia [3]; ViT uses JFT-300M [1, 2] and ImageNet [2][1] across papers [1-3].", Citations: []int{2, 0, 1}}},
		{"unknown markers dropped and counted", "ViT uses JFT-300M [7]. It reaches 88.55% [2, 9] on ImageNet [1][8].",
			AnswerOutput{Text: "ViT uses JFT-300M. It reaches 88.55% [2] on ImageNet [1].", Citations: []int{1, 0}, UnknownCitations: 3}},
		{"brackets that are not citations", "Tokens like [CLS] and the interval [0.5, 1] stay; equation (1) is not a citation [2].",
			AnswerOutput{Text: "Tokens like [CLS] and the interval [0.5, 1] stay; equation (1) is not a citation [2].", Citations: []int{1}}},
		{"not found sentinel", "NOT FOUND: the evidence does not say which GPUs were used.",
			AnswerOutput{Text: "the evidence does not say which GPUs were used.", NotFound: true}},
		{"bold not found", "**NOT_FOUND**: no hardware details.", AnswerOutput{Text: "no hardware details.", NotFound: true}},
		{"implicit not found", "The provided evidence does not mention the training hardware.",
			AnswerOutput{Text: "The provided evidence does not mention the training hardware.", NotFound: true}},
		{"think block hidden", "<think>Look at [1] and [5].</think>\nJFT-300M [1].", AnswerOutput{Text: "JFT-300M [1].", Citations: []int{0}}},
		{"unclosed bracket", "The answer is in [1 and more text", AnswerOutput{Text: "The answer is in [1 and more text"}},
	}
	for _, kind := range kinds {
		for _, tc := range cases {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				o, f := opsWith(t, kind, replyContent(kind, tc.content))
				var streamed strings.Builder
				got, out := o.Answer(context.Background(), AnswerInput{Question: "Which datasets was ViT pre-trained on?", Evidence: testEvidence},
					func(s string) { streamed.WriteString(s) })
				wantFallback(t, out, OpAnswer, false, "")
				if got.Text != tc.want.Text || got.NotFound != tc.want.NotFound || got.UnknownCitations != tc.want.UnknownCitations ||
					fmt.Sprint(got.Citations) != fmt.Sprint(tc.want.Citations) {
					t.Errorf("answer %+v\nwant   %+v", got, tc.want)
				}
				if !tc.want.NotFound && strings.TrimSpace(streamed.String()) != got.Text {
					t.Errorf("streamed %q differs from the final text %q", streamed.String(), got.Text)
				}
				checkChat(t, kind, f.Calls()[0], true, false, "Question: Which datasets was ViT pre-trained on?",
					"[1] Paper: An Image is Worth 16x16 Words", "Path: An Image is Worth 16x16 Words > 4 Experiments > 4.1 Setup",
					"Summary: Datasets used for pre-training.", "Text: We use BooksCorpus and English Wikipedia.", "[3] Paper: BERT", "NOT FOUND:")
			})
		}
	}
}

func TestAnswerFallbacks(t *testing.T) {
	q := AnswerInput{Question: "q", Evidence: testEvidence}
	t.Run("markers default to positions", func(t *testing.T) {
		o, f := opsWith(t, ProviderOpenAI, replyContent(ProviderOpenAI, "B [2], C [3], none [4]."))
		ev := []EvidenceRef{{Text: "a"}, {Marker: "2", Text: "b"}, {Marker: "[3]", Text: "c"}}
		got, out := o.Answer(context.Background(), AnswerInput{Question: "q", Evidence: ev}, nil)
		if out.Fallback || got.Text != "B [2], C [3], none." || fmt.Sprint(got.Citations) != "[1 2]" || got.UnknownCitations != 1 {
			t.Errorf("%+v %+v", got, out)
		}
		checkChat(t, ProviderOpenAI, f.Calls()[0], true, false, "[1] Paper:", "[2] Paper:", "[3] Paper:")
	})
	t.Run("no evidence", func(t *testing.T) {
		o, f := opsWith(t, ProviderOpenAI, replyContent(ProviderOpenAI, "x [1]"))
		_, out := o.Answer(context.Background(), AnswerInput{Question: "q"}, nil)
		wantFallback(t, out, OpAnswer, true, "no evidence")
		if len(f.Calls()) != 0 {
			t.Error("called the LLM without evidence")
		}
	})
	t.Run("server fails", func(t *testing.T) {
		o, _ := opsWith(t, ProviderOllama, fail500(ProviderOllama))
		got, out := o.Answer(context.Background(), q, nil)
		wantFallback(t, out, OpAnswer, true, "HTTP 500")
		if got.Text != "" || papertree.ErrorCode(out.Err) != papertree.ELLM {
			t.Errorf("%+v %v", got, out.Err)
		}
	})
	t.Run("only unknown citations leave nothing", func(t *testing.T) {
		o, _ := opsWith(t, ProviderOpenAI, replyContent(ProviderOpenAI, " [7][8] "))
		_, out := o.Answer(context.Background(), q, nil)
		wantFallback(t, out, OpAnswer, true, "empty")
	})
	for _, kind := range kinds {
		t.Run(kind+"/stream dies midway", func(t *testing.T) {
			o, _ := opsWith(t, kind, func(w http.ResponseWriter, r *http.Request, c call, n int) {
				body := streamBody(kind, []string{"ViT uses ", "JFT-300M [1] and "}, 1, 1)
				cut := strings.Index(body, "and ") + 8
				writeChunked(w, body[:cut], 16) // then the connection ends
			})
			var streamed strings.Builder
			got, out := o.Answer(context.Background(), q, func(s string) { streamed.WriteString(s) })
			wantFallback(t, out, OpAnswer, true, "LLM call failed")
			if got.Text != "" || !strings.Contains(streamed.String(), "ViT uses") {
				t.Errorf("got %+v after streaming %q", got, streamed.String())
			}
		})
	}
}

// The filter must give the same text however the stream is cut.
func TestCiteFilterSplitInvariant(t *testing.T) {
	known := map[int]int{1: 0, 2: 1, 3: 2}
	inputs := []string{
		"A [1] b [2, 7] c [9] d [1][2] e [1-3] f [CLS] g (1) h [ 3 ] i.",
		"  <think>hidden [4]</think>  Visible [3] [x [1] y",
		"<thi", "[", "[12", "end with space [5] ",
	}
	for _, in := range inputs {
		whole := newCiteFilter(known, nil)
		whole.write(in)
		whole.flush()
		for _, n := range []int{1, 2, 3, 5} {
			f := newCiteFilter(known, nil)
			for _, p := range splitRunes(in, n) {
				f.write(p)
			}
			f.flush()
			if f.text.String() != whole.text.String() || f.unknown != whole.unknown || fmt.Sprint(f.cited) != fmt.Sprint(whole.cited) {
				t.Errorf("%q split by %d: %q (unknown %d) vs whole %q (unknown %d)", in, n, f.text.String(), f.unknown, whole.text.String(), whole.unknown)
			}
		}
	}
	f := newCiteFilter(known, nil)
	f.write(inputs[0])
	f.flush()
	if got := f.text.String(); got != "A [1] b [2] c d [1][2] e [1-3] f [CLS] g (1) h [ 3 ] i." || f.unknown != 2 {
		t.Errorf("filtered %q unknown %d", got, f.unknown)
	}
}

func TestExtractJSON(t *testing.T) {
	cases := map[string]string{
		`{"a": 1}`:                                    `map[a:1]`,
		"```json\n{\"a\": [1, 2,]}\n```":              `map[a:[1 2]]`,
		"Sure! {\"a\": \"}\"} and {\"b\": 2}":         `map[a:}]`,
		"<think>{\"wrong\": 1}</think> {\"right\":2}": `map[right:2]`,
		"text [not json] then [1, 2]":                 `[1 2]`,
	}
	for in, want := range cases {
		v, err := extractJSON(in)
		if err != nil || fmt.Sprint(v) != want {
			t.Errorf("extractJSON(%q) = %v, %v; want %s", in, v, err, want)
		}
	}
	for _, bad := range []string{"", "no json here", "{\"a\": ", "```\nplain\n```"} {
		if _, err := extractJSON(bad); err == nil {
			t.Errorf("extractJSON(%q) succeeded", bad)
		}
	}
}

func TestPromptsRender(t *testing.T) {
	for _, name := range []string{OpHeadingRelation, OpSummary, OpTitleRelevance, OpDecompose, OpEntities, OpMultiDocRewrite, OpAnswer, OpAutoRoute} {
		if prompts.Lookup(name+".system") == nil || prompts.Lookup(name+".user") == nil {
			t.Errorf("prompt %s lacks a system or user template", name)
		}
	}
}

func BenchmarkCiteFilter(b *testing.B) {
	known := map[int]int{1: 0, 2: 1, 3: 2}
	text := strings.Repeat("ViT is pre-trained on JFT-300M [1] and reaches 88.55% [2, 7] on ImageNet [3][9]. ", 40)
	pieces := splitRunes(text, 6)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		f := newCiteFilter(known, nil)
		for _, p := range pieces {
			f.write(p)
		}
		f.flush()
	}
}
