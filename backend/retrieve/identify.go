package retrieve

// Paper identification for library-wide questions. A researcher names a
// paper in many ways: by its method ("the SPECTER paper", "GloVe"), its
// authors ("Vaswani et al.", "Dalal and Triggs"), its title or a phrase of
// it, its year. Each paper gets an identity card from what the index knows
// (title, authors, year, abstract) and its own front matter; a question
// that clearly names one paper is searched in that paper only, and weaker
// matches lift a paper in the library-wide ranking. More metadata (venue,
// DOI) can be added to the card later without changing the matching.

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
)

// card is a paper's identity.
type card struct {
	id       int64
	lead     string          // the title's lead before ':' ("GloVe", "BERT"), lowercased
	own      map[string]bool // the paper's own name(s): the title's lead before ':' and name-like title words, lowercased
	names    map[string]bool // name-like words of the title and abstract, lowercased
	surnames map[string]bool // authors' surnames, lowercased
	first    string          // the first author's surname, lowercased ("" when the authors are unknown)
	title    []string        // title content stems
	words    []string        // title words, lowercased
	year     int
}

var etAlRE = regexp.MustCompile(`([A-Z][\p{L}'’-]+)\s+(?:et\s+al|and\s+[A-Z])`)

// citeRE finds a paper cited the way papers cite each other: "Rahman et
// al.", "Kim (2014)", "Hinton and Salakhutdinov". Such a citation names the
// FIRST author (and, in the two-author form, the second too), which tells
// one paper from another by the same group or on the same topic.
var citeRE = regexp.MustCompile(`([A-Z][\p{L}'’-]+)(?:\s+et\s+al\b|\s*\((?:19|20)\d\d[a-z]?\)|\s+and\s+([A-Z][\p{L}'’-]+))`)

// cited reports whether the question cites c by its first author (in the
// two-author form, by its first two authors; a card without author
// metadata matches on its front-matter names in any order).
func (c *card) cited(cites [][]string) bool {
	for _, m := range cites {
		a, b := strings.ToLower(trimWord(m[1])), strings.ToLower(trimWord(m[2]))
		firstOK := c.first == a || c.first == "" && c.surnames[a]
		if firstOK && (b == "" || c.surnames[b]) {
			return true
		}
	}
	return false
}

func newCard(id int64, title string, authors []string, year int, abstract, front string) *card {
	c := &card{id: id, own: map[string]bool{}, names: map[string]bool{}, surnames: map[string]bool{}, year: year}
	// In an all-capitals title every word looks like an acronym: only the
	// lead before a colon can then be the paper's name.
	capsTitle := strings.IndexFunc(title, unicode.IsLower) < 0
	if i := strings.Index(title, ":"); i > 0 && len(strings.Fields(title[:i])) <= 3 {
		lead := strings.TrimSpace(title[:i])
		c.lead = strings.ToLower(lead)
		c.own[c.lead] = true
		for _, w := range strings.Fields(lead) {
			// "THE" of "THE PERCEPTRON: ..." looks like an acronym in
			// capitals; a function word is never a paper's name.
			if NameLike(w) && !embedding.IsStopword(strings.ToLower(trimWord(w))) {
				c.own[strings.ToLower(trimWord(w))] = true
			}
		}
	}
	// A function word in capitals is emphasis ("How NOT To Evaluate ..."),
	// never a name: "not" in a question named that paper.
	if !capsTitle {
		for _, w := range strings.Fields(title) {
			if NameLike(w) && !embedding.IsStopword(strings.ToLower(trimWord(w))) {
				c.own[strings.ToLower(trimWord(w))] = true
			}
		}
	}
	for _, w := range strings.Fields(title + " " + abstract) {
		if NameLike(w) && !(capsTitle && strings.Contains(title, w)) && !embedding.IsStopword(strings.ToLower(trimWord(w))) {
			c.names[strings.ToLower(trimWord(w))] = true
		}
	}
	// "GPT-2" is also written "GPT2" (and "Bi-LSTM" "BiLSTM"): each
	// hyphenated name answers to its spelling without hyphens too.
	for _, m := range []map[string]bool{c.own, c.names} {
		for n := range m {
			if strings.Contains(n, "-") {
				m[strings.ReplaceAll(n, "-", "")] = true
			}
		}
	}
	for own := range c.own {
		c.names[own] = true
	}
	for _, a := range authors {
		f := strings.Fields(a)
		if len(f) > 0 {
			// Lowercased: metadata spells a name in any case
			// ("Warren S. Mcculloch") and a question as it is cited
			// ("McCulloch and Pitts").
			sn := strings.ToLower(trimWord(f[len(f)-1]))
			c.surnames[sn] = true
			if c.first == "" {
				c.first = sn
			}
		}
	}
	if len(authors) == 0 {
		// No author metadata: capitalised words of the front matter's first
		// lines stand in (names, affiliations; matching needs a
		// capitalised word in the question, so affiliations rarely match).
		for i, w := range strings.Fields(front) {
			if i > 60 {
				break
			}
			w = trimWord(w)
			// Old papers print their authors in capitals ("By A. M.
			// TURING."): a word of letters only, all capitals, stands for
			// the name as a question writes it ("Turing's paper").
			if capsWord(w) {
				w = string([]rune(w)[:1]) + strings.ToLower(string([]rune(w)[1:]))
			}
			if r := []rune(w); len(r) >= 3 && unicode.IsUpper(r[0]) && !NameLike(w) && !embedding.IsStopword(strings.ToLower(w)) {
				c.surnames[strings.ToLower(w)] = true
			}
		}
	}
	if c.year == 0 {
		// No year metadata: the year its front matter prints ("Received
		// 28 May, 1936", "June 30, 1905") stands in.
		c.year = frontYear(front)
	}
	c.title = QuestionTerms(title)
	for _, w := range strings.Fields(strings.ToLower(title)) {
		if w = trimWord(w); w != "" {
			c.words = append(c.words, w)
		}
	}
	return c
}

