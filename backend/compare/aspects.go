package compare

import (
	"regexp"
	"strings"
)

// The aspect lexicon: the aspects researchers compare papers on most often
// (dataset, optimizer, hardware, metric, model size, training time,
// evaluation), each with the words that name it and the shapes of the values
// a paper states for it ("8 P100 GPUs", "Adam", "110M parameters", "BLEU").
// A cell for one of these aspects quotes the sentence that STATES a value,
// not one that merely has the aspect's word. The lexicon is generic
// research vocabulary, never fitted to a paper; an aspect it does not know
// falls back to retrieve.BestCell.

// aspectSpec is one aspect of the lexicon.
type aspectSpec struct {
	Name string
	// names: words of a requested aspect that select this spec (the
	// request's words are lowercased; the first spec, in lexicon order,
	// with a name in the request wins).
	names []string
	// words: the aspect named in a sentence ("optimizer", "GPU").
	words shape
	// values: the shapes of a stated value ("Adam", "8 GPUs", "60 million
	// parameters"); the first is the main one (a named value).
	values []shape
	// sections: heading words of the sections where papers state it.
	sections []string
	// needWord: a value shape counts only in a sentence that names the
	// aspect (a bare "86M" is a size only next to "parameters").
	needWord bool
	// needValue: the aspect is a quantity ("how many parameters", "how
	// long"): a sentence that names it without a figure does not state it,
	// so without a value the paper does not state it.
	needValue bool
	// all: patterns a sentence must all hold to name the aspect (an
	// aspect outside the lexicon: each of its words).
	all []*regexp.Regexp
	// named: how many leading value shapes name the value itself (a
	// dataset's or optimizer's name) rather than describe it; 0 means 1.
	named int
	// drop: a match of a value shape that is no value after all (a
	// figure or section named like a tool: "implemented in Section 3").
	drop *regexp.Regexp
	// links: a web address (and "which can be found at") is part of how
	// the value is stated (a tool's home), not a footnote's link.
	links bool
}

func re(s string) *regexp.Regexp { return regexp.MustCompile(`(?i)` + s) }

// shape is a pattern with the lowercase substrings one of which any match
// holds (a cheap test that skips the pattern on most sentences).
type shape struct {
	re   *regexp.Regexp
	need []string
	// weak: the shape states the aspect less precisely than the others
	// (a finding without its figure): a sentence with only weak values
	// ranks below one with another value.
	weak bool
}

func sh(r *regexp.Regexp, need ...string) shape { return shape{re: r, need: need} }

// weakly is a weak shape (see shape.weak).
func weakly(r *regexp.Regexp, need ...string) shape { return shape{re: r, need: need, weak: true} }

// in reports whether the shape may match a sentence whose lowercase is lower.
func (p shape) in(lower string) bool {
	if len(p.need) == 0 {
		return true
	}
	for _, n := range p.need {
		if strings.Contains(lower, n) {
			return true
		}
	}
	return false
}

// number words and figures for counts ("two GPUs", "8 GPUs", "1.2 million").
const count = `(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|sixteen|thirty-two|sixty-four|hundreds?|thousands?|several|a few|multiple)`

var (
	gpuWords  = []string{"gpu", "tpu", "cpu", "cores", "machines"}
	dataWords = []string{"data", "corpus", "corpora", "benchmark", "shared task", "challenge", "treebank"}
)

// a list of names after a colon ("20Newsgroups, Fudan Set, ACL Anthology
// Network, and Sentiment Treebank"): each name starts with a capital or
// with digits and a capital, and may run over a few capitalised words
const listName = `(?:[A-Z]|\d+[A-Z])[\w'’-]*(?: [A-Z][\w'’-]*){0,3}`
const nameList = listName + `(?:,? (?:and |or )?` + listName + `)*`

// listItems splits the names a colon lists in a value ("datasets: A, B and
// C") into one value each: a sentence naming four datasets states more
// than one naming one. Any other value is itself.
func listItems(v string) []string {
	i := strings.Index(v, ": ")
	if i < 0 {
		return []string{v}
	}
	var out []string
	for _, it := range listSep.Split(v[i+2:], -1) {
		if it = strings.TrimSpace(it); it != "" {
			out = append(out, it)
		}
	}
	return out
}

var listSep = regexp.MustCompile(`,\s*(?:and |or )?|\s+(?:and|or)\s+`)

