package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"sort"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/papertree/papertree/backend/papertree"
)

// Embedder is a papertree.Embedder backed by an Ollama (/api/embed) or
// OpenAI-compatible (/v1/embeddings) server. Texts are sent in batches of
// Config.EmbedBatchSize, at most Config.MaxConcurrency batches at a time;
// every vector is checked (dimension, finite values) and unit-normalised, so
// cosine similarity is a dot product as the interface promises.
type Embedder struct {
	cfg   Config
	t     *transport
	name  string
	dim   int
	model string
}

var _ papertree.Embedder = (*Embedder)(nil)

// NewEmbedder checks cfg, embeds a probe text once to learn the dimension
// and returns the embedder. usage may be nil. Calls are recorded as op
// "embed".
func NewEmbedder(ctx context.Context, cfg Config, usage Usage) (*Embedder, error) {
	cfg = cfg.WithDefaults()
	if cfg.Provider != ProviderOllama && cfg.Provider != ProviderOpenAI {
		return nil, papertree.Errorf(papertree.ELLM, "a remote embedder needs provider \"ollama\" or \"openai\", not %q (run Detect first)", cfg.Provider)
	}
	if p := validateBaseURL(cfg.BaseURL); p != "" {
		return nil, papertree.Errorf(papertree.ELLM, "%s", p)
	}
	if cfg.EmbedModel == "" {
		return nil, papertree.Errorf(papertree.ELLM, "no embedding model is set for the server at %s", cfg.BaseURL)
	}
	e := &Embedder{cfg: cfg, t: newTransport(cfg, usage), name: cfg.Provider + ":" + cfg.EmbedModel}
	vs, err := e.embedBatch(ctx, []string{"PaperTree embedding probe: structure-fidelity retrieval for academic papers."})
	if err != nil {
		return nil, fmt.Errorf("probe embedding: %w", err)
	}
	if len(vs) != 1 || len(vs[0]) == 0 {
		return nil, badResponse(cfg.BaseURL, fmt.Sprintf("no vector for the probe text of model %q", cfg.EmbedModel), nil)
	}
	e.dim = len(vs[0])
	return e, nil
}

// Name is "<provider>:<model>", e.g. "ollama:nomic-embed-text".
func (e *Embedder) Name() string { return e.name }

// Dim is the vector length learned from the probe.
func (e *Embedder) Dim() int { return e.dim }

// EmbedQuery embeds one query; the models served here are used
// symmetrically.
func (e *Embedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	vs, err := e.Embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

// Embed embeds texts in order. An empty input gives an empty output without
// a request.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(e.cfg.MaxConcurrency)
	for lo := 0; lo < len(texts); lo += e.cfg.EmbedBatchSize {
		hi := min(lo+e.cfg.EmbedBatchSize, len(texts))
		g.Go(func() error {
			vs, err := e.embedBatch(gctx, texts[lo:hi])
			if err != nil {
				return err
			}
			for i, v := range vs {
				if len(v) != e.dim {
					return badResponse(e.cfg.BaseURL, fmt.Sprintf("a vector of length %d from model %q, expected %d", len(v), e.cfg.EmbedModel, e.dim), nil)
				}
				out[lo+i] = v
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

func (e *Embedder) embedBatch(ctx context.Context, texts []string) (vs [][]float32, err error) {
	start := time.Now()
	ctx, cancel := e.t.callContext(ctx)
	defer cancel()
	tokens := 0
	defer func() {
		e.t.usage.Record("embed", e.cfg.EmbedModel, tokens, 0, time.Since(start), err)
	}()
	var raw [][]float64
	if e.cfg.Provider == ProviderOllama {
		raw, tokens, err = e.ollamaEmbed(ctx, texts)
	} else {
		raw, tokens, err = e.openAIEmbed(ctx, texts)
	}
	if err != nil {
		return nil, err
	}
	if len(raw) != len(texts) {
		return nil, badResponse(e.cfg.BaseURL, fmt.Sprintf("%d vectors for %d texts", len(raw), len(texts)), nil)
	}
	if tokens == 0 {
		for _, s := range texts {
			tokens += papertree.CountTokens(s)
		}
	}
	vs = make([][]float32, len(raw))
	for i, v := range raw {
		var n float64
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, badResponse(e.cfg.BaseURL, "a vector with invalid numbers (NaN or infinity)", nil)
			}
			n += x * x
		}
		n = math.Sqrt(n)
		f := make([]float32, len(v))
		if n > 0 {
			for j, x := range v {
				f[j] = float32(x / n)
			}
		}
		vs[i] = f
	}
	return vs, nil
}

func (e *Embedder) ollamaEmbed(ctx context.Context, texts []string) ([][]float64, int, error) {
	req := struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}{e.cfg.EmbedModel, texts}
	var r struct {
		Embeddings      [][]float64 `json:"embeddings"`
		PromptEvalCount int         `json:"prompt_eval_count"`
	}
	if err := e.postJSON(ctx, "/api/embed", req, &r); err != nil {
		return nil, 0, err
	}
	return r.Embeddings, r.PromptEvalCount, nil
}

func (e *Embedder) openAIEmbed(ctx context.Context, texts []string) ([][]float64, int, error) {
	req := struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}{e.cfg.EmbedModel, texts}
	var r struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float64 `json:"embedding"`
		} `json:"data"`
		Usage *oaUsage `json:"usage"`
	}
	if err := e.postJSON(ctx, "/v1/embeddings", req, &r); err != nil {
		return nil, 0, err
	}
	sort.SliceStable(r.Data, func(i, j int) bool { return r.Data[i].Index < r.Data[j].Index })
	out := make([][]float64, len(r.Data))
	for i, d := range r.Data {
		out[i] = d.Embedding
	}
	tokens := 0
	if r.Usage != nil {
		tokens = r.Usage.PromptTokens
	}
	return out, tokens, nil
}

func (e *Embedder) postJSON(ctx context.Context, path string, req, into any) error {
	resp, err := e.t.do(ctx, http.MethodPost, path, req, e.cfg.EmbedModel)
	if err != nil {
		return err
	}
	defer resp.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return readError(ctx, e.cfg.BaseURL, err)
	}
	if err := json.Unmarshal(raw, into); err != nil {
		return badResponse(e.cfg.BaseURL, "an embedding response that is not valid JSON", err)
	}
	return nil
}