// capsWord reports whether w is three or more letters, all capitals.
func capsWord(w string) bool {
	n := 0
	for _, r := range w {
		if !unicode.IsUpper(r) {
			return false
		}
		n++
	}
	return n >= 3
}

// identYearRE finds a year in a question or a paper's front matter, old
// papers' years included ("Turing's 1936 paper"); a year counts only beside
// another sign of the paper, so a count of 1800 images costs nothing.
var identYearRE = regexp.MustCompile(`\b(1[6-9]\d\d|20\d\d)[a-z]?\b`)

// frontYear returns the first year the front matter prints (0 if none),
// skipping numbers that are parts of identifiers or ranges: arXiv ids
// ("1907.03199"), pages ("1735-1780"), volumes ("9(8):1997"). A year is
// what identYearRE matches: four digits from 1600 to 2099 standing alone,
// a letter after them allowed ("2019a"). It scans by hand and stops at the
// first year: every paper without year metadata is read so when the
// library's identity cards are built, and the regular expression's search
// for every match was a fifth of that at 5,000 papers.
func frontYear(front string) int {
	word := func(c byte) bool { // \w of Go's regexp (ASCII)
		return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
	}
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	for i := 0; i < len(front); i++ {
		if !digit(front[i]) || i > 0 && word(front[i-1]) {
			continue
		}
		a, b := i, i
		for b < len(front) && digit(front[b]) {
			b++
		}
		i = b
		if b-a != 4 {
			continue
		}
		end := b
		if end < len(front) && front[end] >= 'a' && front[end] <= 'z' {
			end++
		}
		if end < len(front) && word(front[end]) {
			continue
		}
		y, _ := strconv.Atoi(front[a:b])
		if y < 1600 || y > 2099 {
			continue
		}
		if a > 0 && strings.ContainsRune(".:/-–", rune(front[a-1])) {
			continue
		}
		if b < len(front) && strings.ContainsRune(".-–/", rune(front[b])) && b+1 < len(front) && front[b+1] >= '0' && front[b+1] <= '9' {
			continue
		}
		return y
	}
	return 0
}

func trimWord(w string) string {
	w = strings.Trim(w, ".,;:?!¿¡()[]{}\"'’*†‡∗")
	w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
	return w
}

// cardOf builds the card of a loaded paper (cached with its other signals).
func cardOf(d *PaperData) *card {
	x := extraOf(d)
	extras.Lock()
	defer extras.Unlock()
	if x.card != nil {
		return x.card
	}
	var front, abstract strings.Builder
	abstract.WriteString(d.Paper.Abstract)
	for o, n := range d.Nodes {
		if !n.IsLeaf() {
			continue
		}
		if n.Role == papertree.RoleFrontMatter || d.Parent[o] == 0 && front.Len() < 400 {
			front.WriteString(n.Text + " ")
		}
		if d.Paper.Abstract == "" && d.Parent[o] > 0 && d.Nodes[d.Parent[o]].Role == papertree.RoleAbstract {
			abstract.WriteString(n.Text + " ")
		}
	}
	x.card = newCard(d.Paper.ID, d.Paper.Title, d.Paper.Authors, d.Paper.Year, abstract.String(), front.String())
	return x.card
}

// cardSource is implemented by indexes that can build every paper's
// identity card without loading the papers (StoreIndex): identification
// then reads the same signals (title, authors, year, abstract names, front
// matter) at every library size.
type cardSource interface {
	identityCards(ctx context.Context, all []int64) *cardSet
}

// cardCache holds a StoreIndex's identity cards for the library state they
// were built from (its ready paper ids: a re-indexed paper gets new ids).
type cardCache struct {
	mu    sync.Mutex
	key   [2]int64
	cards *cardSet
}

