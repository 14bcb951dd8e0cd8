// Package answer turns evidence into an answer whose citations resolve to
// evidence nodes. With no model configured the answer is extractive: the
// sentences of the evidence that best support the question, each followed by
// its citation marker [n] (n = 1-based position in the evidence list), and
// labelled as extractive. When the evidence is too weak the answer says
// plainly that the papers do not answer the question and shows what came
// closest.
//
// Data flow: retrieve -> answer -> report/app.
package answer

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
	"github.com/papertree/papertree/backend/retrieve"
)

// Options tune extractive answers.
type Options struct {
	// MaxSentences bounds the extractive answer.
	MaxSentences int
	// MaxTokens bounds the extractive answer's length.
	MaxTokens int
	// MaxMissing: when at least this share of the question's content words
	// appears in none of the searched papers, they are taken not to answer.
	MaxMissing float64
	// MinCoverage: when no evidence sentence holds at least this share of the
	// question's content words, the papers are taken not to answer.
	MinCoverage float64
	// KeyTerms > 0: when one of the question's KeyTerms most specific
	// content words (highest IDF) appears in none of the papers, they are
	// taken not to answer ("What dropout rate does GloVe use?" asked of a
	// paper that never mentions dropout). Off by default: on QASPER tune
	// KeyTerms 1 raised not-found recall 0.23 -> 0.34 but flagged 18% of the
	// answerable questions (precision 0.15), whose askers often use words
	// the paper does not; on our own set it raised not-found on unanswerable
	// questions 0.46 -> 0.64 (scoped) at 6% of answerable ones.
	KeyTerms int
	// LibraryKeyTerms > 0: KeyTerms for library-wide questions, with
	// specificity counted in the library itself: a content word of the
	// question that no paper of the library prints (checked against the
	// full-text index, see libraryNever) is its most specific word, and
	// the library does not answer it.
	LibraryKeyTerms int
	// Focus: when a word naming what the question asks for (the noun
	// phrase after "what", "which", "how many": "What dropout rate ...")
	// appears nowhere in the body text of the papers the evidence comes
	// from (bibliography excluded), they are taken not to answer. Measured
	// on QASPER tune: flags 22 more questions, 3 of them unanswerable
	// (precision 0.14, 1.6 times the base rate; 2.9% of the answerable
	// ones); on our own set it catches the named paper asked for a detail
	// it never gives (see README, "Trust in evidence").
	Focus bool
	// VerdictCoverage: a yes/no verdict is stated only when the deciding
	// sentence holds at least this share of the question's content words.
	VerdictCoverage float64
}

// DefaultOptions are calibrated on the QASPER tune split's unanswerable
// questions and our own real-PDF question set (see README, "Trust in
// evidence"): thresholds on general signals, never on single questions.
// Measured on QASPER tune (62 questions most annotators call unanswerable
// of 725): a name absent from the papers, or half of 3+ content words
// absent, flags 35 questions with precision 0.26 (the base rate is 0.09);
// best sentence coverage below 0.2 flagged only answerable questions, so
// MinCoverage is off. No floor on retrieval scores decides: a score says
// how well a passage matches, not whether the paper holds the answer (a
// question asked in Chinese of a Chinese paper scores low against the
// passage that answers it); every "not in these papers" rests on a
// checked fact of the index or of the evidence's sentences.
func DefaultOptions() Options {
	return Options{MaxSentences: 2, MaxTokens: 90, MaxMissing: 0.5, MinCoverage: 0, Focus: true, VerdictCoverage: 0.6, LibraryKeyTerms: 1}
}

// minTerms is the fewest content words a question needs before the share
// of them missing from the papers means anything: in a two-word question
// one paraphrase is half of it (QASPER tune: questions of 1-2 terms flagged
// by the share were answerable 4 times out of 5).
const minTerms = 3

// namedRowBonus lifts the table row whose label the question names over
// its neighbours, which share the caption and headers and differ in one
// character ("SST-1" and "SST-2": a digit the ratings do not count).
const namedRowBonus = 0.3

// NotFoundText opens every "not answered" reply about several papers or
// the library; NotFoundOneText one about the one paper the question is
// asked of (notFoundOpening).
const (
	NotFoundText    = "These papers do not seem to answer this question."
	NotFoundOneText = "This paper does not seem to answer this question."
)

// notFoundOpening opens a "not answered" reply in the number of the scope
// it speaks of: a question asked of one paper is not answered by "these
// papers".
func notFoundOpening(in Input) string {
	if len(in.Claims.Scope) == 1 {
		return NotFoundOneText
	}
	return NotFoundText
}

type sentence struct {
	ev   int // evidence index
	role papertree.Role
	// context is read with the text when the sentence is rated but never
	// quoted: a table row is rated with its table's caption ("c: Number of
	// target classes"), which its headers abbreviate.
	context string
	named   bool // a table row whose label the question names ("SST-2")
	pos     int  // position inside the evidence
	text    string
	score   float64
	tok     int
}

