package papertree

import "testing"

// Sentences as PDF extraction gives them: prose from the papers of our
// sets, and the pseudo-code, table rows, equations and garbled text that
// passages also hold.
func TestReadable(t *testing.T) {
	tests := []struct {
		name string
		s    string
		want bool
	}{
		{"prose", "We propose a new simple network architecture, the Transformer, based solely on attention mechanisms, dispensing with recurrence and convolutions entirely.", true},
		{"prose with numbers and acronyms", "For the pre-training corpus we use the BooksCorpus (800M words) and English Wikipedia (2,500M words).", true},
		{"prose with a citation", "We train the model using AdaGrad (Duchi et al., 2011), with initial learning rate of 0.05.", true},
		{"prose with names holding digits", "Our largest model, GPT-2, is a 1.5B parameter Transformer that still underfits WebText.", true},
		{"prose with a short inline formula", "We compute the attention as softmax(QK^T / sqrt(d_k)) V where d_k is the dimension of the keys.", true},
		{"prose reporting statistics", "Additional t tests showed that the TH-children scored significantly above zero (M = 0.72, SD = 0.40), t14 = 6.87, p < 0.001.", true},
		{"end-to-end for is no pseudo-code", "We presented a state-of-the-art coreference resolution model that is trained end-to-end for the first time.", true},
		{"for example ... do is no loop", "For example, in our experiments we do not tune the learning rate of the encoder.", true},
		{"pseudo-code loop", "for i = 1 to n do r_i ← y_i − M(i) end for", false},
		{"pseudo-code in words", "for each s in S do if s contains an entity then add s to the set end if end for return the set", false},
		{"pseudo-code assignment", "Initialize M := 0 and set the learning rate.", false},
		{"pseudo-code header", "Input: training set D, number of iterations T and the learning rate eta.", false},
		{"table row", "Transformer (big) 28.4 41.8 2.3 · 10^19 ConvS2S 25.16 40.46 9.6 · 10^18", false},
		{"table row of scores", "BLEU EN-DE EN-FR 26.03 39.92 25.16 40.46 24.6 39.2", false},
		{"equation", "h t = σ ( W x x t + W h h t − 1 + b ) , y t = softmax ( V h t )", false},
		{"letters glued to math", "L(θ)=−∑_i log p(y_i|x_i;θ)+λ‖θ‖² where λ=0.1", false},
		{"garbled glyphs", "!\"#$%&'()*+,-./0123 456789:;<=>?@ABC", false},
		{"replacement characters", "The e\uFFFDcient model achieves the best results on all tasks.", false},
		{"private-use characters", "The model \uE001\uE002 achieves the best results on all tasks.", false},
		{"OCR noise", "Tbc rnrdl xvcs tbc bcst rcsvlts wth nw dt.", false},
		{"a diagram's labels read as one sentence", "\"Script\"\n\nViterbi Graph\n\nA\n\nBeam Search Transformer T\n\nInterpretation Graph Ae Language 4\n\nModel Compose\n\nRecognition Graph\n\nCharacter\n\nModel ot, | compose }\n\nSDNN Output a aa SDNN Transformer\n\n{AMAP Computation |\n\n| Word Normalization |", false},
		{"subfigure labels", "(a) Vector Extrema\n\n(b) Greedy Matching\n\n(c) Vector Averaging\n\n(d) Embedding Greedy", false},
		{"prose broken over lines", "This is the unfortunate truth:\n\nSimplicity is Hard\n\n.", true},
		{"prose wrapped over four lines", "We train the model\non four GPUs for\nthree days with\nthe Adam optimizer.", true},
		{"a table's header row", "Epochs ImageNet ImageNet ReaL CIFAR-10 CIFAR-100 Pets Flowers exaFLOPs name", false},
		{"an author list", "Fay Chang, Jeffrey Dean, Sanjay Ghemawat, Wilson C. Hsieh", false},
		{"a reference's title", "Bayesian probabilistic matrix factorization using Markov chain Monte Carlo.", false},
		{"short prose without function words", "Results improve substantially.", true},
		{"German prose", "Daher werden die Assoziationen zwischen Merkmalen und Klassen untersucht.", true},
		{"French prose", "Lors de l'entraînement, une couche est activée après la première couche linéaire.", true},
		{"Spanish prose", "Los resultados muestran una mejora clara sobre el modelo base.", true},
		{"cut by the budget", "Finally, we show that an algorithm that optimizes the area under the ROC curve is not guaranteed to" + Cut, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Readable(tc.s); got != tc.want {
				t.Errorf("Readable = %v, want %v (word share %.2f)", got, tc.want, WordShare(tc.s))
			}
		})
	}
}

// A sentence whose subject is other work: citations and names for prior
// work among its first words; the paper's own sentences are not.
func TestAboutOthers(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"BIBREF10 proposed a tagging scheme for joint extraction.", true},
		{"Previous work relies on hand-crafted features.", true},
		{"Several recent works have shown that pre-training improves low-resource translation.", true},
		{"Many studies report that the effect vanishes at scale.", true},
		{"Recent papers use larger batches.", true},
		{"We show that pre-training improves low-resource translation.", false},
		{"Our model uses recent advances in attention to reach this.", false},
	}
	for _, tc := range tests {
		if got := AboutOthers(tc.s); got != tc.want {
			t.Errorf("AboutOthers(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}