// a count of devices: a whole number or a number word
const wholeCount = `(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|sixteen|thirty-two|sixty-four|hundreds|thousands|several|a few|multiple)`

var lexicon = []*aspectSpec{
	{
		Name:  "Hardware",
		names: []string{"hardware", "gpu", "gpus", "tpu", "tpus", "cpu", "compute", "computing resources", "infrastructure", "accelerator"},
		words: sh(re(`\b(?:hardware|gpus?|tpus?|cpus?|accelerators?)\b`), "hardware", "gpu", "tpu", "cpu", "accelerator"),
		values: []shape{
			sh(re(`\b(?:GTX|RTX|Titan|Tesla|Quadro|Radeon|Xeon|Opteron)\b`), "gtx", "rtx", "titan", "tesla", "quadro", "radeon", "xeon", "opteron"),
			sh(regexp.MustCompile(`\b(?:[KPVAHT]\d{2,3}|TPU ?v\d|Core i\d)\b`)),
			// a whole count, not a table's "0.02" before a model named "Neural GPU"
			sh(re(`(?:^|[\s(])`+wholeCount+`[ -](?:\S+ ){0,3}(?:gpus?|tpus?|cpus?|tpu chips|(?:cpu )?cores|machines)\b`), gpuWords...),
			sh(re(`\b\d+[ -]?(?:gpus?|tpus?)\b`), "gpu", "tpu"),
			sh(re(`\b\d+(?:\.\d+)? ?(?:GB|TB) (?:of )?(?:RAM|memory)\b|\b\d+(?:\.\d+)? ?GHz\b`), "gb", "tb", "ghz"),
			sh(re(`\b(?:on|using|with) (?:a |one |the )?(?:single |one )?(?:gpus?|tpus?|cpus?)\b`), "gpu", "tpu", "cpu"),
			// a kind of computer: "using a single-thread machine", "on a
			// desktop workstation with 16GB"; not a compound ("a standard
			// machine translation system")
			sh(re(`\b(?:on|using|with) (?:a|an|one|the) (?:single(?:[- ]thread(?:ed)?|[- ]core)?|desktop|commodity|standard|multi-?core|\d+-core) (?:machine|computer|workstation|server|PC|laptop)s?(?:[.,;:)]|$| (?:with|and|for|in|to|which|that|having|running|at|of|using)\b)`), "machine", "computer", "workstation", "server", "pc", "laptop"),
		},
		sections: []string{"train", "implement", "setup", "set-up", "detail", "hardware", "experiment", "infrastructure"},
		// "(CPU, GPU or TPU)" names kinds of hardware, not the paper's
		needValue: true,
	},
	{
		Name:  "Training time",
		names: []string{"training time", "train time", "time to train", "training duration", "training cost", "wall-clock", "wall clock"},
		// a duration is a training time only in a sentence about training
		// ("a few months old" in a generated sample is not)
		words: sh(re(`\b(?:(?:pre-? ?)?train\w*|converge\w*|run-?time|running time|wall-?clock)\b`), "train", "converge", "time", "clock"),
		values: []shape{
			sh(re(`\b(?:`+count+`|a|about|approximately|around|roughly)[ -](?:hours?|days?|weeks?|months?|minutes?)\b`), "hour", "day", "week", "month", "minute"),
			sh(re(`\b\d+(?:\.\d+)? ?(?:h|hrs|gpu[- ]hours|tpu[- ]days|core[- ]days|petaflop/s-days)\b`)),
			sh(re(`\b(?:for|up to|about) (?:\d+(?:[.,]\d+)?|`+count+`) (?:epochs|iterations|steps|updates)\b`), "epochs", "iterations", "steps", "updates"),
		},
		sections:  []string{"train", "implement", "setup", "detail", "experiment", "cost", "efficien"},
		needWord:  true,
		needValue: true,
	},
	{
		Name:  "Optimizer",
		names: []string{"optimizer", "optimiser", "optimization", "optimisation", "optimization algorithm", "training algorithm", "solver"},
		words: sh(re(`\b(?:optimi[sz]er|optimi[sz]ed (?:with|using)|learning rate|momentum|weight decay|batch size)\b`), "optimi", "learning rate", "momentum", "weight decay", "batch size"),
		values: []shape{
			sh(re(`\b(?:stochastic gradient (?:descent|ascent)|gradient (?:descent|ascent)|SGD|Adam\w*|AdaGrad|Adadelta|RMSProp|Nesterov|L-?BFGS|LAMB|LARS|Adafactor|AdaMax|back-?propagation)\b`),
				"gradient", "sgd", "adam", "adagrad", "adadelta", "rmsprop", "nesterov", "bfgs", "lamb", "lars", "adafactor", "adamax", "propagation"),
			sh(re(`\bmomentum (?:of )?0?\.\d+|\blearning rate (?:of |was |is |=|α ?= ?)?\d`), "momentum", "learning rate"),
		},
		sections: []string{"train", "optimi", "implement", "setup", "detail", "hyper", "experiment", "learning"},
		// "the learning rate was tuned" names no optimizer: a sentence
		// states it with a method's name or a setting's figure
		needValue: true,
	},
	{
		Name:  "Number of parameters",
		names: []string{"parameters", "parameter count", "model size", "size of the model", "#params", "params", "capacity"},
		words: sh(re(`\b(?:parameters?|params|weights)\b`), "param", "weights"),
		values: []shape{
			sh(re(`\b\d+(?:[.,]\d+)? ?(?:[MBK]|million|billion|thousand)[ -](?:[\w-]+ ){0,2}(?:parameters?|params|weights)\b`)),
			sh(re(`\b(?:parameters|params)\W{0,3}(?:\S+ ){0,3}\d+(?:\.\d+)? ?(?:[MBK]|million|billion)\b`)),
			sh(re(`\b\d+(?:\.\d+)?[MB]\b|\b\d+(?:\.\d+)? ?[×x] ?10\^?[69]\b`)),
		},
		sections:  []string{"model", "architecture", "network", "setup", "capacity", "complexity"},
		needWord:  true,
		needValue: true,
	},
	{
		Name:  "Metric",
		names: []string{"metric", "metrics", "measure", "measures", "score", "scores", "accuracy", "evaluation criteria"},
		words: sh(re(`\b(?:metrics?|measures?|evaluat\w+|scores?)\b`), "metric", "measure", "evaluat", "score"),
		values: []shape{
			sh(re(`\b(?:BLEU|ROUGE\S*|METEOR|F1|F-?score|F-?measure|accuracy|precision|recall|perplexity|exact match|top-?[15]|error rates?|test errors?|validation errors?|word error rate|CIDEr|Pearson|Spearman|correlation|GLUE score|throughput|latency)\b`),
				"bleu", "rouge", "meteor", "f1", "score", "measure", "accuracy", "precision", "recall", "perplexity", "exact match", "top", "error", "cider", "pearson", "spearman", "correlation", "throughput", "latency"),
			// acronyms only in capitals ("mAP", not a feature "map")
			sh(regexp.MustCompile(`\b(?:AUC|ROC|mAP|AP(?:\d+|@\S+)?|EM|WER|UAS|LAS|MUC|MSE|RMSE|MAE|BPC|PPL|R2)\b|\bR²`)),
		},
		sections: []string{"evaluat", "metric", "experiment", "result", "setup"},
	},
	{
		Name:  "Dataset",
		names: []string{"dataset", "datasets", "data set", "data sets", "data", "corpus", "corpora", "benchmark", "benchmarks", "training data"},
		words: sh(re(`\b(?:datasets?|data sets?|corpus|corpora|benchmarks?|treebank)\b`), "data", "corpus", "corpora", "benchmark", "treebank"),
		values: []shape{
			// a named set: "the ImageNet-21k dataset", "OntoNotes corpus", "Penn Treebank"
			sh(regexp.MustCompile(`\b[A-Z][\w'’-]*[A-Z0-9][\w'’-]*(?: [A-Z][\w-]*)? (?:[Dd]ata ?[Ss]ets?|[Cc]orpus|[Cc]orpora|[Bb]enchmarks?|[Ss]hared [Tt]ask|[Cc]hallenge|[Tt]reebank)\b`), dataWords...),
			sh(regexp.MustCompile(`\b(?:the|a|an|our|on|from) (?:[A-Z][a-z]+ ){0,2}[A-Z][A-Za-z]+ (?:[Dd]ata ?sets?|[Cc]orpus|[Bb]enchmarks?|[Tt]reebank)\b`), dataWords...),
			// the name after the noun: "a new dataset ... called WebText",
			// "The resulting dataset, WebText, contains", and the names a
			// colon lists ("the following four datasets: 20Newsgroups,
			// Fudan Set, ...")
			sh(regexp.MustCompile(`\b(?:[Dd]ata ?sets?|[Cc]orpus|[Cc]orpora|[Bb]enchmarks?)(?:(?:,| (?:\S+ ){0,5}(?:called|named|dubbed))? (?:[A-Z][\w'’-]*[A-Z0-9]|\d+[A-Z])[\w'’-]*|: `+nameList+`)\b`), dataWords...),
			// widely used sets (generic research vocabulary)
			sh(re(`\b(?:ImageNet\S*|I?LSVRC\S*|CIFAR\S*|MNIST|SVHN|COCO|Pascal VOC|VOC\d*|JFT\S*|Wikipedia|BooksCorpus|BookCorpus|Common ?Crawl|GLUE|SuperGLUE|SQuAD\S*|SNLI|MNLI|WMT\S*|IWSLT\S*|CoNLL\S*|OntoNotes|Penn Treebank|PTB|WikiText\S*|LibriSpeech|TIMIT|Gigaword)\b`),
				"imagenet", "lsvrc", "cifar", "mnist", "svhn", "coco", "voc", "jft", "wikipedia", "bookscorpus", "bookcorpus", "crawl", "glue", "squad", "snli", "mnli", "wmt", "iwslt", "conll", "ontonotes", "treebank", "ptb", "wikitext", "librispeech", "timit", "gigaword"),
			// sizes of data: "1.2 million images", "800M words", "160GB of
			// text", and a size naming a set ("a 9000-tweet English
			// training set", "a 5000 tweet Spanish training set")
			sh(re(`\b\d+(?:[.,]\d+)? ?(?:[MBK]|million|billion|thousand)? (?:[\w-]+ ){0,2}(?:images|sentences|sentence pairs|words|tokens|documents|examples|samples|instances|videos|utterances|tweets|dialogues|dialogs|conversations|triples|questions|papers|articles|reviews|posts|queries|hours of (?:[\w-]+ ){0,2}(?:speech|audio|data|recordings))\b|\b\d+ ?GB of (?:\w+ )?text\b|\b\d+(?:[.,]\d+)?[kKMB]?[- ](?:image|sentence|word|token|document|example|sample|video|utterance|tweet)(?: [\w-]+){0,2} (?:sets?|data ?sets?|corpus|corpora|collection)\b`),
				"image", "sentence", "word", "token", "document", "example", "sample", "instance", "video", "utterance", "tweet", "dialog", "conversation", "triple", "question", "paper", "article", "review", "post", "quer", "hours of", "text"),
		},
		sections: []string{"data", "corpus", "corpora", "benchmark", "experiment", "setup", "evaluat"},
		named:    4,
	},
	{
		// the paper's headline claim: "achieves a new state of the art",
		// "speed up by 1 to 12 times", "7 out of 8 datasets"
		Name:  "Result",
		names: []string{"result", "results", "main result", "main results", "key result", "finding", "findings", "main finding", "outcome", "outcomes"},
		words: sh(re(`\b(?:results?|achiev\w+|outperform\w*|surpass\w*|improv\w+)\b`), "result", "achiev", "outperform", "surpass", "improv"),
		values: []shape{
			sh(re(`\b(?:state[- ]of[- ]the[- ]art|outperform\w*|surpass\w*)\b`), "state", "outperform", "surpass"),
			sh(re(`\b(?:improv|reduc|speed|gain|increas|decreas)\w*(?: up)? (?:\S+ ){0,6}by (?:up to |about |over |a factor of |a wide range from )?\d`), "improv", "reduc", "speed", "gain", "increas", "decreas"),
			sh(re(`\b\d+(?:\.\d+)? ?(?:%|×|times)(?:\W|$)|\b\d+ out of \d+\b`), "%", "×", "times", " out of "),
			// a stated finding: "we found that", "our results show",
			// "the results of our experiment revealed", "we argue that"
			weakly(re(`\b(?:we|our (?:results?|findings?|analys[ie]s|experiments?|study|data)|the(?:se)? (?:results?|findings?|analys[ie]s)(?: of (?:our|the|this) (?:\w+ )?(?:experiments?|study|studies|analys[ie]s))?|this (?:paper|work|study|article))\b (?:\w+ ){0,2}(?:show|shows|showed|shown|find|finds|found|argue|argues|demonstrate|demonstrates|demonstrated|reveal|reveals|revealed|conclude|concluded|indicate|indicates|indicated|suggest|suggests|suggested) (?:that\b|\w+)`), "show", "find", "found", "argue", "demonstrat", "reveal", "conclud", "indicat", "suggest"),
		},
		sections:  []string{"abstract", "conclusion", "result", "introduction", "summary"},
		needValue: true,
	},
	{
		// the systems a paper compares with: "the baselines we used ...
		// include X, Y and Z", "several baseline models such as CNN"; a
		// sentence that only mentions a baseline ("the strongest baseline")
		// names none of them
		Name:  "Baseline",
		names: []string{"baseline", "baselines", "baseline methods", "baseline models", "baseline systems"},
		words: sh(re(`\bbaselines?\b`), "baseline"),
		values: []shape{
			sh(re(`\bbaselines?\b[^.;]{0,100}?\b(?:include|includes|including|such as|namely)\b|\bbaselines?:`), "baseline"),
		},
		sections: []string{"baseline", "experiment", "setup", "comparison", "evaluat"},
	},
	{
		// the software a paper's work was done with: a named framework or
		// language, a tool with its version ("E-prime 2.0", "python
		// (version 3.12)"), a maker's credit ("(Unity Technologies, San
		// Francisco)"), "the X package", "an R implementation", "written
		// in Julia". The words alone ("a software error") state none.
		Name:  "Software",
		names: []string{"software", "software used", "software package", "software packages", "package", "packages", "toolkit", "toolkits", "toolbox", "libraries", "software library", "programming language", "implementation language", "tooling"},
		words: sh(re(`\b(?:software|packages?|librar(?:y|ies)|toolkits?|toolbox(?:es)?|implementation|implemented|code)\b`), "software", "package", "librar", "toolkit", "toolbox", "implement", "code"),
		values: []shape{
			sh(regexp.MustCompile(`\b(?:PyTorch|TensorFlow|Keras|Theano|Caffe2?|Torch|JAX|scikit-learn|sklearn|MATLAB|Matlab|SPSS|Stata|NumPy|Numpy|SciPy|Scipy|pandas|Weka|NLTK|spaCy|CoreNLP|Gensim|Python|Julia|CUDA)\b`)),
			sh(re(`\b[a-z][\w.+-]* \((?:version|ver\.|v\.?) ?\d|\b[a-z][\w.+-]* (?:version|ver\.|v\.) ?\d`), "version", "ver.", "v."),
			sh(regexp.MustCompile(`\b(?:[Uu]sing|[Ww]ith|in|via|on) (?:the )?[A-Z][\w+-]* \d+(?:\.\d+)+\b`)),
			sh(regexp.MustCompile(`\((?:[A-Z][\w-]*,? ){1,4}(?:Technologies|Technology|Software|Tools|Systems|Inc\.?|Ltd\.?|LLC|Corporation|Corp\.?|GmbH)\b`), "technolog", "software", "tools", "systems", "inc", "ltd", "llc", "corp", "gmbh"),
			sh(regexp.MustCompile(`\b(?:[A-Z][\w.+-]*|R) (?:package|library|toolkit|toolbox|software|implementation|module)s?\b|\b(?:package|library|toolkit|toolbox) (?:called |named )?[A-Z][\w.+-]*`), "package", "librar", "toolkit", "toolbox", "software", "implementation", "module"),
			sh(re(`\b(?:implemented|written|coded|programmed) (?:\w+ ){0,3}(?:in|using|with) (?:the )?(?:[A-Z][\w.+#-]*|python|matlab|julia)\b`), "implemented", "written", "coded", "programmed"),
		},
		sections:  []string{"implement", "software", "method", "material", "procedure", "apparatus", "setup", "detail", "analys", "experiment"},
		needValue: true,
		links:     true,
		drop:      re(`^(?:our|the|this|these|a|an|we|their|its|open|new|each|every)\b|\b(?:section|table|figure|fig|appendix|algorithm|eq|equation|chapter|step|line|experiment|study|phase|group|condition|task|model)s?(?: ?\d+(?:\.\d+)*)?$`),
	},
	{
		Name:  "Evaluation",
		names: []string{"evaluation", "evaluations", "experiments", "empirical evaluation", "validation"},
		words: sh(re(`\b(?:evaluat\w+|experiments?|benchmark\w*|user study|measured|measurements?)\b`), "evaluat", "experiment", "benchmark", "user study", "measure"),
		values: []shape{
			sh(re(`\b(?:we|our) (?:\w+ ){0,2}(?:evaluat\w+|measur\w+|benchmark\w*|experiment\w*|compar\w+|ran|run|test\w*|conduct\w*)\b`), "we ", "our "),
			sh(re(`\b\d+(?:[.,]\d+)? ?(?:%|percent|ms|milliseconds|seconds|ops/s|operations per second|requests per second|MB/s|GB/s)\b`)),
			sh(re(`\bevaluat\w* (?:\S+ ){0,3}(?:using|on|with|by|against|in terms of)\b`), "evaluat"),
			sh(re(`\b(?:user study|throughput|latency|accuracy)\b|\b\d+ (?:participants|students|subjects|users)\b`), "user study", "throughput", "latency", "accuracy", "participants", "students", "subjects", "users"),
		},
		sections: []string{"evaluat", "experiment", "result", "performance", "measure", "benchmark", "study"},
	},
}

