package retrieve

// Signals shared by retrieval and answering: what kind of question this is,
// which sentences bear an answer to it, which passages are bibliography or
// acknowledgements (never evidence unless the question asks about citations
// or funding), and which of the question's words the searched papers never
// use (the strongest sign that they cannot answer it).
//
// Every signal here holds for any paper: question words, numbers, causal
// language, citation formatting; nothing is keyed to one file.

import (
	"bytes"
	"math"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
)

// causalCues mark sentences that explain a cause, a purpose or a method.
var causalCues = []string{"because", "due to", "since ", "so that", "in order to", "allow", "enabl", "lead to", "leads to",
	"result in", "results in", "thus", "therefore", "by ", "avoid", "prevent", "reduc", "help", "thanks to", "as a result",
	"caused", "cause", "to address", "to overcome", "consist", "we use", "we employ", "difficult", ", to ", "so as to", "aims to", "in this way"}

// SentenceScore rates how likely sentence is to carry the answer: the
// share of the question's terms it contains (plain coverage when kind is
// ""), plus a bonus for the
// answer-bearing language of the question's kind (a number for a factual
// question, causal or method language for a how/why question). A sentence
// that merely restates the question gets the overlap but no bonus, so a
// sentence that also answers it ranks first.
func SentenceScore(qterms []string, kind, sentence string) float64 {
	return sentenceScore(qterms, kind, sentence, embedding.ContentStems(sentence))
}

// questionScore is SentenceScore for question, whose terms a sentence
// holds also in another form the searched paper defines (query.Same).
func questionScore(question *query.Question, kind, sentence string) float64 {
	return sentenceScore(question.Terms, kind, sentence, question.Expand(embedding.ContentStems(sentence)))
}

// sentenceScore is SentenceScore over the sentence's stems.
func sentenceScore(qterms []string, kind, sentence string, stems []string) float64 {
	if len(qterms) == 0 {
		return 0
	}
	have := map[string]bool{}
	for _, t := range stems {
		have[t] = true
	}
	hit := 0
	for _, t := range qterms {
		if have[t] {
			hit++
		}
	}
	cov := float64(hit) / float64(len(qterms))
	if kind == "" {
		return cov
	}
	// Coverage has diminishing returns (sqrt): once a sentence is clearly
	// about the question, whether it carries the kind of content the
	// question asks for matters more than repeating more of its words.
	s := 0.6 * math.Sqrt(cov)
	if hit > 0 {
		switch kind {
		case KindFactual:
			if strings.IndexFunc(sentence, unicode.IsDigit) >= 0 {
				s += 0.3
			}
		case KindHowWhy:
			if hasCausalCue(sentence) {
				s += 0.3
			}
		}
	}
	// Very short fragments (a heading, a table cell) rarely answer anything.
	if !fieldsAtLeast(sentence, 5) {
		s -= 0.2
	}
	return s
}

// causalByFirst holds the causal cues by their first byte and causalPair
// marks their first two bytes, so that hasCausalCue reads a sentence once
// instead of once per cue and looks closer only where a cue can start.
var causalByFirst, causalPair = func() (t [256][]string, pair [1 << 16 / 64]uint64) {
	for _, c := range causalCues {
		t[c[0]] = append(t[c[0]], c)
		k := int(c[0])<<8 | int(c[1])
		pair[k/64] |= 1 << (k % 64)
	}
	return t, pair
}()

// hasCausalCue reports whether sentence, lowercased, contains one of the
// causal cues, as strings.Contains(strings.ToLower(sentence), c) for each
// c would (cues are lowercase ASCII; an ASCII sentence is lowercased byte
// by byte as it is read, any other is lowercased first).
func hasCausalCue(sentence string) bool {
	for i := 0; i < len(sentence); i++ {
		if sentence[i] >= utf8.RuneSelf {
			return causalIn(strings.ToLower(sentence), false)
		}
	}
	return causalIn(sentence, true)
}

func causalIn(s string, fold bool) bool {
	lower := func(c byte) byte {
		if fold && c >= 'A' && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return c
	}
	for i := 0; i+1 < len(s); i++ {
		k := int(lower(s[i]))<<8 | int(lower(s[i+1]))
		if causalPair[k/64]&(1<<(k%64)) == 0 {
			continue
		}
	cues:
		for _, c := range causalByFirst[lower(s[i])] {
			if len(s)-i < len(c) {
				continue
			}
			for j := 1; j < len(c); j++ {
				if lower(s[i+j]) != c[j] {
					continue cues
				}
			}
			return true
		}
	}
	return false
}