// Extractive builds an extractive answer from evidence. It returns the
// answer text with [n] markers, whether the evidence was judged too weak,
// and the cited evidence indexes (0-based).
func Extractive(ctx context.Context, emb papertree.Embedder, question string, ev []papertree.Evidence, opts Options) (string, bool, []int, error) {
	out, err := Compose(ctx, emb, Input{Question: question, Evidence: ev}, opts)
	return out.Text, out.NotFound, out.Cited, err
}

// Input is what an extractive answer is built from: the question, the
// evidence and retrieval's coverage signals (retrieve.Result's Missing,
// MissingName and Terms).
type Input struct {
	Question string
	// Q is Question read once (query.Parse); nil: parsed here.
	Q           *query.Question
	Evidence    []papertree.Evidence
	Missing     []string
	MissingName bool
	Terms       int
	// Uses says how the evidence's papers use the question's words
	// (retrieve.QuestionTermUse), most specific first; nil when unknown.
	Uses []retrieve.TermUse
	// Scoped: the question is asked of papers the user chose; the words
	// with which it refers to its paper ("the seq2seq paper", "Lee et
	// al.") then say nothing about what the paper holds.
	Scoped bool
	// Claims checks every word a reason says is missing against the
	// full-text index before the reason is shown (see Claims).
	Claims Claims
}

// Output is an extractive answer.
type Output struct {
	Text     string // with [n] markers
	NotFound bool
	Verdict  string // yes/no questions: "yes", "no" or "unclear"; else ""
	Cited    []int  // 0-based evidence indexes
	Reason   string // why the papers were judged not to answer (diagnostics)
	// Absent are the words Reason says are never mentioned, with the
	// papers each claim speaks of (checked by in.Claims).
	Absent []papertree.AbsenceClaim
	// The not-found signals, for calibration: the best evidence score and
	// the best sentence's share of the question's words.
	BestScore, BestCoverage float64
	// Signals are every signal the not-found decision weighs.
	Signals Signals
}