// requestWords are the words of a request that say how the user asks, not
// what about: question and function words and the participles a
// researcher puts after the aspect ("How performance is measured",
// "Languages studied", "Benchmarks used").
var requestWords = map[string]bool{
	"how": true, "what": true, "which": true, "who": true, "where": true, "when": true, "why": true,
	"is": true, "are": true, "was": true, "were": true, "be": true, "been": true, "do": true, "does": true, "did": true,
	"a": true, "an": true, "the": true, "it": true, "its": true, "they": true, "their": true, "this": true, "these": true,
	"in": true, "on": true, "by": true, "to": true, "paper": true, "papers": true,
	"used": true, "use": true, "studied": true, "employed": true, "adopted": true, "considered": true,
	"examined": true, "covered": true, "chosen": true, "addressed": true, "reported": true,
}

// aspectWords are the lowercased words of a requested aspect that name it
// (requestWords dropped).
func aspectWords(aspect string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(aspect), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '#' || r == '-')
	}) {
		if !requestWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// sameWord reports whether request word w is the lexicon word n or another
// form of it ("measured" ~ "measure", "metrics" ~ "metric"): equal, or
// one a prefix of the other by at most two letters, the shorter of four
// letters or more.
func sameWord(w, n string) bool {
	if w == n {
		return true
	}
	a, b := w, n
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a) >= 4 && len(b)-len(a) <= 2 && strings.HasPrefix(b, a)
}