// fieldsAtLeast reports whether len(strings.Fields(s)) >= n, without
// building the fields.
func fieldsAtLeast(s string, n int) bool {
	k, in := 0, false
	for _, r := range s {
		sp := r < utf8.RuneSelf && asciiSpace[r] || r >= utf8.RuneSelf && unicode.IsSpace(r)
		if !sp && !in {
			if k++; k >= n {
				return true
			}
		}
		in = !sp
	}
	return false
}

var (
	yearRE     = regexp.MustCompile(`\b(19[5-9]\d|20[0-4]\d)[a-z]?\b`)
	initialsRE = regexp.MustCompile(`\b[A-Z]\.\s?(?:[A-Z]\.\s?)?[A-Z][a-z]`)
	venueRE    = regexp.MustCompile(`(?i)\b(proceedings|proc\.|conference|journal|transactions|arxiv|preprint|workshop|vol\.|pp\.|pages|press|association for computational|ieee|acm)\b`)
)

// ReferenceLike reports whether a passage reads as a list of bibliography
// entries: years, author initials and venue words make up a large share of
// its words. A related-work paragraph cites too, but in running prose it
// has far fewer initials and venue words per word. This catches reference
// lists that tree building merged into a body section.
func ReferenceLike(text string) bool {
	words := len(strings.Fields(text))
	if words < 12 {
		return false
	}
	years := len(yearRE.FindAllStringIndex(text, -1))
	if years < 2 || float64(years)/float64(words) < 0.03 {
		return false
	}
	// Running prose with citations has years but few initials and venue
	// words: an upper bound on those two counts, one byte scan, spares
	// both expressions (the costliest part of a paper's first load).
	if ini, ven := marksBound(text); float64(years+ini+ven)/float64(words) < 0.12 {
		return false
	}
	marks := years + len(initialsRE.FindAllStringIndex(text, -1)) + len(venueRE.FindAllStringIndex(text, -1))
	return float64(marks)/float64(words) >= 0.12
}

// venueFirst are the words venueRE's matches start with, lowercased
// ("proc." starts with the word "proc", "association for computational"
// with "association").
var venueFirst = map[string]bool{"proceedings": true, "proc": true, "conference": true, "journal": true, "transactions": true,
	"arxiv": true, "preprint": true, "workshop": true, "vol": true, "pp": true, "pages": true, "press": true,
	"association": true, "ieee": true, "acm": true}

// marksBound bounds from above the number of matches of initialsRE (each
// holds an ASCII capital followed by a period, matches do not overlap) and
// of venueRE (each starts a run of ASCII word characters that is one of
// venueFirst). Of the letters that fold to ASCII under (?i), the long s
// can spell a venue word ("preſs"; none has a k, the Kelvin sign's fold):
// a text that has one gets no bound.
func marksBound(text string) (initials, venues int) {
	if strings.Contains(text, "\u017f") {
		return len(text), len(text)
	}
	var w [12]byte
	n := 0 // length of the current word run (ASCII word characters)
	end := func() {
		if n > 0 && n <= len(w) && venueFirst[string(w[:n])] {
			venues++
		}
		n = 0
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c >= 'A' && c <= 'Z':
			if i+1 < len(text) && text[i+1] == '.' {
				initials++
			}
			if n < len(w) {
				w[n] = c + 'a' - 'A'
			}
			n++
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_':
			if n < len(w) {
				w[n] = c
			}
			n++
		default:
			end()
		}
	}
	end()
	return initials, venues
}

// paperExtra caches per-paper signals derived from its text.
type paperExtra struct {
	refs  []bool          // by order: leaf is bibliography or acknowledgements
	vocab map[string]bool // stems of every word of the paper (titles included)
	words map[string]bool // lowercased surface words (for names such as "GPT-2")
	card  *card           // identity card, built on first use (guarded by extras)
	sents [][]sentSig     // by order: each leaf's sentences as stem sets
}

// sentSig is one sentence reduced to what SentenceScore needs.
type sentSig struct {
	stems  []string // distinct stems (a slice: thousands of sentences per paper stay small)
	digit  bool
	causal bool
	short  bool
}

