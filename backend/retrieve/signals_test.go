package retrieve

import (
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	querypkg "github.com/papertree/papertree/backend/query"
)

func TestQuestionKind(t *testing.T) {
	tests := []struct{ name, q, want string }{
		{"auxiliary opener", "Does the model use a syntactic parser?", KindYesNo},
		{"lead-in clause then auxiliary", "In the BERT paper, is next sentence prediction useful?", KindYesNo},
		{"according to lead-in", "According to Davis and Goadrich, does ROC dominance imply PR dominance?", KindYesNo},
		{"why", "Why does reversing the source sentence help?", KindHowWhy},
		{"how as method", "How does dropout work in the network?", KindHowWhy},
		{"how many is factual", "How many layers does the encoder have?", KindFactual},
		{"what is factual", "What learning rate was used?", KindFactual},
		{"embedded why", "What is the reason why the loss diverges?", KindHowWhy},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := QuestionKind(tc.q); got != tc.want {
				t.Errorf("QuestionKind(%q) = %s, want %s", tc.q, got, tc.want)
			}
		})
	}
}

func TestReferenceLike(t *testing.T) {
	tests := []struct {
		name string
		text string
		want bool
	}{
		{"bibliography entries", "J. Pennington, R. Socher, and C. D. Manning. 2014. GloVe: Global vectors for word representation. In Proceedings of EMNLP, pages 1532-1543. T. Mikolov, K. Chen, G. Corrado, and J. Dean. 2013. Efficient estimation of word representations in vector space. arXiv preprint.", true},
		{"numbered IEEE entries", "[12] D. G. Lowe. Distinctive image features from scale-invariant keypoints. IJCV, 60(2):91-110, 2004. [13] K. Mikolajczyk and C. Schmid. A performance evaluation of local descriptors. PAMI, 2005.", true},
		{"related work prose with citations", "Word vectors have been learned by matrix factorization (Deerwester et al., 1990) and by shallow window-based methods (Mikolov et al., 2013), which scale to large corpora but ignore global statistics; our model combines the strengths of both families of methods in one objective.", false},
		{"method prose with numbers", "We trained the model for 50 epochs with a learning rate of 0.05 and a batch size of 128 on 6 billion tokens from 2014 Wikipedia and Gigaword, using a window of 10 words.", false},
		{"short line", "Proceedings of ACL 2019.", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ReferenceLike(tc.text); got != tc.want {
				t.Errorf("ReferenceLike = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestNameLike(t *testing.T) {
	tests := []struct {
		w    string
		want bool
	}{
		{"AlphaFold2", true}, {"GloVe", true}, {"GPT-2", true}, {"YOLOv3", true}, {"SPECTER", true}, {"XGBoost", true},
		{"BERT's", true}, {"The", false}, {"Transformer", false}, {"2014", false}, {"CNN", true}, {"a", false},
	}
	for _, tc := range tests {
		t.Run(tc.w, func(t *testing.T) {
			if got := NameLike(tc.w); got != tc.want {
				t.Errorf("NameLike(%q) = %v, want %v", tc.w, got, tc.want)
			}
		})
	}
}

// The trimmer must keep the sentence that answers, not the ones that only
// repeat the question's words.
func TestTrimKeepsAnsweringSentence(t *testing.T) {
	tests := []struct {
		name, text, query, keep string
		budget                  int
		cut                     bool // the best sentence is cut inside
	}{
		{"factual: the number wins over restatements",
			"The learning rate schedule matters for training. We study the learning rate schedule of the model in detail. The learning rate was set to 0.05 and halved every 10 epochs. Other settings follow prior work.",
			"What learning rate schedule was used for training?", "0.05 and halved", 24, false},
		{"how/why: the causal sentence wins",
			"Reversing the source sentences is simple. We reverse the source sentences in all experiments. Reversing helps because it introduces many short term dependencies that make optimization easier. The target is not reversed.",
			"Why does reversing the source sentences help?", "because it introduces", 24, false},
		{"the sentence that goes on from the question's sentence comes with it",
			"Years later, Argyropoulos and colleagues rejected the earlier evidence that set size and mask duration interact in masking. These authors argued that the previous demonstrations were an artefact of floor and ceiling effects. Object-substitution masking has been studied with many displays.",
			"Why did Argyropoulos and colleagues reject the earlier evidence that set size and mask duration interact in masking?", "floor and ceiling", 56, false},
		{"a long best sentence is cut, not dropped",
			"Unrelated text here. The batch size was 512 sequences of 128 tokens each for the first ninety percent of the steps and 512 sequences of 512 tokens for the remaining ten percent of the steps.",
			"What batch size was used?", "batch size was 512", 20, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := trimToBudget(tc.text, tc.query, tc.budget)
			if !strings.Contains(got, tc.keep) {
				t.Errorf("trimmed to %q, lost %q", got, tc.keep)
			}
			// A sentence cut inside is shown as cut, and only then.
			if strings.HasSuffix(got, papertree.Cut) != tc.cut {
				t.Errorf("trimmed to %q: want marked as cut %v", got, tc.cut)
			}
		})
	}
}

// "multilingual BERT" quotes the mBERT paper's title while "BERT" is the
// BERT paper's own name: neither is clearly named, so both stay candidates.
func TestIdentityAmbiguous(t *testing.T) {
	cards := []*card{
		newCard(2, "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding", []string{"Jacob Devlin"}, 2019, "", ""),
		newCard(3, "Is Multilingual BERT Fluent in Language Generation?", []string{"Samuel Rönnqvist"}, 2019, "", ""),
	}
	sc := identityScores(querypkg.Parse("How many languages is the multilingual BERT model trained on?"), cards)
	if sc[2] == 0 || sc[3] == 0 || sc[2]-sc[3] >= 1 || sc[3]-sc[2] >= 1 {
		t.Errorf("want both papers close, got %v", sc)
	}
}

// "Khan et al." cites a paper whose FIRST author is Khan; a paper where Khan
// is the second author gets the surname's weight but not the citation's.
func TestIdentityCitationNamesFirstAuthor(t *testing.T) {
	cards := []*card{
		newCard(7, "Zero-Shot Object Detection: Learning to Simultaneously Recognize and Localize Novel Concepts", []string{"Shafin Rahman", "Salman Khan"}, 2018, "", ""),
		newCard(8, "Zero Shot Detection", []string{"Pengkai Zhu", "Venkatesh Saligrama"}, 2019, "", ""),
	}
	rahman := identityScores(querypkg.Parse("Which dataset is the zero-shot detection protocol of Rahman et al. based on?"), cards)
	khan := identityScores(querypkg.Parse("Which dataset is the zero-shot detection protocol of Khan et al. based on?"), cards)
	if rahman[7]-rahman[8] < 1 {
		t.Errorf("first author cited: want paper 7 clearly ahead, got %v", rahman)
	}
	if khan[7]-khan[8] >= 1 {
		t.Errorf("second author cited as if first: want no clear winner, got %v", khan)
	}
}

func TestIdentityScores(t *testing.T) {
	cards := []*card{
		newCard(1, "GloVe: Global Vectors for Word Representation", []string{"Jeffrey Pennington", "Richard Socher", "Christopher D. Manning"}, 2014, "We present GloVe, a log-bilinear model.", ""),
		newCard(2, "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding", []string{"Jacob Devlin", "Ming-Wei Chang"}, 2019, "We introduce BERT.", ""),
		newCard(3, "Is Multilingual BERT Fluent in Language Generation?", []string{"Samuel Rönnqvist"}, 2019, "The multilingual BERT model is trained on 104 languages.", ""),
		newCard(4, "Sequence to Sequence Learning with Neural Networks", []string{"Ilya Sutskever", "Oriol Vinyals", "Quoc V. Le"}, 2014, "We use LSTMs on WMT'14.", ""),
		newCard(5, "ImageNet Classification with Deep Convolutional Neural Networks", []string{"Alex Krizhevsky", "Ilya Sutskever", "Geoffrey E. Hinton"}, 2012, "We trained a large CNN.", ""),
		newCard(6, "ITEM2VEC: NEURAL ITEM EMBEDDING FOR COLLABORATIVE FILTERING", nil, 2016, "", "Oren Barkan Tel Aviv University Noam Koenigstein Microsoft"),
		newCard(7, "Zero-Shot Object Detection: Learning to Simultaneously Recognize and Localize Novel Concepts", []string{"Shafin Rahman", "Salman Khan"}, 2018, "", ""),
		newCard(8, "Zero Shot Detection", []string{"Pengkai Zhu", "Venkatesh Saligrama"}, 2019, "", ""),
		newCard(9, "A Fast Learning Algorithm for Deep Belief Nets", []string{"Geoffrey E. Hinton", "Simon Osindero"}, 2006, "", ""),
		newCard(10, "Reducing the Dimensionality of Data with Neural Networks", []string{"Geoffrey E. Hinton", "Ruslan R. Salakhutdinov"}, 2006, "", ""),
		newCard(11, "Language Models are Unsupervised Multitask Learners", []string{"Alec Radford", "Jeffrey Wu"}, 2019, "Our largest model, GPT-2, is a 1.5B parameter Transformer.", ""),
	}
	tests := []struct {
		name  string
		q     string
		want  int64 // the paper ranked first (0: none scores)
		clear bool  // strictly ahead of every other paper
	}{
		{"own name in the title lead", "In the GloVe paper, what learning rate was used?", 1, true},
		{"a lead shared in another title still names its paper", "What does BERT mask during pre-training?", 2, true},
		{"author surname with et al.", "What did Pennington et al. use as the weighting function?", 1, true},
		{"surname shared by two papers plus the title", "In Sutskever et al.'s sequence to sequence learning paper, how many layers?", 4, true},
		{"a distinctive name of one abstract", "Which WMT'14 task is used for evaluation?", 4, true},
		{"front matter names when metadata lacks authors", "How does Barkan's method compare with SVD?", 6, true},
		{"all-caps title words are not names", "Which ITEM sets were used?", 0, false},
		{"a run of title words names the paper", "How does the neural item embedding for collaborative filtering work?", 6, true},
		{"no paper named", "What batch size works best for fine-tuning?", 0, false},
		{"first author cited with et al. beats a title on the same topic", "Which dataset is the zero-shot detection protocol of Rahman et al. based on?", 7, true},
		{"two-author citation names the paper with both", "What do Hinton and Salakhutdinov pretrain the autoencoder with?", 10, true},
		{"first author cited with a year", "What does Rahman (2018) evaluate zero-shot detection on?", 7, true},
		{"a name only one abstract has", "Is the LSTM reader trained on 104 languages with Wikipedia?", 0, false},
		{"a hyphenated name written without its hyphen", "How many parameters does GPT2 have?", 11, true},
		{"and with it", "How many parameters does GPT-2 have?", 11, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc := identityScores(querypkg.Parse(tc.q), cards)
			var best int64
			for id, s := range sc {
				if best == 0 || s > sc[best] || s == sc[best] && id < best {
					best = id
				}
			}
			if tc.want == 0 {
				if best != 0 && sc[best] >= 2 {
					t.Fatalf("named paper %d (score %.2f) in %v", best, sc[best], sc)
				}
				return
			}
			if best != tc.want {
				t.Fatalf("best = %d, want %d (scores %v)", best, tc.want, sc)
			}
			for id, s := range sc {
				if tc.clear && id != best && s >= sc[best] {
					t.Errorf("paper %d ties the named paper: %v", id, sc)
				}
			}
		})
	}
}

func TestWantsCitations(t *testing.T) {
	tests := []struct {
		q    string
		want bool
	}{
		{"Which papers does the BERT paper cite for pre-training?", true},
		{"What references support the claim?", true},
		{"Who funded the work on warm-starting selection?", true},
		{"Which grants supported this study?", true},
		{"Whom do the authors thank?", true},
		{"What does the acknowledgement section say?", true},
		{"Was the work supported by the NSF?", true},
		{"What image resolution does the end-to-end coreference model take as input?", false},
		{"How are user preferences modelled?", false},
		{"What is the fundamental limit of the method?", false},
		{"What inference speed does the model reach?", false},
	}
	for _, tc := range tests {
		t.Run(tc.q, func(t *testing.T) {
			if got := WantsCitations(tc.q); got != tc.want {
				t.Errorf("WantsCitations(%q) = %v, want %v", tc.q, got, tc.want)
			}
		})
	}
}
