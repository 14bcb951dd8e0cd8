package retrieve

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	querypkg "github.com/papertree/papertree/backend/query"
)

// A paper without author metadata has its front matter's capitalised words
// as stand-in names; a venue or affiliation word among them ("Security")
// must not name it, or it captures every question that names a venue.
// Used as an author is named (possessive, cited), the word still names it.
func TestFrontMatterNamesNeedAuthorUse(t *testing.T) {
	cards := []*card{
		newCard(1, "TikTok: Kernel TOCTTOU Protection", nil, 0, "",
			"TikTok: Kernel TOCTTOU Protection Anonymous Submission IEEE Symposium on Security and Privacy"),
		newCard(2, "Midas: Systematic Kernel TOCTTOU Protection", []string{"Atri Bhattacharyya", "Mathias Payer"}, 0, "", ""),
		newCard(3, "ON COMPUTABLE NUMBERS, WITH AN APPLICATION TO THE ENTSCHEIDUNGSPROBLEM", nil, 0, "",
			"ON COMPUTABLE NUMBERS By A. M. Turing. Received 28 May 1936"),
	}
	sc := identityScores(querypkg.Parse("In the USENIX Security '22 paper on kernel TOCTTOU protection, what invariant is enforced on userspace reads?"), cards)
	if sc[1] == 0 || sc[2] == 0 || math.Abs(sc[1]-sc[2]) >= 1 {
		t.Errorf("venue word named the authorless paper: want both close, got %v", sc)
	}
	for _, q := range []string{"In Turing's paper, which numbers are computable?", "Which numbers does Turing (1936) call computable?"} {
		if sc := identityScores(querypkg.Parse(q), cards); sc[3] < 2 {
			t.Errorf("%q: the author of the authorless paper no longer names it: %v", q, sc)
		}
	}
}

// A function word set in capitals for emphasis ("How NOT To Evaluate ...")
// is no name of its paper: a question that says "not" does not name it.
// A name-like title word still does.
func TestEmphasisedFunctionWordNamesNoPaper(t *testing.T) {
	cards := []*card{
		newCard(1, "How NOT To Evaluate Your Dialogue System: An Empirical Study of Unsupervised Evaluation Metrics", []string{"Chia-Wei Liu"}, 2016, "", ""),
		newCard(2, "Crystal structure of the superconducting phase of sulfur hydride", []string{"Mari Einaga"}, 2016, "", ""),
		newCard(3, "TuEval at SemEval-2019 Task 5: LSTM Approach to Hate Speech Detection", []string{"Stefanie Jahn"}, 2019, "", ""),
	}
	sc := identityScores(querypkg.Parse("Why can powder X-ray diffraction not locate the hydrogen atoms?"), cards)
	if sc[1] != 0 {
		t.Errorf("\"not\" named the paper whose title says NOT: %v", sc)
	}
	if sc := identityScores(querypkg.Parse("Which features does the TuEval system use?"), cards); sc[3] < strongName {
		t.Errorf("the name-like title word TuEval no longer names its paper: %v", sc)
	}
}

// Three papers of one first author tie on "Hinton et al."; a word of one
// title the question also uses ("distillation") names that one.
func TestCitedAuthorAndTitleWord(t *testing.T) {
	cards := []*card{
		newCard(1, "Distilling the Knowledge in a Neural Network", []string{"Geoffrey Hinton", "Oriol Vinyals", "Jeff Dean"}, 2015, "", ""),
		newCard(2, "A Fast Learning Algorithm for Deep Belief Nets", []string{"Geoffrey Hinton", "Simon Osindero"}, 2006, "", ""),
		newCard(3, "Reducing the Dimensionality of Data with Neural Networks", []string{"Geoffrey Hinton", "Ruslan Salakhutdinov"}, 2006, "", ""),
	}
	sc := identityScores(querypkg.Parse("What temperature does Hinton et al.'s distillation paper use for the soft targets?"), cards)
	if sc[1]-max(sc[2], sc[3]) < 1 {
		t.Errorf("want the distillation paper clearly ahead, got %v", sc)
	}
	// Without the title word the three stay tied: no paper is named.
	sc = identityScores(querypkg.Parse("What temperature do Hinton et al. use for the soft targets?"), cards)
	if sc[1] != sc[2] || sc[2] != sc[3] {
		t.Errorf("want a tie, got %v", sc)
	}
}

