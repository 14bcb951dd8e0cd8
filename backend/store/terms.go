package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// Term lookups over the full-text index: how many nodes of each paper hold
// a word or phrase, and a paper-level BM25 over those counts.
//
// They serve two claims the app makes. "The papers never mention X" is
// shown only when X has no occurrence in the index of the scope it speaks of
// (PhraseCounts); and a library-wide question considers every paper whose
// text holds its rare words, not only the papers a vector shortlist found
// (PaperBM25). Both normalise what was typed the way the index normalised
// what was printed: NFKC (ligatures, full-width forms), quotes and dashes
// are separators for FTS5's unicode61 tokenizer, and its Porter stemmer
// folds plurals, so "WMT'14" finds "WMT’14" and "VGG-16/19" finds "VGG-16".

// phraseTokens returns the index tokens of s as typed (NFKC, lowercased,
// split on everything that is not a letter or digit).
func phraseTokens(s string) []string {
	s = norm.NFKC.String(strings.ToLower(s))
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// phraseVariants are the FTS5 queries under which a typed word or phrase
// may be printed: as typed (a phrase of its tokens), written together
// ("pre-training" as "pretraining"), written apart or hyphenated at a line
// end ("pretraining" as "pre training"), and a classical plural's singular.
// (A name of letters and digits typed together and printed hyphenated,
// "VGG16" as "VGG-16", is found by PhraseCounts with hyphenatedNodes.)
func phraseVariants(s string) []string {
	toks := phraseTokens(s)
	if len(toks) == 0 || len(toks) > maxQueryTerms {
		return nil
	}
	if papertree.HasCJK(strings.Join(toks, " ")) {
		// Written together or apart and plurals are Latin-script
		// variants; a CJK word is the phrase of its bigrams.
		return []string{ftsPhrase(toks, false)}
	}
	quote := func(ts ...string) string { return `"` + strings.Join(ts, " ") + `"` }
	out := []string{quote(toks...)}
	if len(toks) > 1 {
		out = append(out, quote(strings.Join(toks, "")))
	}
	if len(toks) == 1 {
		w := toks[0]
		if sg := embedding.Singular(w); sg != "" && sg != w {
			out = append(out, quote(sg))
		}
		if pl := embedding.Plural(w); pl != "" {
			out = append(out, quote(pl))
		}
		r := []rune(w)
		if len(r) >= 6 && strings.IndexFunc(w, unicode.IsDigit) < 0 {
			for i := 3; i+3 <= len(r); i++ {
				out = append(out, quote(string(r[:i]), string(r[i:])))
			}
		}
	}
	return out
}

// letterDigitParts splits a word where letters and digits meet ("vgg16"
// -> "vgg", "16").
func letterDigitParts(w string) []string {
	var out []string
	start := 0
	r := []rune(w)
	for i := 1; i < len(r); i++ {
		if unicode.IsDigit(r[i]) != unicode.IsDigit(r[i-1]) {
			out = append(out, string(r[start:i]))
			start = i
		}
	}
	return append(out, string(r[start:]))
}

// PhraseCounts returns, for each paper of paperIDs (every paper when
// empty) whose titles or text hold the word or phrase s in any of its
// printed forms (phraseVariants), the number of nodes holding it. A paper
// absent from the map never uses s: that is what "never mentions" means.
func (s *Store) PhraseCounts(ctx context.Context, phrase string, paperIDs []int64) (map[int64]int, error) {
	qs := phraseVariants(phrase)
	if len(qs) == 0 {
		return nil, papertree.Errorf(papertree.EInvalid, "%q holds no word to look up.", phrase)
	}
	ranges, err := s.paperRanges(ctx)
	if err != nil {
		return nil, err
	}
	var scope map[int64]bool
	if len(paperIDs) > 0 {
		scope = make(map[int64]bool, len(paperIDs))
		for _, id := range paperIDs {
			scope[id] = true
		}
	}
	out := map[int64]int{}
	add := func(n map[int64]int) {
		for id, c := range n {
			if scope == nil || scope[id] {
				out[id] = max(out[id], c)
			}
		}
	}
	for _, q := range qs {
		n, err := s.nodesPerPaper(ctx, q, ranges)
		if err != nil {
			return nil, fmt.Errorf("count %q: %w", phrase, err)
		}
		add(n)
	}
	if toks := phraseTokens(phrase); len(toks) == 1 && !papertree.HasCJK(toks[0]) {
		if parts := letterDigitParts(toks[0]); len(parts) > 1 {
			n, err := s.hyphenatedNodes(ctx, parts, ranges)
			if err != nil {
				return nil, fmt.Errorf("count %q: %w", phrase, err)
			}
			add(n)
		}
	}
	return out, nil
}

// hyphenatedNodes counts, per paper, the nodes that print parts joined by
// a hyphen or dash, a line break allowed after it ("VGG-16", "C-\n5"):
// the index splits such a word in two, and the phrase of its parts alone
// would also match them apart ("C = 5"), which is not the word.
func (s *Store) hyphenatedNodes(ctx context.Context, parts []string, ranges *idRanges) (map[int64]int, error) {
	quoted := make([]string, len(parts))
	for i, p := range parts {
		quoted[i] = regexp.QuoteMeta(p)
	}
	re, err := regexp.Compile(`(^|[^\pL\pN])` + strings.Join(quoted, `\s*[-\x{00AD}\x{2010}-\x{2015}]\s*`) + `($|[^\pL\pN])`)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT n.id, n.title, n.text FROM node_fts JOIN nodes n ON n.id = node_fts.rowid WHERE node_fts MATCH ?`,
		`"`+strings.Join(parts, " ")+`"`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]int{}
	for rows.Next() {
		var id int64
		var title, text string
		if err := rows.Scan(&id, &title, &text); err != nil {
			return nil, err
		}
		if p := ranges.paperOf(id); p != 0 && re.MatchString(norm.NFKC.String(strings.ToLower(title+"\n"+text))) {
			out[p]++
		}
	}
	return out, rows.Err()
}

// paperBM25Rows bounds the index rows PaperBM25 reads for one question:
// its rarest words are read first, and a word that would take the total
// past this is skipped (it is common, so it says little about which paper
// answers, and reading it would cost more as the library grows).
const paperBM25Rows = 20000

// PaperBM25 ranks papers for a library-wide question by BM25 with the
// paper as the document: a word's term frequency is the number of the
// paper's nodes that hold it, its IDF comes from the number of papers that
// hold it. Words are the question's FTSQuery words, rarest first, within
// paperBM25Rows rows. Returns the score of every paper holding at least
// one of them.
func (s *Store) PaperBM25(ctx context.Context, query string) (map[int64]float64, error) {
	score, _, err := s.paperBM25(ctx, query, nil)
	return score, err
}

// paperBM25 is PaperBM25 that also returns, for each query word the text
// holds, the IDF it gave the word (1e-6 for a word skipped as too common;
// absent: no node holds the word). With nodes non-nil, every node read
// is also credited there with its word's IDF (node id -> sum), so the
// caller can tell which node of a paper holds the most of the rare words
// without another query.
func (s *Store) paperBM25(ctx context.Context, query string, nodes map[int64]float64) (map[int64]float64, map[string]float64, error) {
	words, _ := queryTerms(FTSQuery(query))
	if len(words) == 0 {
		return nil, nil, nil
	}
	_, _, df, err := s.stats(ctx, words)
	if err != nil {
		return nil, nil, err
	}
	order := make([]int, len(words))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return df[order[a]] < df[order[b]] })
	ranges, err := s.paperRanges(ctx)
	if err != nil {
		return nil, nil, err
	}
	nPapers := len(ranges.paper)
	// A paper's length is its number of nodes (its id range); BM25's
	// length normalisation keeps a thesis or a book, whose hundreds of
	// passages hold every common word a few times, from outranking the
	// paper whose fewer passages are about the question.
	plen, avg := ranges.length, ranges.avgLength
	score := map[int64]float64{}
	idfs := map[string]float64{}
	read := int64(0)
	for _, i := range order {
		if df[i] == 0 {
			continue
		}
		if read+df[i] > paperBM25Rows {
			idfs[words[i]] = 1e-6 // too common to say which paper
			continue
		}
		read += df[i]
		var ids []int64
		var each func(int64)
		if nodes != nil {
			each = func(id int64) { ids = append(ids, id) }
		}
		tf, err := s.nodesPerPaperEach(ctx, ftsPhrase([]string{words[i]}, false), ranges, each)
		if err != nil {
			return nil, nil, fmt.Errorf("paper search: %w", err)
		}
		n := float64(len(tf))
		idf := math.Max(math.Log((float64(nPapers)-n+0.5)/(n+0.5)), 1e-6)
		idfs[words[i]] = idf
		for _, id := range ids {
			nodes[id] += idf
		}
		for id, n := range tf {
			c := float64(n)
			norm := 1.0
			if avg > 0 && plen[id] > 0 {
				norm = 1 - bm25B + bm25B*plen[id]/avg
			}
			score[id] += idf * c * (bm25K1 + 1) / (c + bm25K1*norm)
		}
	}
	return score, idfs, nil
}

// nodesPerPaper counts, for each paper, its nodes the FTS5 query match
// selects. The rows' paper comes from the id ranges (a paper's nodes are one
// contiguous range): no lookup into nodes per row.
func (s *Store) nodesPerPaper(ctx context.Context, match string, ranges *idRanges) (map[int64]int, error) {
	return s.nodesPerPaperEach(ctx, match, ranges, nil)
}

// nodesPerPaperEach is nodesPerPaper that also calls each (when non-nil)
// with every matching node of a ready paper.
func (s *Store) nodesPerPaperEach(ctx context.Context, match string, ranges *idRanges, each func(id int64)) (map[int64]int, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT rowid FROM node_fts WHERE node_fts MATCH ?`, match)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]int{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		if p := ranges.paperOf(id); p != 0 {
			out[p]++
			if each != nil {
				each(id)
			}
		}
	}
	return out, rows.Err()
}

