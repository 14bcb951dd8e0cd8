package llm

import (
	"context"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// embedServer returns deterministic 3-d vectors (len, vowels, 1) so tests
// can check order and normalisation; OpenAI replies list items in reverse
// index order, which the client must sort.
func embedServer(t *testing.T, kind string, dimFor func(n int) int) replyFunc {
	return func(w http.ResponseWriter, r *http.Request, c call, n int) {
		path := "/v1/embeddings"
		if kind == ProviderOllama {
			path = "/api/embed"
		}
		if c.Method != http.MethodPost || c.Path != path || c.Body["model"] != "test-embed" {
			t.Errorf("embed request %s %s model %v", c.Method, c.Path, c.Body["model"])
		}
		if kind == ProviderOpenAI && c.Auth != "Bearer "+testKey {
			t.Errorf("auth %q", c.Auth)
		}
		in, _ := c.Body["input"].([]any)
		if len(in) == 0 {
			t.Errorf("embed request without input: %s", c.Raw)
		}
		vecs := make([][]float64, len(in))
		for i, x := range in {
			s := x.(string)
			v := []float64{float64(len(s)), float64(strings.Count(s, "a") + strings.Count(s, "e")), 1}
			vecs[i] = v[:dimFor(n)]
		}
		if kind == ProviderOllama {
			writeJSON(w, 200, map[string]any{"model": "test-embed", "embeddings": vecs, "prompt_eval_count": 5 * len(in)})
			return
		}
		var data []any
		for i := len(vecs) - 1; i >= 0; i-- {
			data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": vecs[i]})
		}
		writeJSON(w, 200, map[string]any{"object": "list", "data": data, "model": "test-embed", "usage": map[string]any{"prompt_tokens": 5 * len(in), "total_tokens": 5 * len(in)}})
	}
}

func TestEmbedder(t *testing.T) {
	texts := []string{"alpha", "beta gamma", "", "delta epsilon zeta", "eta", "theta iota", "kappa"}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			f := newFake(t, kind, embedServer(t, kind, func(int) int { return 3 }))
			cfg := f.config()
			cfg.EmbedBatchSize = 3
			usage := NewMemoryUsage()
			e, err := NewEmbedder(context.Background(), cfg, usage)
			if err != nil {
				t.Fatal(err)
			}
			var _ papertree.Embedder = e
			if e.Name() != kind+":test-embed" || e.Dim() != 3 {
				t.Errorf("Name %q Dim %d", e.Name(), e.Dim())
			}
			vs, err := e.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) != len(texts) {
				t.Fatalf("%d vectors", len(vs))
			}
			for i, v := range vs {
				var n float64
				for _, x := range v {
					n += float64(x) * float64(x)
				}
				if math.Abs(n-1) > 1e-5 {
					t.Errorf("vector %d norm² %v, want 1", i, n)
				}
				// order: first component / third = len(text)
				if got := math.Round(float64(v[0] / v[2])); int(got) != len(texts[i]) {
					t.Errorf("vector %d belongs to a text of length %v, want %d (order lost)", i, got, len(texts[i]))
				}
			}
			if n := len(f.Calls()); n != 1+3 {
				t.Errorf("%d requests, want probe + 3 batches of <=3", n)
			}
			q, err := e.EmbedQuery(context.Background(), "alpha")
			if err != nil || len(q) != 3 || q[0] != vs[0][0] {
				t.Errorf("EmbedQuery %v %v", q, err)
			}
			tot := usage.Totals()["embed"]
			if tot.Calls != 5 || tot.PromptTokens != 5*(1+7+1) {
				t.Errorf("usage %+v", tot)
			}
			if out, err := e.Embed(context.Background(), nil); err != nil || len(out) != 0 {
				t.Errorf("empty input: %v %v", out, err)
			}
		})
	}
}

func TestEmbedderBadServer(t *testing.T) {
	cases := []struct {
		name  string
		reply func(t *testing.T, kind string) replyFunc
		want  string
	}{
		{"dimension changes", func(t *testing.T, k string) replyFunc {
			return embedServer(t, k, func(n int) int { return 3 - min(n, 1) })
		}, "a vector of length 2"},
		{"fewer vectors", func(t *testing.T, k string) replyFunc {
			return func(w http.ResponseWriter, r *http.Request, c call, n int) {
				if n == 0 {
					embedServer(t, k, func(int) int { return 3 })(w, r, c, n)
					return
				}
				writeJSON(w, 200, map[string]any{"embeddings": [][]float64{{1, 2, 3}}, "data": []any{map[string]any{"index": 0, "embedding": []float64{1, 2, 3}}}})
			}
		}, "1 vectors for 2 texts"},
		{"model missing", func(t *testing.T, k string) replyFunc {
			return errorReply(k, 404, `model "test-embed" not found, try pulling it first`)
		}, `model "test-embed" not found`},
	}
	for _, kind := range kinds {
		for _, tc := range cases {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				f := newFake(t, kind, tc.reply(t, kind))
				e, err := NewEmbedder(context.Background(), f.config(), nil)
				if err == nil {
					_, err = e.Embed(context.Background(), []string{"one", "two"})
				}
				if papertree.ErrorCode(err) != papertree.ELLM || !strings.Contains(papertree.ErrorMessage(err), tc.want) {
					t.Errorf("err %v, want %q", err, tc.want)
				}
			})
		}
	}
}

func TestNewEmbedderConfig(t *testing.T) {
	for _, cfg := range []Config{{Provider: "none"}, {Provider: "ollama", BaseURL: "http://127.0.0.1:1"}, {Provider: "", EmbedModel: "x"}} {
		if _, err := NewEmbedder(context.Background(), cfg, nil); papertree.ErrorCode(err) != papertree.ELLM {
			t.Errorf("%+v: err %v, want ELLM", cfg, err)
		}
	}
}
