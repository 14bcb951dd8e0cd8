package compare

import (
	"math"
	"regexp"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

// A sentence is read as stating an aspect of the paper's own work when it
// has a value shape of the aspect that is not negated ("without parallel
// hardware"), in a sentence that is not hypothetical ("could be trained on
// a GPU"), not about someone else's work (a citation without "we"/"our"),
// not a bibliography entry and not a formula. The paper's whole text (every
// leaf outside the back matter) is read, so a cell that says "Not in this
// paper" has been checked, not guessed from a score (DESIGN convention 14).

var (
	negators = re(`^(?:without|no|not|never|neither|nor|none|cannot|lack\w*|instead of|rather than|unlike)$`)
	// hypothetical: a condition or a modal about what could be done.
	hypothetical = re(`\b(?:could|would|might|may|should|can|if|whether|no matter|suppose|imagine|hypothetical\w*|in principle|in theory|future work|we plan|one can|one could)\b`)
	firstPerson  = re(`\b(?:we|our|us|ours)\b`)
	// a citation of others' work: [12], (Smith et al., 2015), Smith et al. (2015), (Smith and Lee, 2014)
	citation = regexp.MustCompile(`\[\d+(?:[,–-]\s*\d+)*\]|\([A-Z][\w-]+(?: et al\.?| and [A-Z][\w-]+)?,? (?:19|20)\d\d[a-z]?(?:[;,] [^)]*)?\)|[A-Z][\w-]+ et al\.? \((?:19|20)\d\d\)`)
	// others' work named as the subject: "Previous work has shown", "X et al. used"
	othersSubject = re(`\b(?:previous|prior|past|earlier|recent|related|existing) (?:work|works|studies|approaches|methods|systems)\b|\bet al\.? (?:\((?:19|20)\d\d\) )?(?:use|used|train|trained|show|showed|report|reported|propose|proposed)\b|\b(?:has|have) (?:been )?(?:shown|used|reported|proposed)\b`)
	// a bibliography entry or a reference list flattened into a leaf
	bibEntry = re(`\b(?:In Proceedings|Proceedings of|In Advances in|Journal of|arXiv:\d|arXiv preprint|pp\. ?\d|vol\. ?\d|doi:|ISBN)\b`)
	// a web address: a footnote's link, not a statement
	link = re(`https?://|www\.|\.(?:com|org|html)\b`)
	// formula characters: an inequality or equation read as a sentence
	mathChars = regexp.MustCompile(`[=<>≤≥≠±∑∏∫√∈∀∃⊂⊆→←↔]|\\[a-z]+|\b[a-zA-Z]_\{?[a-z0-9]`)
	// own-work statement cues ("we have used" as "we used")
	ownCue        = re(`\b(?:we (?:have |had )?(?:use|used|train|trained|employ|employed|adopt|adopted|run|ran|evaluate|evaluated|report|measure|measured|optimi[sz]e|pretrain|pre-train|conduct|conducted|consider|collect|collected|recruit|recruited|perform|performed)|our (?:model|models|network|system|implementation|experiments?)|(?:is|are|was|were) (?:trained|evaluated|measured|pre-?trained|optimi[sz]ed|performed|run|implemented|coded|written) (?:on|with|using|for|in)|trained (?:on|with|using|for)|training (?:took|takes|was|is))\b`)
	appendixTitle = re(`^(?:appendix|appendices|supplementary|proof)`)
	wordSplit     = regexp.MustCompile(`[^\p{L}\p{N}'’-]+`)
)

// scored is one sentence of a paper read for an aspect.
type scored struct {
	o       int
	text    string
	values  []string // distinct value shapes, lowercased, not negated
	names   []string // the proper names in them ("WebText", "Google News")
	primary bool     // one of them is of the spec's first (main) shape
	word    bool
	score   float64
}

// shapes returns the distinct value shapes of spec in s (lower is its
// lowercase) that are not negated (a negator among the four words before
// the match), whether one of them names the value (spec.values[:named]),
// and whether s names the aspect (not negated either).
func shapes(spec *aspectSpec, s, lower string) (values []string, primary, word bool) {
	values, primary, word, _ = shapesOf(spec, s, lower)
	return values, primary, word
}

// shapesOf is shapes, and whether every value is of a weak shape.
func shapesOf(spec *aspectSpec, s, lower string) (values []string, primary, word, weak bool) {
	if spec.words.in(lower) {
		for _, m := range spec.words.re.FindAllStringIndex(s, -1) {
			if !negated(s, m[0]) {
				word = true
				break
			}
		}
	}
	if word && len(spec.all) > 0 && !holdsAll(spec.all, s) {
		word = false
	}
	if spec.needWord && !word {
		return nil, false, false, false
	}
	strong := false
	seen := map[string]bool{}
	var spans [][]int // one value named by two shapes counts once
	for i, p := range spec.values {
		if !p.in(lower) {
			continue
		}
	next:
		for _, m := range p.re.FindAllStringIndex(s, -1) {
			v := strings.ToLower(s[m[0]:m[1]])
			if negated(s, m[0]) || inCompoundName(s, m[0], m[1]) || numbersPart(s, m[0]) || spec.drop != nil && spec.drop.MatchString(v) {
				continue
			}
			if i < max(spec.named, 1) {
				primary = true
			}
			if seen[v] {
				continue
			}
			for _, sp := range spans {
				if m[0] < sp[1] && sp[0] < m[1] {
					continue next
				}
			}
			seen[v] = true
			spans = append(spans, m)
			values = append(values, listItems(v)...)
			strong = strong || !p.weak
		}
	}
	return values, primary, word, len(values) > 0 && !strong
}

// inCompoundName reports whether the match s[i:j] is the capitalised tail
// of a hyphenated name ("Auto-Correlation" is a mechanism, not the metric
// "correlation"): a common word of the lexicon joined by a hyphen to the
// word before it and written with a capital. A value with a digit or in
// capitals ("macro-F1", "ImageNet-21k") is a value still.
func inCompoundName(s string, i, j int) bool {
	h := i - 1
	if h > 0 && s[h] == ' ' && s[h-1] == '-' { // a hyphen at a line's end: "Auto- Correlation"
		h--
	}
	if h < 1 || s[h] != '-' || !unicode.IsLetter(rune(s[h-1])) {
		return false
	}
	v := s[i:j]
	if !unicode.IsUpper(rune(v[0])) || strings.ToUpper(v) == v {
		return false
	}
	for _, r := range v {
		if !unicode.IsLetter(r) && r != ' ' {
			return false
		}
	}
	return true
}

// partRef: a word that a number after it numbers a part of the paper
// ("Table 5 provides examples" is no count of examples).
var partRef = re(`(?:\b(?:tables?|figures?|figs?\.?|sections?|sec\.|§|eqs?\.?|equations?|algorithms?|appendix|lines?|steps?)\s*)$`)

// numbersPart reports whether the value at byte offset i of s starts with
// a figure that numbers a table, figure, section or equation.
func numbersPart(s string, i int) bool {
	return i < len(s) && s[i] >= '0' && s[i] <= '9' && partRef.MatchString(s[:i])
}

// negated reports whether one of the four words before byte offset i of s
// is a negator ("without large scale parallel hardware", "no GPU").
func negated(s string, i int) bool {
	ws := wordSplit.Split(strings.TrimSpace(s[:i]), -1)
	for k := len(ws) - 1; k >= 0 && k >= len(ws)-4; k-- {
		if negators.MatchString(ws[k]) {
			return true
		}
	}
	return false
}

// rejected reports why s cannot state the paper's own value ("" if it can):
// a bibliography entry, a formula, a hypothetical ("can be trained using
// SGD or Adagrad", unless the authors state what they did), or others' work
// (a citation or "previous work" without "we"/"our").
func rejected(s string) string {
	own, we := ownCue.MatchString(s), firstPerson.MatchString(s)
	switch {
	case bibEntry.MatchString(s):
		return "bibliography"
	case link.MatchString(s):
		return "link"
	case len(mathChars.FindAllString(s, -1)) >= 3:
		return "formula"
	case hypothetical.MatchString(s) && !(we && own):
		return "hypothetical"
	case !we && (othersSubject.MatchString(s) || citation.MatchString(s) && !own):
		return "others"
	}
	return ""
}

// whereFound is where a sentence says a thing can be had: a web address
// and the clause that gives it ("which can be found at https://..."). For
// software it is where the tool is, not a footnote or a hypothetical.
var (
	webAddress = re(`https?:\s?//\S*|www\.\S*`)
	whereFound = re(`,?\s*(?:which|that|and) (?:can|may) be (?:found|downloaded|obtained|accessed|installed)\b[^.;]*`)
)

// withoutWhere is s without its web addresses and where-found clause.
func withoutWhere(s string) string {
	return whereFound.ReplaceAllString(webAddress.ReplaceAllString(s, ""), "")
}

// unit is one body sentence of a paper with where it sits.
type unit struct {
	o        int
	text     string
	lower    string
	titles   string // the headings above it, lowercased, joined by " > "
	others   bool   // in related work / background
	appendix bool
	caption  bool
	pos      float64 // position in the paper, 0..1
	// rej is rejected(text), read once for all aspects (nil until read).
	rej *string
}

// paperText is the body sentences of a paper (every leaf outside the back
// matter), split once and read for every aspect.
type paperText struct {
	d     *retrieve.PaperData
	units []unit
	// named: how many units mention a proper name (read lazily)
	named map[string]int
}

func newPaperText(d *retrieve.PaperData) *paperText {
	pt := &paperText{d: d}
	for o, n := range d.Nodes {
		if !n.IsLeaf() || retrieve.InBackMatter(d, o) {
			continue
		}
		titles := retrieve.SectionTitles(d, o)
		u := unit{o: o, others: retrieve.InOthersWork(d, o), caption: n.Kind == papertree.KindCaption, pos: float64(o) / float64(len(d.Nodes))}
		for i, t := range titles {
			titles[i] = strings.ToLower(t)
			if appendixTitle.MatchString(titles[i]) {
				u.appendix = true
			}
		}
		u.titles = strings.Join(titles, " > ")
		for _, s := range sentences(n.Text) {
			if l := len([]rune(s)); l < 20 || l > 500 {
				continue
			}
			u.text, u.lower = s, strings.ToLower(s)
			pt.units = append(pt.units, u)
		}
	}
	return pt
}

// lexiconCell is the paper's cell for a lexicon aspect: the best sentence
// of the whole paper that states a value of spec; else (unless the aspect
// is a quantity) the best that names the aspect; else, verified over every
// body sentence, none (found = false). A value the paper names often (its
// own dataset, its GPU) weighs more than one named once in passing.
func (pt *paperText) lexiconCell(spec *aspectSpec) (retrieve.Cell, bool) {
	var cands []scored
	freq := map[string]int{}
	// a heading may name the aspect for the sentences under it ("4.6
	// Run-time": "a single iteration takes 14 minutes")
	headed := *spec
	headed.needWord = false
	for i := range pt.units {
		u := &pt.units[i]
		sp, head := spec, false
		if spec.needWord && spec.words.in(u.titles) && spec.words.re.MatchString(u.titles) {
			sp, head = &headed, true
		}
		vs, primary, w, weak := shapesOf(sp, u.text, u.lower)
		w = w || head
		if len(vs) == 0 && (!w || spec.needValue) {
			continue
		}
		text := u.text
		// a table row that only names the aspect ("Neural GPU 1.0 1.0")
		// states nothing; a row the aspect labels ("Gradient Clipping |
		// 0.0 | 0.0" for "Gradient clipping") states its value, whatever
		// the value is (0.0: not used)
		if len(vs) == 0 && retrieve.NumericShare(u.text) > 0.3 {
			row := labelledRow(u.text, spec.all)
			if row == "" {
				continue
			}
			text, vs = row, []string{row}
		}
		if u.rej == nil {
			r := rejected(u.text)
			u.rej = &r
		}
		if *u.rej != "" && !(spec.links && rejected(withoutWhere(u.text)) == "") {
			continue
		}
		for _, v := range vs {
			freq[v]++
		}
		var names []string
		if primary {
			names = valueNames(spec, u.text)
		}
		sc := 0.0
		if len(vs) > 0 {
			sc += 3 + 0.3*float64(min(len(vs)-1, 2)) // states a value
			if weak {
				sc -= 1.5 // ... less precisely than a sentence with another value
			}
		}
		if primary {
			sc += 1
		}
		if w {
			sc += 1
		}
		if ownCue.MatchString(u.text) {
			sc += 1
		} else if firstPerson.MatchString(u.text) {
			sc += 0.4
		}
		for _, t := range spec.sections {
			if strings.Contains(u.titles, t) {
				sc += 0.6
				break
			}
		}
		if u.others {
			sc -= 2
		}
		if u.appendix {
			sc -= 0.5
		}
		if u.caption {
			sc -= 0.3
		}
		sc -= 2 * retrieve.NumericShare(u.text)
		// earlier statements (abstract, setup) before later mentions
		sc -= 0.3 * u.pos
		cands = append(cands, scored{o: u.o, text: text, values: vs, names: names, primary: primary, word: w, score: sc})
	}
	var best *scored
	for i := range cands {
		c := &cands[i]
		top := 0
		for _, v := range c.values {
			top = max(top, freq[v])
		}
		for _, n := range c.names {
			top = max(top, pt.mentions(n))
		}
		if top > 1 {
			c.score += 0.4 * math.Log(float64(min(top, 20)))
		}
		if best == nil || c.score > best.score {
			best = c
		}
	}
	if best == nil {
		return retrieve.Cell{}, false
	}
	return retrieve.CellAt(pt.d, best.o, best.text, best.score), true
}

// nameNoun: the generic words around a name in a value ("the WebText
// dataset", "a Google News corpus"), not part of the name.
var nameNoun = re(`^(?:the|a|an|our|on|from|of|called|named|dubbed|data|datasets?|sets?|corpus|corpora|benchmarks?|treebank|shared|task|challenge)$`)

// valueNames are the proper names in the values of s that name the value
// itself (spec.values[:named]): the capitalised words of each, the generic
// nouns around a name dropped ("dataset, WebText" and "a new dataset ...
// called WebText" both name "WebText").
func valueNames(spec *aspectSpec, s string) []string {
	var out []string
	for _, p := range spec.values[:max(spec.named, 1)] {
		for _, m := range p.re.FindAllStringIndex(s, -1) {
			if negated(s, m[0]) || inCompoundName(s, m[0], m[1]) {
				continue
			}
			var ws []string
			for k, w := range strings.FieldsFunc(s[m[0]:m[1]], func(r rune) bool { return r == ' ' || r == ',' }) {
				r := []rune(w)
				// a sentence's first word is capitalised by grammar ("We
				// measured"), a name there needs a capital or digit inside
				first := k == 0 && strings.TrimSpace(s[:m[0]]) == ""
				if len(r) > 1 && unicode.IsUpper(r[0]) && !nameNoun.MatchString(w) && (!first || strings.ContainsFunc(string(r[1:]), func(c rune) bool { return unicode.IsUpper(c) || unicode.IsDigit(c) })) {
					ws = append(ws, w)
				} else if len(ws) > 0 {
					break
				}
			}
			if n := strings.Join(ws, " "); n != "" && !contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// mentions is how many body sentences of the paper name n (case and all):
// a dataset the paper names throughout ("WebText") is its own, one named
// once next to a prior result is not.
func (pt *paperText) mentions(n string) int {
	if c, ok := pt.named[n]; ok {
		return c
	}
	if pt.named == nil {
		pt.named = map[string]int{}
	}
	c := 0
	for i := range pt.units {
		if strings.Contains(pt.units[i].text, n) {
			c++
		}
	}
	pt.named[n] = c
	return c
}

// labelledRow is the line of a flattened table in s whose first cell
// (before its first "|", or ": " as sentences reads a row) holds all of an aspect's words (stems) and little
// else: the row of that aspect ("Gradient Clipping | 0.0 | 0.0"), or "".
func labelledRow(s string, stems []*regexp.Regexp) string {
	if len(stems) == 0 {
		return ""
	}
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "|"))
		// "Gradient Clipping | 0.0 | 0.0", or as sentences() reads a row:
		// "Gradient Clipping: RoBERTaLARGE 0.0, RoBERTaBASE 0.0"
		i := strings.Index(line, "|")
		if i < 0 {
			i = strings.Index(line, ": ")
		}
		if i <= 0 {
			continue
		}
		label := line[:i]
		if len(strings.Fields(label)) <= len(stems)+2 && holdsAll(stems, label) {
			return line
		}
	}
	return ""
}

// aspectStems are the patterns of an aspect's own words (3+ letters,
// matched at a word's start, a plural or a long word's ending dropped:
// "clocks" ~ "clock", "tolerance" ~ "tolerant").
func aspectStems(aspect string) []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, w := range wordSplit.Split(strings.ToLower(aspect), -1) {
		if len(w) < 3 || stopAspectWords[w] || requestWords[w] {
			continue
		}
		if len(w) > 6 {
			w = w[:len(w)-2]
		} else if strings.HasSuffix(w, "s") {
			w = w[:len(w)-1]
		}
		out = append(out, re(`\b`+regexp.QuoteMeta(w)))
	}
	return out
}