// Compose builds the extractive answer: the best answer-bearing sentences
// with citations, an honest "not in these papers" when the question's
// words are absent from the papers or the evidence is too weak, and for
// yes/no questions a verdict only when one sentence decides it.
func Compose(ctx context.Context, emb papertree.Embedder, in Input, opts Options) (Output, error) {
	if opts.MaxSentences <= 0 {
		opts = DefaultOptions()
	}
	question, ev := in.Question, in.Evidence
	q := in.Q
	if q == nil || q.Text != question {
		q = query.Parse(question)
	}
	kind := q.Kind
	verdictFor := func(o Output) Output {
		if kind == retrieve.KindYesNo && o.Verdict == "" {
			o.Verdict = VerdictUnclear
		}
		return o
	}
	if len(ev) == 0 {
		nothing := " Nothing in the searched papers matched it."
		if len(in.Claims.Scope) == 1 {
			nothing = " Nothing in it matched the question."
		}
		return verdictFor(Output{Text: notFoundOpening(in) + nothing, NotFound: true, Reason: "no evidence"}), nil
	}
	best := 0
	for i := range ev {
		if ev[i].Score > ev[best].Score {
			best = i
		}
	}
	var sents []sentence
	for i, e := range ev {
		if e.Kind == papertree.KindCaption {
			sents = append(sents, sentence{ev: i, pos: 0, text: e.Text, tok: papertree.CountTokens(e.Text)})
			continue
		}
		if e.Role == papertree.RoleTable {
			// A table is quoted a row at a time, with its headers
			// ("CNN-static: MR 81.0, SST-1 45.5, ...").
			rows := papertree.TableRowSentences(e.Text)
			c := papertree.ParseTable(e.Text).Caption
			for j, s := range rows {
				sents = append(sents, sentence{ev: i, pos: j, role: e.Role, text: s, context: c, tok: papertree.CountTokens(s),
					named: papertree.RowNamed(question, s)})
			}
			if c != "" {
				// the caption is prose: read like any sentence
				sents = append(sents, sentence{ev: i, pos: len(rows), text: c, tok: papertree.CountTokens(c)})
			}
			continue
		}
		for j, s := range papertree.SplitSentences(e.Text) {
			if len([]rune(s)) < 20 {
				continue
			}
			sents = append(sents, sentence{ev: i, pos: j, role: e.Role, text: s, tok: papertree.CountTokens(s)})
		}
	}
	if len(sents) == 0 {
		return verdictFor(Output{Text: notFoundOpening(in), NotFound: true, Reason: "no sentences"}), nil
	}
	texts := make([]string, len(sents))
	for i, s := range sents {
		texts[i] = strings.TrimSpace(s.text + " " + s.context)
	}
	qv, err := emb.EmbedQuery(ctx, question)
	if err != nil {
		return Output{}, err
	}
	vs, err := emb.Embed(ctx, texts)
	if err != nil {
		return Output{}, err
	}
	qterms := contentTerms(question)
	qstems := q.Terms
	quantity := asksQuantity(question)
	qwords := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(question)) {
		qwords[strings.Trim(w, ".,;:?!()\"'’")] = true
	}
	coverage := make([]float64, len(sents))
	wcov := make([]float64, len(sents))
	// The words with which the question names its paper ("In Hinton and
	// Salakhutdinov's Science paper") are not what an answer says: a
	// sentence rates by the rest (the author line is never the answer).
	rstems := withoutRefStems(q.Refs, qstems)
	rterms := map[string]bool{}
	refs := q.Refs
	for t := range qterms {
		if !refs[t] {
			rterms[t] = true
		}
	}
	if len(rterms) == 0 {
		rterms = qterms
	}
	stems := make([]map[string]bool, len(sents)) // each sentence's content stems
	for i, t := range texts {
		stems[i] = stemSet(t)
	}
	lcov := localCoverage(rstems, stems)
	// The words a question shares with its paper's title are the topic
	// every sentence of that paper is about: the question's vector is
	// closest to the sentences that restate the topic (the abstract's
	// "we show that HOG descriptors outperform ...") rather than to the
	// one that answers ("we use a linear SVM"). A sentence's similarity is
	// the mean of its cosine with the question as typed and with the
	// question without its paper's title words (untitled).
	uqv := map[string][]float32{}
	for _, e := range ev {
		if _, ok := uqv[e.PaperTitle]; ok {
			continue
		}
		uqv[e.PaperTitle] = qv
		if u := untitled(question, e.PaperTitle, q.Refs); u != "" {
			v, err := emb.EmbedQuery(ctx, u)
			if err != nil {
				return Output{}, err
			}
			uqv[e.PaperTitle] = v
		}
	}
	for i := range sents {
		sim := 0.0
		uv := uqv[ev[sents[i].ev].PaperTitle]
		for k := range qv {
			sim += (float64(qv[k]) + float64(uv[k])) / 2 * float64(vs[i][k])
		}
		// Sentence similarity, keyword overlap with the question, and the
		// retrieval score of the evidence it comes from.
		// The answer-bearing signal (SentenceScore: question terms plus a
		// number for factual questions, causal language for how/why ones)
		// prefers the sentence that answers over the one that restates.
		coverage[i] = retrieve.SentenceScore(qstems, "", texts[i])
		wcov[i] = coverageOf(qstems, stems[i])
		sents[i].score = sim + 0.25*overlap(rterms, contentTerms(texts[i])) + 0.3*ev[sents[i].ev].Score +
			0.2*retrieve.SentenceScore(rstems, kind, texts[i]) + localWeight*lcov[i]
		if sents[i].named {
			sents[i].score += namedRowBonus
		}
		if sents[i].tok > 80 {
			sents[i].score -= 0.05 // run-on "sentences" (tables, lists) make poor answers
		}
		if quantity && hasQuantity(texts[i], qwords) {
			sents[i].score += quantityBonus
		}
	}
	order := make([]int, len(sents))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return sents[order[a]].score > sents[order[b]].score })
	// Pseudo-code, table rows, equations and garbled text stay evidence but
	// are quoted only when no readable sentence holds any of the question's
	// words (papertree.Readable: a gate, not a weight).
	readable := make([]bool, len(sents))
	gate := false
	for i := range sents {
		// A table row read with its headers is a statement of the paper;
		// an equation or pseudo-code leaf never is.
		switch sents[i].role {
		case papertree.RoleTable:
			readable[i] = true
		case papertree.RoleFormula, papertree.RoleCode:
			readable[i] = false
		default:
			readable[i] = papertree.Readable(sents[i].text)
		}
		gate = gate || readable[i] && coverageOf(rstems, stems[i]) > 0
	}
	if gate {
		sort.SliceStable(order, func(a, b int) bool { return readable[order[a]] && !readable[order[b]] })
	}
	// The title, author, affiliation and venue lines say who wrote the
	// paper and where, never what it states: quoted for words of the
	// question they hold beyond those naming the paper ("Which university
	// ...": "University of Toronto"), never for those names while a
	// readable sentence of the evidence is there ("What does the Brandt
	// and Okafor paper propose?" quoted "Maria Brandt and Kenji Okafor
	// University of ..."). Prose the front matter still holds is read.
	byline := frontLines(q, sents, stems, rstems)
	bylineGate := false
	for i := range sents {
		bylineGate = bylineGate || readable[i] && !byline[i]
	}
	bylineGate = bylineGate && slices.Contains(byline, true)
	if bylineGate {
		for i := range sents {
			readable[i] = readable[i] && !byline[i]
		}
		sort.SliceStable(order, func(a, b int) bool { return !byline[order[a]] && byline[order[b]] })
	}
	quotable := func(i int) bool { return (!gate || readable[i]) && !(bylineGate && byline[i]) }

	bestCov := 0.0
	for _, c := range coverage {
		bestCov = max(bestCov, c)
	}
	evScores := make([]float64, len(ev))
	for i := range ev {
		evScores[i] = ev[i].Score
	}
	signals := signalsOf(in, sents, evScores, wcov, bestCov)
	// The words with which the question refers to a paper ("the AKBC 2019
	// paper", "the seq2seq paper") are never said missing, asked of a
	// paper or of the library: a paper need not print the name it is
	// called by (its venue's acronym, its nickname), so their absence from
	// the papers that match best says nothing of what those papers hold.
	missing, missingName, terms := withoutPaperRefs(q, in.Missing, in.Terms)
	// The reason is shown to the researcher: it speaks of "the paper" when
	// the question was asked of one.
	never, notIn := "the papers never mention ", "appear in none of the papers"
	if in.Scoped && len(retrieve.EvidencePapers(ev)) == 1 {
		never, notIn = "the paper never mentions ", "are not in the paper"
	}
	if len(in.Claims.Scope) == 1 && in.Claims.RefsOnly == nil && len(in.Uses) > 0 && (in.Scoped || in.Claims.Name != "") {
		// The term counts were read over that one paper (library.Ask).
		in.Claims.RefsOnly = func(w string) bool {
			ts := embedding.QueryTerms(strings.ToLower(w))
			for _, u := range in.Uses {
				if len(ts) > 0 && u.Stem == ts[0] {
					return u.Body == 0 && u.Refs > 0
				}
			}
			return false
		}
	}
	if in.Claims.Name != "" {
		never, notIn = in.Claims.Name+" never mentions ", "are not in "+in.Claims.Name
	}
	in.Claims.cites = query.CitationWords(question)
	in.Claims.german = embedding.GermanText(question)
	in.Claims.romance = !in.Claims.german && romanceText(question)
	if in.Claims.Name != "" && in.Claims.german {
		// A German question taken to name a paper whose passages are not
		// German ("Akitaya et al." named in a German thesis that cites
		// their English paper): the question's words are not the ones
		// that paper would print, so their absence from it says nothing.
		german := false
		for _, e := range ev {
			german = german || slices.Contains(in.Claims.Scope, e.PaperID) && embedding.GermanText(e.Text)
		}
		in.Claims.otherLanguage = !german
	}
	if files := in.Claims.Files; files != nil {
		// Read only when a claim is checked: most answers make none.
		var named map[string]bool
		in.Claims.filed = func(w string) bool {
			if named == nil {
				named = fileNamed(question, files())
			}
			return named[w]
		}
	}
	// Every word a reason says is missing is checked against the index
	// (in.Claims): said never mentioned only when the scope the reply
	// speaks of has no occurrence of it, said absent from the papers that
	// match best (and where it is) when only those lack it, and not said
	// at all otherwise. A claim left with no word is not made.
	// Each check runs only when its reason would be given on the words as
	// retrieval reported them (checking only removes words): most answers
	// look nothing up.
	var cl, clAll, clFocus, clNames claimed
	var said *claimed
	// A focus word most papers print is too general for its absence alone
	// to say the thing asked for is absent (Claims.general).
	focus := slices.DeleteFunc(surfaceWords(question, focusAbsent(in.Uses)), in.Claims.general)
	if topic := surfaceWords(question, heldTopic(in.Uses, 2)); !in.Scoped && len(focus) > 0 &&
		in.Claims.prints(ev[sents[order[0]].ev].PaperID, topic) {
		// Asked of the library, a focus word that no paper dwells on and
		// that the library never prints near what the question is about
		// (its most specific words the papers matching best print) is how
		// the question is put, not a thing those papers lack (offTopic),
		// when the passage closest to an answer comes from a paper that
		// prints what the question is about.
		focus = slices.DeleteFunc(focus, func(w string) bool { return in.Claims.offTopic(w, topic) })
	}
	if moot := tableAnswered(question, append(slices.Clone(missing), focus...), rstems, sents, stems, in.Claims.Holders); len(moot) > 0 {
		missing, focus = withoutWords(missing, moot), withoutWords(focus, moot)
	}
	nums, refNums := unheldNumbers(q, in.Claims, sents)
	reason := ""
	switch {
	case missingName && anyName(question, missing) && anyName(question, in.Claims.into(&cl, missing).words()):
		reason, said = cl.say(never, "", in.Claims), &cl
	case terms >= minTerms && float64(len(missing)) >= opts.MaxMissing*float64(terms) &&
		len(in.Claims.into(&cl, missing).words()) > 0 && float64(len(cl.words())) >= opts.MaxMissing*float64(terms):
		reason, said = cl.say("most of the question's words "+notIn+": ", "", in.Claims), &cl
	case opts.Focus && len(focus) > 0 && len(in.Claims.into(&clFocus, focus).words()) > 0:
		reason, said = clFocus.say(never, ", which the question asks about", in.Claims), &clFocus
	case opts.KeyTerms > 0 && missingKey(qstems, in.Missing, opts.KeyTerms) &&
		missingKey(qstems, in.Claims.into(&clAll, in.Missing).words(), opts.KeyTerms):
		reason, said = clAll.say("the question's most specific words "+notIn+": ", "", in.Claims), &clAll
	case papertree.MostlyCJK(question) && len(cjkWords(missing)) > 0 && len(in.Claims.into(&clAll, cjkWords(missing)).never) > 0:
		// A question written in Chinese or Japanese: its content words
		// (papertree.CJKContentWords) are what it asks about, and the
		// IDF that picks an English question's most specific words knows
		// none of them; one the scope prints nowhere (in the index) is
		// said never mentioned ("注意力机制").
		clAll = claimed{never: clAll.never}
		reason, said = clAll.say(never, ", which the question asks about", in.Claims), &clAll
	case opts.LibraryKeyTerms > 0 && !in.Scoped && in.Claims.Holders != nil && in.Claims.Scope == nil &&
		libraryNever(in, q, &clAll):
		reason, said = clAll.say("the question's most specific words "+notIn+": ", "", in.Claims), &clAll
	case !in.Scoped && in.Claims.Scope == nil && in.Claims.Holders != nil && len(q.Names) > 0 &&
		len(libraryWide(in.Claims.into(&clNames, printedNames(q.Names))).never) > 0:
		// A name the question uses ("Stable Diffusion") is a phrase its
		// words must make together: a library that holds "stable" and
		// "diffusion" apart never mentions it, and no passage answers
		// what is asked of it.
		clNames = libraryWide(clNames)
		reason, said = clNames.say(never, ", which the question asks about", in.Claims), &clNames
	case !in.Scoped && in.Claims.Scope == nil && in.Claims.Holders != nil &&
		len(libraryWide(in.Claims.into(&clNames, scatteredCompounds(q, in.Uses, in.Claims))).never) > 0:
		// A compound the question asks about ("radiation dosage", "robot
		// arm") is a phrase too: a library that prints its words only
		// apart, in passages about other things, never mentions it.
		clNames = libraryWide(clNames)
		reason, said = clNames.say(never, ", which the question asks about", in.Claims), &clNames
	case len(nums) > 0 || len(refNums) > 0:
		// A number the question types ("the 2018 Wikipedia dump") that no
		// passage of the scope prints beside its word, or only a
		// reference title does (see figure.go).
		var parts []string
		if len(nums) > 0 {
			said = &claimed{never: nums}
			parts = append(parts, said.say(never, ", which the question asks about", in.Claims))
		}
		if len(refNums) > 0 {
			parts = append(parts, sayRefNumbers(refNums, strings.HasSuffix(never, "mentions "), in.Claims.Name))
		}
		reason = strings.Join(parts, "; ")
	case asksFigure(q) && !figureStated(q, qwords, texts, sents, stems, readable):
		// The passages are about the question's topic but none states
		// the figure it asks for (see figure.go).
		reason = "none of the passages found states a number for " + strings.Join(typedWords(question, figureFocus(q)), " ")
	case len(qstems) >= 2 && opts.MinCoverage > 0 && bestCov < opts.MinCoverage:
		reason = "no sentence covers the question"
	}
	if reason != "" && said != nil && misread(in, q, ev[best].PaperID, sents[order[0]].ev, ev, said.words()) {
		// The question was read as being about one paper, but the passage
		// that matches best, and the one closest to an answer, come from
		// another that prints every word said missing: the reading, not
		// the library, lacks them. It is answered from that passage.
		reason, said = "", nil
	}
	sig := Output{BestScore: ev[best].Score, BestCoverage: bestCov, Signals: signals}
	if said != nil {
		sig.Absent = said.claims(in.Claims)
	}
	if reason != "" {
		top := sents[order[0]]
		// The reason is said, so the researcher can judge it ("the papers
		// never mention LiDAR" is checkable; a bare "not found" is not).
		sig.Text, sig.NotFound, sig.Cited, sig.Reason = fmt.Sprintf("%s %s. The closest passage, not an answer, is: %s [%d]",
			notFoundOpening(in), sentenceCase(reason), top.text, top.ev+1), true, []int{top.ev}, reason
		return verdictFor(sig), nil
	}
	if kind == retrieve.KindYesNo {
		// The deciding sentences: the best-scored sentences that cover most
		// of what the question is about (IDF-weighted). A verdict is stated
		// only when the first few of them agree; a paper that says both
		// ("X is not universal", "the universal X is universal") leaves it
		// unclear.
		var deciding []int
		// The words naming the paper ("According to Davis and Goadrich")
		// are not what a deciding sentence must cover; a sentence about
		// other work ("State-of-the-art models for X rely on ...") decides
		// nothing about the paper's own, unless the question asks about
		// others or the sentence holds the question's whole subject ("The
		// original BERT implementation (Devlin et al., 2019) uses ..." for
		// "Does the original BERT implementation use ...?").
		others := !aboutOthers(question)
		subject := questionSubject(question)
		judge := newTitledJudge(question, true)
		vstems := verdictStems(question, rstems)
		pstem, pkey := predicateStem(question)
		// A closed compound and its hyphenated form are one word
		// ("pagetable", "page-table"; see withCompounds).
		qc := hyphenCompounds(question)
		var title map[string]bool
		if len(retrieve.EvidencePapers(ev)) == 1 {
			title = stemSet(ev[best].PaperTitle)
		}
		// The candidates: every sentence that covers the question and
		// holds its predicate, best-scored first.
		type candidate struct {
			i     int
			v     string
			about bool
		}
		var cands []candidate
		anyAbout := false
		// A sentence whose subject refers back ("These operations do not
		// ...") is weighed with the sentence before it (anaphora.go).
		ante := antecedents(sents)
		// A sentence speaks of its section's topic without repeating it
		// ("He can't check the transaction for himself" under "Simplified
		// Payment Verification"): the heading's words count as held, as
		// the paper title's do (withTitle).
		headings := make([]map[string]bool, len(ev))
		for k, e := range ev {
			if len(e.Path) >= 2 {
				headings[k] = stemSet(e.Path[len(e.Path)-1])
			}
		}
		for _, i := range order {
			have, about := withCompounds(withTitle(stems[i], headings[sents[i].ev]), hyphenCompounds(sents[i].text), qc), sents[i].text
			if a := ante[i]; a >= 0 {
				have, about = withAntecedent(have, stems[a]), sents[a].text+" "+about
			}
			if verdictCoverage(vstems, withPredicateSynonym(withTitle(have, title), pstem, pkey)) < opts.VerdictCoverage || strings.Contains(sents[i].text, "?") ||
				others && aboutOthers(sents[i].text) && !subjectHeld(sents[i].text, subject) || !readable[i] {
				// A sentence asking the question back decides nothing,
				// nor an equation or a table row, whose polarity cannot
				// be read.
				continue
			}
			v, held := judge(sents[i].text, ev[sents[i].ev].PaperTitle)
			if !held {
				// A sentence that covers the question's subject but does
				// not say what the question asks of it (see predicate.go).
				continue
			}
			c := candidate{i, v, subjectMentioned(about, subject)}
			anyAbout = anyAbout || c.about
			cands = append(cands, c)
		}
		var verdicts []string
		for _, c := range cands {
			if len(deciding) == 2 {
				break
			}
			if anyAbout && !c.about {
				// A sentence that names none of the question's subject
				// (its words count through the paper's title) speaks of
				// something else when another sentence names it ("the
				// model is trained to predict whether ..." of BERT, for
				// "Is RoBERTa trained with the NSP loss?"): it neither
				// decides, confirms nor vetoes.
				continue
			}
			if len(deciding) > 0 && c.v == VerdictUnclear {
				// A hedged runner-up neither confirms nor contradicts
				// (a hedged best sentence leaves the answer unclear).
				continue
			}
			deciding = append(deciding, c.i)
			verdicts = append(verdicts, c.v)
		}
		if len(deciding) > 0 {
			s := sents[deciding[0]]
			v := verdicts[0]
			agree := true
			for _, w := range verdicts[1:] {
				agree = agree && w == v
			}
			if agree && v != VerdictUnclear {
				label := map[string]string{VerdictYes: "Yes.", VerdictNo: "No."}[v]
				return Output{Text: fmt.Sprintf("%s %s [%d]", label, s.text, s.ev+1), Verdict: v, Cited: []int{s.ev}, BestScore: sig.BestScore, BestCoverage: bestCov, Signals: signals}, nil
			}
		}
		top := sents[order[0]]
		return Output{Text: fmt.Sprintf("Unclear: the evidence does not decide it. The closest passage is: %s [%d]", top.text, top.ev+1),
			Verdict: VerdictUnclear, Cited: []int{top.ev}, BestScore: sig.BestScore, BestCoverage: bestCov, Signals: signals}, nil
	}
	var pick []int
	used := 0
	topScore := sents[order[0]].score
	picked := map[string]bool{}
	// The best sentence whose subject refers back ("This means that we
	// cannot completely trust ...") cannot be read alone: the sentence it
	// refers to is quoted with it, ahead of the runner-up (anaphora.go).
	lead := -1
	if a := antecedents(sents)[order[0]]; a >= 0 && quotable(a) {
		lead = a
		order = append([]int{order[0], a}, slices.DeleteFunc(slices.Clone(order[1:]), func(k int) bool { return k == a })...)
	}
	for _, i := range order {
		s := sents[i]
		if len(pick) == opts.MaxSentences {
			break
		}
		// Papers repeat themselves (abstract and introduction often share a
		// sentence); quoting it twice adds nothing.
		key := papertree.AlnumKey(s.text)
		if picked[key] || !quotable(i) {
			continue
		}
		if len(pick) > 0 && (s.score < topScore-0.08 && i != lead || used+s.tok > opts.MaxTokens) {
			continue
		}
		pick = append(pick, i)
		picked[key] = true
		used += s.tok
	}
	if kind == retrieve.KindHowWhy && len(pick) == 1 && opts.MaxSentences > 1 {
		// A how/why answer of one sentence often quotes the sentence that
		// restates what is asked ("Fran ... is prone to space and time
		// leaks"), while the reason is the sentence before or after it in
		// the paper ("Fran inherits a variety of space and time leaks from
		// its host language"): the better-scored neighbour is quoted with it.
		if j := neighbour(pick[0], sents, func(j int) bool {
			key := papertree.AlnumKey(sents[j].text)
			return !picked[key] && quotable(j) && used+sents[j].tok <= opts.MaxTokens
		}); j >= 0 {
			pick = append(pick, j)
		}
	}
	sort.Slice(pick, func(a, b int) bool {
		if sents[pick[a]].ev != sents[pick[b]].ev {
			return sents[pick[a]].ev < sents[pick[b]].ev
		}
		return sents[pick[a]].pos < sents[pick[b]].pos
	})
	var b strings.Builder
	var cited []int
	seen := map[int]bool{}
	for k, i := range pick {
		s := sents[i]
		if k > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s [%d]", s.text, s.ev+1)
		if !seen[s.ev] {
			seen[s.ev] = true
			cited = append(cited, s.ev)
		}
	}
	return Output{Text: b.String(), Cited: cited, BestScore: sig.BestScore, BestCoverage: bestCov, Signals: signals}, nil
}

