package embedding

import (
	"reflect"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string // words
	}{
		{"empty", "", nil},
		{"punctuation only", "... --- ???", nil},
		{"lowercase and split", "BERT-based Models, e.g. RoBERTa!", []string{"bert", "based", "models", "e", "g", "roberta"}},
		{"digits stay in words", "GPT2 scores 18% on SQuAD1.1", []string{"gpt2", "scores", "18", "on", "squad1", "1"}},
		{"placeholders dropped", "as in BIBREF12 and INLINEFORM0 (Table TABREF37)", []string{"as", "in", "and", "table"}},
		{"placeholder prefix alone is a word", "tabref", []string{"tabref"}},
		{"unicode letters", "Über naïve Café", []string{"über", "naïve", "café"}},
		{"combining mark stays in word", "nai\u0308ve", []string{"nai\u0308ve"}},
		{"long token truncated", strings.Repeat("a", 100), []string{strings.Repeat("a", maxTokenLen)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, tok := range Tokenize(c.in) {
				got = append(got, tok.Word)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Tokenize(%q) words = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestDocAndQueryTerms(t *testing.T) {
	cases := []struct {
		name     string
		in       string
		doc, qry []string
	}{
		{"stopwords dropped, stems kept", "The annotators labelled the tweets", []string{"annot", "label", "tweet"}, []string{"annot", "label", "tweet"}},
		{"question scaffolding dropped from queries only", "What datasets do the authors use?", []string{"dataset", "author", "us"}, []string{"dataset"}},
		{"only stopwords", "what is it?", []string{}, []string{}},
		{"numbers get the number pseudo-term", "It has 5,124 sentences", []string{"5", NumTerm, "124", NumTerm, "sentenc"}, []string{"5", "124", "sentenc"}},
		{"quantity question", "How many sentences are there?", []string{"mani", "sentenc"}, []string{"sentenc", NumTerm}},
		{"size question", "What is the size of the corpus?", []string{"size", "corpu"}, []string{"size", "corpu", NumTerm}},
		{"how without quantity", "How do they annotate?", []string{"annot"}, []string{"annot"}},
		// German, French and Spanish function words carry no content in a
		// question, yet few papers use them; English words spelled alike
		// ("die") stay.
		{"foreign function words dropped from queries only", "Wann verursacht eine Variable eine andere?",
			[]string{"wann", "verursacht", "ein", "variabl", "ein", "ander"}, []string{"verursacht", "variabl"}},
		{"dative forms of German determiners", "In welchem Jahr erschien diesem Bericht zufolge jedem Leser die Studie?",
			[]string{"welchem", "jahr", "erschien", "diesem", "bericht", "zufolg", "jedem", "leser", "die", "studi"}, []string{"jahr", "erschien", "bericht", "zufolg", "leser", "die", "studi"}},
		{"quelle proportion des noms", "Quelle proportion des noms dans les exemples?", []string{"quell", "proport", "de", "nom", "dan", "le", "exempl"}, []string{"proport", "nom", "exempl"}},
		{"an English word spelled like a foreign one", "When do the neurons die?", []string{"neuron", "die"}, []string{"neuron", "die"}},
		{"a foreign function word typed in capitals is an abbreviation", "Which WER do the NE taggers reach?", []string{"wer", "ne", "tagger", "reach"}, []string{"wer", "ne", "tagger", "reach"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := DocTerms(c.in); !reflect.DeepEqual(got, c.doc) {
				t.Errorf("DocTerms(%q) = %q, want %q", c.in, got, c.doc)
			}
			if got := QueryTerms(c.in); !reflect.DeepEqual(got, c.qry) {
				t.Errorf("QueryTerms(%q) = %q, want %q", c.in, got, c.qry)
			}
		})
	}
}

func TestGermanText(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"Wie nutzen klassische Planer wie STRIPS die Erfüllbarkeit Boolescher Formeln zur Problemlösung?", true},
		{"Wann sagt man, dass eine Zufallsvariable X eine andere verursacht?", true},
		{"Which architecture did von Neumann describe in the First Draft?", false},
		{"Quelle proportion des occurrences de noms a-t-on pu localiser?", false},
	}
	for _, tc := range tests {
		if got := GermanText(tc.text); got != tc.want {
			t.Errorf("GermanText(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
