// Command smokepdf writes the small library of scripts/smoke.sh's answer
// steps: four short, distinct papers (title, authors, abstract, numbered
// sections on two pages) so that a which-papers question has several
// papers to list and a comparison has rows and cells with pages to open.
// Three of them train with dropout; all name a data set and a metric.
//
// Generated, not committed as binaries, so the text the smoke test relies
// on is visible in review.
//
// Usage: go run ./e2e/smokepdf OUTDIR
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"codeberg.org/go-pdf/fpdf"
)

type paper struct {
	file, title, authors string
	sections             [][]string // heading, then paragraphs
}

var papers = []paper{
	{"sentiment-cnn.pdf", "Convolutional Filters for Review Sentiment", "Mira Castell and Oren Tavi", [][]string{
		{"Abstract", "We classify the sentiment of product reviews with a small convolutional network over word vectors."},
		{"1 Introduction", "Review sentiment is a standard benchmark for sentence classifiers. We revisit convolutional filters of several widths."},
		{"2 Method", "The network applies filters of widths three, four and five to pretrained word vectors, followed by max pooling. We train with dropout of 0.5 on the penultimate layer and the Adam optimizer."},
		{"3 Experiments", "We evaluate on the SST-2 dataset of movie reviews and report accuracy. The model reaches 87.2 percent accuracy on the test split."},
	}},
	{"parser-lstm.pdf", "A Bidirectional LSTM Dependency Parser", "Ilse Brandt and Tomas Okafor", [][]string{
		{"Abstract", "We describe a graph-based dependency parser whose arc scores come from a bidirectional LSTM."},
		{"1 Introduction", "Dependency parsing recovers the head of every word. Recurrent encoders give each word a view of the whole sentence."},
		{"2 Method", "Two stacked bidirectional LSTM layers encode the sentence; a biaffine scorer rates every arc. We apply dropout of 0.33 to the word embeddings and the recurrent states."},
		{"3 Experiments", "We evaluate on the English Penn Treebank and report labelled attachment score. The parser reaches 94.1 LAS."},
	}},
	{"speech-ctc.pdf", "Connectionist Temporal Classification for Call Transcripts", "Noor Haddad and Lena Fischer", [][]string{
		{"Abstract", "We transcribe telephone calls with an acoustic model trained with connectionist temporal classification."},
		{"1 Introduction", "Telephone speech is noisy and narrowband. End-to-end acoustic models avoid hand-built pronunciation lexicons."},
		{"2 Method", "Five convolutional layers feed three recurrent layers; the output is trained with the CTC loss. Dropout of 0.2 is applied between the recurrent layers."},
		{"3 Experiments", "We evaluate on the Switchboard corpus and report word error rate. The model reaches 11.8 percent word error rate."},
	}},
	{"retrieval-bm25.pdf", "Keyword Ranking Baselines for Passage Retrieval", "Paul Verne and Ada Moreau", [][]string{
		{"Abstract", "We revisit term-weighting baselines for passage retrieval and tune their parameters per collection."},
		{"1 Introduction", "Sparse keyword ranking remains a strong first stage for question answering systems."},
		{"2 Method", "We rank passages with BM25 and tune its saturation and length normalisation on held-out queries. No neural component is trained."},
		{"3 Experiments", "We evaluate on the MS MARCO passage collection and report mean reciprocal rank. BM25 reaches an MRR of 0.187."},
	}},
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: smokepdf OUTDIR")
		os.Exit(2)
	}
	if err := os.MkdirAll(os.Args[1], 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "smokepdf:", err)
		os.Exit(1)
	}
	for _, p := range papers {
		if err := write(filepath.Join(os.Args[1], p.file), p); err != nil {
			fmt.Fprintln(os.Stderr, "smokepdf:", err)
			os.Exit(1)
		}
	}
}

func write(out string, p paper) error {
	pdf := fpdf.New("P", "pt", "A4", "")
	pdf.SetTitle(p.title, false)
	pdf.SetAuthor(p.authors, false)
	pdf.SetCreator("papertree e2e/smokepdf", false)
	pdf.SetMargins(72, 72, 72)
	pdf.SetAutoPageBreak(true, 72)
	pdf.AddPage()
	pdf.SetFont("Helvetica", "B", 18)
	pdf.MultiCell(0, 22, p.title, "", "C", false)
	pdf.Ln(6)
	pdf.SetFont("Helvetica", "", 11)
	pdf.MultiCell(0, 14, p.authors, "", "C", false)
	pdf.Ln(14)
	for i, s := range p.sections {
		if i == 3 {
			pdf.AddPage() // the experiments on page 2: a cell opens a page other than the first
		}
		pdf.SetFont("Helvetica", "B", 13)
		pdf.MultiCell(0, 16, s[0], "", "L", false)
		pdf.Ln(4)
		pdf.SetFont("Times", "", 10)
		for _, para := range s[1:] {
			pdf.MultiCell(0, 13, para, "", "J", false)
			pdf.Ln(6)
		}
		pdf.Ln(8)
	}
	return pdf.OutputFileAndClose(out)
}
