package query

import (
	"strings"

	"github.com/papertree/papertree/backend/embedding"
)

// Compound is a noun compound the question uses ("radiation dosage",
// "robot arm", "PET imaging", "U-Net denoiser"): the last two words of a
// noun phrase, modifier and head, as typed.
type Compound struct {
	Mod, Head string
	// Stems are the content stems of both words.
	Stems []string
	// Focus: both words name what the question asks for (Focus).
	Focus bool
}

// Phrase is the compound as typed.
func (c Compound) Phrase() string { return c.Mod + " " + c.Head }

// npOpeners open a noun phrase: articles, the wh-words that ask for a
// thing, and prepositions (not "to", which mostly opens an infinitive:
// "... the robot arm to grasp objects").
var npOpeners = map[string]bool{"the": true, "a": true, "an": true, "which": true, "what": true, "for": true, "of": true, "on": true,
	"in": true, "with": true, "by": true, "from": true, "about": true, "into": true, "at": true}

// determiners open the object of a verb: a word right before one is the
// verb, not the head of the noun phrase before it ("... trains the robot
// arm", "... goods overturn its baseline").
var determiners = map[string]bool{"the": true, "a": true, "an": true, "its": true, "their": true, "his": true, "her": true,
	"our": true, "this": true, "these": true, "that": true, "those": true}

// Compounds returns the noun compounds of a factual question: in each run
// of two or more content words that an article, a wh-word or a preposition
// opens and a function word or punctuation ends, its last two words. A
// run's last word is left out when a determiner follows it or it ends in
// "-ed": a verb or participle, not a noun ("the encoder initialised",
// "election timeouts picked from"). The words with which the question
// refers to a paper (refs) are not content. How/why and yes/no questions
// have none: their verb stands right after the subject with no function
// word to mark it ("Why does a transformer on image patches trail
// ResNets ...?").
func Compounds(q, kind string, refs map[string]bool, focus []string) []Compound {
	if kind != KindFactual {
		return nil
	}
	type field struct {
		typed, low string
		stems      []string
		punct      bool
	}
	var fs []field
	for _, f := range strings.Fields(q) {
		t := strings.Trim(f, WordPunct)
		t = strings.TrimSuffix(strings.TrimSuffix(t, "'s"), "’s")
		x := field{typed: t, low: strings.ToLower(t), punct: strings.ContainsAny(f, ".,;:?!()[]\"“”")}
		if !refs[x.low] {
			for _, tok := range embedding.Tokenize(t) {
				if st := embedding.QueryTerms(tok.Word); len(st) > 0 && st[0] != embedding.NumTerm && !IsScaffold(st[0]) {
					x.stems = append(x.stems, st[0])
				}
			}
		}
		fs = append(fs, x)
	}
	inFocus := map[string]bool{}
	for _, w := range focus {
		inFocus[w] = true
	}
	focused := func(x field) bool {
		for _, tok := range embedding.Tokenize(x.typed) {
			if inFocus[tok.Word] {
				return true
			}
		}
		return false
	}
	var out []Compound
	for i := 0; i < len(fs); {
		if len(fs[i].stems) == 0 {
			i++
			continue
		}
		j := i
		for j < len(fs) && len(fs[j].stems) > 0 {
			j++
			if fs[j-1].punct {
				break
			}
		}
		run := fs[i:j]
		opened := i > 0 && npOpeners[fs[i-1].low] && !fs[i-1].punct
		if j < len(fs) && determiners[fs[j].low] && !run[len(run)-1].punct {
			run = run[:len(run)-1]
		}
		if n := len(run); n >= 2 && j < len(fs) && verbFollower[fs[j].low] && !run[n-1].punct && pluralNoun(run[n-2].low) {
			// A plural noun and its verb ("which neurons count as
			// afferents"): the same rule as Focus.
			run = run[:n-1]
		}
		if n := len(run); n > 0 && len(run[n-1].low) > 4 && strings.HasSuffix(run[n-1].low, "ed") {
			run = run[:n-1]
		}
		if n := len(run); opened && n >= 2 {
			m, h := run[n-2], run[n-1]
			out = append(out, Compound{Mod: m.typed, Head: h.typed, Stems: append(append([]string(nil), m.stems...), h.stems...),
				Focus: focused(m) && focused(h)})
		}
		i = j
	}
	return out
}
