package answer

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

// holders is a full-text index stand-in: which papers hold each word.
func holders(m map[string][]int64, broken ...string) func(string) ([]int64, bool) {
	return func(w string) ([]int64, bool) {
		if slices.Contains(broken, w) {
			return nil, false
		}
		return m[strings.ToLower(w)], true
	}
}

// A reply says a word is never mentioned only when the scope it speaks of
// has no occurrence of it; library-wide, a word only the searched papers
// lack is said to be absent from them, with the papers that hold it.
func TestClaimsAreChecked(t *testing.T) {
	idx := holders(map[string][]int64{"vit": {7, 9}, "adam": {3}, "perovskite": {}, "resnets": {2}}, "broken")
	title := func(id int64) string { return fmt.Sprintf("Paper %d", id) }
	tests := []struct {
		name             string
		c                Claims
		words            []string
		never, elsewhere []string
		said             string
	}{
		{"no index: taken as given", Claims{}, []string{"ViT"}, []string{"ViT"}, nil, "never ViT"},
		{"library scope, absent everywhere", Claims{Holders: idx}, []string{"perovskite"}, []string{"perovskite"}, nil, "never perovskite"},
		{"library scope, held by a searched paper", Claims{Holders: idx, Searched: []int64{3, 4}}, []string{"Adam"}, nil, nil, ""},
		{"library scope, held only outside the searched papers", Claims{Holders: idx, Searched: []int64{1, 2}, Title: title}, []string{"ViT"}, nil, []string{"ViT"},
			"none of the 2 papers that match the question best mentions ViT (it is in “Paper 7”; “Paper 9”)"},
		{"named paper lacks it", Claims{Holders: idx, Scope: []int64{3}, Name: "“Paper 3”"}, []string{"ViT", "Adam"}, []string{"ViT"}, nil, "never ViT"},
		{"chosen paper holds it", Claims{Holders: idx, Scope: []int64{2}}, []string{"ResNets"}, nil, nil, ""},
		{"lookup failed: nothing claimed", Claims{Holders: idx}, []string{"broken"}, nil, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cl := tc.c.check(tc.words)
			if !slices.Equal(cl.never, tc.never) || !slices.Equal(cl.elsewhere, tc.elsewhere) {
				t.Fatalf("check = never %v elsewhere %v, want %v %v", cl.never, cl.elsewhere, tc.never, tc.elsewhere)
			}
			if got := cl.say("never ", "", tc.c); got != tc.said {
				t.Errorf("say = %q, want %q", got, tc.said)
			}
			for _, a := range cl.claims(tc.c) {
				if slices.Contains(tc.never, a.Word) && !slices.Equal(a.Papers, tc.c.Scope) {
					t.Errorf("claim %q speaks of %v, want the scope %v", a.Word, a.Papers, tc.c.Scope)
				}
			}
		})
	}
}

