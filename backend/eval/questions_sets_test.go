package eval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
	"github.com/papertree/papertree/backend/treebuild"
)

// The shipped question sets: the development set (written on ../shared/data/pdfs,
// which retrieval was tuned against), the held-out set (written on the silver
// PDFs; it has been used to choose between candidate settings) and the fresh
// set (the Zotero fixture's PDFs; never used to choose). All must load and be
// well formed.
var shippedSets = []struct {
	name, file         string
	minAnswerable      int
	minPapers, minNone int
	minSupportWords    int
}{
	// Two development supports are two-word phrases (hog-2, prroc-3); the
	// held-out set asks for a sentence or clause of at least 8 words.
	{"development", "testdata/questions-single.json", 60, 15, 15, 2},
	{"held-out", "testdata/questions-heldout.json", 60, 30, 18, 8},
	// Written on the three PDFs of the Zotero fixture, never used to
	// choose a setting.
	{"fresh", "testdata/questions-fresh.json", 18, 3, 5, 5},
	// Table questions: the support is a table row, the values its cells.
	// The first set was looked at while the table code was built; the
	// second was written before a later round of changes and is never
	// tuned on.
	{"tables", "testdata/questions-tables.json", 20, 7, 0, 2},
	{"tables-fresh", "testdata/questions-tables-fresh.json", 15, 12, 0, 2},
	// Yes/no questions on 20 papers of the 148-PDF library, written before
	// the verdict changes of issue 19 and never used to choose.
	{"yes/no fresh", "testdata/questions-yesno-fresh.json", 30, 15, 0, 8},
	// A second yes/no set on 8 papers no other set asks about, written
	// and measured before the verdict changes of its session.
	{"yes/no fresh2", "testdata/questions-yesno-fresh2.json", 24, 8, 0, 8},
	// A third yes/no set on 6 papers no other set asks about (OCR and
	// garbled layers among them), written and measured before the verdict
	// precision changes of its session; never tuned on.
	{"yes/no fresh3", "testdata/questions-yesno-fresh3.json", 24, 6, 0, 8},
	// A fourth yes/no set on 9 papers no other yes/no set asks about (all
	// three folders), written and measured before the verdict changes of
	// its session, then tuned on.
	{"yes/no fresh4", "testdata/questions-yesno-fresh4.json", 30, 9, 0, 5},
	// A sixth yes/no set (negative, contrastive and stance phrasings) on 9
	// papers no other yes/no set asks about, written and measured before
	// the verdict changes of its session; never tuned on.
	{"yes/no fresh6", "testdata/questions-yesno-fresh6.json", 30, 9, 0, 5},
	// Scoped questions on development PDFs no other set asks about,
	// written for issue 19 and never used to choose a setting.
	{"scoped-fresh", "testdata/questions-scoped-fresh.json", 25, 10, 0, 8},
	// Library-wide questions naming no paper, on papers of all three
	// folders, written before the ranking changes of their session; the
	// first half may be tuned on, the second half is reported blind. The
	// Chinese support is one run of letters, so it counts as one word.
	{"library-noname", "testdata/questions-library-noname.json", 30, 30, 6, 1},
	// Scoped questions written to tune scoped support (issue 19) on 14
	// papers no never-tuned set asks about; tuned on.
	{"scoped-tune", "testdata/questions-scoped-tune.json", 35, 12, 0, 8},
	// The thirteenth session's blind set: factual, how/why, yes/no and
	// near-miss unanswerable questions on 27 papers of all three folders,
	// naming papers as researchers do (a third not at all), written before
	// that session's changes and only measured at its start and its end.
	{"blind13", "testdata/questions-blind13.json", 35, 24, 8, 3},
	// The fourteenth session's blind set, written the same way on 28
	// papers the other sets ask little or nothing about (10 near misses
	// on a named paper, 2 library-wide unanswerable questions); measured
	// only at that session's start and end, never tuned on.
	{"blind14", "testdata/questions-blind14.json", 41, 28, 12, 10},
	// The fifteenth session's blind set, written the same way on 27
	// papers the other sets ask least about (9 from each folder; Spanish,
	// French and German papers asked in their language; 8 paper-level
	// questions; 10 near misses on a named paper, 2 library-wide
	// unanswerable questions); measured only at that session's start and
	// end, never tuned on. One support is an author line of five words.
	{"blind15", "testdata/questions-blind15.json", 43, 27, 12, 5},
	// The sixteenth session's blind set, written the same way on 25
	// papers the other sets ask least about (8, 8 and 9 from the three
	// folders; a Spanish paper and German slides and thesis asked in their
	// language; 11 paper-level questions; 9 near misses on a named paper,
	// 3 library-wide unanswerable questions); measured only at that
	// session's start and end, never tuned on. One support is a four-word
	// "Received" line.
	{"blind16", "testdata/questions-blind16.json", 53, 25, 12, 3},
	// The seventeenth session's blind set, written the same way on 22
	// papers the other sets (blind16 included) ask least about (5, 8 and
	// 9 from the three folders; a German seminar paper asked in German;
	// paper-level questions on aims, authors, venues and dates; 9 near
	// misses on a named paper, 3 library-wide unanswerable questions);
	// measured only at that session's start and end, never tuned on. Two
	// supports are four-word "Received" lines.
	{"blind17", "testdata/questions-blind17.json", 53, 22, 12, 4},
	// Scoped questions paraphrasing their paper, on 18 papers of all three
	// folders, written before the retrieval changes of their session: the
	// first half (ids ending -a) may be tuned on, the second half (-b) is
	// reported blind.
	{"scoped-fresh2", "testdata/questions-scoped-fresh2.json", 36, 18, 0, 8},
	// Near misses (issue 19): unanswerable questions whose topic words the
	// library holds, each with the paper it is near, and answerable
	// controls phrased alike on the same papers; ids ending -a tuned on,
	// -b blind.
	{"nearmiss", "testdata/questions-nearmiss.json", 22, 16, 22, 4},
	// Library-wide questions naming their paper as researchers do (author
	// and year, first author, venue, nickname, "the paper that introduced
	// X", paraphrased title) on 45 papers of all three folders, written
	// before the naming changes of their session; ids ending -b are blind.
	{"naming", "testdata/questions-naming.json", 40, 25, 0, 3},
	// The fourteenth session's blind sets: yes/no questions on 9 papers no
	// other yes/no set asks about, and near misses with answerable
	// controls phrased alike on 15 papers nearmiss does not use.
	{"yesno-fresh7", "testdata/questions-yesno-fresh7.json", 28, 9, 0, 5},
	{"nearmiss2", "testdata/questions-nearmiss2.json", 14, 14, 14, 8},
	// The fifteenth session's yes/no set on 10 papers no other yes/no set
	// asks about (all three folders, two Spanish supports), written before
	// that session's verdict changes: ids ending -a tuned on, -b blind.
	{"yesno-fresh8", "testdata/questions-yesno-fresh8.json", 36, 10, 0, 5},
	// The sixteenth session's yes/no set on 12 papers no other yes/no set
	// asks about more than once (four from each folder), written before
	// that session's verdict changes: paraphrased predicates, negative
	// questions, contrastive deciding sentences; ids ending -a tuned on,
	// -b blind.
	{"yesno-fresh9", "testdata/questions-yesno-fresh9.json", 48, 12, 0, 5},
	// The seventeenth session's yes/no set on 20 papers of all three
	// folders, written before that session's verdict changes: deciding
	// sentences that say the predicate in other words or with the
	// opposite polarity (instead of, rather than, without, but not),
	// comparisons and quantities; ids ending -a tuned on, -b blind.
	{"yesno-fresh10", "testdata/questions-yesno-fresh10.json", 60, 20, 0, 5},
	// The eighteenth session's yes/no set on 19 papers of all three folders
	// that yes/no sets asked at most twice about, written before that
	// session's verdict changes: subjects described in the asker's words,
	// quantities with comparisons, contrast and negation on the paper's
	// side; ids ending -a tuned on, -b blind.
	{"yesno-fresh11", "testdata/questions-yesno-fresh11.json", 56, 19, 0, 5},
	// Library-wide questions naming their paper by description or not at
	// all, paraphrased, on 37 papers each: the blind set, and a tunable
	// probe written the same way on 37 other papers.
	{"library-noname2", "testdata/questions-library-noname2.json", 35, 35, 0, 6},
	{"library-probe", "testdata/questions-library-probe.json", 35, 35, 0, 6},
	// Paper-level questions (a paper's gist, its authors, venue, date or
	// DOI, and a detail asked under a nickname only its citers use) on 40
	// papers of all three folders, written without reading the code that
	// answers them; never tuned on. Detail supports are DOIs or author
	// lines, so a support may be one or three words.
	{"paperlevel", "testdata/questions-paperlevel.json", 40, 25, 0, 1},
	// Chinese questions on the one Chinese paper (factual, how/why, yes/no
	// and two near misses), written before the CJK ranking and absence
	// changes of their session; cjk-1..4 tuned on, cjk-5..8 blind. A
	// Chinese clause is one run of letters, so supports count few words.
	{"cjk", "testdata/questions-cjk.json", 6, 1, 2, 2},
	// Scoped questions paraphrasing their paper (how/why, findings, footnote
	// and appendix details, other word forms and general words) on 14
	// papers of all three folders the other sets ask little about, written
	// before the within-paper retrieval changes of their session; ids
	// ending -a tuned on, -b blind.
	{"scoped-fresh3", "testdata/questions-scoped-fresh3.json", 40, 14, 0, 8},
	// Library-wide questions naming their paper by description only ("the
	// study of X", a venue or a year) or not at all, on 46 papers of all
	// three folders the other sets ask least about, plus 6 out-of-library
	// unanswerable ones, written before the ranking changes of their
	// session: ids ending -a tuned on, -b blind. Supports are clauses of at
	// least 4 words.
	{"library-noname5", "testdata/questions-library-noname5.json", 46, 46, 6, 4},
	// Library-wide questions naming no paper (by description or not at
	// all) on 35 papers of all three folders, paraphrased with compounds
	// and nominalised verbs their papers do not print, and 12 near misses
	// whose topic words the library holds; written before the not-found
	// changes of their session: ids ending -a tuned on, -b blind.
	{"library-noname4", "testdata/questions-library-noname4.json", 35, 35, 12, 5},
	// Scoped questions naming their paper, on 14 other papers of all three
	// folders no scoped set asked about, most supports in long leaves;
	// written before the sixteenth session's retrieval changes; papers
	// alternate between the halves: ids ending -a tuned on, -b blind.
	{"scoped-fresh4", "testdata/questions-scoped-fresh4.json", 43, 14, 0, 6},
	// Library-wide questions naming no paper at all, on 37 papers of all
	// three folders (German and French ones asked in their language), in a
	// researcher's words with the evaluative or hedging words a reader adds
	// ("main weakness", "key idea", "classic"), plus 8 unanswerable ones
	// close to the library's topics; written before the not-found changes
	// of their session: ids ending -a tuned on, -b blind.
	{"library-noname6", "testdata/questions-library-noname6.json", 41, 37, 8, 5},
	// Library-wide questions naming no paper, session 18 (lw2): 37 papers
	// the other sets ask least about, written before that session's changes.
	{"library-noname7", "testdata/questions-library-noname7.json", 37, 37, 8, 5},
	// Scoped questions naming their paper, 3 on each of 14 papers of all
	// three folders the scoped sets had not asked about, a third of the
	// supports in an abstract or introduction; written before the
	// eighteenth session's retrieval changes; papers alternate between the
	// halves: ids ending -a tuned on, -b blind.
	{"scoped-fresh5", "testdata/questions-scoped-fresh5.json", 42, 14, 0, 8},
}

