package query

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/embedding"
)

// Routes: what kind of answer a question asks for, read from its form.
const (
	// RouteSingle asks about what a paper says: answered from passages.
	RouteSingle = "single"
	// RouteList asks which papers of the library have a property ("Which
	// papers use Adam?"): answered by a list of papers, each with the
	// sentence of its own text that states it.
	RouteList = "which-papers"
	// RouteCompare asks to set papers side by side ("Compare ...", "How do
	// X and Y differ"): answered by a table.
	RouteCompare = "compare"
)

var (
	// listRE: "Which papers ...", "What studies ...", "In which works
	// ...", "List the papers that ...", "Which of the papers ...".
	listRE = regexp.MustCompile(`(?i)^\s*(?:(?:in|of|among|from)\s+)?(?:which|what)\s+(?:of\s+(?:the|these|my)\s+)?(?:papers?|stud(?:y|ies)|works?|articles?|publications?)\b` +
		`|^\s*(?:list|name|find|show(?:\s+me)?)\s+(?:all\s+)?(?:the\s+|of\s+the\s+)?(?:papers?|stud(?:y|ies)|works?|articles?|publications?)\b`)
	// compareRE: "Compare ...", "How do X and Y differ", "What are the
	// differences between ...", "X versus Y".
	numberAfterRE = regexp.MustCompile(`([A-Za-z]+)[-_’']?(\d+)\W*$`)
	orRE          = regexp.MustCompile(`(?i)\bor\b|\bnor\b|/`)
	compareRE     = regexp.MustCompile(`(?i)^\s*compare\b|\bhow\s+(?:do|does|did)\s+.+\s+differ\b|\bdiffer(?:ences?|s)?\s+between\b|\bcomparison\s+(?:of|between)\b|\bversus\b|\bvs\.?\s`)
)

// RouteOf says which kind of answer q asks for and why (the cue that
// decided it). A which-papers question is a list even when it asks for
// papers that compare something ("Which papers compare against random
// forests?").
func RouteOf(q string) (route, why string) {
	if m := listRE.FindString(q); m != "" {
		return RouteList, "asks for the papers that have a property (“" + strings.TrimSpace(m) + "”)"
	}
	if m := compareRE.FindString(q); m != "" {
		return RouteCompare, "asks to compare papers (“" + strings.TrimSpace(m) + "”)"
	}
	return RouteSingle, "asks what the papers say (no list or comparison cue)"
}

// TopicGroup is one alternative of what a which-papers question asks
// about ("CIFAR-10 or CIFAR-100" has two): the stems of its content words
// and the words as typed (same length).
type TopicGroup struct {
	Stems []string `json:"stems"`
	Words []string `json:"words"`
	// Pos is each word's position in the question (words next to each
	// other form a phrase: "batch normalization"); Name marks a word typed
	// with a capital inside the question ("MNIST", "Adam", "Penn"), which
	// names the thing asked about on its own.
	Pos  []int  `json:"pos"`
	Name []bool `json:"name"`
	// Compound is the index of the typed word each word came from: words
	// joined by a hyphen ("NP-hard", "gamma-ray") share it.
	Compound []int `json:"compound"`
	// Number is the number typed joined to a word ("CoNLL-2003" ->
	// "2003" for conll, "CIFAR-10" -> "10"), "" for most words: it tells
	// one edition of a named data set from another.
	Number []string `json:"number"`
}

// listFrame are the words that frame a which-papers question around its
// topic: research verbs and generic nouns a paper states its property
// without ("Which papers report results on SQuAD" is about SQuAD).
var listFrame = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`paper papers study studies work works article articles publication publications
	use uses used using train trains trained evaluate evaluates evaluated report reports result results run runs experiment
	experiments propose proposes present presents describe describes discuss discusses address addresses analyse analyze
	analyses analyzes fit fits derive derives prove proves apply applies employ employs adopt adopts introduce introduces
	consider considers investigate investigates examine examines explore explores relate relates compare compares against
	model models method methods approach approaches technique techniques data dataset datasets benchmark benchmarks
	their its our they them variant variants objective evaluation evaluations network networks problem problems setting
	settings main new based about how people perform performs`) {
		m[w] = true
	}
	return m
}()

// ListTopic returns what a which-papers question asks about, one group per
// alternative joined by "or" (none when q is not a which-papers question):
// the content words after the frame ("Which papers VERB"), without research
// verbs and generic nouns, numbers or one-letter words. "Which papers train
// their models with the Adam optimizer (or its AdamW variant)?" -> [adam
// optimizer] [adamw].
func ListTopic(q string) []TopicGroup {
	loc := listRE.FindStringIndex(q)
	if loc == nil {
		return nil
	}
	rest := skipListVerb(q[loc[1]:])
	var out []TopicGroup
	pos, field := 0, 0
	for _, part := range orRE.Split(rest, -1) {
		var g TopicGroup
		seen := map[string]bool{}
		for _, typedField := range strings.Fields(part) {
			field++
			for _, f := range strings.FieldsFunc(typedField, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' }) {
				pos++
				typed := strings.Trim(f, "'")
				w := strings.ToLower(typed)
				if len([]rune(w)) < 2 || embedding.IsStopword(w) || listFrame[w] || strings.IndexFunc(w, unicode.IsLetter) < 0 {
					continue
				}
				st := embedding.Stem(w)
				if st == "" || seen[st] || scaffold[st] {
					continue
				}
				seen[st] = true
				g.Stems, g.Words = append(g.Stems, st), append(g.Words, w)
				g.Pos, g.Name = append(g.Pos, pos), append(g.Name, strings.IndexFunc(typed, unicode.IsUpper) >= 0)
				g.Compound = append(g.Compound, field)
				g.Number = append(g.Number, "")
			}
			if k := len(g.Number) - 1; k >= 0 && g.Compound[k] == field {
				// A number joined to the field's last word: "CoNLL-2003".
				if m := numberAfterRE.FindStringSubmatch(typedField); m != nil && strings.EqualFold(m[1], g.Words[k]) {
					g.Number[k] = m[2]
				}
			}
		}
		pos++ // "or" breaks a phrase
		if len(g.Stems) > 0 {
			out = append(out, g)
		}
	}
	return shareLeadingName(out)
}

