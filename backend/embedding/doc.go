// Package embedding holds PaperTree's embedders (papertree.Embedder). Its
// built-in default, Builtin, needs no download and no network: its static
// model (IDF prior + word vectors, trained offline by internal/train from
// CC-BY-4.0 QASPER text) is embedded in the binary.
//
// Data flow: text -> Tokenize (placeholders dropped) -> Stem -> DocTerms /
// QueryTerms -> embed: hashed lexical channel + semantic channel + slack ->
// unit []float32 of Dim() = 768.
//
// Invariants: vectors are unit length and depend only on the text, Name and
// the query/document role (never on batch composition, goroutine or
// process); Name changes whenever the model or any option changes; a loaded
// Model is never mutated, so one Builtin serves any number of goroutines.
// The evaluation against BM25 on QASPER lives in internal/qasper and
// README.md.
package embedding
