package compare

import (
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

func TestLookupAspect(t *testing.T) {
	for _, c := range []struct{ aspect, want string }{
		{"Dataset", "Dataset"},
		{"datasets", "Dataset"},
		{"Benchmark", "Dataset"},
		{"Training data", "Dataset"},
		{"Optimizer", "Optimizer"},
		{"Hardware", "Hardware"},
		{"GPU", "Hardware"},
		{"Evaluation metric", "Metric"}, // the more specific name ends the request
		{"Metrics", "Metric"},
		{"Number of parameters", "Number of parameters"},
		{"Model size", "Number of parameters"},
		{"Training time", "Training time"},
		{"Evaluation", "Evaluation"},
		{"Main result", "Result"},
		{"Key findings", "Result"},
		{"Baseline", "Baseline"},
		{"Baseline methods", "Baseline"},
		{"Software used", "Software"},
		{"Software packages", "Software"},
		// the request's own words, not how it is asked
		{"How performance is measured", "Metric"},
		{"Benchmarks used", "Dataset"},
		{"Compute used", "Hardware"},
		{"Metrics reported", "Metric"},
		{"What optimizer is used", "Optimizer"},
		{"Languages studied", ""},
		// outside the lexicon: today's method
		{"Fault tolerance", ""},
		{"Clocks", ""},
		{"Label smoothing", ""},
		{"Method", ""},
	} {
		got := ""
		if s := lookupAspect(c.aspect); s != nil {
			got = s.Name
		}
		if got != c.want {
			t.Errorf("%q: lexicon aspect %q, want %q", c.aspect, got, c.want)
		}
	}
}

func TestValueShapes(t *testing.T) {
	for _, c := range []struct {
		name, aspect, sentence string
		value                  bool // a value shape, not negated
		word                   bool // the aspect named
	}{
		{"GPU model and count", "Hardware", "Our network takes between five and six days to train on two GTX 580 3GB GPUs.", true, true},
		{"count of accelerators", "Hardware", "We pretrain our model using 1024 V100 GPUs for approximately one day.", true, true},
		{"cloud TPUs", "Hardware", "Training of BERTLARGE was performed on 16 Cloud TPUs (64 TPU chips total).", true, true},
		{"CPU model", "Hardware", "The parsing speeds are measured on an Intel Core i7 2.7GHz CPU with 16GB RAM.", true, true},
		{"TPU version without a count", "Hardware", "All models were trained on TPUv3 hardware.", true, true},
		{"n-GPU machine", "Hardware", "We parallelized our model using an 8-GPU machine.", true, true},
		{"a kind of computer", "Hardware", "Training the RCNN only takes several minutes using a single-thread machine.", true, false},
		{"machine translation is no computer", "Hardware", "We compare with a standard machine translation system.", false, false},
		{"a table row before a model named GPU", "Hardware", "Universal Transformer 0.91 0.35 0.96 0.46 0.34 0.02 Neural GPU 1.0 1.0", false, true},
		{"hardware word only", "Hardware", "Our method is independent of the hardware it runs on.", false, true},
		{"a cluster of words is no hardware", "Hardware", "Each row depicts a single coreference cluster predicted by our model.", false, false},
		{"named optimizer without the word", "Optimizer", "We trained our models using stochastic gradient descent with a batch size of 128 examples.", true, true},
		{"gradient ascent maximises the same way", "Optimizer", "Finally, U and V are estimated by applying stochastic gradient ascent with respect to the objective.", true, false},
		{"Adam", "Optimizer", "We use Adam with learning rate of 1e-4.", true, true},
		{"AdaGrad", "Optimizer", "We use mini-batched AdaGrad for optimization.", true, false},
		{"optimization word is no optimizer", "Optimizer", "This made the optimization problem much simpler.", false, false},
		{"parameters in millions", "Number of parameters", "Our neural network architecture has 60 million parameters.", true, true},
		{"parameters abbreviated", "Number of parameters", "CapsNet has 8.2M parameters.", true, true},
		{"a size without 'parameters' is no model size", "Number of parameters", "We train our models on random subsets of 9M, 30M, and 90M images.", false, false},
		{"parameters without a figure", "Number of parameters", "The parameters of all preceding layers change during training.", false, true},
		{"days of training", "Training time", "Each pre-training took 4 days to complete.", true, true},
		{"epochs", "Training time", "The model is trained for up to 150 epochs.", true, true},
		{"a duration not about training", "Training time", "Only a few months old, this is the baby girl she tried to protect.", false, false},
		{"parameter as a modifier", "Number of parameters", "Our largest model, GPT-2, is a 1.5B parameter Transformer.", true, true},
		{"BLEU", "Evaluation metric", "We used the cased BLEU score to evaluate the quality of our translations.", true, true},
		{"top-5 error", "Evaluation metric", "Our network achieves top-1 and top-5 test set error rates of 37.5% and 17.0%.", true, false},
		{"coefficient of determination", "Evaluation metric", "We obtained conditional and marginal R2 values for each regression.", true, false},
		{"coefficient of determination, superscript", "Evaluation metric", "The fit is summarised by its R² on held-out items.", true, false},
		{"a feature map is no mAP", "Evaluation metric", "We apply max pooling over the feature map.", false, false},
		{"named dataset", "Dataset", "On the ImageNet-1K dataset, we empirically show gains.", true, true},
		{"WMT", "Dataset", "We used the WMT'14 English to French dataset.", true, true},
		{"'four datasets' names no dataset", "Dataset", "We conduct experiments on four datasets.", false, true},
		{"data size", "Dataset", "We classify the 1.2 million high-resolution images of the contest.", true, false},
		{"a size naming a set", "Dataset", "The organisers released a 12,000-sentence German development set.", true, false},
		{"a size naming a set, spaced", "Dataset", "Each team received a 3000 tweet Italian training set.", true, false},
		{"a count of dialogues", "Dataset", "We collected a total of 5808 dialogues, based on 2236 unique scenarios.", true, false},
		{"hours of recorded speech", "Dataset", "To train the acoustic model we use about 2000 hours of spoken English data.", true, false},
		{"a table's number is no count", "Dataset", "Table 5 provides examples of responses generated by our system.", false, false},
		{"a size of a window is no data", "Dataset", "We classify each token from a 5-word context window.", false, false},
		{"a name after the noun", "Dataset", "The resulting dataset, WebText, contains the text of these links.", true, true},
		{"a set called by a name", "Dataset", "Language models learn these tasks when trained on a new dataset of millions of webpages called WebText.", true, true},
		{"names a colon lists", "Dataset", "We perform the experiments using the following four datasets: 20Newsgroups, Fudan Set, ACL Anthology Network, and Sentiment Treebank.", true, true},
		{"a colon before a lowercase phrase names nothing", "Dataset", "We use two datasets: one for training and one for testing.", false, true},
		{"a corpus after an article", "Dataset", "We have used a Google News corpus for training the word vectors.", true, true},
		{"a hyphenated mechanism is no metric", "Evaluation metric", "For running time, we run the Auto-Correlation or self-attentions 103 times.", false, false},
		{"the same across a line break", "Evaluation metric", "We replace the Auto- Correlation in our model with self-attentions.", false, false},
		{"a metric joined by a hyphen stays one", "Evaluation metric", "We report macro-F1 on the test set.", true, false},
		{"a learning rate alone names no optimizer", "Optimizer", "The learning rate of each model was manually tuned for the best perplexity.", false, true},
		{"baselines enumerated", "Baseline", "The baselines we used include a pipeline model [3] and an end-to-end model [8].", true, true},
		{"baseline models such as", "Baseline", "We compare against several baseline models such as CNN and LSTM.", true, true},
		{"a baseline mentioned, none named", "Baseline", "Our model improves 9.6% in recall over the strongest baseline.", false, true},
		{"a headline claim", "Main result", "The Universal Transformer achieves a new state of the art on LAMBADA.", true, true},
		{"a speed-up by a factor", "Main result", "It is able to speed up by a wide range from 1 to 12 times than BERT.", true, false},
		{"'results' without a claim or figure", "Main result", "Results are summarized in Table 7.", false, true},
		{"a share after a claim", "Main finding", "Our approach improves accuracy on the test set to 92.3%.", true, true},
		{"a stated finding without a figure", "Main finding", "We found that hearing children, but not deaf children, were able to predict the search.", true, false},
		{"results that show", "Main finding", "The results show that both components play a roughly equal role.", true, true},
		{"a position paper's claim", "Main finding", "In this paper, we argue that expository writing is understudied.", true, false},
		{"kinds of hardware named are no hardware used", "Hardware", "The FLOPs has nothing to do with the model's operating environment (CPU, GPU or TPU).", false, true},
		{"a tool with its version", "Software used", "Using E-prime 2.0, the avatars were randomly presented.", true, false},
		{"a maker's credit", "Software used", "The city was designed using Unity (Unity Technologies, San Francisco, United States).", true, false},
		{"an R package", "Software used", "Confusion matrices were built using the caret R package.", true, true},
		{"a framework by name", "Software used", "All models are implemented in PyTorch.", true, true},
		{"a language in lower case", "Software used", "The research was coded in python (version 3.12.11).", true, false},
		{"a software error names no software", "Software used", "Two trials were removed due to a software error when writing timing values.", false, true},
		{"a section is no tool", "Software used", "The decoder is implemented in Section 3.2 of the appendix.", false, true},
	} {
		spec := lookupAspect(c.aspect)
		vs, _, w := shapes(spec, c.sentence, strings.ToLower(c.sentence))
		if (len(vs) > 0) != c.value || w != c.word {
			t.Errorf("%s: values %q word %v, want value %v word %v", c.name, vs, w, c.value, c.word)
		}
	}
}

func TestNegatedAndRejected(t *testing.T) {
	hw := lookupAspect("Hardware")
	for _, c := range []struct{ name, aspect, sentence string }{
		{"negated hardware", "Hardware", "Large batch training can improve training efficiency even without large scale parallel hardware."},
		{"negated GPU", "Hardware", "The method needs no GPU at all."},
	} {
		vs, _, w := shapes(lookupAspect(c.aspect), c.sentence, strings.ToLower(c.sentence))
		if len(vs) > 0 || w {
			t.Errorf("%s: read as stating %q (word %v)", c.name, vs, w)
		}
	}
	// a negated value next to a stated one keeps the stated one
	s := "We used stochastic gradient descent without momentum, with a fixed learning rate of 0.7."
	if vs, _, _ := shapes(lookupAspect("Optimizer"), s, strings.ToLower(s)); len(vs) == 0 || vs[0] != "stochastic gradient descent" {
		t.Errorf("SGD without momentum: values %q", vs)
	}
	_ = hw
	for _, c := range []struct{ name, sentence, want string }{
		{"hypothetical", "A model employing Batch Normalization can be trained using batch gradient descent, or Stochastic Gradient Descent, or Adagrad.", "hypothetical"},
		{"conditional", "If more GPUs were available, the model could be trained faster.", "hypothetical"},
		{"concessive generality", "There will always be functions the learner cannot compute, no matter how rich the dataset.", "hypothetical"},
		{"others' work", "Smith et al. (2015) trained their network on 8 GPUs.", "others"},
		{"cited set", "The new larger datasets include LabelMe [23] and ImageNet [6].", "others"},
		{"previous work", "Previous work has shown that large mini-batches improve optimization speed.", "others"},
		{"bibliography", "A. Krizhevsky. Learning multiple layers of features. In Proceedings of NIPS, pp. 12-20, 2009.", "bibliography"},
		{"appendix inequality", "Then repeated application of the inequality C(t) ≤ C(t') + μ < ε yields the result for t ≥ t'.", "formula"},
		{"footnote link", "13https://cloudplatform.googleblog.com/2018/06/Cloud-TPU-now-offers-preemptible-pricing.html", "link"},
		{"own statement with a citation", "We use ADAM (Kingma and Ba, 2014) for learning with a minibatch size of 1.", ""},
		{"own statement with a modal", "We train on 8 GPUs, which can take two days.", ""},
		{"passive own statement", "The model was trained using Stochastic Gradient Descent with momentum (Sutskever et al., 2013).", ""},
		{"'in' and 'on' are no formula", "Training was performed on 4 Cloud TPUs in Pod configuration (16 TPU chips total) on one pod in one region.", ""},
	} {
		if got := rejected(c.sentence); got != c.want {
			t.Errorf("%s: rejected %q, want %q", c.name, got, c.want)
		}
	}
}

// paperOf builds a paper's data from sections of sentences.
func paperOf(title string, secs ...*papertree.Node) *retrieve.PaperData {
	id := int64(1)
	var number func(n *papertree.Node)
	number = func(n *papertree.Node) {
		n.ID = id
		id++
		for _, c := range n.Children {
			number(c)
		}
	}
	root := &papertree.Node{Kind: papertree.KindRoot, Title: title, Children: secs}
	number(root)
	return retrieve.NewPaperData(&papertree.Paper{ID: 7, Title: title, Root: root}, nil, nil, nil)
}

func section(title string, texts ...string) *papertree.Node {
	s := &papertree.Node{Kind: papertree.KindSection, Title: title, PageStart: 1, PageEnd: 1}
	for _, t := range texts {
		s.Children = append(s.Children, &papertree.Node{Kind: papertree.KindSegment, Text: t, PageStart: 2, PageEnd: 2})
	}
	return s
}

func TestLexiconCell(t *testing.T) {
	for _, c := range []struct {
		name, aspect string
		paper        *retrieve.PaperData
		want         string // a part of the quoted sentence; "" = not in this paper
	}{
		{"value stated without the aspect's word", "Hardware", paperOf("Vision",
			section("1 Introduction", "We study image classification with deep networks, which need a lot of hardware to train."),
			section("5 Details of learning", "Our network takes between five and six days to train on two GTX 580 3GB GPUs.")),
			"two GTX 580"},
		{"negated mention only: not in this paper", "Hardware", paperOf("Text",
			section("1 Introduction", "Large batch training can improve efficiency even without large scale parallel hardware."),
			section("2 Method", "We classify sentences with a convolutional network over word vectors.")),
			""},
		{"never stated: not in this paper", "Hardware", paperOf("Capsules",
			section("1 Introduction", "A capsule is a group of neurons whose activity vector represents an entity."),
			section("4 Architecture", "We use the Adam optimizer with its TensorFlow default parameters.")),
			""},
		{"own statement over others' work", "Optimizer", paperOf("Parser",
			section("2 Related work", "Chen et al. (2012) trained their parser with L-BFGS on a cluster."),
			section("3 Training", "We use mini-batched AdaGrad for optimization and apply dropout with 0.5 rate.")),
			"AdaGrad"},
		{"statement over a hypothetical", "Optimizer", paperOf("Normalization",
			section("3 Method", "A model employing our layer can be trained using batch gradient descent, or SGD, or Adagrad."),
			section("4 Experiments", "The model was trained using Stochastic Gradient Descent with momentum, using the mini-batch size of 32.")),
			"with momentum"},
		{"a quantity without a figure is not stated", "Number of parameters", paperOf("Normalization",
			section("1 Introduction", "The inputs to each layer are affected by the parameters of all preceding layers.")),
			""},
		{"appendix inequality is no evaluation", "Evaluation", paperOf("Clocks",
			section("1 Introduction", "We define a partial ordering of events in a distributed system."),
			section("Appendix", "Then repeated application of the inequality C(t) ≤ C(t') + μ < ε yields the result for t ≥ t'.")),
			""},
		{"a name used throughout over one named once", "Dataset", paperOf("Language models",
			section("Abstract", "Large improvements are noticed on small datasets such as Penn Treebank and WikiText-2."),
			section("2 Approach", "The resulting dataset, WebText, contains the text subset of these 45 million links.",
				"All results presented in this paper use a preliminary version of WebText.",
				"We removed all Wikipedia documents from WebText.",
				"Table 6 shows the overlap of each test set with WebText.",
				"The largest model still underfits WebText.")),
			"dataset, WebText"},
		{"the datasets a colon lists over one named in passing", "Dataset", paperOf("Text classification",
			section("4 Experiments", "We perform the experiments using the following four datasets: 20Newsgroups, Fudan Set, ACL Anthology Network, and Sentiment Treebank."),
			section("5 Results", "In the ACL dataset, our model has a competitive result with the best baseline.",
				"We compare our model to well-designed feature sets in the ACL dataset.",
				"The ACL dataset is annotated with publication years.")),
			"four datasets: 20Newsgroups"},
		{"an amount asked: the sentence with the figure", "Amount of training data", paperOf("Negotiation",
			section("1 Introduction", "We collect the first large dataset of natural language negotiations between two people."),
			section("2.3 Data Collection", "We collected a total of 5808 dialogues, based on 2236 unique scenarios.")),
			"5808 dialogues"},
		{"an amount asked, none stated: not in this paper", "Corpus size", paperOf("Theory",
			section("3 Discussion", "No matter how rich the dataset is, some functions cannot be learned by the network.")),
			""},
		{"learning rate tuned, no optimizer named: not in this paper", "Optimizer", paperOf("Language models",
			section("3 Experiments", "The learning rate of each model was manually tuned for the best perplexity on a held-out sample.")),
			""},
		{"a heading names the aspect for its sentences", "Training time", paperOf("Word vectors",
			section("4.3 Results", "The L-BFGS training terminates when no improvement has been achieved for 25 iterations."),
			section("4.6 Model Analysis: Run-time", "With the above settings a single iteration takes 14 minutes.")),
			"14 minutes"},
		{"a duration under another heading states no training time", "Training time", paperOf("Survey",
			section("2 Study", "The interview took about 40 minutes.")),
			""},
		{"the set a size names over a mention of a data set", "Dataset", paperOf("Shared task",
			section("2 Data", "Each team received a 3000 tweet Italian training set, and a 1000-tweet test set."),
			section("4 Evaluation", "We first evaluated our models using the development data set of the task.")),
			"3000 tweet Italian"},
		{"the baselines named over a baseline mentioned", "Baseline", paperOf("Search agent",
			section("Abstract", "Our agent significantly outperforms the strongest baseline by 9% in recall."),
			section("5 Experiments", "We compare our agent with several baselines including Google, Google Scholar and a prompted GPT-4o.")),
			"including Google"},
		{"no baseline: not in this paper", "Baseline", paperOf("Theory",
			section("1 Introduction", "We prove that message-passing networks of bounded depth and width cannot compute the graph diameter.")),
			""},
		{"a finding with its figure over one without", "Main result", paperOf("Early exit",
			section("Abstract", "Our experiments demonstrate promising results on twelve NLP datasets."),
			section("5 Conclusion", "Our model not only reaches a comparable speedup (by 2 to 11 times) to the BERT model, but also attains competitive accuracy.")),
			"2 to 11 times"},
		{"a stated finding where no figure is", "Main finding", paperOf("Navigation",
			section("Abstract", "We found that hearing children, but not deaf children, were able to predict the search.")),
			"We found that"},
		{"kinds of hardware named, none used: not in this paper", "Hardware", paperOf("Early exit",
			section("4.1 FLOPs analysis", "The FLOPs has nothing to do with the model's operating environment (CPU, GPU or TPU) and only reveals the computational complexity.")),
			""},
		{"the tool over a software error", "Software used", paperOf("Navigation",
			section("2 Method", "All three phases were conducted in a large virtual city designed using Unity (Unity Technologies, San Francisco, United States)."),
			section("3 Results", "Two trials were removed due to negative simulation times that resulted from a software error.")),
			"using Unity"},
		{"a package with its address", "Software used", paperOf("Ridge regression",
			section("1 Introduction", "The two-level ridge regression model is implemented in the R package xrnet (Weaver and Lewinger, 2019), which can be found at https://github.com/USCbiostats/xrnet.")),
			"R package xrnet"},
		{"bibliography is not read", "Dataset", paperOf("Anything",
			section("1 Introduction", "We study a problem of reasoning about text."),
			section("References", "J. Deng. ImageNet: A large-scale hierarchical image database. In CVPR, 2009.")),
			""},
	} {
		pt := newPaperText(c.paper)
		cell, ok := pt.lexiconCell(specFor(c.aspect))
		switch {
		case c.want == "" && ok:
			t.Errorf("%s: quoted %q, want not in this paper", c.name, cell.Sentence)
		case c.want != "" && !ok:
			t.Errorf("%s: not found, want %q", c.name, c.want)
		case c.want != "" && !strings.Contains(cell.Sentence, c.want):
			t.Errorf("%s: quoted %q, want %q", c.name, cell.Sentence, c.want)
		}
	}
}

// A row of a table that the aspect labels states its value, a zero
// too ("Gradient Clipping 0.0": not used); the same figures in a row of
// another label state nothing.
func TestWordCellTableRow(t *testing.T) {
	d := paperOf("Pretraining",
		section("B Pretraining Hyperparameters", "Table 9: Hyperparameters for pretraining.\n| Hyperparam | Large | Base\nGradient Clipping | 0.0 | 0.0"))
	if c, ok := newPaperText(d).wordCell("Gradient clipping"); !ok || !strings.Contains(c.Sentence, "0.0") {
		t.Errorf("gradient clipping row: %v %q, want the row with its value", ok, c.Sentence)
	}
	d = paperOf("Pretraining",
		section("B Pretraining Hyperparameters", "Table 9: Hyperparameters for pretraining.\n| Hyperparam | Large | Base\nWarmup Steps | 24k | 24k\nGradient norm clipping of the decoder state 1 | 0.0 | 0.0"))
	if c, ok := newPaperText(d).wordCell("Dropout"); ok {
		t.Errorf("dropout: quoted %q from a table without it", c.Sentence)
	}
}

// A not-found cell of an aspect outside the lexicon says what was
// searched for, not that the paper does not state the aspect.
func TestNotNamedText(t *testing.T) {
	if got := NotNamedText("Software used by the authors"); !strings.Contains(got, "names “software” with “authors”") || strings.Contains(got, "Not in this paper") {
		t.Errorf("NotNamedText: %q", got)
	}
	if got := NotNamedText("Number of participants"); !strings.Contains(got, "gives a count of “participants”") {
		t.Errorf("NotNamedText of a count: %q", got)
	}
}

func TestWordCellVerifiesNotFound(t *testing.T) {
	d := paperOf("Bigtable",
		section("9 Lessons", "We have seen problems due to memory corruption, large clock skew and hung machines."),
		section("10 Related Work", "Other systems use Paxos."))
	pt := newPaperText(d)
	if c, ok := pt.wordCell("Clocks"); !ok || !strings.Contains(c.Sentence, "clock skew") {
		t.Errorf("clocks: %v %q, want the clock skew sentence", ok, c.Sentence)
	}
	if c, ok := pt.wordCell("Label smoothing"); ok {
		t.Errorf("label smoothing: quoted %q, want none (no sentence names it)", c.Sentence)
	}
}

func TestUnknownAspectWords(t *testing.T) {
	for _, c := range []struct {
		name, aspect, sentence string
		about                  bool
	}{
		{"modifier only", "Label smoothing", "The GLUE data set distribution does not include the Test labels.", false},
		{"a verb sharing a stem", "Label smoothing", "The regularization term helps to smooth the final learnt weights.", false},
		{"the compound", "Label smoothing", "We optimize weight decay, dropout, and label smoothing.", true},
		{"head in another form", "Fault tolerance", "Block broadcasts are also tolerant of dropped messages.", true},
		{"one-word aspect", "Clocks", "Processes have no access to synchronized clocks.", true},
	} {
		if got := holdsHead(c.aspect, c.sentence); got != c.about {
			t.Errorf("%s: about %q = %v, want %v", c.name, c.aspect, got, c.about)
		}
	}
	// a participle after the aspect is how it was asked, not a word the
	// paper must have
	d := paperOf("Cross-lingual",
		section("4 Setup", "We pretrain on five languages: English, French, German, Russian and Chinese."))
	if c, ok := newPaperText(d).wordCell("Languages studied"); !ok || !strings.Contains(c.Sentence, "French") {
		t.Errorf("languages studied: %v %q, want the sentence naming the languages", ok, c.Sentence)
	}
	d = paperOf("Boosting",
		section("2 Method", "The additional regularization term helps to smooth the final learnt weights to avoid over-fitting."),
		section("3 Data", "Each example has a label from the training set."))
	if c, ok := newPaperText(d).wordCell("Label smoothing"); ok {
		t.Errorf("label smoothing in a paper without it: quoted %q", c.Sentence)
	}
	d = paperOf("Vision",
		section("B Training", "We optimize three basic regularization parameters: weight decay, dropout, and label smoothing."))
	if _, ok := newPaperText(d).wordCell("Label smoothing"); !ok {
		t.Errorf("label smoothing stated: not found")
	}
}

// An aspect that asks how many of a thing there are is stated only with a
// count of that thing.
func TestCountOf(t *testing.T) {
	for _, c := range []struct {
		aspect, sentence string
		want             bool
	}{
		{"Number of participants", "We recruited a total of ten participants across three universities.", true},
		{"Number of participants", "A controlled lab study with participants (N=10) focusing on discovery.", true},
		{"Number of participants", "Finally, we scheduled each participant for a 60-minute post-interview.", false},
		{"Number of participants", "Figure 6 plots the number of participants using each feature.", false},
		{"How many annotators", "Each tweet was labeled by 3 trained annotators.", true},
		// the people of a study counted as what they are
		{"Number of participants", "Thirty 4- to 8-year-old, deaf and hearing children, completed a false-belief task.", true},
		{"Number of participants", "The experiment involved 22 computer science students split into eight groups.", true},
		{"Number of participants", "Twenty-two volunteers (10 males and 12 females) participated in the pretest.", true},
		{"Number of participants", "During Study 1 in all Paper Cards so that participants were exposed to the signal.", false},
		{"Number of participants", "Experiment 0 described in Appendix 1, as the participants had no experience.", false},
	} {
		r := countOf(c.aspect)
		if r == nil {
			t.Fatalf("%q: no count pattern", c.aspect)
		}
		if got := counts(r, c.sentence); got != c.want {
			t.Errorf("%q in %q: %v, want %v", c.aspect, c.sentence, got, c.want)
		}
	}
	for _, a := range []string{"Statistical method", "Sample size", "Dataset"} {
		if countOf(a) != nil {
			t.Errorf("%q: a count pattern for an aspect that is no count", a)
		}
	}
}