// idRanges maps node ids to their paper: a paper's nodes are inserted in
// one transaction by the single writer, so they form one id range; lo is
// sorted.
type idRanges struct {
	lo, hi, paper []int64
	// length is each paper's number of nodes (its range), avgLength their
	// mean: the document lengths of the paper-level BM25, derived once per
	// library state with the ranges.
	length    map[int64]float64
	avgLength float64
}

// paperOf returns the paper whose range holds node id (0: none).
func (r *idRanges) paperOf(id int64) int64 {
	i := sort.Search(len(r.lo), func(i int) bool { return r.lo[i] > id }) - 1
	if i < 0 || id > r.hi[i] {
		return 0
	}
	return r.paper[i]
}

// rangeCache holds the id ranges of the library state it was read at (the
// full-text index's averages record changes with every paper saved or
// removed).
type rangeCache struct {
	mu      sync.Mutex
	version string
	r       *idRanges
}

// paperRanges returns every ready paper's node id range.
func (s *Store) paperRanges(ctx context.Context) (*idRanges, error) {
	// The state: the averages record (changes when rows go) and the
	// highest node id (ids are never reused, so it changes when rows come).
	blob, _, _, err := readAverages(ctx, s.r)
	if err != nil {
		return nil, err
	}
	var top sql.NullInt64
	if err := s.r.QueryRowContext(ctx, `SELECT max(id) FROM nodes`).Scan(&top); err != nil {
		return nil, fmt.Errorf("paper ranges: %w", err)
	}
	blob = fmt.Appendf(blob, "|%d", top.Int64)
	c := &s.ranges
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.r != nil && c.version == string(blob) {
		return c.r, nil
	}
	// A paper's range starts at its root (ord 0, inserted first) and
	// holds node_count ids: one index lookup a paper, not a pass over
	// every node (the first question after opening pays for it).
	rows, err := s.r.QueryContext(ctx, `SELECT p.id, n.id, n.id + p.node_count - 1 FROM papers p JOIN nodes n ON n.paper_id = p.id AND n.ord = 0
		WHERE p.status = 'ready' AND p.node_count > 0 ORDER BY 2`)
	if err != nil {
		return nil, fmt.Errorf("paper ranges: %w", err)
	}
	defer rows.Close()
	r := &idRanges{}
	for rows.Next() {
		var p, lo, hi int64
		if err := rows.Scan(&p, &lo, &hi); err != nil {
			return nil, fmt.Errorf("paper ranges: %w", err)
		}
		r.lo, r.hi, r.paper = append(r.lo, lo), append(r.hi, hi), append(r.paper, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("paper ranges: %w", err)
	}
	r.length = make(map[int64]float64, len(r.paper))
	for i, id := range r.paper {
		l := float64(r.hi[i] - r.lo[i] + 1)
		r.length[id] = l
		r.avgLength += l
	}
	if len(r.paper) > 0 {
		r.avgLength /= float64(len(r.paper))
	}
	c.version, c.r = string(blob), r
	return r, nil
}

// TermNodeCounts returns the number of nodes of the full-text index and,
// for each word, how many of them hold it (as the index stems it): the
// document frequencies that say how specific a question's word is. Read
// once per word and library state.
func (s *Store) TermNodeCounts(ctx context.Context, words []string) (nodes int64, df []int64, err error) {
	qs := make([]string, len(words))
	for i, w := range words {
		if t := phraseTokens(w); len(t) == 1 {
			qs[i] = t[0]
		} else {
			qs[i] = strings.Join(t, " ")
		}
	}
	n, _, df, err := s.stats(ctx, qs)
	return n, df, err
}

// Together reports whether one node of a ready paper holds the typed words
// a and b (each a word or a hyphenated compound, "U-Net") within within
// tokens of each other, in either order, or written as one word
// ("processdeath" for "process death"): whether the library ever puts
// the two words of a compound ("robot arm") together, rather than in
// different passages or papers. NEAR is looser than the phrase: when it
// finds nothing, the phrase a b is printed nowhere either.
func (s *Store) Together(ctx context.Context, a, b string, within int) (bool, error) {
	ids, err := s.together(ctx, a, b, within, nil)
	return len(ids) > 0, err
}

// TogetherIn is Together that says where: the ready papers (sorted) with a
// node holding the typed words a and b within within tokens of each other
// or written as one word, so a reply about one paper can ask it of that
// paper alone; and, of those, the papers with such a node outside their
// reference list and acknowledgements (body), where a paper states its
// own facts ("sat competition 2023" in a reference title states nothing
// of the 2023 competition).
func (s *Store) TogetherIn(ctx context.Context, a, b string, within int) (papers, body []int64, err error) {
	var nodes []int64
	papers, err = s.together(ctx, a, b, within, func(id int64) { nodes = append(nodes, id) })
	if err != nil || len(nodes) == 0 {
		return papers, nil, err
	}
	ranges, err := s.paperRanges(ctx)
	if err != nil {
		return nil, nil, err
	}
	marks := strings.TrimSuffix(strings.Repeat("?,", len(nodes)), ",")
	args := make([]any, len(nodes))
	for i, id := range nodes {
		args[i] = id
	}
	rows, err := s.r.QueryContext(ctx, `SELECT n.id FROM nodes n LEFT JOIN nodes p ON p.id = n.parent_id
		WHERE n.id IN (`+marks+`) AND n.role NOT IN ('references', 'acknowledgements')
		AND coalesce(p.role, '') NOT IN ('references', 'acknowledgements')`, args...)
	if err != nil {
		return nil, nil, fmt.Errorf("together: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, nil, fmt.Errorf("together: %w", err)
		}
		if p := ranges.paperOf(id); p != 0 && !slices.Contains(body, p) {
			body = append(body, p)
		}
	}
	slices.Sort(body)
	return papers, body, rows.Err()
}

// together runs Together's lookups; each (when non-nil) is called with
// every matching node, else the lookup stops at the first paper found.
func (s *Store) together(ctx context.Context, a, b string, within int, each func(id int64)) ([]int64, error) {
	ta, tb := phraseTokens(a), phraseTokens(b)
	if len(ta) == 0 || len(tb) == 0 || len(ta)+len(tb) > maxQueryTerms {
		return nil, papertree.Errorf(papertree.EInvalid, "%q and %q hold no word to look up.", a, b)
	}
	quote := func(ts []string) string { return ftsPhrase(ts, false) }
	qs := []string{fmt.Sprintf("NEAR(%s %s, %d)", quote(ta), quote(tb), within)}
	if len(ta) == 1 && len(tb) == 1 {
		qs = append(qs, quote([]string{ta[0] + tb[0]}))
	}
	ranges, err := s.paperRanges(ctx)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, q := range qs {
		n, err := s.nodesPerPaperEach(ctx, q, ranges, each)
		if err != nil {
			return nil, fmt.Errorf("look up %q: %w", q, err)
		}
		for id := range n {
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
		if each == nil && len(out) > 0 {
			break
		}
	}
	slices.Sort(out)
	return out, nil
}

// printedForms are the forms in which a typed word counts as printed by
// TogetherPrinted and PrintedNodeCounts: as typed, and its regular or classical plural or
// singular ("weakness" and "weaknesses", "corpus" and "corpora"), never
// the other words its stem stands for ("weak", "weakly").
func printedForms(w string) []string {
	forms := []string{w}
	add := func(f string) {
		if f != "" && !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	add(embedding.Singular(w))
	add(embedding.Plural(w))
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		add(strings.TrimSuffix(w, "ies") + "y")
	case strings.HasSuffix(w, "es") && len(w) > 4:
		add(strings.TrimSuffix(w, "es"))
		add(strings.TrimSuffix(w, "s"))
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && len(w) > 3:
		add(strings.TrimSuffix(w, "s"))
	case strings.HasSuffix(w, "y") && len(w) > 3:
		add(strings.TrimSuffix(w, "y") + "ies")
		add(w + "s")
	default:
		add(w + "s")
		add(w + "es")
	}
	return forms
}

// TogetherPrinted is Together with the word a as printed: a node counts
// only when its text prints a as typed or in its plural or singular
// (printedForms), not merely a word of the same stem. The index's stemmer
// folds words of different meaning into one stem ("weakness" and "weak
// mutation", "shields" and "shielding"), so Together alone would find
// "the chief weakness" beside "mutant" in a paper that only speaks of
// weak mutants. A phrase a of more than one word is looked up as Together
// does.
func (s *Store) TogetherPrinted(ctx context.Context, a, b string, within int) (bool, error) {
	ta := phraseTokens(a)
	if len(ta) != 1 || papertree.HasCJK(ta[0]) {
		return s.Together(ctx, a, b, within)
	}
	re, err := printedRE(ta[0])
	if err != nil {
		return false, err
	}
	var nodes []int64
	if _, err := s.together(ctx, a, b, within, func(id int64) { nodes = append(nodes, id) }); err != nil {
		return false, err
	}
	for _, id := range nodes {
		var title, text string
		if err := s.r.QueryRowContext(ctx, `SELECT title, text FROM nodes WHERE id = ?`, id).Scan(&title, &text); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				continue
			}
			return false, fmt.Errorf("together: %w", err)
		}
		if re.MatchString(norm.NFKC.String(strings.ToLower(title + "\n" + text))) {
			return true, nil
		}
	}
	return false, nil
}

