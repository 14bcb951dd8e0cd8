package retrieve

import (
	"context"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
)

// Which-papers answers. "Which papers use the Adam optimizer?" asks for
// every paper of the library that has a property, not for the passages
// most similar to the question: a shortlist of five papers by vector
// caps such an answer at a few papers when twenty use Adam. So every paper
// is a candidate, and each is listed only when its own text states the
// property:
//
//   - The question's topic (query.ListTopic: the content words after
//     "Which papers VERB", one group per "or" alternative) is weighted by
//     how specific each word is in the library (the nodes holding it); a
//     group's anchor is its most specific word.
//   - Candidates are the papers whose full-text index holds an anchor in
//     any printed form (store.PhraseCounts over the whole scope): a paper
//     without it cannot state the property, and no score decides it.
//   - Verification reads each candidate's body leaves (not its reference
//     list or acknowledgements, not a related-work section) for a sentence
//     that holds the anchor, is not about other work (papertree.AboutOthers)
//     and whose passage holds most of the topic's weight. The paper's best
//     such sentence is its finding, with its path and page.
//   - Papers are ordered by the strength of their best sentence (topic
//     weight in the sentence and its passage) and how many of their
//     sentences state it.

// listCandidates bounds the papers verified for one question: the ones
// holding an anchor most often first. At 5,000 papers a frequent anchor
// ("dropout") is held by hundreds; each costs a paper load.
const listCandidates = 150

// listLeafShare is the share of a topic group's weight a passage must hold
// for its anchor sentence to state the property: "We tested on MNIST" in a
// passage about handwritten digits, not a passing "MNIST" in a list of
// data sets of another topic.
const listLeafShare = 0.6

// listWorkers bounds the candidate papers verified at once.
const listWorkers = 4

type topicGroup struct {
	stems, words []string
	idf          []float64
	pos          []int
	name         []bool
	compound     []int
	anchor       int // index of the most specific word
	mass         float64
	// core are the words a stating sentence must hold (indexes): the
	// names of the group when it has any ("MNIST", "Adam"), else the
	// phrase around the anchor ("batch normalization", "special
	// relativity"), without its much more common words.
	core []int
	// named: the group has a name, which states the property on its own;
	// a group without one must also have most of its weight in the
	// passage around the sentence.
	named bool
	roots []string // surface roots of words, see wordRoot
	// edition: for a name typed with a number ("CoNLL-2003"), the pattern
	// of the name with that number as printed ("CoNLL 2003", "CIFAR10").
	edition []*regexp.Regexp
}

// listGroups weights the question's topic groups by the specificity of
// their words; a group with no specific word (an alternative such as
// "faster" in "a smaller or faster model") joins the others as words
// that add weight but decide nothing.
func listGroups(ctx context.Context, ix Index, q *query.Question) []topicGroup {
	src := q.Topic
	if len(src) == 0 {
		var g query.TopicGroup
		for _, t := range q.Terms {
			if !query.IsScaffold(t) {
				g.Stems, g.Words = append(g.Stems, t), append(g.Words, t)
			}
		}
		if len(g.Stems) == 0 {
			return nil
		}
		src = []query.TopicGroup{g}
	}
	var words []string
	for _, g := range src {
		words = append(words, g.Words...)
	}
	idf := map[string]float64{}
	if tc, ok := ix.(termCounter); ok {
		if n, df, err := tc.TermNodeCounts(ctx, words); err == nil && n > 0 {
			for i, w := range words {
				idf[w] = math.Log(1 + (float64(n)-float64(df[i])+0.5)/(float64(df[i])+0.5))
			}
		}
	}
	out := make([]topicGroup, 0, len(src))
	best := 0.0
	for _, g := range src {
		t := topicGroup{stems: g.Stems, words: g.Words, idf: make([]float64, len(g.Stems)), pos: g.Pos, name: g.Name, compound: g.Compound}
		t.edition = make([]*regexp.Regexp, len(g.Stems))
		if len(g.Number) == len(g.Stems) {
			for i, n := range g.Number {
				if n != "" && g.Name[i] {
					t.edition[i] = regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(g.Words[i]) + `[\s\-_’']?` + n + `\b`)
				}
			}
		}
		if len(t.pos) != len(t.stems) || len(t.compound) != len(t.stems) {
			t.pos, t.name, t.compound = make([]int, len(t.stems)), make([]bool, len(t.stems)), make([]int, len(t.stems))
			for i := range t.pos {
				t.pos[i], t.compound[i] = i, -1-i
			}
		}
		for i, w := range g.Words {
			t.idf[i] = 1
			if v, ok := idf[w]; ok {
				t.idf[i] = v
			}
			if t.idf[i] > t.idf[t.anchor] {
				t.anchor = i
			}
		}
		best = max(best, t.idf[t.anchor])
		out = append(out, t)
	}
	var strong, weak []topicGroup
	for _, t := range out {
		single := len(t.stems) == 1 && !t.name[0]
		if len(out) > 1 && (t.idf[t.anchor] < 0.6*best || single && t.idf[t.anchor] < best) {
			weak = append(weak, t)
		} else {
			strong = append(strong, t)
		}
	}
	for i := range strong {
		for _, w := range weak {
			for j, st := range w.stems {
				if !slices.Contains(strong[i].stems, st) {
					strong[i].stems = append(strong[i].stems, st)
					strong[i].words = append(strong[i].words, w.words[j])
					strong[i].idf = append(strong[i].idf, w.idf[j])
					strong[i].pos = append(strong[i].pos, -100) // never part of the phrase
					strong[i].name = append(strong[i].name, false)
					strong[i].compound = append(strong[i].compound, -1000-j)
					strong[i].edition = append(strong[i].edition, nil)
				}
			}
		}
		strong[i].finish()
	}
	return strong
}