// holdsAll reports whether s has every one of the aspect's words.
func holdsAll(stems []*regexp.Regexp, s string) bool {
	for _, r := range stems {
		if !r.MatchString(s) {
			return false
		}
	}
	return true
}

// holdsHead reports whether s has the head word (the last) of a
// several-word aspect; a one-word aspect is left to the caller's ranking.
func holdsHead(aspect, s string) bool {
	stems := aspectStems(aspect)
	return len(stems) <= 1 || stems[len(stems)-1].MatchString(s)
}

// wordCell is the check for an aspect outside the lexicon: the best body
// sentence of the paper that has ALL the aspect's own words ("label
// smoothing" needs both: "smooth the learnt weights" is not about it), not
// negated and not rejected; found = false when the paper has none, which
// is then what the cell says.
func (pt *paperText) wordCell(aspect string) (retrieve.Cell, bool) {
	stems := aspectStems(aspect)
	if len(stems) == 0 {
		return retrieve.Cell{}, false
	}
	alts := make([]string, len(stems))
	for i, r := range stems {
		alts[i] = strings.TrimPrefix(r.String(), "(?i)")
	}
	spec := &aspectSpec{Name: aspect, words: sh(re(strings.Join(alts, "|"))), all: stems}
	if c := countOf(aspect); c != nil {
		spec.values, spec.needValue, spec.drop = []shape{sh(c)}, true, countGap
	}
	return pt.lexiconCell(spec)
}

