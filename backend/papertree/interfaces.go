package papertree

import "context"

// Embedder turns texts into dense vectors. Implementations must be safe for
// concurrent use, deterministic for a given Name, and return unit-length
// vectors of length Dim (so cosine similarity is a dot product).
type Embedder interface {
	// Name identifies the model and its settings; the index records it and
	// re-embeds when it changes (e.g. "builtin-v1", "ollama:nomic-embed-text").
	Name() string
	Dim() int
	// Embed embeds documents (segments, summaries, section bodies).
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// EmbedQuery embeds a search query. Symmetric models return Embed's result.
	EmbedQuery(ctx context.Context, text string) ([]float32, error)
}