// identityCards returns the cards of every ready paper, built from
// store.IdentityRows once per library state.
func (ix *StoreIndex) identityCards(ctx context.Context, all []int64) *cardSet {
	key := [2]int64{int64(len(all))}
	for _, id := range all {
		key[1] = key[1]*31 + id
	}
	c := &ix.cards
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cards != nil && c.key == key {
		return c.cards
	}
	rows, err := ix.st.IdentityRows(ctx)
	if err != nil {
		return nil
	}
	cards := make([]*card, 0, len(rows))
	for _, r := range rows {
		cards = append(cards, newCard(r.ID, r.Title, r.Authors, r.Year, r.Abstract, r.Front))
	}
	c.key, c.cards = key, newCardSet(cards)
	return c.cards
}

// scores rates how clearly the question names each card's paper: 3 for
// the paper's own name ("GloVe", "CatBoost"), 2 for an author's surname
// written as a name ("Pennington et al.", "Dalal and Triggs") or for most
// of its title, 2 for a name-like word of its title or abstract that no
// other paper's title or abstract has ("WebText"; 1 when two share it), 0.5
// for its year. Only the cards the question touches are scored (touched).
func (set *cardSet) scores(question *query.Question) map[int64]float64 {
	return set.scoresOf(question, set.touched)
}

// scoresOf scores the cards pick returns for the question's words.
func (set *cardSet) scoresOf(question *query.Question, pick func(qwords, qterms map[string]bool, qcaps, qnames []string) []int) map[int64]float64 {
	cards, df, leads := set.cards, set.df, set.leads
	q := question.Text
	out := map[int64]float64{}
	var qnames, qcaps []string
	// authorUse: the capitalised words the question uses as an author is
	// named, cited ("Lamport (1978)", "Hoare et al.") or possessive
	// ("Turing's paper").
	authorUse := map[string]bool{}
	ql := strings.ToLower(q)
	for i, raw := range strings.Fields(q) {
		w := trimWord(raw)
		if w == "" {
			continue
		}
		if t := strings.Trim(raw, ".,;:?!()[]{}\"“”"); strings.HasSuffix(t, "'s") || strings.HasSuffix(t, "’s") {
			authorUse[w] = true
		}
		if NameLike(w) {
			qnames = append(qnames, strings.ToLower(w))
		}
		if r := []rune(w); i > 0 && unicode.IsUpper(r[0]) || i == 0 && etAlRE.MatchString(q) {
			qcaps = append(qcaps, w)
		}
	}
	cites := citeRE.FindAllStringSubmatch(q, -1)
	for _, m := range cites {
		authorUse[trimWord(m[1])], authorUse[trimWord(m[2])] = true, true
	}
	qterms := map[string]bool{}
	for _, t := range question.Terms {
		qterms[t] = true
	}
	years := map[int]bool{}
	for _, m := range identYearRE.FindAllString(q, -1) {
		if y, err := strconv.Atoi(m[:4]); err == nil {
			years[y] = true
		}
	}
	qwords := map[string]bool{}
	var qw []string
	for _, w := range strings.Fields(ql) {
		w = trimWord(w)
		qwords[w] = true
		qw = append(qw, w)
	}
	// The runs of title words each touching paper quotes, and how many
	// titles hold each: a run names a paper only when no other paper's
	// title holds it ("Distilling the Knowledge" does; "a neural network"
	// is in two titles and "neural network" in many, so it names none).
	// runs[i] is nil for a paper the question does not touch.
	runs := make([]map[string]bool, len(cards))
	runDF := map[string]int{}
	touched := pick(qwords, qterms, qcaps, qnames)
	for _, i := range touched {
		c := cards[i]
		runs[i] = titleRuns(qw, c.words)
		for r := range runs[i] {
			runDF[r]++
		}
	}
	for _, i := range touched {
		c := cards[i]
		s := 0.0
		if len(c.lead) >= 3 && leads[c.lead] == 1 && containsPhrase(ql, c.lead) {
			s = 3 // the name a paper gives itself in its title, however common elsewhere
		}
		for own := range c.own {
			if s > 0 {
				break
			}
			// The paper's own name counts when few papers use that word
			// ("BERT" is also in the mBERT paper's title: both get it).
			// ... and no other paper calls itself so in its title lead.
			if len(own) >= 3 && df[own] <= 2 && leads[own] == 0 && containsPhrase(ql, own) {
				s = 3
				break
			}
		}
		author := false
		for _, w := range qcaps {
			// A paper without author metadata has the capitalised words
			// of its front matter as stand-in names (affiliations and
			// venue words among them: "Security", "Privacy"); they name
			// it only when the question uses them as an author is named.
			// Otherwise a paper that lacks metadata captured every
			// question naming a venue ("the USENIX Security '22 paper").
			if c.surnames[strings.ToLower(w)] && (c.first != "" || authorUse[w]) {
				s += 2
				if c.cited(cites) {
					s++
					author = true
				}
				break
			}
		}
		hit := 0
		for _, t := range c.title {
			if qterms[t] {
				hit++
			}
		}
		if f := float64(hit) / float64(len(c.title)); len(c.title) >= 3 && f >= 0.5 {
			s += 2 * f
		} else if author && hit > 0 {
			// Its first author cited and a word of its title ("Hinton et
			// al.'s distillation paper") tell one paper of an author from
			// the others, which the citation alone ties.
			s++
		}
		// A run of the title's words quoted in order ("multilingual BERT")
		// says more than any one of them.
		run := 0
		for r := range runs[i] {
			if runDF[r] == 1 {
				run = max(run, len(strings.Fields(r)))
			}
		}
		if run >= 2 {
			s += float64(run - 1)
		}
		best := 0.0
		for _, n := range qnames {
			if c.names[n] && !c.own[n] && df[n] <= 2 {
				best = max(best, 2/float64(df[n]))
			}
		}
		s += best
		if s > 0 && years[c.year] {
			s += 0.5
		}
		if s > 0 {
			out[c.id] = s
		}
	}
	return out
}