// neighbour returns the better-scored of the prose sentences just before
// and just after sentence i in its passage that ok accepts, or -1. Table
// rows and captions are not prose neighbours: a row is read on its own.
func neighbour(i int, sents []sentence, ok func(int) bool) int {
	best := -1
	if sents[i].role == papertree.RoleTable {
		return best
	}
	for j, s := range sents {
		if j == i || s.ev != sents[i].ev || s.role == papertree.RoleTable || s.pos != sents[i].pos-1 && s.pos != sents[i].pos+1 || !ok(j) {
			continue
		}
		if best < 0 || s.score > sents[best].score {
			best = j
		}
	}
	return best
}

// untitled returns the question without the words that the paper title
// holds (by content stem) or that refer to the paper (refs: its
// query.RefWords, as query.Question.Refs holds them), or "" when it drops
// none or keeps fewer than two content words.
func untitled(question, title string, refs map[string]bool) string {
	held := stemSet(title)
	var kept []string
	dropped, content := false, 0
	for _, f := range strings.Fields(question) {
		w := strings.ToLower(strings.Trim(f, query.WordPunct))
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		st := embedding.ContentStems(w)
		if len(st) > 0 && (held[st[0]] || refs[w]) {
			dropped = true
			continue
		}
		if len(st) > 0 {
			content++
		}
		kept = append(kept, f)
	}
	if !dropped || content < 2 {
		return ""
	}
	return strings.Join(kept, " ")
}

