package answer

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
)

// The answer-type check: a question that asks for a figure ("How many
// GPUs ...", "What accuracy ...") is answered only by a sentence that
// states a figure beside what the question asks for. When no sentence of
// the evidence does, the passages found are about the question's topic
// but do not hold what it asks (a paper that mentions transaction fees
// and never says how large they are), and the reply says so.

// figureRE matches the questions that ask for a figure of a thing they
// name: "how many / how much X", "what accuracy / percentage / ... of X".
var figureRE = regexp.MustCompile(`(?i)\bhow (?:many|much)\b|` + whatMeasure)

// asksFigure reports a factual question that asks for a figure.
func asksFigure(q *query.Question) bool {
	return q.Kind == query.KindFactual && figureRE.MatchString(q.Text)
}

// figureFocus returns the words naming what a figure question asks for
// (query.Focus of "How many GPUs ...", "What accuracy ...", read
// lower-cased: a name is what a figure is of as much as any word), without
// the words naming the paper ("the AlexNet paper's network"). "How large
// / long is X" questions have none: a size is stated as a count of parts
// ("7451 sentences") in a sentence that need not name X, so they are not
// checked.
func figureFocus(q *query.Question) []string {
	f := query.Focus(strings.ToLower(q.Text))
	return slices.DeleteFunc(f, func(w string) bool { return q.Refs[w] || paperNouns[w] })
}

// paperNouns are what a question calls a paper.
var paperNouns = map[string]bool{"paper": true, "papers": true, "article": true, "study": true, "report": true, "preprint": true}

// numberWords are figures written as words.
// ("one" is as often a pronoun, "once" a conjunction, "double" a
// modifier: "double fetches").
var numberWords = map[string]bool{"two": true, "three": true, "four": true, "five": true, "six": true, "seven": true,
	"eight": true, "nine": true, "ten": true, "eleven": true, "twelve": true, "thirteen": true, "fifteen": true, "twenty": true,
	"thirty": true, "forty": true, "fifty": true, "hundred": true, "hundreds": true, "thousand": true, "thousands": true,
	"million": true, "millions": true, "billion": true, "dozen": true, "half": true, "twice": true, "single": true,
	"thrice": true}

// labelWords are the words a number labels rather than counts with
// ("Figure 2", "Table 3", "Section 4.1", "Eq. 5").
var labelWords = map[string]bool{"figure": true, "fig": true, "figs": true, "table": true, "tables": true, "section": true,
	"sections": true, "sec": true, "eq": true, "eqs": true, "equation": true, "chapter": true, "appendix": true,
	"algorithm": true, "alg": true, "step": true, "theorem": true, "lemma": true, "definition": true, "page": true, "p": true, "pp": true,
	"line": true, "ref": true, "refs": true}

// citeMarkRE is a citation marker ("[12]", "[3, 14]", "[5–7]").
var citeMarkRE = regexp.MustCompile(`^\[[\d,;–\- ]+\]`)

// statesFigure reports whether sentence states a figure the question does
// not type itself (qwords): a number written in digits that is not a year,
// a citation marker or the label of a figure, table or section, or a
// number written as a word ("ten to a thousand tablets", "a single
// process death").
func statesFigure(sentence string, qwords map[string]bool) bool {
	return statesFigureOf(sentence, qwords, false)
}

// ratioQRE matches the questions that ask for a ratio or score ("What
// accuracy ...", "What percentage ..."): answered by a bare number or a
// percentage, never by a size with a unit ("4.7GB", "100M").
var ratioQRE = regexp.MustCompile(`(?i)\bwhat (?:is the |was the |are the )?(?:percentage|fraction|proportion|share|accuracy|f1|bleu|score)\b`)

// ratioRE is a bare number or percentage ("81.5", "0.87", "93%").
var ratioRE = regexp.MustCompile(`^\d+(?:[.,]\d+)?%?$`)

// statesFigureOf is statesFigure; ratio: only a bare number or a
// percentage counts.
func statesFigureOf(sentence string, qwords map[string]bool, ratio bool) bool {
	prev := ""
	for _, f := range strings.Fields(sentence) {
		lw := strings.ToLower(strings.Trim(f, ".,;:?!()[]\"'’“”"))
		p := prev
		prev = lw
		if citeMarkRE.MatchString(f) || lw == "" || qwords[lw] {
			continue
		}
		if numberWords[lw] && !ratio {
			return true
		}
		w := strings.TrimLeft(lw, "~<>≈≤≥$€£+−-∼")
		if w == "" || !unicode.IsDigit([]rune(w)[0]) || yearRE.MatchString(w) || labelWords[strings.TrimSuffix(p, ".")] ||
			ratio && !ratioRE.MatchString(w) {
			continue
		}
		return true
	}
	return false
}

// figureStated reports whether some readable sentence of the evidence (a
// table row read with its caption and headers counts) states a figure
// beside what the question asks for: one of its focus words. A table row
// the question names ("SST-2") is about it. A question with no focus is
// not checked.
func figureStated(q *query.Question, qwords map[string]bool, texts []string, sents []sentence, stems []map[string]bool, readable []bool) bool {
	focus := stemSet(strings.Join(figureFocus(q), " "))
	if len(focus) == 0 {
		return true
	}
	ratio := ratioQRE.MatchString(q.Text)
	for i := range sents {
		if !readable[i] || !statesFigureOf(texts[i], qwords, ratio) {
			continue
		}
		about := sents[i].named
		for t := range focus {
			about = about || stems[i][t]
		}
		if about {
			return true
		}
	}
	return false
}