// sigReader reads one goroutine's sentences into signatures: each distinct
// word is stemmed once (a paper repeats most of its words) and a
// sentence's stems are made distinct by stem id, with no map per sentence.
type sigReader struct {
	stems *embedding.StemCache
	last  []int32 // by stem id: the number of the last sentence that had it
	n     int32   // sentences read
}

func newSigReader() *sigReader { return &sigReader{stems: embedding.NewStemCache()} }

// sig is sentence's signature: its distinct content stems in order of
// first use, whether it has a digit, causal language, fewer than 5 words.
func (r *sigReader) sig(sentence string) sentSig {
	r.n++
	g := sentSig{digit: strings.IndexFunc(sentence, unicode.IsDigit) >= 0, short: !fieldsAtLeast(sentence, 5)}
	r.stems.ContentStems(sentence, func(t string, id int32) {
		for int(id) >= len(r.last) {
			r.last = append(r.last, 0)
		}
		if r.last[id] != r.n {
			r.last[id] = r.n
			g.stems = append(g.stems, t)
		}
	})
	g.causal = hasCausalCue(sentence)
	return g
}

// weighted is SentenceScore over a precomputed sentence, with the share of
// the question's terms weighed by w (by term; nil counts every term alike,
// as SentenceScore does).
func (g sentSig) weighted(qterms []string, w []float64, kind string) float64 {
	if len(qterms) == 0 {
		return 0
	}
	hit := 0
	got, all := 0.0, 0.0
	for i, t := range qterms {
		wt := 1.0
		if w != nil {
			wt = w[i]
		}
		all += wt
		for _, x := range g.stems {
			if x == t {
				hit++
				got += wt
				break
			}
		}
	}
	cov := 0.0
	if all > 0 {
		cov = got / all
	}
	s := 0.6 * math.Sqrt(cov)
	if hit > 0 && (kind == KindFactual && g.digit || kind == KindHowWhy && g.causal) {
		s += 0.3
	}
	if g.short {
		s -= 0.2
	}
	return s
}

// bestSentence returns, per leaf order, the SentenceScore of its best
// sentence: a passage whose single sentence answers the question should
// not lose to a passage that is merely about the same topic overall (whole
// passage vectors dilute one answering sentence among many).
//
// With within (the leaves of one searched paper), a sentence's share of the
// question's terms weighs each term by its rarity among those leaves
// (paperTermWeights) instead of counting every term alike.
func bestSentence(d *PaperData, question *query.Question, within []int) []float64 {
	x := extraOf(d)
	out := make([]float64, len(d.Nodes))
	var w []float64
	if within != nil {
		w = paperTermWeights(x, question, within)
	}
	for o, ss := range x.sents {
		for _, g := range ss {
			g.stems = question.Expand(g.stems)
			out[o] = max(out[o], g.weighted(question.Terms, w, question.Kind))
		}
	}
	return out
}

// paperTermWeights weighs each question term by its rarity among the
// leaves of one paper: BM25's IDF with those leaves as the collection,
// divided by the IDF of a term no leaf holds (1 for a term the paper never
// or rarely uses, near 0 for one in every leaf). The IDF of the library or
// of the embedder's prior says how rare a term is in general; inside the
// paper about capsules, "capsule" is in nearly every passage and points at
// its abstract and introduction, not at the passage that answers.
func paperTermWeights(x *paperExtra, question *query.Question, leaves []int) []float64 {
	qt := question.Terms
	if len(qt) == 0 || len(qt) > 64 || len(leaves) == 0 {
		return nil
	}
	df := make([]int, len(qt))
	for _, o := range leaves {
		var m uint64
		for _, g := range x.sents[o] {
			m |= termMask(qt, question.Expand(g.stems))
		}
		for i := range qt {
			if m&(1<<i) != 0 {
				df[i]++
			}
		}
	}
	n := float64(len(leaves))
	idf := func(df int) float64 { return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5)) }
	w := make([]float64, len(qt))
	for i := range qt {
		w[i] = idf(df[i]) / idf(0)
	}
	return w
}

// extraEntry is one paper's signals, computed once by the first caller and
// outside the cache's lock: the papers of a question, and concurrent
// questions, compute theirs at the same time instead of one after another.
type extraEntry struct {
	done chan struct{} // closed when x is set
	x    *paperExtra
}

