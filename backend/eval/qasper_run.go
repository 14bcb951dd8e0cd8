package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/answer"
	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/store"
	"github.com/papertree/papertree/backend/summarize"
)

// QasperOptions configure a QASPER run.
type QasperOptions struct {
	Strategy         string
	Budget           int
	Params           retrieve.Params
	Limit            int    // at most this many questions (0 = all)
	DBPath           string // index file to (re)use; "" = a temporary file
	Embedder         papertree.Embedder
	MaxSegmentTokens int
	Answer           answer.Options
	Predictions      io.Writer // official JSONL predictions, optional
	Progress         func(done, total int)
}

// TypeScore is answer F1 for one answer type.
type TypeScore struct {
	F1 float64 `json:"f1"`
	N  int     `json:"n"`
}

// QasperReport is the outcome of a QASPER run.
type QasperReport struct {
	Strategy       string               `json:"strategy"`
	Budget         int                  `json:"budget"`
	Params         retrieve.Params      `json:"params"`
	Papers         int                  `json:"papers"`
	Questions      int                  `json:"questions"`
	AnswerF1       float64              `json:"answer_f1"`
	AnswerF1ByType map[string]TypeScore `json:"answer_f1_by_type"`
	EvidenceF1     float64              `json:"evidence_f1"`      // all gold evidence
	EvidenceF1Text float64              `json:"evidence_f1_text"` // gold without figure/table evidence
	SectionEntropy float64              `json:"section_entropy"`  // mean over questions
	EACE           float64              `json:"eace"`             // mean over questions with text gold evidence; per question the best (lowest) over annotations, like F1's max
	EACEUnion      float64              `json:"eace_union"`       // the same against the union of all annotations' evidence
	EACEQuestions  int                  `json:"eace_questions"`
	EACEEpsilon    float64              `json:"eace_epsilon"`
	TokensUsed     float64              `json:"tokens_used_mean"`
	LatencyP50     float64              `json:"retrieval_ms_p50"`
	LatencyP95     float64              `json:"retrieval_ms_p95"`
	IndexSeconds   float64              `json:"index_seconds"`
	NotFound       int                  `json:"not_found"`
	// "Not in these papers" against the questions most annotators marked
	// unanswerable, and offline yes/no verdicts against boolean questions.
	Unanswerable      int     `json:"unanswerable"`
	NotFoundPrecision float64 `json:"not_found_precision"`
	NotFoundRecall    float64 `json:"not_found_recall"`
	Boolean           int     `json:"boolean"`
	VerdictPrecision  float64 `json:"verdict_precision"`
	VerdictCoverage   float64 `json:"verdict_coverage"`
	// Diagnostics of stage 1 and of the ranking, over questions with text gold evidence:
	SectionHit float64 `json:"section_hit"` // share where a chosen section contains gold evidence (pt-rag)
	TopHit     float64 `json:"top_hit"`     // share where the best-scored evidence item is gold
}

// qasperIndexed is one stored QASPER paper.
type qasperIndexed struct {
	q     *QasperPaper
	id    int64
	para  map[int64]string  // node id -> original paragraph string
	nodes map[int64]int64   // leaf node id -> its section id
	anc   map[int64][]int64 // leaf node id -> ids of all its ancestors
	tok   map[int64]int     // leaf node id -> tokens
}