func TestShippedQuestionSetsAreWellFormed(t *testing.T) {
	for _, tc := range shippedSets {
		t.Run(tc.name, func(t *testing.T) {
			set, err := LoadQuestions(tc.file)
			if err != nil {
				t.Fatalf("%s does not load: %v", tc.file, err)
			}
			if strings.TrimSpace(set.About) == "" {
				t.Errorf("%s has no \"about\" saying how it was written", tc.file)
			}
			answerable, none := 0, 0
			papers := map[string]int{}
			for _, q := range set.Questions {
				switch q.Kind {
				case "factual", "howwhy", "yesno":
					answerable++
					papers[q.Paper]++
					if q.Unanswerable {
						t.Errorf("%s: kind %s but marked unanswerable", q.ID, q.Kind)
					}
					if !strings.HasSuffix(q.Paper, ".pdf") || strings.ContainsRune(q.Paper, '/') {
						t.Errorf("%s: paper %q is not a PDF file name", q.ID, q.Paper)
					}
					if n := len(wordsOf(q.Support)); n < tc.minSupportWords || n > 60 {
						t.Errorf("%s: support of %d words, want a sentence or clause", q.ID, n)
					}
					if q.Kind != "yesno" && q.Answer != "" {
						t.Errorf("%s: a %s question with a yes/no answer", q.ID, q.Kind)
					}
				case "unanswerable":
					none++
					if !q.Unanswerable || q.Support != "" || q.Answer != "" {
						t.Errorf("%s: unanswerable questions carry unanswerable=true and no support or answer", q.ID)
					}
				default:
					t.Errorf("%s: unknown kind %q", q.ID, q.Kind)
				}
			}
			if answerable < tc.minAnswerable || len(papers) < tc.minPapers || none < tc.minNone {
				t.Errorf("%d answerable questions over %d papers and %d unanswerable; want at least %d, %d, %d",
					answerable, len(papers), none, tc.minAnswerable, tc.minPapers, tc.minNone)
			}
		})
	}
}