// finish sets a group's weight, core words and surface roots.
func (t *topicGroup) finish() {
	t.mass = 0
	for i, v := range t.idf {
		t.mass += v
		t.roots = append(t.roots, wordRoot(t.words[i]))
	}
	for i, n := range t.name {
		if n && t.pos[i] >= 0 {
			t.named = true
			if t.idf[i] > t.idf[t.anchor] || !t.name[t.anchor] {
				t.anchor = i
			}
		}
	}
	if t.named {
		// The name, with the words it is typed together with ("NP-hard").
		t.core = []int{t.anchor}
		for i, c := range t.compound {
			if i != t.anchor && c == t.compound[t.anchor] {
				t.core = append(t.core, i)
			}
		}
		return
	}
	// The phrase around the anchor: words next to each other in the
	// question, at least half as specific as the anchor.
	in := func(i int) bool { return t.idf[i] >= 0.5*t.idf[t.anchor] || t.compound[i] == t.compound[t.anchor] }
	at := map[int]int{}
	for i, p := range t.pos {
		at[p] = i
	}
	t.core = []int{t.anchor}
	for p := t.pos[t.anchor] - 1; ; p-- {
		i, ok := at[p]
		if !ok || !in(i) {
			break
		}
		t.core = append(t.core, i)
	}
	for p := t.pos[t.anchor] + 1; ; p++ {
		i, ok := at[p]
		if !ok || !in(i) {
			break
		}
		t.core = append(t.core, i)
	}
}

// wordRoot is the part of a word its printed forms share: "forests" ->
// "forest", "normalization" -> "normalizat", "relativity" -> "relativit"
// (not "relative": the index's stemmer folds the two).
func wordRoot(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		w = w[:len(w)-1]
	}
	return w
}

