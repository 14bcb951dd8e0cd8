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
//     caller sets deadlines, in ctx and in Config (ConnectTimeout,
//     FirstByteTimeout, CallTimeout, from the settings tree); the client
//     applies Config's to its HTTP transport and over each call, so every
//     call ends, however the server behaves. AnswerBudget is the caller's
//     too (the library applies it over one answer's steps).
//   - Every reply is bounded: at most MaxReplyBytes are read from one reply
//     or stream; past it the call fails (it never parses a truncated reply).
//   - No secret leaves the client: every reply (content, streamed deltas,
//     model names, error bodies) is redacted here, the one place replies
//     enter, so no cache, summary, answer, usage row, log or export holds
//     the API key even when a server echoes it. Replies carrying web markup
//     or instructions to a model that the prompt did not are not used.
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