// localWeight is the weight of localCoverage in a sentence's rating as an
// answer. Answer quotes support, scoped / library-wide: own set 0.531/0.500
// -> 0.562/0.531, held-out 0.390/0.390 -> 0.421/0.421 (0.2: 0.547/0.516,
// 0.390; 0.6: 0.578/0.547, 0.421/0.410: the held-out set chose 0.4); QASPER
// tune answer F1 0.1746 -> 0.1741, boolean 0.098 -> 0.109 (yes/no verdict
// coverage 0.106 -> 0.117 at precision 0.90 -> 0.91).
const localWeight = 0.4

// localCoverage rates each sentence by the question's terms it holds,
// each weighted by how rare it is among the evidence's sentences (IDF over
// the evidence): a word every passage repeats (the paper's topic) says
// little about which sentence answers, a word in one or two sentences
// ("dropout" in a paper about ImageNet networks) says a lot. have holds
// each sentence's content stems (stemSet).
func localCoverage(qstems []string, have []map[string]bool) []float64 {
	df := map[string]int{}
	for _, h := range have {
		for _, q := range qstems {
			if h[q] {
				df[q]++
			}
		}
	}
	n := float64(len(have))
	idf := map[string]float64{}
	tot := 0.0
	for _, q := range qstems {
		if df[q] == 0 {
			continue
		}
		idf[q] = math.Log(1 + n/float64(df[q]))
		tot += idf[q]
	}
	out := make([]float64, len(have))
	if tot == 0 {
		return out
	}
	for i, h := range have {
		for _, q := range qstems { // in order: the same sum on every run
			if h[q] {
				out[i] += idf[q]
			}
		}
		out[i] /= tot
	}
	return out
}