// RunQasper indexes QASPER papers from their full_text (no PDF parsing),
// answers every question with the chosen strategy and scores the answers and
// the evidence with the official metrics.
func RunQasper(ctx context.Context, dataPath string, opts QasperOptions) (*QasperReport, error) {
	papers, err := LoadQasper(dataPath)
	if err != nil {
		return nil, err
	}
	if opts.Embedder == nil {
		opts.Embedder = embedding.NewBuiltin()
	}
	if opts.MaxSegmentTokens <= 0 {
		opts.MaxSegmentTokens = 512
	}
	if opts.Budget <= 0 {
		opts.Budget = retrieve.DefaultBudget
	}
	if opts.Params == (retrieve.Params{}) {
		opts.Params = retrieve.DefaultParams()
	}
	if opts.Answer.MaxSentences == 0 {
		opts.Answer = answer.DefaultOptions()
	}
	strat, err := retrieve.Get(opts.Strategy)
	if err != nil {
		return nil, err
	}
	if opts.Limit > 0 {
		n := 0
		for i, p := range papers {
			n += len(p.QAs)
			if n >= opts.Limit {
				papers = papers[:i+1]
				break
			}
		}
	}
	dbPath := opts.DBPath
	if dbPath == "" {
		dir, err := os.MkdirTemp("", "papertree-qasper-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		dbPath = filepath.Join(dir, "qasper.db")
	}
	st, err := store.Open(ctx, dbPath)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	t0 := time.Now()
	indexed, err := indexQasper(ctx, st, opts.Embedder, papers, opts.MaxSegmentTokens)
	if err != nil {
		return nil, err
	}
	rep := &QasperReport{Strategy: strat.Name(), Budget: opts.Budget, Params: opts.Params, Papers: len(indexed),
		AnswerF1ByType: map[string]TypeScore{}, EACEEpsilon: EACEEpsilon, IndexSeconds: time.Since(t0).Seconds()}
	ix := retrieve.NewStoreIndex(st, opts.Embedder, 0)
	total := 0
	for _, p := range indexed {
		total += len(p.q.QAs)
	}
	if opts.Limit > 0 && total > opts.Limit {
		total = opts.Limit
	}
	var lat []float64
	var secHits, topHits int
	var sumEACEUnion float64
	var sumAns, sumEv, sumEvText, sumSE, sumEACE, sumTok float64
	byType := map[string][]float64{}
	var enc *json.Encoder
	if opts.Predictions != nil {
		enc = json.NewEncoder(opts.Predictions)
		enc.SetEscapeHTML(false)
	}
	done := 0
	var nfRight, verdicts, verdictsRight int
	for _, p := range indexed {
		for _, qa := range p.q.QAs {
			if done >= total {
				break
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			ts := time.Now()
			q := query.Parse(qa.Question)
			res, err := strat.Retrieve(ctx, ix, retrieve.Request{Query: qa.Question, Question: q, PaperIDs: []int64{p.id}, Budget: opts.Budget, Params: opts.Params})
			if err != nil {
				return nil, fmt.Errorf("question %s: %w", qa.QuestionID, err)
			}
			lat = append(lat, float64(time.Since(ts).Microseconds())/1000)
			uses, err := retrieve.QuestionTermUse(ctx, ix, q, retrieve.EvidencePapers(res.Evidence))
			if err != nil {
				return nil, err
			}
			out, err := answer.Compose(ctx, opts.Embedder, answer.Input{Question: qa.Question, Q: q, Evidence: res.Evidence,
				Missing: res.Missing, MissingName: res.MissingName, Terms: res.Terms, Uses: uses, Scoped: true,
				Claims: answer.Claims{Holders: retrieve.WordHolders(ctx, ix), Scope: []int64{p.id}}}, opts.Answer)
			if err != nil {
				return nil, fmt.Errorf("answer %s: %w", qa.QuestionID, err)
			}
			notFound := out.NotFound
			pred := answer.StripMarkers(out.Text)
			switch {
			case notFound:
				pred = "Unanswerable"
				rep.NotFound++
			case out.Verdict == answer.VerdictYes:
				pred = "Yes"
			case out.Verdict == answer.VerdictNo:
				pred = "No"
			}
			// Gold: unanswerable when most annotators say so; boolean when
			// most give a yes/no answer.
			none, yes, no := 0, 0, 0
			for _, a := range qa.Answers {
				switch g, kind := GoldAnswer(a.Answer); {
				case kind == "none":
					none++
				case kind == "boolean" && strings.EqualFold(g, "yes"):
					yes++
				case kind == "boolean":
					no++
				}
			}
			goldNone := 2*none > len(qa.Answers)
			switch {
			case goldNone:
				rep.Unanswerable++
				if notFound {
					nfRight++
				}
			case 2*(yes+no) > len(qa.Answers):
				rep.Boolean++
				gold := "yes"
				if no > yes {
					gold = "no"
				}
				if out.Verdict == answer.VerdictYes || out.Verdict == answer.VerdictNo {
					verdicts++
					if out.Verdict == gold {
						verdictsRight++
					}
				}
			}
			var predEv []string
			seen := map[string]bool{}
			for _, e := range res.Evidence {
				if s, ok := p.para[e.NodeID]; ok && !seen[s] {
					seen[s] = true
					predEv = append(predEv, s)
				}
			}
			if enc != nil {
				if predEv == nil {
					predEv = []string{}
				}
				row := map[string]any{"question_id": qa.QuestionID, "predicted_answer": pred, "predicted_evidence": predEv}
				row["signals"] = out.Signals // diagnostics for calibration
				if out.Verdict != "" {
					row["verdict"], row["verdict_text"] = out.Verdict, out.Text
				}
				if out.Reason != "" {
					row["not_found_reason"] = out.Reason // diagnostics; the official scorer ignores it
				}
				if err := enc.Encode(row); err != nil {
					return nil, err
				}
			}
			// Official scoring: max over annotations; the answer type is
			// that of the best-matching annotation.
			bestF1, bestType := -1.0, "none"
			bestEv, bestEvText := 0.0, 0.0
			goldText := map[string]bool{}
			for _, a := range qa.Answers {
				g, kind := GoldAnswer(a.Answer)
				if f := TokenF1(pred, g); f > bestF1 {
					bestF1, bestType = f, kind
				}
				bestEv = max(bestEv, EvidenceF1(predEv, a.Answer.Evidence))
				textGold := WithoutFloats(a.Answer.Evidence)
				bestEvText = max(bestEvText, EvidenceF1(predEv, textGold))
				for _, s := range textGold {
					goldText[strings.Join(strings.Fields(s), " ")] = true
				}
			}
			if bestF1 < 0 {
				bestF1 = 0
			}
			sumAns += bestF1
			byType[bestType] = append(byType[bestType], bestF1)
			sumEv += bestEv
			sumEvText += bestEvText
			sumSE += res.Diag.SectionEntropy
			sumTok += float64(res.Diag.TokensUsed)
			if g := p.goldShares(goldText); len(g) > 0 {
				r := retrieve.SectionShares(res.Evidence)
				sumEACEUnion += EACE(g, r)
				best := -1.0
				for _, a := range qa.Answers {
					ann := map[string]bool{}
					for _, s := range WithoutFloats(a.Answer.Evidence) {
						ann[strings.Join(strings.Fields(s), " ")] = true
					}
					if ga := p.goldShares(ann); len(ga) > 0 {
						if e := EACE(ga, r); best < 0 || e < best {
							best = e
						}
					}
				}
				sumEACE += best
				rep.EACEQuestions++
				chosen := map[int64]bool{}
				for _, sc := range res.Sections {
					if sc.Chosen {
						chosen[sc.NodeID] = true
					}
				}
				hit := false
				for id, s := range p.para {
					if !goldText[strings.Join(strings.Fields(s), " ")] {
						continue
					}
					for _, a := range p.anc[id] {
						hit = hit || chosen[a]
					}
				}
				if hit {
					secHits++
				}
				if len(res.Evidence) > 0 {
					top := res.Evidence[0]
					for _, e := range res.Evidence {
						if e.Score > top.Score {
							top = e
						}
					}
					if goldText[strings.Join(strings.Fields(p.para[top.NodeID]), " ")] {
						topHits++
					}
				}
			}
			done++
			if opts.Progress != nil {
				opts.Progress(done, total)
			}
		}
	}
	rep.Questions = done
	if rep.NotFound > 0 {
		rep.NotFoundPrecision = r4(float64(nfRight) / float64(rep.NotFound))
	}
	if rep.Unanswerable > 0 {
		rep.NotFoundRecall = r4(float64(nfRight) / float64(rep.Unanswerable))
	}
	if verdicts > 0 {
		rep.VerdictPrecision = r4(float64(verdictsRight) / float64(verdicts))
	}
	if rep.Boolean > 0 {
		rep.VerdictCoverage = r4(float64(verdicts) / float64(rep.Boolean))
	}
	if done > 0 {
		n := float64(done)
		rep.AnswerF1, rep.EvidenceF1, rep.EvidenceF1Text = r4(sumAns/n), r4(sumEv/n), r4(sumEvText/n)
		rep.SectionEntropy, rep.TokensUsed = r4(sumSE/n), r4(sumTok/n)
	}
	if rep.EACEQuestions > 0 {
		n := float64(rep.EACEQuestions)
		rep.EACEUnion = r4(sumEACEUnion / n)
		rep.EACE, rep.SectionHit, rep.TopHit = r4(sumEACE/n), r4(float64(secHits)/n), r4(float64(topHits)/n)
	}
	for k, v := range byType {
		s := 0.0
		for _, x := range v {
			s += x
		}
		rep.AnswerF1ByType[k] = TypeScore{F1: r4(s / float64(len(v))), N: len(v)}
	}
	rep.LatencyP50, rep.LatencyP95 = r4(Percentile(lat, 50)), r4(Percentile(lat, 95))
	return rep, nil
}

// goldShares is g(s): the share of gold evidence tokens per section.
func (p *qasperIndexed) goldShares(gold map[string]bool) map[int64]float64 {
	g := map[int64]float64{}
	total := 0.0
	for id, s := range p.para {
		if gold[strings.Join(strings.Fields(s), " ")] {
			t := float64(p.tok[id])
			g[p.nodes[id]] += t
			total += t
		}
	}
	for k := range g {
		g[k] /= total
	}
	return g
}

// indexQasper stores the QASPER papers (summaries and vectors included),
// reusing papers already in the store from an earlier run.
func indexQasper(ctx context.Context, st *store.Store, emb papertree.Embedder, papers []*QasperPaper, maxTok int) ([]*qasperIndexed, error) {
	if _, err := st.EnsureEmbedder(ctx, emb.Name(), emb.Dim()); err != nil {
		return nil, err
	}
	fp := fmt.Sprintf("qasper-m%d-%s", maxTok, emb.Name())
	var out []*qasperIndexed
	for _, q := range papers {
		qt := BuildQasperTree(q, maxTok)
		var id int64
		if info, err := st.PaperByPath(ctx, qt.Paper.Path); err == nil && info.Fingerprint == fp && info.Status == store.StatusReady && !info.Stale {
			stored, err := st.LoadPaper(ctx, info.ID)
			if err != nil {
				return nil, err
			}
			id = info.ID
			copyIDs(stored.Root, qt.Paper.Root)
		} else {
			summarize.Paper(qt.Paper)
			vecs, err := embedding.EmbedPaper(ctx, emb, qt.Paper)
			if err != nil {
				return nil, err
			}
			if id, err = st.SavePaper(ctx, qt.Paper, store.Vectors(vecs), fp); err != nil {
				return nil, err
			}
		}
		if err := retrieve.EnsureSignals(ctx, st, id); err != nil {
			return nil, err
		}
		ix := &qasperIndexed{q: q, id: id, para: map[int64]string{}, nodes: map[int64]int64{}, tok: map[int64]int{}, anc: map[int64][]int64{}}
		qt.Paper.Root.Walk(func(path []*papertree.Node) bool {
			n := path[len(path)-1]
			if n.IsLeaf() {
				ix.para[n.ID] = qt.Para[n.Order]
				ix.nodes[n.ID] = path[len(path)-2].ID
				ix.tok[n.ID] = n.Tokens
				for _, a := range path[:len(path)-1] {
					ix.anc[n.ID] = append(ix.anc[n.ID], a.ID)
				}
			}
			return true
		})
		out = append(out, ix)
	}
	return out, nil
}

// copyIDs copies node ids from a stored tree onto a freshly built one of the
// same shape (both in document order).
func copyIDs(from, to *papertree.Node) {
	var ids []int64
	from.Walk(func(p []*papertree.Node) bool { ids = append(ids, p[len(p)-1].ID); return true })
	i := 0
	to.Walk(func(p []*papertree.Node) bool {
		if i < len(ids) {
			p[len(p)-1].ID = ids[i]
		}
		i++
		return true
	})
}

func r4(x float64) float64 { return float64(int64(x*1e4+0.5)) / 1e4 }

// WriteTable prints a QASPER report for people.
func (r *QasperReport) WriteTable(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "QASPER  strategy=%s  budget=%d  papers=%d  questions=%d\n", r.Strategy, r.Budget, r.Papers, r.Questions)
	fmt.Fprintf(&b, "  answer F1            %.4f\n", r.AnswerF1)
	types := make([]string, 0, len(r.AnswerF1ByType))
	for k := range r.AnswerF1ByType {
		types = append(types, k)
	}
	sort.Strings(types)
	for _, k := range types {
		fmt.Fprintf(&b, "    %-18s %.4f  (n=%d)\n", k, r.AnswerF1ByType[k].F1, r.AnswerF1ByType[k].N)
	}
	fmt.Fprintf(&b, "  evidence F1          %.4f\n", r.EvidenceF1)
	fmt.Fprintf(&b, "  evidence F1 (text)   %.4f\n", r.EvidenceF1Text)
	fmt.Fprintf(&b, "  section entropy      %.4f\n", r.SectionEntropy)
	fmt.Fprintf(&b, "  EACE (eps=%g)      %.4f  (n=%d; best annotation)\n", r.EACEEpsilon, r.EACE, r.EACEQuestions)
	fmt.Fprintf(&b, "  EACE, union gold     %.4f\n", r.EACEUnion)
	fmt.Fprintf(&b, "  tokens used (mean)   %.1f / %d\n", r.TokensUsed, r.Budget)
	fmt.Fprintf(&b, "  not found            %d  (precision %.4f, recall %.4f on %d unanswerable)\n", r.NotFound, r.NotFoundPrecision, r.NotFoundRecall, r.Unanswerable)
	fmt.Fprintf(&b, "  yes/no verdicts      precision %.4f, coverage %.4f  (n=%d boolean)\n", r.VerdictPrecision, r.VerdictCoverage, r.Boolean)
	fmt.Fprintf(&b, "  chosen section hit   %.4f\n", r.SectionHit)
	fmt.Fprintf(&b, "  top evidence is gold %.4f\n", r.TopHit)
	fmt.Fprintf(&b, "  retrieval p50/p95    %.2f / %.2f ms\n", r.LatencyP50, r.LatencyP95)
	fmt.Fprintf(&b, "  index time           %.1f s\n", r.IndexSeconds)
	_, err := io.WriteString(w, b.String())
	return err
}