// namedAt reports whether the request's words ws hold the name's words ns
// in a row starting at i.
func namedAt(ws, ns []string, i int) bool {
	if i < 0 || i+len(ns) > len(ws) {
		return false
	}
	for j, n := range ns {
		if !sameWord(ws[i+j], n) {
			return false
		}
	}
	return true
}

// quantityWords ask for how much of an aspect there is ("Amount of training
// data", "Corpus size"), not which one.
var quantityWords = re(`^(?:amount|size|sizes|scale|count|quantity|many|much|volume)$`)

// specFor is the spec a request reads: the lexicon's (lookupAspect), and
// for a request for the quantity of an aspect that is named or sized (a
// dataset: "WebText" or "1.2 million images") only its sizes, which it
// then must state ("We collected a total of 5808 dialogues"; "the first
// large dataset of negotiations" states no amount).
func specFor(aspect string) *aspectSpec {
	s := lookupAspect(aspect)
	if s == nil || s.named == 0 || s.named >= len(s.values) {
		return s
	}
	for _, w := range aspectWords(aspect) {
		if quantityWords.MatchString(w) {
			q := *s
			q.values = s.values[s.named:]
			q.named = 0
			q.needValue = true
			return &q
		}
	}
	return s
}

// lookupAspect is the lexicon's spec for a requested aspect, or nil.
// "Evaluation metric" is a Metric, "Number of parameters" a model size:
// the more specific names are tried first. The request's own words are
// matched (aspectWords), a word in another form too ("How performance is
// measured" is a Metric).
func lookupAspect(aspect string) *aspectSpec {
	ws := aspectWords(aspect)
	for _, pass := range []bool{true, false} {
		for _, s := range lexicon {
			for _, n := range s.names {
				ns := strings.Fields(n)
				// the first pass takes multi-word names and names that end
				// the request ("evaluation metric" ends in "metric")
				multi := len(ns) > 1
				if pass && !multi {
					if namedAt(ws, ns, len(ws)-len(ns)) {
						return s
					}
					continue
				}
				for i := range ws {
					if namedAt(ws, ns, i) {
						return s
					}
				}
			}
		}
	}
	return nil
}