// quantityBonus is added to the rating of a sentence holding a number the
// question does not when the question asks for a quantity: the sentence
// that restates "how many parameters does GPT-2 have" beat the one with
// "1.5B". Answer quotes support, scoped / library-wide: own set
// 0.562/0.531 -> 0.578/0.547, held-out 0.421 -> 0.432 (0.1, 0.2: no
// change; 0.4: as 0.3); QASPER tune answer F1 0.1741 -> 0.1760.
const quantityBonus = 0.3

// quantityRE matches the questions that ask for a quantity: how many /
// much / large ..., what percentage / number / size / accuracy ...
var quantityRE = regexp.MustCompile(`(?i)\bhow (?:many|much|large|big|long|fast|often|old|small|far)\b|` + whatMeasure)

// whatMeasure is the "what <measure>" half of the quantity questions
// (quantityRE) and of those that ask for a figure (figureRE): one list, so
// the two agree on which measures they hear.
const whatMeasure = `\bwhat (?:is the |was the |are the )?(?:percentage|fraction|proportion|share|number|size|amount|accuracy|score|f1|bleu|rate|speed|cost)\b`

func asksQuantity(q string) bool { return quantityRE.MatchString(q) }

// yearRE is a year ("2015", "2019b"), which is a citation, not a quantity.
var yearRE = regexp.MustCompile(`^(?:19|20)\d\d[a-z]?$`)

