package answer

import (
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/retrieve"
)

// Signals are what the "not in these papers" decision weighs, reported with
// every extractive answer (diagnostics, calibration).
type Signals struct {
	BestScore    float64 `json:"best_score"`    // best evidence score
	BestCoverage float64 `json:"best_coverage"` // best sentence's share of the question's terms
	WCov         float64 `json:"wcov"`          // best sentence's IDF-weighted share of the question's terms
	PCov         float64 `json:"pcov"`          // best passage's IDF-weighted share
	MissShare    float64 `json:"miss_share"`    // share of the question's content words no searched paper uses
	MissName     bool    `json:"miss_name"`     // one of them is a name
	AbsentIDF    float64 `json:"absent_idf"`    // IDF share of the question's stems absent from the evidence papers' body text
	Absent       int     `json:"absent"`        // stems absent from the body text
	AbsentMax    float64 `json:"absent_max"`    // the highest IDF among them (0: none)
	Focus        int     `json:"focus"`         // words naming what the question asks for (retrieve.QuestionFocus)
	FocusAbsent  int     `json:"focus_absent"`  // ... absent from the evidence papers' body text
	FocusIDF     float64 `json:"focus_idf"`     // the highest IDF among the absent focus words
	KeyAbsent    bool    `json:"key_absent"`    // the most specific stem is absent from the body text
	KeyRefsOnly  bool    `json:"key_refs_only"` // ... and found only in the bibliography
	KeyBody      int     `json:"key_body"`      // body passages holding the most specific stem
	Key2Absent   bool    `json:"key2_absent"`   // one of the two most specific stems is absent from the body text
	KeyInEv      bool    `json:"key_in_ev"`     // the most specific stem is in the evidence
	Type         string  `json:"type"`          // the answer type the question asks for: "number", "name" or ""
	TypeOK       bool    `json:"type_ok"`       // a sentence holding the key terms also holds that type
}

// numberCue are question words that ask for a quantity.
var numberCue = []string{"how many", "how much", "how large", "how big", "how long", "how often", "how fast", "how old",
	"what percentage", "what proportion", "what fraction", "number of", " rate", " size", " score", " accuracy", " dimension",
	" latency", " price", " cost", " hours", " speed"}

// nameCue are question words that ask for a name (a model, data set,
// method, tool).
var nameCue = []string{"which model", "which dataset", "which data set", "which corpus", "which method", "which algorithm",
	"which optimizer", "which benchmark", "which database", "which library", "which language", "which architecture",
	"what model", "what dataset", "what data set", "what corpus", "what method", "what algorithm", "what optimizer",
	"what benchmark", "what database", "what library", "what architecture", "which baseline", "what baseline"}

// answerType is what a factual question asks for: "number", "name" or "".
func answerType(q string) string {
	l := " " + strings.ToLower(q)
	for _, c := range numberCue {
		if strings.Contains(l, c) {
			return "number"
		}
	}
	for _, c := range nameCue {
		if strings.Contains(l, c) {
			return "name"
		}
	}
	return ""
}

// hasType reports whether sentence holds an answer of the type: a numeral
// for "number", a name-like or capitalised word the question does not use
// for "name".
func hasType(typ, q, sentence string) bool {
	switch typ {
	case "number":
		return strings.IndexFunc(sentence, unicode.IsDigit) >= 0
	case "name":
		ql := strings.ToLower(q)
		for k, w := range strings.Fields(sentence) {
			w = strings.Trim(w, ".,;:?!()\"'’[]")
			if w == "" || strings.Contains(ql, strings.ToLower(w)) {
				continue
			}
			if retrieve.NameLike(w) || k > 0 && len(w) >= 3 && unicode.IsUpper([]rune(w)[0]) && !embedding.IsStopword(strings.ToLower(w)) {
				return true
			}
		}
	}
	return false
}

// signalsOf computes the not-found signals of one question.
func signalsOf(in Input, sents []sentence, ev []float64, wcov []float64, bestCov float64) Signals {
	var s Signals
	for _, x := range ev {
		s.BestScore = max(s.BestScore, x)
	}
	s.BestCoverage = bestCov
	for _, c := range wcov {
		s.WCov = max(s.WCov, c)
	}
	qstems := retrieve.QuestionTerms(in.Question)
	for _, e := range in.Evidence {
		s.PCov = max(s.PCov, weightedCoverage(qstems, e.Text))
	}
	if in.Terms > 0 {
		s.MissShare = float64(len(in.Missing)) / float64(in.Terms)
	}
	s.MissName = in.MissingName
	tot, abs := 0.0, 0.0
	for i, u := range in.Uses {
		if u.Focus {
			s.Focus++
			if u.Body == 0 {
				s.FocusAbsent++
				s.FocusIDF = max(s.FocusIDF, u.IDF)
			}
		}
		tot += u.IDF
		if u.Body == 0 {
			abs += u.IDF
			s.Absent++
			s.AbsentMax = max(s.AbsentMax, u.IDF)
			if i < 2 {
				s.Key2Absent = true
			}
		}
	}
	if tot > 0 {
		s.AbsentIDF = abs / tot
	}
	if len(in.Uses) > 0 {
		k := in.Uses[0]
		s.KeyAbsent, s.KeyRefsOnly, s.KeyBody = k.Body == 0, k.Body == 0 && k.Refs > 0, k.Body
		for _, x := range sents {
			if hasStem(x.text, k.Stem) {
				s.KeyInEv = true
				break
			}
		}
	}
	s.Type = answerType(in.Question)
	if s.Type != "" {
		for i, x := range sents {
			if wcov[i] >= 0.5 && hasType(s.Type, in.Question, x.text) {
				s.TypeOK = true
				break
			}
		}
	}
	return s
}

func hasStem(text, stem string) bool {
	for _, t := range embedding.ContentStems(text) {
		if t == stem {
			return true
		}
	}
	return false
}

// focusAbsent returns the focus words (retrieve.QuestionFocus) that the
// evidence's papers never use in their body text.
func focusAbsent(uses []retrieve.TermUse) []string {
	var out []string
	for _, u := range uses {
		if u.Focus && u.Body == 0 {
			out = append(out, u.Stem)
		}
	}
	return out
}

// withoutPaperRefs drops from the missing words those with which the
// question refers to its paper (retrieve.PaperRefWords): a paper need not
// use its nickname ("seq2seq", "AlexNet"). It returns the remaining
// missing words, whether one of them is a name, and the question's
// content word count without the dropped ones.
func withoutPaperRefs(q string, missing []string, terms int) ([]string, bool, int) {
	refs := retrieve.PaperRefWords(q)
	var out []string
	name := false
	for _, w := range missing {
		if refs[strings.ToLower(w)] {
			terms--
			continue
		}
		out = append(out, w)
		r := []rune(w)
		name = name || retrieve.NameLike(w) || len(r) >= 3 && unicode.IsUpper(r[0]) && !embedding.IsStopword(strings.ToLower(w))
	}
	return out, name, terms
}