// A run of title words names a paper only when no other paper's title
// holds it: "a neural network" is in two titles here, so it names neither
// (a parser question was once searched in the distillation paper alone);
// "Distilling the Knowledge" is in one, so it names that one.
func TestTitleRunSharedByTitlesNamesNone(t *testing.T) {
	cards := []*card{
		newCard(1, "Distilling the Knowledge in a Neural Network", []string{"Geoffrey Hinton"}, 2015, "", ""),
		newCard(2, "A Neural Network Approach to Context-Sensitive Generation of Conversational Responses", []string{"Alessandro Sordoni"}, 2015, "", ""),
		newCard(3, "A Fast and Accurate Dependency Parser using Neural Networks", []string{"Danqi Chen"}, 2014, "", ""),
	}
	q := querypkg.Parse("How many sentences per second can a greedy transition-based parser with a neural network classifier parse?")
	if sc := identityScores(q, cards); sc[1] >= 2 || sc[2] >= 2 {
		t.Errorf("a run two titles share named a paper: %v", sc)
	}
	sc := identityScores(querypkg.Parse("What does Distilling the Knowledge say about soft targets?"), cards)
	if sc[1] < 2 || sc[1]-max(sc[2], sc[3]) < 1 {
		t.Errorf("a run one title holds no longer names it: %v", sc)
	}
}

// A noun with which a question calls a paper ("study", "paper") is no
// content word of a run of title words: "in the study of" (in the title
// "Environmental biases in the study of ecological networks") describes
// what the question asks about, as any question on a study does.
func TestTitleRunOfReferenceNounNamesNone(t *testing.T) {
	cards := []*card{
		newCard(1, "Environmental biases in the study of ecological networks", []string{"T. Poisot"}, 2020, "", ""),
		newCard(2, "Distilling the Knowledge in a Neural Network", []string{"Geoffrey Hinton"}, 2015, "", ""),
	}
	q := "In the study of visual gravity and body inversion with avatars, how were the poses designed?"
	if sc := identityScores(querypkg.Parse(q), cards); sc[1] >= 1 {
		t.Errorf("%q: \"in the study of\" named a paper: %v", q, sc)
	}
	if sc := identityScores(querypkg.Parse("What does Distilling the Knowledge say about soft targets?"), cards); sc[2] < 2 {
		t.Errorf("a run of title words no longer names its paper: %v", sc)
	}
}

// A named paper is searched alone only when its text holds the question's
// most specific word, counted in the library's own full-text index.
func TestNamedPaperHoldsRarestWord(t *testing.T) {
	ctx := context.Background()
	paper := func(title, body string) *papertree.Paper {
		seg := &papertree.Node{Kind: papertree.KindSegment, Text: body, Tokens: papertree.CountTokens(body)}
		root := &papertree.Node{Kind: papertree.KindRoot, Title: title, Children: []*papertree.Node{
			{Kind: papertree.KindSection, Title: "1 Model", Children: []*papertree.Node{seg}}}}
		return &papertree.Paper{Title: title, Authors: []string{"A. Author"}, Year: 2019, Path: "/" + title + ".pdf", Pages: 1, Root: root}
	}
	ix, ids := storeIndexWith(t,
		paper("BERT: Pre-training of Deep Bidirectional Transformers", "The original implementation uses a WordPiece vocabulary of 30,000 tokens at the character level."),
		paper("RoBERTa: A Robustly Optimized Pretraining Approach", "The original BERT implementation uses a character-level BPE vocabulary of size 30K."),
		paper("Another Paper", "Our implementation uses a vocabulary of words, the original one of characters."),
	)
	if holdsQuestion(ctx, ix, ids[0], querypkg.Parse("Does the original BERT implementation use a character-level BPE vocabulary?"), nil) {
		t.Error("BERT lacks the question's rarest word (BPE) but would be searched alone")
	}
	if !holdsQuestion(ctx, ix, ids[0], querypkg.Parse("Does the original BERT implementation use a character-level WordPiece vocabulary?"), nil) {
		t.Error("BERT holds every word of the question but is not searched alone")
	}
	// The verb the question is put with is the asker's, not the paper's:
	// BERT never prints "reach" (nor does any other paper here).
	if !holdsQuestion(ctx, ix, ids[0], querypkg.Parse("What WordPiece vocabulary size did the original BERT implementation reach?"), nil) {
		t.Error("BERT is not searched alone for want of the question's verb")
	}
}

