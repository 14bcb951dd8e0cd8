package embedding

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// segment512 builds a deterministic ~512-token scientific-prose segment
// (tokens as counted by papertree.CountTokens).
func segment512(variant int) string {
	sentences := []string{
		"We fine-tune a pretrained transformer encoder on the annotated corpus and report macro-averaged F1 on the held-out test set.",
		"The baseline is a bidirectional LSTM with attention over word embeddings initialised from GloVe vectors.",
		"Annotators labelled each tweet as positive, negative or neutral, and agreement was measured with Krippendorff's alpha.",
		"Table 3 shows that the proposed model outperforms all baselines by 2.4 points on average across the five languages.",
		"We release the code, the trained models and the evaluation scripts to support reproducibility of our results.",
		"Error analysis reveals that most mistakes involve sarcasm, negation scope and rare named entities.",
	}
	var b strings.Builder
	for i := 0; papertree.CountTokens(b.String()) < 512; i++ {
		b.WriteString(sentences[(i+variant)%len(sentences)])
		b.WriteByte(' ')
	}
	return b.String()
}

func BenchmarkEmbed512(b *testing.B) {
	e := NewBuiltin()
	texts := make([]string, 64)
	size := 0
	for i := range texts {
		texts[i] = segment512(i)
		size += len(texts[i])
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.Embed(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "texts/s")
}

func BenchmarkEmbedQuery(b *testing.B) {
	e := NewBuiltin()
	for b.Loop() {
		if _, err := e.EmbedQuery(context.Background(), "Which datasets do they use to evaluate the sentiment classifier?"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeModel(b *testing.B) {
	for b.Loop() {
		if _, err := DecodeModel(strings.NewReader(string(builtinModelData))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPorterStem stems the words of typical segments one by one (no
// StemCache), the cost a paper's first read of each distinct word pays:
// PorterStem (Snowball and the FTS5 departures) and, for comparison, the
// former hand-written stemmer (refPorterStem).
func BenchmarkPorterStem(b *testing.B) {
	var words []string
	for i := range 6 {
		ScanWords(segment512(i), func(w []byte) { words = append(words, string(w)) })
	}
	words = append(words, "possibly", "methodology", "biological", "generalizations", "revving", "assemblies", "annotators")
	for _, c := range []struct {
		name string
		stem func(string) string
	}{{"snowball", PorterStem}, {"former", refPorterStem}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				for _, w := range words {
					c.stem(w)
				}
			}
			b.ReportMetric(float64(len(words)*b.N)/b.Elapsed().Seconds(), "words/s")
		})
	}
}