// titleRuns returns every run of two or more consecutive title words that
// occurs as a phrase in the question's words qw and holds a content word
// (runContent: so "of the" and "in the study of" never count), each as its
// words joined by spaces: a longest common substring over words,
// O(len(title) * len(question)) runs ending at each matched pair.
func titleRuns(qw []string, words []string) map[string]bool {
	out := map[string]bool{}
	prev := make([]int, len(qw)+1)
	cur := make([]int, len(qw)+1)
	for i := range words {
		for j := range qw {
			if words[i] != qw[j] {
				cur[j+1] = 0
				continue
			}
			cur[j+1] = prev[j] + 1
			content := runContent(words[i])
			for n := 2; n <= cur[j+1]; n++ {
				content = content || runContent(words[i-n+1])
				if content {
					out[strings.Join(words[i-n+1:i+1], " ")] = true
				}
			}
		}
		prev, cur = cur, prev
	}
	return out
}

// runContent reports whether a title word counts toward a run of title
// words naming a paper: a content word, and not a noun with which a
// question calls a paper ("study", "paper": query.IsRefNoun), so "in the
// study of" (in "Environmental biases in the study of ecological
// networks") names no paper for "In the study of visual gravity, ...".
func runContent(w string) bool {
	return !embedding.IsStopword(w) && !query.IsRefNoun(w)
}

// containsPhrase reports whether phrase occurs in s at word boundaries.
func containsPhrase(s, phrase string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], phrase)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(phrase)
		okA := a == 0 || !isWordByte(s[a-1])
		okB := b == len(s) || !isWordByte(s[b])
		if okA && okB {
			return true
		}
		i = a + 1
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z'
}

// identify returns identity scores for the candidate papers of a
// library-wide question and the paper it clearly names (0 if none): the
// best score is at least 2 and no other paper comes close.
//
// nick are the words the question names the clearly named paper by that it
// does not print itself (its nicknames, resolved through the library's
// citations): they name it, they are not what the question asks of it.
func identify(ctx context.Context, ix Index, q *query.Question, all []int64) (sc map[int64]float64, named int64, nick map[string]bool) {
	var set *cardSet
	if cs, ok := ix.(cardSource); ok {
		// Every paper's card from the store, built once per library
		// state: the same method at every library size.
		set = cs.identityCards(ctx, all)
	} else {
		var cards []*card
		for _, id := range all {
			if d, err := ix.Paper(ctx, id); err == nil {
				cards = append(cards, cardOf(d))
			}
		}
		set = newCardSet(cards)
	}
	if set == nil {
		return nil, 0, nil
	}
	sc = set.scores(q)
	// A name no paper prints, which the library's citations give one
	// paper ("the AlexNet paper [24]"), names it as its own name would.
	clear := false
	for _, v := range sc {
		clear = clear || v >= 2
	}
	nicks := nicknames(ctx, ix, q, set, !clear)
	for _, id := range nicks {
		if sc == nil {
			sc = map[int64]float64{}
		}
		sc[id] += 3
	}
	if len(sc) == 0 {
		return nil, 0, nil
	}
	ids := topPapers(sc, 2)
	best := ids[0]
	if sc[best] >= 2 && (len(ids) == 1 || sc[ids[1]] <= sc[best]-1) {
		for w, id := range nicks {
			if id == best {
				if nick == nil {
					nick = map[string]bool{}
				}
				nick[w] = true
			}
		}
		return sc, best, nick
	}
	return sc, 0, nil
}