// Compose never says "the papers never mention" a word the scope holds,
// and reports every word it does say so (Output.Absent).
func TestComposeChecksAbsenceWords(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := []papertree.Evidence{{PaperID: 1, Kind: papertree.KindSegment, Score: 0.5,
		Text: "The models are trained on 8 GPUs with a mini-batch size of 128 and a weight decay of 0.0005."}}
	in := Input{Question: "What batch size did AlphaFold2 use during training?", Evidence: ev,
		Missing: []string{"AlphaFold2"}, MissingName: true, Terms: 4}
	for _, tc := range []struct {
		name     string
		idx      map[string][]int64
		notFound bool
	}{
		{"absent from the library", map[string][]int64{}, true},
		{"held by another paper of the library", map[string][]int64{"alphafold2": {5}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in.Claims = Claims{Holders: holders(tc.idx), Searched: []int64{1}}
			out, err := Compose(context.Background(), emb, in, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			said := strings.Contains(out.Text, "papers never mention AlphaFold2")
			if said != tc.notFound {
				t.Errorf("said never mentioned = %v, want %v: %s", said, tc.notFound, out.Text)
			}
			if tc.notFound && (len(out.Absent) != 1 || out.Absent[0].Word != "AlphaFold2" || out.Absent[0].Papers != nil) {
				t.Errorf("Absent = %+v, want AlphaFold2 of the whole library", out.Absent)
			}
			if !tc.notFound && strings.Contains(out.Text, "papers never mention") {
				t.Errorf("false absence claim: %s", out.Text)
			}
		})
	}
}

// Library-wide, a question whose most specific word occurs in no paper of
// the library is not answered from near-topic text; when some paper holds
// the word, this rule says nothing.
func TestLibraryKeyTerm(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := []papertree.Evidence{{PaperID: 1, Kind: papertree.KindSegment, Score: 0.5,
		Text: "We start with a review of the relational model in section 8 and give an overview of the approach."}}
	in := Input{Question: "What is the recommended starting dose of metformin for type 2 diabetes?", Evidence: ev,
		Missing: []string{"recommended", "starting", "dose", "metformin", "type", "diabetes"}, Terms: 6}
	for _, tc := range []struct {
		name     string
		idx      map[string][]int64
		notFound bool
	}{
		{"absent from the library", map[string][]int64{}, true},
		{"held by a paper of the library", map[string][]int64{"recommended": {4}, "starting": {4}, "dose": {4}, "metformin": {4}, "type": {4}, "diabetes": {4}}, false},
		// The shipped IDF ties "dose" with "metformin" (both outside its
		// vocabulary) and put "dose" first; by the library's counts the
		// word no paper prints is the most specific.
		{"only the rarest words absent", map[string][]int64{"recommended": {4}, "starting": {4}, "dose": {4, 5}, "type": {4}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in.Claims = Claims{Holders: holders(tc.idx), Searched: []int64{1, 2, 3}}
			opts := DefaultOptions()
			opts.Focus, opts.MaxMissing = false, 2 // this rule alone
			out, err := Compose(context.Background(), emb, in, opts)
			if err != nil {
				t.Fatal(err)
			}
			if out.NotFound != tc.notFound {
				t.Errorf("not found = %v, want %v: %s", out.NotFound, tc.notFound, out.Text)
			}
			if tc.notFound && !strings.Contains(out.Text, "metformin") {
				t.Errorf("the reason does not name the word: %s", out.Text)
			}
			if _, held := tc.idx["dose"]; held && tc.notFound && strings.Contains(out.Text, "dose") {
				t.Errorf("the reason says a word the library holds is missing: %s", out.Text)
			}
		})
	}
}

// Library-wide, a name the question uses that the library never prints as
// a phrase ("Stable Diffusion", while "stable" and "diffusion" occur
// apart) is said never mentioned, and the question is not answered from
// near-topic text; a library that prints it gets no such claim.
func TestNameNeverPrinted(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := []papertree.Evidence{{PaperID: 1, Kind: papertree.KindSegment, Score: 0.6,
		Text: "In the RPN step, we train on 8 GPUs with each GPU holding 2 images per mini-batch."}}
	in := Input{Question: "How many GPUs were used to train Stable Diffusion?", Evidence: ev, Terms: 4}
	for _, printed := range []bool{false, true} {
		idx := map[string][]int64{"gpus": {1}, "train": {1, 2}, "stable": {2}, "diffusion": {3}}
		if printed {
			idx["stable diffusion"] = []int64{3}
		}
		in.Claims = Claims{Holders: holders(idx), Searched: []int64{1}}
		out, err := Compose(context.Background(), emb, in, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		said := strings.Contains(out.Text, "papers never mention Stable Diffusion")
		if said == printed {
			t.Errorf("printed %v: said never mentioned = %v: %s", printed, said, out.Text)
		}
		if !printed && (!out.NotFound || len(out.Absent) != 1 || out.Absent[0].Word != "Stable Diffusion") {
			t.Errorf("not found %v, Absent %+v: want the name claimed of the library", out.NotFound, out.Absent)
		}
	}
}

// A word with which the question names a paper ("Casimir (1948)", "the
// AlexNet paper") is never said missing from the scope, whatever the
// index holds: an OCR scan may print its author garbled and its metadata
// may lack him. Library-wide, that the papers which match best lack it
// (and where it is) is still said.
func TestClaimsNeverSayAPaperNameMissing(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := []papertree.Evidence{{PaperID: 1, Kind: papertree.KindSegment, Score: 0.6,
		Text: "There exists an attractive force between two metal plates which is independent of the material of the plates."}}
	q := "Does the force Casimir (1948) finds between two metal plates depend on the material of the plates?"
	in := Input{Question: q, Evidence: ev, Missing: []string{"Casimir"}, MissingName: true, Terms: 6, Scoped: true,
		Claims: Claims{Holders: holders(map[string][]int64{}), Scope: []int64{1}}}
	out, err := Compose(context.Background(), emb, in, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.Text, "Casimir") && strings.Contains(out.Text, "never") || len(out.Absent) > 0 {
		t.Errorf("scoped: the paper's author said missing: %s (%+v)", out.Text, out.Absent)
	}
	in.Scoped, in.Claims.Scope = false, nil
	out, err = Compose(context.Background(), emb, in, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Absent) > 0 {
		t.Errorf("library-wide: the cited author said missing from the library: %s (%+v)", out.Text, out.Absent)
	}
	c := Claims{Holders: holders(map[string][]int64{"alexnet": {5}}), Searched: []int64{1, 2}, cites: map[string]bool{"alexnet": true}}
	if cl := c.check([]string{"AlexNet"}); len(cl.never) != 0 || !slices.Equal(cl.elsewhere, []string{"AlexNet"}) {
		t.Errorf("library-wide, a name only other papers print: never %v elsewhere %v, want elsewhere", cl.never, cl.elsewhere)
	}
	c.Scope, c.Searched = []int64{1}, nil
	if cl := c.check([]string{"AlexNet"}); len(cl.words()) != 0 {
		t.Errorf("scoped, the paper's nickname said missing: %v", cl.words())
	}
}

// Library-wide, a compound the question asks about ("robot arm") whose
// words the library prints only apart (no passage holds them together) is
// said never mentioned, and the question is not answered from the
// near-topic passage; a library with a passage holding both words near
// each other answers it.
func TestCompoundScattered(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := []papertree.Evidence{{PaperID: 1, Kind: papertree.KindSegment, Score: 0.6,
		Text: "We train the policy with reinforcement learning using proximal policy optimization."}}
	q := "Which reinforcement learning algorithm trains the robot arm to grasp objects?"
	for _, together := range []bool{false, true} {
		idx := map[string][]int64{"reinforcement": {1}, "learning": {1, 2}, "algorithm": {1}, "trains": {1}, "robot": {2}, "arm": {3},
			"grasp": {4}, "objects": {2}}
		near := func(a, b string) (bool, bool) {
			if strings.EqualFold(a, "learning") && strings.EqualFold(b, "algorithm") {
				return true, true // the focus compound is printed
			}
			return together && strings.EqualFold(a, "robot") && strings.EqualFold(b, "arm"), true
		}
		// How the evidence's paper uses the question's words: it never
		// prints robot, arm or grasp.
		uses := []retrieve.TermUse{{Stem: "robot", Body: 0}, {Stem: "arm", Body: 0}, {Stem: "grasp", Body: 0}, {Stem: "learn", Body: 3}}
		in := Input{Question: q, Evidence: ev, Terms: 8, Uses: uses, Claims: Claims{Holders: holders(idx), Together: near, Searched: []int64{1}}}
		out, err := Compose(context.Background(), emb, in, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		said := strings.Contains(out.Text, "papers never mention robot arm")
		if said == together {
			t.Errorf("held together %v: said never mentioned = %v: %s", together, said, out.Text)
		}
		if !together && (!out.NotFound || len(out.Absent) != 1 || out.Absent[0].Word != "robot arm" || out.Absent[0].Papers != nil) {
			t.Errorf("not found %v, Absent %+v: want the compound claimed of the library", out.NotFound, out.Absent)
		}
		// With no way to look words up together, or asked of chosen
		// papers, nothing is concluded from the compound.
		in.Claims.Together = func(string, string) (bool, bool) { return false, false }
		if out, _ := Compose(context.Background(), emb, in, DefaultOptions()); out.NotFound {
			t.Errorf("an index that cannot tell must not decide: %s", out.Text)
		}
		in.Claims.Together, in.Scoped, in.Claims.Scope = near, true, []int64{1}
		if out, _ := Compose(context.Background(), emb, in, DefaultOptions()); out.NotFound {
			t.Errorf("scoped, the library's compounds decide nothing: %s", out.Text)
		}
	}
}

// A question word the file name of a paper in scope holds names that
// paper (its author, as the researcher filed it): never said missing.
// Folders and short words are not read.
func TestFileNamedWords(t *testing.T) {
	got := fileNamed("Why does Seltman's chapter recommend correlation over covariance in drafts?",
		[]string{"/library/drafts/Seltman - 2018 - EDA.pdf", "/x/aipaper__seltman_eda_chapter4.pdf"})
	for _, w := range []string{"seltman", "chapter"} {
		if !got[w] {
			t.Errorf("%q not read as naming the paper: %v", w, got)
		}
	}
	for _, w := range []string{"drafts", "correlation", "eda", "pdf"} {
		if got[w] {
			t.Errorf("%q read as naming the paper: %v", w, got)
		}
	}
	emb := embedding.NewBuiltin()
	ev := []papertree.Evidence{{PaperID: 5, Kind: papertree.KindSegment, Score: 0.9,
		Text: "Covariances tend to be hard to interpret, so we often use correlation instead."}}
	for _, tc := range []struct {
		name     string
		files    []string
		notFound bool
	}{
		{"filed under its author", []string{"/lib/seltman_eda_chapter4.pdf"}, false},
		{"filed under another name", []string{"/lib/eda_chapter4.pdf"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Question: "Why does Seltman recommend correlation over covariance?", Evidence: ev, Scoped: true,
				Missing: []string{"Seltman"}, MissingName: true, Terms: 4,
				Claims: Claims{Holders: holders(map[string][]int64{}), Scope: []int64{5}, Files: func() []string { return tc.files }}}
			out, err := Compose(context.Background(), emb, in, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if out.NotFound != tc.notFound {
				t.Errorf("not found = %v, want %v: %s", out.NotFound, tc.notFound, out.Text)
			}
		})
	}
}

// A focus word most papers of the library print is too general for its
// absence alone to decide "not found"; a rarer one still decides.
func TestGeneralFocusWord(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := []papertree.Evidence{{PaperID: 1, Kind: papertree.KindSegment, Score: 0.9,
		Text: "The proposed model brings together LSTMs and CNNs to exploit long-range sequential information."}}
	q := "What properties does the proposed model bring together?"
	stem := embedding.QueryTerms("properties")[0]
	for _, tc := range []struct {
		name     string
		holders  []int64
		library  int
		notFound bool
	}{
		{"printed by most papers", []int64{2, 3, 4}, 5, false},
		{"printed by few papers", []int64{2}, 5, true},
		{"library size unknown", []int64{2, 3, 4}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Question: q, Evidence: ev, Scoped: true, Terms: 4,
				Uses:   []retrieve.TermUse{{Stem: stem, IDF: 5, Focus: true}},
				Claims: Claims{Holders: holders(map[string][]int64{"properties": tc.holders}), Scope: []int64{1}, Library: func() int { return tc.library }}}
			out, err := Compose(context.Background(), emb, in, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if out.NotFound != tc.notFound {
				t.Errorf("not found = %v, want %v: %s", out.NotFound, tc.notFound, out.Text)
			}
		})
	}
}

// A German question taken to name a paper none of whose passages found is
// German: its German words are not the ones that paper would print, so
// none is said missing from it. When the named paper's passage is German
// too, a word it lacks is still said missing.
func TestOtherLanguageNamedPaper(t *testing.T) {
	emb := embedding.NewBuiltin()
	q := "Über eine Reduktion von welchem Problem beweisen Akitaya et al. die NP-Schwere des Graph-Abstands?"
	german := "Akitaya et al. beweisen die NP-Schwere des Graph-Abstands über eine Reduktion von Binary Constraint Satisfaction."
	for _, tc := range []struct {
		name     string
		named    string
		notFound bool
	}{
		{"the named paper is English", "We show NP-hardness of the strong distance by a reduction from binary CSP.", false},
		{"the named paper is German", "Wir zeigen, dass die Distanz für die Graphen mit der Konstruktion schwer ist.", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := []papertree.Evidence{
				{PaperID: 1, Kind: papertree.KindSegment, Score: 0.9, Text: german},
				{PaperID: 3, Kind: papertree.KindSegment, Score: 0.6, Text: tc.named}}
			in := Input{Question: q, Evidence: ev, Missing: []string{"Reduktion", "beweisen"}, MissingName: true, Terms: 6,
				Claims: Claims{Holders: holders(map[string][]int64{"reduktion": {1}, "beweisen": {1}}), Scope: []int64{3}, Name: "“Paper 3”"}}
			out, err := Compose(context.Background(), emb, in, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if out.NotFound != tc.notFound {
				t.Errorf("not found = %v, want %v: %s", out.NotFound, tc.notFound, out.Text)
			}
		})
	}
}
