// Command smokepdf writes the small library of scripts/smoke.sh's answer
// steps: four short, distinct papers (title, authors, abstract, numbered
// sections on two pages) so that a which-papers question has several
// papers to list and a comparison has rows and cells with pages to open.
// Three of them train with dropout; all name a data set and a metric.
//
// Generated, not committed as binaries, so the text the smoke test relies
// on is visible in review.
//
// With -twopage it writes, instead, one paper whose method paragraph runs
// from the foot of page 1 onto page 2: the smoke test's evidence that spans
// two pages, and the paper whose details and heading it corrects.
//
// Usage: go run ./e2e/smokepdf [-twopage] OUTDIR
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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

// twoPage's introduction fills most of page 1, so the single paragraph of
// "2 Method" starts near its foot and ends on page 2.
var twoPage = paper{"glacier-flow.pdf", "Estimating Glacier Surface Flow from Satellite Image Pairs", "Sigrun Dahl and Mateo Ruiz", [][]string{
	{"Abstract", "We estimate the surface velocity of mountain glaciers by matching features between pairs of optical satellite images."},
	{"1 Introduction", strings.Repeat("Mountain glaciers respond quickly to climate and their surface velocity is a direct measure of how they move ice downhill. Field surveys with stakes and GPS receivers are precise but cover few points and few seasons. ", 16)},
	{"2 Method", "We match small image windows between two orthorectified Sentinel-2 scenes taken sixteen days apart. For every window the normalised cross-correlation is computed over a search area of forty pixels, and the displacement with the highest correlation peak is refined to a fraction of a pixel by fitting a paraboloid to the neighbouring scores. Displacements whose correlation peak is lower than 0.6 are rejected, since clouds, shadows and fresh snow make the surface texture change between the two dates. The remaining displacements are divided by the time between the scenes to give a velocity in metres per day, and stable ground outside the glacier outline is used to remove the residual offset between the two images, which comes from small errors in their georeferencing. A median filter over three by three windows then removes isolated outliers that survive the correlation threshold, and velocities above five metres per day are discarded as physically implausible for these glaciers."},
	{"3 Experiments", "We evaluate on twelve glaciers in the Alps and compare with GPS stake surveys. The median velocity error is 0.04 metres per day."},
}}

func main() {
	only := flag.Bool("twopage", false, "write only the paper whose method paragraph spans pages 1 and 2")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: smokepdf [-twopage] OUTDIR")
		os.Exit(2)
	}
	out := flag.Arg(0)
	if err := os.MkdirAll(out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "smokepdf:", err)
		os.Exit(1)
	}
	list := papers
	if *only {
		list = []paper{twoPage}
	}
	for _, p := range list {
		if err := write(filepath.Join(out, p.file), p); err != nil {
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
		if i == 3 && pdf.PageNo() == 1 {
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