// extras guards PaperData.extra and paperExtra.card. A paper's signals
// live on the paper (not in a table of their own), so they go when the
// paper leaves its index's cache or the index is dropped: a table keyed by
// paper kept up to 512 papers alive with their vectors after their library
// was closed.
var extras sync.Mutex

func extraOf(d *PaperData) *paperExtra {
	extras.Lock()
	e := d.extra
	ok := e != nil
	if !ok {
		e = &extraEntry{done: make(chan struct{})}
		d.extra = e
	}
	extras.Unlock()
	if ok {
		<-e.done
		if e.x != nil {
			return e.x
		}
		return buildExtra(d) // the first caller panicked; do the work here
	}
	defer close(e.done)
	e.x = buildExtra(d)
	return e.x
}

func buildExtra(d *PaperData) *paperExtra {
	return buildExtraN(d, min(runtime.GOMAXPROCS(0), maxExtraWorkers))
}

// Splitting a paper's leaves between goroutines: at most maxExtraWorkers,
// and only for papers with at least extraBytesPerWorker bytes of leaf text
// per worker (smaller ones are done sooner than goroutines start).
const (
	maxExtraWorkers     = 4
	extraBytesPerWorker = 8 << 10
)

// buildExtraN makes one pass over the paper: sentence signatures per leaf
// (whose stems are also the paper's vocabulary), bibliography flags and
// surface words. It is the first use of a paper's text in a process, the
// bulk of a cold question's cost, so the leaves are split between
// goroutines when the paper is large enough and cores are free; every leaf
// is computed exactly as in one pass (its flags and sentences go to its
// own slots; vocabulary and words are sets, merged at the end).
func buildExtraN(d *PaperData, maxWorkers int) *paperExtra {
	x := &paperExtra{refs: make([]bool, len(d.Nodes)), vocab: map[string]bool{}, words: map[string]bool{}, sents: make([][]sentSig, len(d.Nodes))}
	role := make([]papertree.Role, len(d.Nodes))
	for _, t := range embedding.ContentStems(d.Paper.Title) {
		x.vocab[t] = true
	}
	addSurfaceWords(x.words, d.Paper.Title)
	var leaves []int
	size := 0
	for o, n := range d.Nodes {
		if n.Role != papertree.RoleNone {
			role[o] = n.Role
		} else if p := d.Parent[o]; p >= 0 {
			role[o] = role[p]
		}
		if !n.IsLeaf() {
			for _, t := range embedding.ContentStems(n.Title) {
				x.vocab[t] = true
			}
			addSurfaceWords(x.words, n.Title)
			continue
		}
		leaves = append(leaves, o)
		size += len(n.Text)
	}
	leafPass := func(leaves []int, vocab, words map[string]bool) {
		r := newSigReader()
		for _, o := range leaves {
			n := d.Nodes[o]
			x.refs[o] = role[o] == papertree.RoleReferences || role[o] == papertree.RoleAcks ||
				mayBeReferences(n.Text) && ReferenceLike(n.Text)
			for _, sen := range papertree.SplitSentences(n.Text) {
				g := r.sig(sen)
				for _, t := range g.stems {
					vocab[t] = true
				}
				x.sents[o] = append(x.sents[o], g)
			}
			addSurfaceWords(words, n.Text)
		}
	}
	workers := min(maxWorkers, size/extraBytesPerWorker)
	if workers <= 1 {
		leafPass(leaves, x.vocab, x.words)
		return x
	}
	// Contiguous runs of leaves with about equal text each.
	type part struct {
		leaves       []int
		vocab, words map[string]bool
	}
	parts := make([]part, 0, workers)
	from, acc := 0, 0
	for i, o := range leaves {
		acc += len(d.Nodes[o].Text)
		if acc*workers >= size*(len(parts)+1) || i == len(leaves)-1 {
			parts = append(parts, part{leaves: leaves[from : i+1], vocab: map[string]bool{}, words: map[string]bool{}})
			from = i + 1
		}
	}
	var wg sync.WaitGroup
	for i := 1; i < len(parts); i++ {
		wg.Add(1)
		go func(p part) {
			defer wg.Done()
			leafPass(p.leaves, p.vocab, p.words)
		}(parts[i])
	}
	leafPass(parts[0].leaves, x.vocab, x.words)
	wg.Wait()
	for _, p := range parts[1:] {
		for t := range p.vocab {
			x.vocab[t] = true
		}
		for w := range p.words {
			x.words[w] = true
		}
	}
	return x
}

