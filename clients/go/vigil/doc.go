// Package vigil sends the LLM calls of a Go application to Vigil's POST /v1/traces.
//
// A Client buffers trace items and one goroutine sends them in batches: a batch leaves when BatchSize items wait or
// after FlushInterval, is retried on network errors, 5xx and 429 (after Retry-After, else exponential backoff with
// jitter; every item carries a UUID, so a retried batch is stored once), split in halves on 413, and dropped on any
// other 4xx. The buffer is bounded (MaxBufferItems, MaxBufferBytes): beyond it new traces are dropped and counted.
// Nothing in this package panics into the application or changes what it sends and receives.
//
//	client := vigil.New(vigil.Options{})       // VIGIL_URL and VIGIL_PROJECT_KEY from the environment
//	defer client.Close()                       // flushes, for at most ShutdownTimeout
//	httpClient := &http.Client{Transport: client.Transport(nil)}   // records OpenAI-compatible calls
//	client.Trace(ctx, vigil.Trace{Model: "gpt-4o-mini", Latency: 840 * time.Millisecond})   // or by hand
//
// The wire contract is documented in docs/llm-wire-contract.md and plugins/llm/README.md of Vigil.
package vigil