// countOf is, for an aspect that asks how many of a thing there are
// ("Number of participants", "How many annotators"), the pattern of a
// count of that thing (its head word, the last): a whole number at most
// three words before it ("ten participants", "24 Upworkers" is not) or
// "N = 10" after it; nil for any other aspect.
func countOf(aspect string) *regexp.Regexp {
	l := strings.ToLower(aspect)
	if !strings.Contains(l, "number of") && !strings.Contains(l, "how many") && !strings.Contains(l, "count of") {
		return nil
	}
	stems := aspectStems(aspect)
	if len(stems) == 0 {
		return nil
	}
	head := strings.TrimPrefix(stems[len(stems)-1].String(), `(?i)\b`)
	gap := `(?:[\w-]+ ){0,3}`
	if peopleHead.MatchString(head) {
		// the people of a study are counted as what they are: "Thirty
		// 4- to 8-year-old, deaf and hearing children", "22 computer
		// science students", "Twenty-two volunteers"
		head, gap = people, `(?:[\w,-]+ ){0,6}`
	}
	return re(`\b(?:\d[\d,]*|` + wholeCount + `|` + tensCount + `)[ -]` + gap + head + `|\b` + head + `\w*\W{0,3}(?:\(\s*)?n\s?=\s?\d`)
}