// addSurfaceWords adds the lowercased words of text (runs of letters,
// digits and hyphens, hyphens trimmed at both ends) to words, in one pass
// with no copy of the text: what the split of strings.ToLower(text) on
// other characters gives.
func addSurfaceWords(words map[string]bool, text string) {
	var buf []byte
	flush := func() {
		if len(buf) == 0 {
			return
		}
		w := buf
		for len(w) > 0 && w[0] == '-' {
			w = w[1:]
		}
		for len(w) > 0 && w[len(w)-1] == '-' {
			w = w[:len(w)-1]
		}
		if !words[string(w)] {
			words[string(w)] = true
		}
		if bytes.IndexByte(w, '-') >= 0 {
			// "GPT-2" also answers to "GPT2" in a question.
			words[string(bytes.ReplaceAll(w, []byte("-"), nil))] = true
		}
		buf = buf[:0]
	}
	for _, r := range text {
		r = unicode.ToLower(r)
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' {
			buf = utf8.AppendRune(buf, r)
		} else {
			flush()
		}
	}
	flush()
}

// mayBeReferences is a necessary condition for ReferenceLike, checked with
// one byte scan: at least 12 words, and at least two places where yearRE
// can match (19[5-9]d or 20[0-4]d, boundaries aside), making at least 3% of
// the words. Counting places where a year can start over-counts years and
// counting fields is strings.Fields' count, so a passage it rejects is not
// a bibliography; it spares the regular expressions (a third of a paper's
// first load) for most passages. TestMayBeReferencesIsNecessary keeps it in
// step with ReferenceLike.
func mayBeReferences(text string) bool {
	words, years := 0, 0
	inWord := false
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			sp := asciiSpace[c]
			if !sp && !inWord {
				words++
			}
			inWord = !sp
			if i+3 < len(text) && (c == '1' && text[i+1] == '9' && text[i+2] >= '5' && text[i+2] <= '9' ||
				c == '2' && text[i+1] == '0' && text[i+2] >= '0' && text[i+2] <= '4') && text[i+3] >= '0' && text[i+3] <= '9' {
				years++
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		sp := unicode.IsSpace(r)
		if !sp && !inWord {
			words++
		}
		inWord = !sp
		i += n
	}
	return words >= 12 && years >= 2 && float64(years)/float64(words) >= 0.03
}