// hasQuantity reports a number in sentence that the question does not hold
// itself: a token that starts with a digit ("1.5B", "800M", "0.466",
// "95%", "42"), not a year, not inside a name ("GPT-2", "ResNet-50",
// "BIBREF12" do not start with a digit).
func hasQuantity(sentence string, qwords map[string]bool) bool {
	for _, f := range strings.Fields(sentence) {
		w := strings.TrimLeft(strings.Trim(f, ".,;:?!()[]\"'’"), "~<>≈$€£")
		if w == "" || !unicode.IsDigit([]rune(w)[0]) || yearRE.MatchString(w) || qwords[strings.ToLower(w)] {
			continue
		}
		return true
	}
	return false
}

// sentenceCase is s with its first letter upper-cased.
func sentenceCase(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// weightedCoverage is the share of the question's terms found in sentence,
// each weighted by its IDF (the shipped embedder's prior): a sentence that
// shares "model" and "standard" with the question but not "universal"
// covers little of what the question is about.
func weightedCoverage(qstems []string, sentence string) float64 {
	return coverageOf(qstems, stemSet(sentence))
}

// stemSet is the set of sentence's content stems.
func stemSet(sentence string) map[string]bool {
	have := map[string]bool{}
	for _, t := range embedding.ContentStems(sentence) {
		have[t] = true
	}
	return have
}

// coverageOf is weightedCoverage over a sentence's stem set.
func coverageOf(qstems []string, have map[string]bool) float64 {
	return idfShare(qstems, func(t string) bool { return have[t] })
}

// idfShare is the IDF-weighted share of qstems for which held is true.
func idfShare(qstems []string, held func(string) bool) float64 {
	if len(qstems) == 0 {
		return 0
	}
	m := embedding.ShippedModel()
	tot, hit := 0.0, 0.0
	for _, t := range qstems {
		w := float64(m.IDF(t))
		tot += w
		if held(t) {
			hit += w
		}
	}
	return hit / tot
}

// printedNames are the question's names (query.Question.Names) of two or
// more words, which the check looks up as phrases (store.PhraseCounts; the
// index's stemmer folds a plural, so "Universal Transformers" is held by
// "Universal Transformer"). One-word names are the missing words'
// business.
func printedNames(names []string) []string {
	var out []string
	for _, n := range names {
		if len(strings.Fields(n)) < 2 {
			continue
		}
		out = append(out, n)
	}
	return out
}

// cjkWords are the words of missing written in CJK characters.
func cjkWords(missing []string) []string {
	var out []string
	for _, w := range missing {
		if papertree.HasCJK(w) {
			out = append(out, w)
		}
	}
	return out
}

// missingKey reports whether one of the k highest-IDF stems of the
// question is among the missing words.
func missingKey(qstems, missing []string, k int) bool {
	if len(missing) == 0 || len(qstems) < 3 {
		return false
	}
	m := embedding.ShippedModel()
	st := append([]string(nil), qstems...)
	sort.SliceStable(st, func(a, b int) bool { return m.IDF(st[a]) > m.IDF(st[b]) })
	miss := map[string]bool{}
	for _, w := range missing {
		for _, t := range embedding.ContentStems(w) {
			miss[t] = true
		}
	}
	for _, t := range st[:min(k, len(st))] {
		if miss[t] {
			return true
		}
	}
	return false
}

var markerRE = regexp.MustCompile(`\s*\[\d+(?:\s*,\s*\d+)*\]`)

// StripMarkers removes citation markers ("[3]", "[1, 2]") from an answer.
func StripMarkers(s string) string {
	return strings.TrimSpace(markerRE.ReplaceAllString(s, ""))
}

func contentTerms(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) > 2 && !stop[w] {
			m[w] = true
		}
	}
	return m
}