// The question's own numbers: a year, a dose, a size the question types
// ("the 2018 Wikipedia dump", "filters of width 7") says which of the
// paper's facts it asks for. A passage that answers prints the number
// beside the word it goes with; when no passage of the scope the reply
// speaks of does (full-text index, NEAR within retrieve.CompoundWindow
// tokens), the papers hold the topic ("a 2014 Wikipedia dump") but not
// the fact asked for, and the reply says the phrase is never mentioned
// (NEAR is looser than the phrase, so the claim is true).

// numberPhrase is a number the question types with the content word right
// beside it, and the two as typed.
type numberPhrase struct {
	num, word, phrase string
}

// numberPhrases returns each number the question types (a word starting
// with a digit, not the year of a citation: "Kim (2014)", "et al. 2016")
// content word right beside it with no punctuation between ("2018
// Wikipedia", "width 7"); a number with no such neighbour ("in 2022",
// "10ng of DNA") is not checked.
func numberPhrases(q *query.Question) [][]numberPhrase {
	type field struct {
		typed   string
		content bool
		punct   bool // punctuation ends it
		cite    bool // a year in a citation: "(2014)", "et al. 2019"
	}
	var fs []field
	for _, f := range strings.Fields(q.Text) {
		t := strings.Trim(f, query.WordPunct)
		low := strings.ToLower(t)
		st := embedding.QueryTerms(low)
		content := len(st) > 0 && st[0] != embedding.NumTerm && !query.IsScaffold(st[0]) && !q.Refs[low] && len([]rune(t)) >= 2 &&
			strings.IndexFunc(t, unicode.IsLetter) >= 0
		// A number after a word that names the paper ("Dalal and Triggs
		// 2005", "USENIX Security 2022": q.Refs) is its year, part of
		// the name, as after "et al.".
		cite := strings.ContainsAny(f, "()[]") || len(fs) > 0 && (strings.EqualFold(strings.TrimSuffix(fs[len(fs)-1].typed, "."), "al") ||
			q.Refs[strings.ToLower(fs[len(fs)-1].typed)])
		fs = append(fs, field{typed: t, content: content, cite: cite, punct: t != f && strings.ContainsAny(f[len(f)-1:], ".,;:?!)]\"”")})
	}
	var out [][]numberPhrase
	for i, f := range fs {
		if f.typed == "" || !unicode.IsDigit([]rune(f.typed)[0]) || q.Refs[strings.ToLower(f.typed)] || f.cite {
			continue
		}
		var ps []numberPhrase
		if i > 0 && fs[i-1].content && !fs[i-1].punct {
			ps = append(ps, numberPhrase{num: f.typed, word: fs[i-1].typed, phrase: fs[i-1].typed + " " + f.typed})
		}
		if i+1 < len(fs) && fs[i+1].content && !f.punct {
			ps = append(ps, numberPhrase{num: f.typed, word: fs[i+1].typed, phrase: f.typed + " " + fs[i+1].typed})
		}
		if len(ps) > 0 {
			out = append(out, ps)
		}
	}
	return out
}

// numRE is the figure a typed number starts with ("100" of
// "100-dimensional", "10" of "10ng").
var numRE = regexp.MustCompile(`^\d+(?:[.,]\d+)*`)

// unheldNumbers returns, for each number of the factual question that no
// passage of the claim's scope prints beside any of its neighbours, the
// first phrase it makes (never: what the scope never mentions), and for
// each number the scope prints beside its word only in reference lists or
// acknowledgements, the number and that word (refs: a reference title,
// "... entering the SAT Competition 2023", states nothing of it). A
// number a table row of the evidence prints is held: a table's headers
// abbreviate the word beside it ("#L 24" for "24 layers").
func unheldNumbers(q *query.Question, c Claims, sents []sentence) (never []string, refs []numberPhrase) {
	if c.TogetherIn == nil || q.Kind != query.KindFactual {
		return nil, nil
	}
	inTable := map[string]bool{}
	for _, x := range sents {
		if x.role == papertree.RoleTable {
			for _, f := range strings.Fields(x.text) {
				inTable[numRE.FindString(strings.Trim(f, ".,;:()[]"))] = true
			}
		}
	}
	inScope := func(ids []int64) bool { return c.Scope == nil && len(ids) > 0 || overlaps(ids, c.Scope) }
	for _, ps := range numberPhrases(q) {
		held, cited := inTable[numRE.FindString(ps[0].num)], -1
		for i, p := range ps {
			ids, body, ok := c.TogetherIn(p.num, p.word)
			held = held || !ok || inScope(body)
			if inScope(ids) && cited < 0 {
				cited = i
			}
		}
		switch {
		case held:
		case cited >= 0:
			refs = append(refs, ps[cited])
		default:
			never = append(never, ps[0].phrase)
		}
	}
	return never, refs
}

// sayRefNumbers words the numbers a scope prints beside their words only
// in its references: "the papers print 2023 beside SAT only in their
// references or acknowledgements". one: the scope is one paper, named name ("" = "the
// paper").
func sayRefNumbers(refs []numberPhrase, one bool, name string) string {
	var ws []string
	for _, p := range refs {
		ws = append(ws, p.num+" beside "+p.word)
	}
	switch {
	case !one:
		return "the papers print " + strings.Join(ws, ", ") + " only in their references or acknowledgements"
	case name != "":
		return name + " prints " + strings.Join(ws, ", ") + " only in its references or acknowledgements"
	}
	return "the paper prints " + strings.Join(ws, ", ") + " only in its references or acknowledgements"
}

// typedWords returns the lower-cased words ws as the question types them
// ("gpus" -> "GPUs").
func typedWords(question string, ws []string) []string {
	out := slices.Clone(ws)
	for i, w := range ws {
		for _, f := range strings.Fields(question) {
			if f = strings.Trim(f, query.WordPunct); strings.ToLower(f) == w {
				out[i] = f
				break
			}
		}
	}
	return out
}