// asciiSpace marks the ASCII bytes unicode.IsSpace accepts.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// missingTerms returns the question's content words that none of the papers
// uses, and whether one of them is a name (a name absent from every searched
// paper means these papers are not about it).
func missingTerms(q string, ds []*PaperData) (missing []string, name bool, terms int) {
	xs := make([]*paperExtra, len(ds))
	for i, d := range ds {
		xs[i] = extraOf(d)
	}
	fields := strings.Fields(q)
	words := make([]string, len(fields))
	nameAt := make([]bool, len(fields))
	for k, raw := range fields {
		w := strings.Trim(raw, ".,;:?!()\"'’")
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		words[k] = w
		// A capitalised word inside the question is a proper name too
		// ("Stable Diffusion", "Hopfield").
		nameAt[k] = w != "" && (NameLike(w) || k > 0 && len(w) >= 3 && unicode.IsUpper([]rune(w)[0]) && !embedding.IsStopword(strings.ToLower(w)))
	}
	group := orGroups(fields, nameAt)
	found := map[int]bool{} // or-groups with a name the papers use
	var missingNames []int  // their groups (-1: none)
	seen := map[string]bool{}
	var cjk []string // by paper: its text for CJK words (CJKCompact), read on first use
	for k, w := range words {
		if k > 0 && strings.EqualFold(words[k-1], "how") {
			continue // "how long", "how many": what is asked, in any words
		}
		if w == "" {
			continue
		}
		if unsegmented(w) {
			// A clause of a spaceless script: its content words (CJK
			// text cut at scaffold and function characters) are the
			// question's words; one is used when a searched paper
			// prints it (papertree.CJKPrinted).
			for _, cw := range papertree.CJKContentWords(w) {
				if seen[cw] {
					continue
				}
				seen[cw] = true
				terms++
				if cjk == nil {
					cjk = make([]string, len(ds))
					for i, d := range ds {
						var b strings.Builder
						for _, n := range d.Nodes {
							b.WriteString(n.Title)
							b.WriteString("\n")
							b.WriteString(n.Text)
							b.WriteString("\n")
						}
						cjk[i] = papertree.CJKCompact(b.String())
					}
				}
				if !slices.ContainsFunc(cjk, func(text string) bool { return papertree.CJKPrinted(text, cw) }) {
					missing = append(missing, cw)
				}
			}
			continue
		}
		lw := strings.ToLower(w)
		isName := nameAt[k]
		stems := embedding.QueryTerms(lw)
		if !isName && (len(stems) == 0 || stems[0] == embedding.NumTerm || query.IsScaffold(stems[0])) {
			continue
		}
		key := lw
		if !isName {
			key = stems[0]
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		terms++
		used := false
		for _, x := range xs {
			if isName && x.words[lw] || !isName && x.vocab[key] {
				used = true
				break
			}
			if isName {
				// "GPT-2" may be written "GPT 2" or "GPT2"; "XGBoost" stems alike.
				if x.words[strings.ReplaceAll(lw, "-", "")] || (len(stems) > 0 && x.vocab[stems[0]] && !strings.ContainsAny(lw, "0123456789")) ||
					modifiedName(lw, x.words) {
					used = true
					break
				}
			}
		}
		switch {
		case used && isName:
			found[group[k]] = true
		case !used:
			missing = append(missing, w)
			if isName {
				missingNames = append(missingNames, group[k])
			}
		}
	}
	for _, g := range missingNames {
		// "... on PASCAL VOC, MS COCO or ILSVRC": names joined by "or" are
		// alternatives; one the papers use is enough for them to answer.
		name = name || g < 0 || !found[g]
	}
	return missing, name, terms
}

// unsegmented reports a field in a script written without spaces between
// words (Chinese, Japanese, Thai, ...): "在不平衡情绪分类中，多次随机欠采样时"
// is a clause, not a word, so neither whether the papers use it nor a
// reply saying they never do means anything.
func unsegmented(w string) bool {
	return strings.IndexFunc(w, func(r rune) bool {
		return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
	}) >= 0
}

// orGroups numbers the runs of names joined by "or" ("PASCAL VOC, MS COCO
// or ILSVRC"): group[k] is the run of word k, -1 for a word in none ("Deal
// or No Deal" joins no names: "No" is not one).
func orGroups(fields []string, nameAt []bool) []int {
	group := make([]int, len(fields))
	for k := range group {
		group[k] = -1
	}
	// A short acronym ("MS" of "MS COCO") continues a name.
	part := func(k int) bool {
		w := strings.Trim(fields[k], ".,;:?!()\"'’")
		return nameAt[k] || len(w) >= 2 && strings.ToUpper(w) == w && strings.IndexFunc(w, unicode.IsLetter) >= 0
	}
	for j := 1; j+1 < len(fields); j++ {
		if !strings.EqualFold(fields[j], "or") || !nameAt[j-1] || !nameAt[j+1] {
			continue
		}
		g := j
		if group[j-1] >= 0 {
			g = group[j-1] // "A or B or C"
		}
		for k := j - 1; k >= 0 && part(k) && group[k] < 0; k-- {
			group[k] = g
		}
		for k := j + 1; k < len(fields) && part(k); k++ {
			group[k] = g
		}
	}
	return group
}

// modifiedName reports a hyphenated name whose name parts the paper uses
// and whose other parts are plain lowercase words that modify it
// ("word2vec-style", "bert-based"): the paper need not use the compound.
// A part with a digit is a version ("gpt-4", "resnet-50") and must be
// used as it is.
func modifiedName(lw string, words map[string]bool) bool {
	parts := strings.Split(lw, "-")
	if len(parts) < 2 {
		return false
	}
	named := false
	for _, p := range parts {
		switch {
		case p == "":
			return false
		case words[p] && NameLike(p) || words[p] && named:
			named = true
		case strings.IndexFunc(p, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 && !NameLike(p):
			// a plain word modifying the name
		default:
			return false
		}
	}
	return named
}