func overlap(q, s map[string]bool) float64 {
	if len(q) == 0 {
		return 0
	}
	hit := 0
	for w := range q {
		if s[w] {
			hit++
		}
	}
	return float64(hit) / math.Sqrt(float64(len(q))*float64(max(len(s), 1)))
}

var stop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`the and for are was were what which who whom whose how why when where does did do done has have had
	this that these those with from into onto over under they them their there here our you your its can could may might must shall should will
	would also very more most less than then else not nor any each every all both either neither such used use using based paper papers authors
	work method methods approach proposed propose`) {
		m[w] = true
	}
	return m
}()

// frontLines marks the sentences that are lines of the front matter (role
// front matter, not prose) holding none of the question's words but those
// naming its paper (q.Refs). Not withoutRefStems, which keeps every stem
// when only the naming words are left: "What does the Brandt and Okafor
// paper propose?" asks nothing of the author line (TestFrontLineNotQuoted).
func frontLines(q *query.Question, sents []sentence, stems []map[string]bool, rstems []string) []bool {
	refs := refStems(q.Refs)
	var asked []string
	for _, t := range rstems {
		if !refs[t] {
			asked = append(asked, t)
		}
	}
	out := make([]bool, len(sents))
	for i, s := range sents {
		out[i] = s.role == papertree.RoleFrontMatter && !proseSentence(s.text) && coverageOf(asked, stems[i]) == 0
	}
	return out
}

// proseSentence reports a sentence that reads as running text: at least
// three words that start in lower case, and more of them than capitalised
// words. A line of names, affiliations or a venue has few ("and", "of",
// "on"), set among capitalised names; an address or an e-mail is no word.
func proseSentence(s string) bool {
	lower, upper := 0, 0
	for _, f := range strings.Fields(s) {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) })
		if strings.ContainsAny(f, "@/") || utf8.RuneCountInString(w) < 2 {
			continue
		}
		switch r, _ := utf8.DecodeRuneInString(w); {
		case unicode.IsLower(r):
			lower++
		case unicode.IsUpper(r):
			upper++
		}
	}
	return lower >= 3 && lower > upper
}