// PrintedNodeCounts returns, for each paper whose titles or text print the
// single word w as typed (case aside, NFKC) or in its plural or singular
// (printedForms), the number of its nodes that do. Unlike PhraseCounts it
// does not count through the index's stemmer, which folds words of
// different meaning into one stem ("weakness" into "weak"): it tells how
// much a paper dwells on the word itself. The index finds the candidate
// nodes, their text decides. A phrase of more than one token is counted
// as PhraseCounts counts it.
func (s *Store) PrintedNodeCounts(ctx context.Context, w string) (map[int64]int, error) {
	toks := phraseTokens(w)
	if len(toks) != 1 || papertree.HasCJK(toks[0]) {
		return s.PhraseCounts(ctx, w, nil)
	}
	re, err := printedRE(toks[0])
	if err != nil {
		return nil, err
	}
	ranges, err := s.paperRanges(ctx)
	if err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	out := map[int64]int{}
	for _, f := range printedForms(toks[0]) {
		rows, err := s.r.QueryContext(ctx, `SELECT n.id, n.title, n.text FROM node_fts JOIN nodes n ON n.id = node_fts.rowid WHERE node_fts MATCH ?`, `"`+f+`"`)
		if err != nil {
			return nil, fmt.Errorf("count %q: %w", w, err)
		}
		for rows.Next() {
			var id int64
			var title, text string
			if err := rows.Scan(&id, &title, &text); err != nil {
				rows.Close()
				return nil, err
			}
			if seen[id] {
				continue
			}
			seen[id] = true
			if p := ranges.paperOf(id); p != 0 && re.MatchString(norm.NFKC.String(strings.ToLower(title+"\n"+text))) {
				out[p]++
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// printedRE matches a printed form of the word w (printedForms) as a
// whole word of lowercased NFKC text.
func printedRE(w string) (*regexp.Regexp, error) {
	forms := printedForms(w)
	quoted := make([]string, len(forms))
	for i, f := range forms {
		quoted[i] = regexp.QuoteMeta(f)
	}
	return regexp.Compile(`(^|[^\pL\pN])(` + strings.Join(quoted, "|") + `)($|[^\pL\pN])`)
}