// An old paper without metadata prints its author in capitals and its
// year in its front matter ("By A. M. TURING. [Received 28 May, 1936.]");
// a question naming it "Turing's 1936 paper" names it clearly, ahead of a
// paper whose abstract only mentions Turing machines.
func TestCapitalisedFrontAuthorAndYearName(t *testing.T) {
	cards := []*card{
		newCard(1, "On the Computational Complexity of Algorithms", []string{"J. Hartmanis", "R. E. Stearns"}, 0, "Turing machines compute sequences.", ""),
		newCard(2, "ON COMPUTABLE NUMBERS, WITH AN APPLICATION TO THE ENTSCHEIDUNGSPROBLEM", nil, 0, "",
			"By A. M. TURING. [Received 28 May, 1936.—Read 12 November, 1936.] The \"computable\" numbers may be described briefly"),
		newCard(3, "Reducibility Among Combinatorial Problems", []string{"Richard M. Karp"}, 1972, "", ""),
	}
	if cards[1].year != 1936 {
		t.Errorf("front-matter year: got %d, want 1936", cards[1].year)
	}
	sc := identityScores(querypkg.Parse("In Turing's 1936 paper, what are the conditions of the machine called?"), cards)
	if sc[2] < 2 || sc[1] > sc[2]-1 {
		t.Errorf("Turing's 1936 paper is not named clearly: %v", sc)
	}
}

// The front matter's year skips numbers that belong to identifiers, page
// ranges and volumes.
func TestFrontYear(t *testing.T) {
	for front, want := range map[string]int{
		"NEURAL COMPUTATION 9(8):1735-1780, 1997 Sepp Hochreiter":    1997,
		"arXiv:1907.03199v1 [cs.LG] 6 Jul 2019 Andreas Loukas":       2019,
		"By A. EINSTEIN June 30, 1905 It is known that":              1905,
		"Jeffrey Pennington Stanford, CA 94305 jpennin@stanford.edu": 0,
	} {
		if got := frontYear(front); got != want {
			t.Errorf("frontYear(%q) = %d, want %d", front, got, want)
		}
	}
}

// frontYear's scan finds the year the regular expression it replaced
// found, on random texts of digits, letters and the separators it weighs.
func TestFrontYearMatchesRegexp(t *testing.T) {
	ref := func(front string) int {
		for _, m := range identYearRE.FindAllStringSubmatchIndex(front, -1) {
			a, b := m[2], m[3]
			if a > 0 && strings.ContainsRune(".:/-–", rune(front[a-1])) {
				continue
			}
			if b < len(front) && strings.ContainsRune(".-–/", rune(front[b])) && b+1 < len(front) && front[b+1] >= '0' && front[b+1] <= '9' {
				continue
			}
			y, _ := strconv.Atoi(front[a:b])
			return y
		}
		return 0
	}
	alphabet := []string{"1", "2", "0", "9", "6", "7", "a", "b", "Z", "_", " ", ".", ":", "/", "-", "–", "(", "é", ","}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		var b strings.Builder
		for n := r.IntN(16); n >= 0; n-- {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		if front := b.String(); frontYear(front) != ref(front) {
			t.Fatalf("frontYear(%q) = %d, the regular expression's %d", front, frontYear(front), ref(front))
		}
	}
}

// Metadata spells a surname in any case ("Warren S. Mcculloch"); a
// question cites it as written ("McCulloch and Pitts"), which names the
// paper the two wrote in that order, not the one Pitts wrote first.
func TestCitedSurnameIgnoresCase(t *testing.T) {
	cards := []*card{
		newCard(1, "A Logical Calculus of the Ideas Immanent in Nervous Activity", []string{"Warren S. Mcculloch", "Walter Pitts"}, 0, "", ""),
		newCard(2, "How We Know Universals the Perception of Auditory and Visual Forms", []string{"Walter Pitts", "Warren S. Mcculloch"}, 0, "", ""),
	}
	sc := identityScores(querypkg.Parse("What did McCulloch and Pitts assume about neuron activity?"), cards)
	if sc[1] < 2 || sc[2] > sc[1]-1 {
		t.Errorf("McCulloch and Pitts do not name their paper clearly: %v", sc)
	}
}
