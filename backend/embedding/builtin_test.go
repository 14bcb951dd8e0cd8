package embedding

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/papertree"
)

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func embedOne(t *testing.T, e *Builtin, text string) []float32 {
	t.Helper()
	v, err := e.Embed(context.Background(), []string{text})
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	return v[0]
}

func TestBuiltinIdentity(t *testing.T) {
	e := NewBuiltin()
	if !strings.HasPrefix(e.Name(), Version+"-") || len(e.Name()) != len(Version)+9 {
		t.Errorf("Name() = %q, want %s-<8 hex>", e.Name(), Version)
	}
	if e.Dim() != 768 {
		t.Errorf("Dim() = %d, want 768", e.Dim())
	}
	o := DefaultOptions()
	o.LexWeight = 0.5
	other, err := NewBuiltinWith(ShippedModel(), o)
	if err != nil {
		t.Fatal(err)
	}
	if other.Name() == e.Name() {
		t.Errorf("different options share the name %q", e.Name())
	}
}

func TestBuiltinUnitLengthAndDeterminism(t *testing.T) {
	long := strings.Repeat("Transformer language models are fine-tuned on annotated tweets for sentiment classification. ", 20000)
	cases := []struct{ name, text string }{
		{"empty", ""},
		{"whitespace", " \n\t "},
		{"punctuation only", "?!.,;"},
		{"stopwords only", "what is the of and"},
		{"single word", "BERT"},
		{"unknown words", "zxqv blorptastic"},
		{"sentence", "We train a BiLSTM-CRF tagger on the CoNLL-2003 named entity recognition data set."},
		{"unicode", "Модели машинного перевода 机器翻译 traduction automatique"},
		{"placeholders", "INLINEFORM0 BIBREF3 TABREF7"},
		{"very long (1.8 MB)", long},
		{"invalid utf8", "caf\xe9 \xff\xfe model"},
	}
	a, b := NewBuiltin(), NewBuiltin()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, query := range []bool{false, true} {
				var v1, v2 []float32
				if query {
					var err error
					if v1, err = a.EmbedQuery(context.Background(), c.text); err != nil {
						t.Fatal(err)
					}
					v2, _ = b.EmbedQuery(context.Background(), c.text)
				} else {
					v1, v2 = embedOne(t, a, c.text), embedOne(t, b, c.text)
				}
				if len(v1) != a.Dim() {
					t.Fatalf("query=%v: len %d, want %d", query, len(v1), a.Dim())
				}
				n := math.Sqrt(dot(v1, v1))
				if math.Abs(n-1) > 1e-4 {
					t.Errorf("query=%v: norm %v, want 1", query, n)
				}
				for i, x := range v1 {
					if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
						t.Fatalf("query=%v: component %d is %v", query, i, x)
					}
				}
				if !equal(v1, v2) {
					t.Errorf("query=%v: two embedders disagree", query)
				}
			}
		})
	}
}

func equal(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestBuiltinEmptyTextIsNeutral(t *testing.T) {
	e := NewBuiltin()
	empty := embedOne(t, e, "")
	q, _ := e.EmbedQuery(context.Background(), "Which datasets are used for evaluation?")
	if s := dot(empty, q); math.Abs(s) > 1e-6 {
		t.Errorf("cos(empty, query) = %v, want 0", s)
	}
}

func TestBuiltinSimilarity(t *testing.T) {
	cases := []struct {
		name             string
		query, near, far string
		queryIsQuestion  bool
	}{
		{"same topic document pair",
			"We fine-tune BERT for sentiment classification of tweets.",
			"A pretrained transformer is fine-tuned to classify the sentiment of Twitter posts.",
			"The corpus of parliamentary speeches was aligned at the sentence level for machine translation.", false},
		{"question to its evidence",
			"What datasets do they evaluate on?",
			"We evaluate our model on three benchmark datasets: SQuAD, NewsQA and TriviaQA.",
			"The learning rate was set to 0.001 and we trained for ten epochs with a batch size of 32.", true},
		{"paraphrase without shared content words",
			"How many annotators labelled the data?",
			"Each tweet was tagged by three human judges, and disagreements were resolved by majority vote.",
			"Our encoder uses convolutional layers followed by max pooling over time.", true},
		{"exact rare term wins",
			"Which results are reported on WikiSQL?",
			"On WikiSQL our parser reaches 86.0% execution accuracy.",
			"On the Spider benchmark our parser reaches 61.2% exact match accuracy.", true},
	}
	e := NewBuiltin()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var q []float32
			if c.queryIsQuestion {
				q, _ = e.EmbedQuery(context.Background(), c.query)
			} else {
				q = embedOne(t, e, c.query)
			}
			near, far := dot(q, embedOne(t, e, c.near)), dot(q, embedOne(t, e, c.far))
			t.Logf("cos(near) = %.3f, cos(far) = %.3f", near, far)
			if near <= far {
				t.Errorf("cos(near) = %.3f <= cos(far) = %.3f", near, far)
			}
		})
	}
}