// shareLeadingName gives a name that leads the first alternative to the
// later alternatives that name nothing: in "Yelp review or business data"
// the name modifies both ("Yelp business data"), so the second group is
// [yelp business], not [business].
func shareLeadingName(gs []TopicGroup) []TopicGroup {
	if len(gs) < 2 || len(gs[0].Name) == 0 || !gs[0].Name[0] {
		return gs
	}
	lead := 1
	for lead < len(gs[0].Name) && gs[0].Name[lead] && gs[0].Compound[lead] == gs[0].Compound[lead-1] {
		lead++ // a name typed as one hyphenated word ("Kullback-Leibler")
	}
	for i := 1; i < len(gs); i++ {
		g := &gs[i]
		if slices.Contains(g.Name, true) {
			continue
		}
		var h TopicGroup
		for k := 0; k < lead; k++ {
			if slices.Contains(g.Stems, gs[0].Stems[k]) {
				continue
			}
			h.Stems, h.Words = append(h.Stems, gs[0].Stems[k]), append(h.Words, gs[0].Words[k])
			// just before the group's first word: one phrase with it
			h.Pos, h.Name = append(h.Pos, g.Pos[0]-lead+k), append(h.Name, true)
			h.Compound, h.Number = append(h.Compound, gs[0].Compound[k]), append(h.Number, gs[0].Number[k])
		}
		g.Stems, g.Words = append(h.Stems, g.Stems...), append(h.Words, g.Words...)
		g.Pos, g.Name = append(h.Pos, g.Pos...), append(h.Name, g.Name...)
		g.Compound, g.Number = append(h.Compound, g.Compound...), append(h.Number, g.Number...)
	}
	return gs
}

// ListVerb is the verb of a which-papers question, lowercased ("Which
// papers use X" -> "use", "Which papers are about X" -> "are", "Which
// papers that train X" -> "train"), "" when q is not one.
func ListVerb(q string) string {
	loc := listRE.FindStringIndex(q)
	if loc == nil {
		return ""
	}
	fs := strings.Fields(strings.ToLower(q[loc[1]:]))
	for _, f := range fs {
		f = strings.Trim(f, ",;:?!.")
		switch f {
		case "", "that", "which", "who", "do", "does", "did", "not", "in", "of", "my", "the", "library", "also", "both", "either":
			continue
		}
		return f
	}
	return ""
}

// listAux are the words after "Which papers" that are not the verb
// framing the topic ("Which papers are about X", "Which papers have X").
var listAux = map[string]bool{"are": true, "is": true, "were": true, "was": true, "have": true, "has": true, "had": true,
	"do": true, "does": true, "did": true, "can": true, "that": true, "which": true, "who": true, "in": true, "of": true, "the": true,
	"library": true, "collection": true}

// skipListVerb drops the verb after "Which papers" ("Which papers detect
// hate speech" is about hate speech), with a verb it is coordinated with
// ("train or evaluate on Twitter"); an auxiliary is kept out of the
// topic by the stopword filter and the verb after it is dropped.
func skipListVerb(rest string) string {
	fs := strings.Fields(rest)
	i := 0
	for i < len(fs) && listAux[strings.ToLower(fs[i])] {
		i++
	}
	if i > 0 && i < len(fs) && strings.ToLower(fs[i]) != "about" && strings.HasSuffix(strings.ToLower(fs[i-1]), "at") && listFrame[strings.ToLower(fs[i])] {
		// "that VERB", "which VERB": the verb follows.
		i++
	} else if i == 0 && len(fs) > 0 && listFrame[strings.ToLower(fs[0])] {
		i = 1
	} else if i > 0 && i < len(fs) {
		switch strings.ToLower(fs[i-1]) {
		case "do", "does", "did", "can", "that", "which", "who":
			// "Which papers do not use X", "Which papers that use X"; a
			// verb of its own stays ("Which papers do speaker recognition")
			if w := strings.ToLower(fs[i]); w == "not" || listFrame[w] {
				i++
			}
		}
	}
	for i+1 < len(fs) && (strings.EqualFold(fs[i], "or") || strings.EqualFold(fs[i], "and")) {
		i += 2 // "train or evaluate on", "derive or prove"
	}
	return strings.Join(fs[min(i, len(fs)):], " ")
}