// countGap: words that, between a figure and the counted thing, show the
// figure counts something else ("Study 1 in all Paper Cards so that
// participants", "Figure 6 plots the number of participants").
var countGap = re(`\b(?:in|so|that|all|the|of|were|was|with|for|from|at|on|by|as|than|which|who|each|per|a|an|is|are|had|has|have|plots?|shows?)\b`)

// counts reports a count of the thing cnt (countOf) counts in s: a match
// that does not number a part of the paper and has no countGap word.
func counts(cnt *regexp.Regexp, s string) bool {
	for _, m := range cnt.FindAllStringIndex(s, -1) {
		if !numbersPart(s, m[0]) && !countGap.MatchString(s[m[0]:m[1]]) {
			return true
		}
	}
	return false
}

// peopleHead: an aspect counting the people of a study ("Number of
// participants", "How many subjects"); people: the nouns such people are
// counted as.
var peopleHead = regexp.MustCompile(`^(?:particip|subje|respond|volunt|people|person|individ|user)`)

const people = `(?:participants?|subjects?|volunteers?|respondents?|students?|children|adults|infants|toddlers|users|workers|patients|individuals|people|persons|raters|annotators|listeners|speakers|observers|undergraduates|men|women|girls|boys|developers|programmers|experts|interviewees)`

// tensCount: number words from thirteen to ninety-nine.
const tensCount = `(?:thirteen|fourteen|fifteen|seventeen|eighteen|nineteen|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|four|five|six|seven|eight|nine))?)`

var stopAspectWords = map[string]bool{"the": true, "and": true, "for": true, "with": true, "of": true, "number": true, "type": true, "kind": true, "used": true, "use": true}

// sentences splits a leaf into sentences, a paragraph break ending one too
// (a table row flattened into a leaf is its own unit, not the tail of the
// sentence before it).
func sentences(text string) []string {
	var out []string
	for _, p := range strings.Split(text, "\n\n") {
		for _, s := range papertree.SplitSentences(p) {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}
