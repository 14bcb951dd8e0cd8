// Package llm talks to chat and embedding servers (Ollama and any
// OpenAI-compatible server: OpenAI, LM Studio, vLLM, llama.cpp) and runs
// PT-RAG's LLM operations, each with the fallback of the paper's Table 5.
//
// Data flow:
//
//	Config --Detect--> Status (what answers, which models exist, what failed)
//	Config --New--> Client (Chat / ChatStream)  --NewOps--> Ops (typed operations)
//	Config --NewEmbedder--> *Embedder (papertree.Embedder over HTTP)
//
// Invariants:
//   - Only the standard library speaks HTTP here; there are no SDKs.
//   - ctx comes first on every call and there are NO hidden timeouts: the
//     caller sets deadlines (an answer may stream for minutes on a laptop).
//   - Every call is bounded: a semaphore per client limits concurrency and
//     retries are bounded (exponential backoff with jitter, Retry-After
//     respected) and happen only on 429, 5xx and dropped connections, never on
//     other 4xx (retrying a bad key or a missing model only delays the error).
//   - Every call is accounted: a Usage recorder sees (op, model, prompt
//     tokens, completion tokens, duration, err) once per call.
//   - Every error is a *papertree.Error with code ELLM (ECanceled when the
//     caller cancelled) and a message in plain words naming the URL and what
//     went wrong.
//   - Every operation in Ops returns a usable result: when the client is nil,
//     the call fails or the output cannot be used, it returns the fallback
//     and an Outcome saying so and why. No operation ever fails the caller.
package llm