// Every gold paper exists and every supporting sentence is in the text
// PaperTree itself extracts from it, so a support miss in `eval questions` is
// a retrieval miss, never a gold sentence the extractor cannot produce.
func TestHeldOutQuestionsMatchTheirPDFs(t *testing.T) {
	dir := shareddata.Dir(t, "silver", "pdfs")
	if testing.Short() {
		t.Skip("-short: the held-out supports are not checked against the PDFs")
	}
	set, err := LoadQuestions("testdata/questions-heldout.json")
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{}
	refused := map[string]bool{}
	for _, q := range set.Questions {
		if q.Paper == "" || refused[q.Paper] {
			continue
		}
		path := filepath.Join(dir, q.Paper)
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%s: gold paper %s is missing: %v", q.ID, q.Paper, err)
			continue
		}
		if q.Unanswerable {
			continue
		}
		text, ok := texts[q.Paper]
		if !ok {
			doc, err := pdf.Open(context.Background(), path, pdf.Options{})
			var p *papertree.Paper
			if err == nil {
				p, err = treebuild.Build(context.Background(), doc, treebuild.DefaultOptions())
			}
			if papertree.ErrorCode(err) == papertree.EGarbled {
				// PaperTree refuses this PDF; `eval questions` scores its
				// questions as misses. The gold was checked against pdftotext.
				t.Logf("%s: not checked, PaperTree refuses it: %v", q.Paper, err)
				texts[q.Paper] = ""
				refused[q.Paper] = true
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", q.Paper, err)
			}
			var b strings.Builder
			p.Root.Walk(func(path []*papertree.Node) bool {
				if n := path[len(path)-1]; n.IsLeaf() {
					b.WriteString(n.Text)
					b.WriteString("\n")
				}
				return true
			})
			text = b.String()
			texts[q.Paper] = text
		}
		if !Supports(text, q.Support) {
			t.Errorf("%s: support not in PaperTree's text of %s: %q", q.ID, q.Paper, q.Support)
		}
	}
}