// formOf reports whether token t is a printed form of root (holdsRoot).
func formOf(t, root string) bool {
	if !strings.HasPrefix(t, root) {
		return false
	}
	rest := t[len(root):]
	if len(rest) > 3 && len(root) > 0 && rest[0] == root[len(root)-1] {
		rest = rest[1:] // a doubled final consonant: "clip" -> "clipping"
	}
	return len(rest) <= 3 || strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

// denying are words that, within the four before a topic word, say the
// sentence does not state it of the paper: "without batch normalization",
// "we do not use dropout", "replace the Batch Normalization layers with
// Group Normalization", "instead of beam search".
var denying = map[string]bool{"without": true, "no": true, "not": true, "never": true, "nor": true, "neither": true,
	"cannot": true, "instead": true, "rather": true, "unlike": true,
	"replace": true, "replaces": true, "replaced": true, "replacing": true, "remove": true, "removed": true, "removing": true}

// laterRE marks a sentence about work not done: future work, a plan, what
// could be done ("can be incorporated with beam search, but we leave this
// to future work").
var laterRE = regexp.MustCompile(`(?i)\b(future work|future research|we leave|left (for|to) future|we plan to|we intend to|could be|would be|might be)\b`)

// denies reports whether a sentence (its lowercase tokens) holds the topic
// word root only where it says the paper does not do it (denying), or
// speaks of work not done (laterRE): it then does not state the property.
func denies(text string, toks []string, root string) bool {
	if laterRE.MatchString(text) {
		return true
	}
	seen := false
	for k, t := range toks {
		if !formOf(t, root) {
			continue
		}
		seen = true
		neg := false
		for j := max(0, k-4); j < k && !neg; j++ {
			neg = denying[toks[j]]
		}
		if !neg {
			return false
		}
	}
	return seen
}

// zeroValue: a table cell that says a setting is not used.
var zeroValue = regexp.MustCompile(`(?i)^\s*(?:0|0\.0+|none|no|n/?a|off|false|-|–|—)\s*$`)

// zeroRow reports a table row whose label holds the topic word root and
// whose every value is zero, none, "no" or a dash ("Gradient Clipping |
// 0.0 | 0.0", or as sentences read a row, "Gradient Clipping: RoBERTaLARGE
// 0.0, RoBERTaBASE 0.0"): the setting is not used.
func zeroRow(text, root string) bool {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "|"))
		var label string
		var cells []string
		if i := strings.Index(line, "|"); i > 0 {
			label, cells = line[:i], strings.Split(line[i+1:], "|")
		} else if i := strings.Index(line, ": "); i > 0 {
			label = line[:i]
			for _, c := range strings.Split(line[i+2:], ",") {
				// "RoBERTaLARGE 0.0": a column's name, then its value
				fs := strings.Fields(c)
				if len(fs) == 0 {
					continue
				}
				cells = append(cells, fs[len(fs)-1])
			}
		} else {
			continue
		}
		if !holdsRoot(lowerTokens(label), root) || len(cells) == 0 {
			continue
		}
		all := true
		for _, c := range cells {
			if !zeroValue.MatchString(strings.TrimRight(c, ".;")) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// holdsRoot reports a token of toks that is a printed form of root: the
// root with at most three more letters ("forest" -> "forests", "perceive"
// -> "perceived"), or with digits ("cifar" -> "cifar10"), never another
// word that starts with it ("diffusion" is not "diffuse").
func holdsRoot(toks []string, root string) bool {
	for _, t := range toks {
		if formOf(t, root) {
			return true
		}
	}
	return false
}

// exampleRE marks a sentence that gives an example ("For example, in the
// sentence ... stock prices ...") or thanks people (a footnote in the
// introduction): it does not state what the paper does.
var exampleRE = regexp.MustCompile(`(?i)^\W*\d*\s*(for (example|instance)|e\.g\.|consider (the|a|an) (example|sentence)|(we|i) (would like to )?(thank|are grateful|acknowledge))\b`)

// exampleCueRE ends a clause that lists examples of a kind ("word
// embeddings, such as Word2Vec or GloVe", "decoding strategies (e.g., beam
// search)", "software packages ... including GloVe"); firstPersonRE marks
// the authors speaking of their own work ("we evaluate on benchmarks such
// as GLUE").
var (
	exampleCueRE  = regexp.MustCompile(`(?i)\b(such as|e\.\s?g\.|for example|for instance|including)\W[^.;:]*$`)
	firstPersonRE = regexp.MustCompile(`(?i)\b(we|our|us)\b`)
)

// onlyExample reports a sentence that names the topic word root only as an
// example of a kind, and not in the authors' own words: it says what such
// things are, not that the paper uses one.
func onlyExample(text, root string) bool {
	if firstPersonRE.MatchString(text) {
		return false
	}
	lower := strings.ToLower(text)
	seen := false
	for i := 0; ; {
		k := strings.Index(lower[i:], root)
		if k < 0 {
			break
		}
		k += i
		i = k + len(root)
		if k > 0 && isWordByte(lower[k-1]) {
			continue // inside another word
		}
		seen = true
		if !exampleCueRE.MatchString(text[:k]) {
			return false
		}
	}
	return seen
}

// topicVerbs ask what a paper is about ("Which papers discuss X", "study
// X", "are about X"); any other verb asks what a paper does ("use",
// "train", "clip", "evaluate on").
var topicVerbs = map[string]bool{"are": true, "is": true, "study": true, "studies": true, "discuss": true, "discusses": true,
	"describe": true, "describes": true, "present": true, "presents": true, "address": true, "addresses": true,
	"propose": true, "proposes": true, "introduce": true, "introduces": true, "consider": true, "considers": true,
	"investigate": true, "investigates": true, "examine": true, "examines": true, "explore": true, "explores": true,
	"relate": true, "relates": true, "focus": true, "focuses": true, "survey": true, "surveys": true, "review": true,
	"reviews": true, "mention": true, "mentions": true, "cover": true, "covers": true, "concern": true, "concerns": true,
	"deal": true, "deals": true, "talk": true, "talks": true, "explain": true, "explains": true}

// expositoryRE: a text that calls itself a tutorial, primer, survey or
// textbook ("This tutorial surveys neural network models"). Lecture
// notes on one method ("These notes describe the sparse autoencoder") use
// what they describe: its objective is the notes' own.
var expositoryRE = regexp.MustCompile(`(?i)\b(?:this|these|the present) (?:tutorial|primer|survey|textbook)\b`)

// expository reports a paper that presents a field to its readers (a
// primer, tutorial, survey or textbook, as its title or first passages
// say): it names every technique of the field as what one can
// do, not as what its authors did.
func expository(d *PaperData) bool {
	if d.Paper != nil && expositoryRE.MatchString("this "+d.Paper.Title) {
		return true
	}
	n := 0
	for _, node := range d.Nodes {
		if !node.IsLeaf() || node.Text == "" {
			continue
		}
		if expositoryRE.MatchString(node.Text) {
			return true
		}
		if n += len(node.Text); n > 6000 {
			break
		}
	}
	return false
}

// ownDoingRE: the authors stating what they did ("we use dropout", "our
// models are trained with"), not what one can do ("we can use", "we
// will see").
var (
	ownDoingRE = regexp.MustCompile(`(?i)\b(?:we|our)\b`)
	modalWeRE  = regexp.MustCompile(`(?i)\bwe (?:can|could|will|would|may|might|shall|need|should|must)\b|\b(?:one|you) (?:can|could|may|might|should)\b`)
)

// ownText reports a leaf of the paper's own body: not its front matter
// (authors, affiliations), reference list, acknowledgements, nor a section
// about others' work.
func ownText(d *PaperData, o int) bool {
	if othersSection(d, o) {
		return false
	}
	for a := o; a >= 0; a = d.Parent[a] {
		switch d.Nodes[a].Role {
		case papertree.RoleFrontMatter, papertree.RoleReferences, papertree.RoleAcks:
			return false
		}
	}
	// A reference list merged into a body section (the tree missed its
	// heading), as retrieve's signals flag it.
	t := d.Nodes[o].Text
	return !(mayBeReferences(t) && ReferenceLike(t))
}

// containsFold reports whether s holds sub (lowercase) in any letter case,
// without lowercasing s: most passages of a paper do not hold it.
func containsFold(s, sub string) bool {
	if sub == "" {
		return true
	}
	c := sub[0]
	for i := 0; i+len(sub) <= len(s); i++ {
		b := s[i]
		if b >= 'A' && b <= 'Z' {
			b += 'a' - 'A'
		}
		if b == c && strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// holdsName reports a token of raw (as printed) that is the name root
// was typed as: capitalised ("Penn", not "penne20"; "Adam", not "adam"
// inside a word list), followed by nothing, digits ("CIFAR10") or a
// plural s.
func holdsName(raw []string, root string) bool {
	for _, t := range raw {
		if len(t) < len(root) || !strings.EqualFold(t[:len(root)], root) {
			continue
		}
		if r := t[0]; r < 'A' || r > 'Z' {
			continue
		}
		rest := t[len(root):]
		if rest == "" || rest == "s" || rest == "es" || strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsDigit(r) }) < 0 {
			return true
		}
	}
	return false
}

// rawTokens splits text into runs of letters and digits as printed.
func rawTokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// lowerTokens splits text into lowercase runs of letters and digits.
func lowerTokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// othersSection reports a leaf in a section about other people's work
// (related work, background, prior work), which names every property of
// every paper it cites, or in a reference list the tree did not mark.
func othersSection(d *PaperData, o int) bool {
	for a := d.Parent[o]; a > 0; a = d.Parent[a] {
		t := strings.ToLower(stripNumber(d.Nodes[a].Title))
		for _, p := range []string{"related work", "background", "previous work", "prior work", "literature review", "related research",
			"references", "bibliography", "literature cited", "works cited"} {
			if strings.HasPrefix(t, p) {
				return true
			}
		}
	}
	return false
}

// paperFinding is one verified paper before it becomes evidence.
type paperFinding struct {
	d        *PaperData
	o        int // the leaf
	sentence string
	start    int // byte offset of sentence in the leaf's text (-1: not found)
	score    float64
	mentions int
}

// verifyPaper returns the paper's best sentence stating the topic, or
// ok false when none of its own body sentences does.
//
// doing: the question asks what papers do (its verb is no topicVerbs); a
// primer, tutorial or survey (expository) then states it only where its
// authors say they did it.
func verifyPaper(d *PaperData, groups []topicGroup, doing bool) (f paperFinding, ok bool) {
	expo := doing && expository(d)
	for o, n := range d.Nodes {
		if !n.IsLeaf() || n.Text == "" {
			continue
		}
		text := n.Text
		var sents []string
		var leafToks []string
		own := 0 // 1 own text, -1 not, 0 not read yet
		for gi := range groups {
			g := &groups[gi]
			if !containsFold(text, g.roots[g.anchor]) {
				continue
			}
			if own == 0 {
				own = -1
				if ownText(d, o) {
					own = 1
				} else if abs, ok := inlineAbstract(d, o); ok {
					// The paper's abstract, printed in its front matter
					// after an "Abstract—" label: the paper's own words.
					text, own = abs, 1
					if !containsFold(text, g.roots[g.anchor]) {
						continue
					}
				}
			}
			if own < 0 {
				break
			}
			if leafToks == nil {
				leafToks = lowerTokens(text)
				for _, a := range d.PathTo(o)[1:] {
					leafToks = append(leafToks, lowerTokens(a.Title)...)
				}
			}
			leaf := 0.0
			for i, r := range g.roots {
				if holdsRoot(leafToks, r) {
					leaf += g.idf[i]
				}
			}
			leaf /= g.mass
			if !g.named && leaf < listLeafShare {
				continue
			}
			if sents == nil {
				sents = papertree.SplitSentences(text)
			}
		sentences:
			for _, text := range sents {
				toks := lowerTokens(text)
				raw := rawTokens(text)
				if len(toks) < 5 {
					continue
				}
				for _, c := range g.core {
					if g.name[c] && !holdsName(raw, g.roots[c]) || !g.name[c] && !holdsRoot(toks, g.roots[c]) ||
						g.edition[c] != nil && !g.edition[c].MatchString(text) {
						continue sentences
					}
				}
				if papertree.AboutOthers(text) || !papertree.Readable(text) || exampleRE.MatchString(text) ||
					denies(text, toks, g.roots[g.anchor]) || onlyExample(text, g.roots[g.anchor]) || zeroRow(text, g.roots[g.anchor]) ||
					expo && (!ownDoingRE.MatchString(text) || modalWeRE.MatchString(text)) {
					continue
				}
				in, words := 0.0, 0
				for i, r := range g.roots {
					if holdsRoot(toks, r) {
						in += g.idf[i]
						words++
					}
				}
				if !g.named && len(g.roots) > 1 && words < 2 {
					// "proteins" alone does not state protein folding.
					continue
				}
				sc := 0.6*in/g.mass + 0.4*leaf
				f.mentions++
				if !ok || sc > f.score {
					f.d, f.o, f.sentence, f.score, ok = d, o, text, sc, true
				}
			}
		}
	}
	if ok {
		f.start = strings.Index(d.Nodes[f.o].Text, f.sentence)
		f.score += 0.1 * math.Log(float64(f.mentions))
	}
	return f, ok
}

// whichPapers answers a which-papers question (see the overview above).
func whichPapers(ctx context.Context, ix Index, req Request) (Result, error) {
	t0 := time.Now()
	q := req.Q()
	groups := listGroups(ctx, ix, q)
	scope := req.PaperIDs
	for _, id := range scope {
		// Papers the researcher chose must exist: an unknown id is an
		// error, as for every strategy, not a paper that says nothing.
		if _, err := ix.Paper(ctx, id); err != nil {
			return Result{}, err
		}
	}
	if len(scope) == 0 {
		all, err := ix.ReadyPapers(ctx)
		if err != nil {
			return Result{}, errf("list papers", err)
		}
		scope = all
	}
	doing := !topicVerbs[query.ListVerb(q.Text)]
	res := Result{Terms: len(q.Terms)}
	res.Diag.Budget = req.Budget
	if len(groups) == 0 || len(scope) == 0 {
		return res, nil
	}
	// Candidates: the papers holding an anchor, most often first.
	count := map[int64]float64{}
	if pc, ok := ix.(phraseCounter); ok {
		for _, g := range groups {
			n, err := pc.PhraseCounts(ctx, g.words[g.anchor], req.PaperIDs)
			if err != nil {
				return Result{}, errf("look up "+g.words[g.anchor], err)
			}
			for id, c := range n {
				count[id] += float64(c)
			}
		}
	} else {
		for _, id := range scope {
			count[id] = 1
		}
	}
	cands := topPapers(count, len(count))
	if len(cands) > listCandidates {
		res.Unread = len(cands) - listCandidates
		cands = cands[:listCandidates]
	}
	timings := map[string]float64{"candidates": ms(time.Since(t0))}
	t1 := time.Now()
	found := make([]*paperFinding, len(cands))
	var wg sync.WaitGroup
	sem := make(chan struct{}, listWorkers)
	var firstErr error
	var mu sync.Mutex
	for i, id := range cands {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int, id int64) {
			defer wg.Done()
			defer func() { <-sem }()
			load := ix.Paper
			if tl, ok := ix.(textLoader); ok {
				load = tl.PaperText
			}
			d, err := load(ctx, id)
			if err != nil {
				mu.Lock()
				if firstErr == nil && ctx.Err() != nil {
					firstErr = ctx.Err()
				}
				mu.Unlock()
				return // a paper that cannot be read is not listed
			}
			if f, ok := verifyPaper(d, groups, doing); ok {
				found[i] = &f
			}
		}(i, id)
	}
	wg.Wait()
	if firstErr != nil {
		return Result{}, firstErr
	}
	timings["verify"] = ms(time.Since(t1))
	var fs []*paperFinding
	for _, f := range found {
		if f != nil {
			fs = append(fs, f)
		}
	}
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].score != fs[j].score {
			return fs[i].score > fs[j].score
		}
		return fs[i].d.Paper.ID < fs[j].d.Paper.ID
	})
	sel := &papertree.Selection{}
	for i, f := range fs {
		n := f.d.Nodes[f.o]
		ev := evidenceFor(f.d, f.o, n.Text, f.score)
		if f.start >= 0 {
			ev.Span = &papertree.TextSpan{Start: f.start, End: f.start + len(f.sentence)}
		}
		res.Evidence = append(res.Evidence, ev)
		res.Findings = append(res.Findings, papertree.PaperFinding{
			PaperID: f.d.Paper.ID, Title: f.d.Paper.Title, Sentence: f.sentence, Path: ev.Path, Pages: ev.Pages,
			NodeID: n.ID, Score: round4(f.score), Mentions: f.mentions, Cite: i + 1,
		})
		res.Diag.TokensUsed += ev.Tokens
		sel.Papers = append(sel.Papers, papertree.PaperChoice{PaperID: f.d.Paper.ID, PaperTitle: f.d.Paper.Title, Chosen: true,
			By: "text", Reason: "its own text states it", Score: round4(f.score)})
	}
	res.Searched = cands
	res.Diag.Selection = sel
	res.Diag.Timings = timings
	for _, g := range groups {
		res.Topic = append(res.Topic, g.words[g.anchor])
	}
	return res, nil
}