func TestBuiltinQueryDropsScaffolding(t *testing.T) {
	e := NewBuiltin()
	a, _ := e.EmbedQuery(context.Background(), "What datasets do the authors use?")
	b, _ := e.EmbedQuery(context.Background(), "datasets")
	if !equal(a, b) {
		t.Errorf("question scaffolding changed the query vector (cos %.4f)", dot(a, b))
	}
	// A question of nothing but scaffolding still embeds its words.
	c, _ := e.EmbedQuery(context.Background(), "What do the authors propose?")
	if dot(c, embedOne(t, e, "")) == 1 {
		t.Error("scaffolding-only question embedded as empty text")
	}
}

func TestBuiltinConcurrent(t *testing.T) {
	e := NewBuiltin()
	texts := []string{"neural machine translation", "sentiment of tweets", "", "question answering over tables"}
	want, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < 20; r++ {
				got, err := e.Embed(context.Background(), texts)
				if err != nil {
					errs <- err
					return
				}
				for i := range got {
					if !equal(got[i], want[i]) {
						errs <- errors.New("concurrent Embed differs")
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestBuiltinCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e := NewBuiltin()
	if _, err := e.Embed(ctx, []string{"a"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed on cancelled ctx: %v", err)
	}
	if _, err := e.EmbedQuery(ctx, "a"); !errors.Is(err, context.Canceled) {
		t.Errorf("EmbedQuery on cancelled ctx: %v", err)
	}
	if v, err := e.Embed(context.Background(), nil); err != nil || len(v) != 0 {
		t.Errorf("Embed(nil) = %v, %v", v, err)
	}
}

func TestNewBuiltinWithRejects(t *testing.T) {
	cases := []struct {
		name string
		m    *Model
		o    func(*Options)
	}{
		{"nil model", nil, func(*Options) {}},
		{"unprepared model", &Model{}, func(*Options) {}},
		{"tiny lexical width", ShippedModel(), func(o *Options) { o.LexDim = 3 }},
		{"no channel", ShippedModel(), func(o *Options) { o.LexWeight, o.SemWeight = 0, 0 }},
		{"negative weight", ShippedModel(), func(o *Options) { o.SemWeight = -1 }},
		{"NaN option", ShippedModel(), func(o *Options) { o.LexScale = math.NaN() }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := DefaultOptions()
			c.o(&o)
			_, err := NewBuiltinWith(c.m, o)
			var pe *papertree.Error
			if !errors.As(err, &pe) || pe.Code != papertree.EInvalid {
				t.Errorf("err = %v, want coded %q", err, papertree.EInvalid)
			}
		})
	}
}

func TestModelRoundTripAndCorruption(t *testing.T) {
	m := ShippedModel()
	if m == nil {
		t.Fatal("shipped model does not decode")
	}
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := DecodeModel(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if back.Fingerprint() != m.Fingerprint() {
		t.Errorf("fingerprint changed in round trip: %s -> %s", m.Fingerprint(), back.Fingerprint())
	}
	bad := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"not a model", []byte("hello")},
		{"gzipped garbage", []byte{0x1f, 0x8b, 1, 2, 3}},
		{"truncated", buf.Bytes()[:buf.Len()/2]},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			if _, err := DecodeModel(bytes.NewReader(c.data)); err == nil {
				t.Error("corrupt model decoded without error")
			}
		})
	}
}

// A batch shares its stemming, term-count map and allocation between its
// texts (Embed, and EmbedEach, which also reuses one vector); every vector
// must still be, bit for bit, the one the text gets alone from DocTerms
// and a fresh vector, in any batch order, with repeated texts and words.
func TestEmbedBatchEqualsEachAlone(t *testing.T) {
	e := NewBuiltin()
	texts := []string{"", "We train a BiLSTM-CRF tagger on the CoNLL-2003 named entity recognition data set.",
		"what is the of and", "Модели машинного перевода 机器翻译 traduction automatique", "INLINEFORM0 BIBREF3 TABREF7",
		"caf\xe9 \xff\xfe model", "The tagger reaches 91.2 F1 on CoNLL-2003; the tagger is trained for 50 epochs.",
		strings.Repeat("antidisestablishmentarianism", 8) + " tagger 2003", "?!.,;", "BERT"}
	texts = append(texts, texts...) // the same words and texts again, with the batch's memory warm
	checkBatch(t, e, texts)
	t.Run("development corpus sentences", func(t *testing.T) {
		var sents []string
		for _, doc := range shareddata.CorpusTexts(t) {
			sents = append(sents, papertree.SplitSentences(doc)...)
			if len(sents) > 20000 {
				break
			}
		}
		for len(sents) > 0 {
			n := min(len(sents), 500)
			checkBatch(t, e, sents[:n])
			sents = sents[n:]
		}
	})
}

func checkBatch(t *testing.T, e *Builtin, texts []string) {
	t.Helper()
	got, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	each := make([][]float32, len(texts))
	if err := e.EmbedEach(context.Background(), texts, func(i int, v []float32) { each[i] = append([]float32(nil), v...) }); err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		want := make([]float32, e.Dim())
		copy(want, e.embed(DocTerms(text), false))
		for j := range want {
			if math.Float32bits(got[i][j]) != math.Float32bits(want[j]) {
				t.Fatalf("text %d (%.40q): component %d is %v in the batch, %v alone", i, text, j, got[i][j], want[j])
			}
			if math.Float32bits(each[i][j]) != math.Float32bits(want[j]) {
				t.Fatalf("text %d (%.40q): component %d is %v from EmbedEach, %v alone", i, text, j, each[i][j], want[j])
			}
		}
	}
}