// A gold paper that did not index is a miss in both modes, not an aborted run.
func TestRunQuestionsScoresUnindexedGoldPaperAsMiss(t *testing.T) {
	set := &QuestionSet{Questions: []Question{
		{ID: "ok", Kind: "factual", Paper: "a.pdf", Section: "Method", Question: "What rate?", Support: "The rate is 0.05."},
		{ID: "gone", Kind: "factual", Paper: "garbled.pdf", Section: "Method", Question: "What size?", Support: "The size is 12."},
	}}
	asked := map[string]int{}
	ask := func(_ context.Context, q string, ids []int64) (*papertree.Answer, error) {
		asked[q]++
		return &papertree.Answer{Text: "The rate is 0.05. [1]", Evidence: []papertree.Evidence{
			{PaperID: 1, Path: []string{"A", "3 Method"}, Text: "The rate is 0.05.", Score: 0.9}}}, nil
	}
	rep, err := RunQuestions(context.Background(), set, QuestionsOptions{Papers: map[string]int64{"a.pdf": 1}, Ask: ask})
	if err != nil {
		t.Fatalf("a gold paper missing from the library aborted the run: %v", err)
	}
	for _, s := range []QuestionScores{rep.Scoped, rep.Library} {
		if s.Answerable != 2 || s.PaperHit != 0.5 || s.SupportHit != 0.5 {
			t.Errorf("%s: answerable %d, paper hit %v, support hit %v; want 2, 0.5, 0.5", s.Mode, s.Answerable, s.PaperHit, s.SupportHit)
		}
	}
	if asked["What size?"] != 1 {
		t.Errorf("the question about the unindexed paper was asked %d times, want once (library-wide only)", asked["What size?"])
	}
	if len(rep.Unindexed) != 1 || rep.Unindexed[0] != "garbled.pdf" {
		t.Errorf("unindexed gold papers = %v", rep.Unindexed)
	}
	var b strings.Builder
	if err := rep.WriteTable(&b); err != nil || !strings.Contains(b.String(), "garbled.pdf") {
		t.Errorf("the table does not name the unindexed gold paper: %v\n%s", err, b.String())
	}
}
