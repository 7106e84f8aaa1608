// Command go-client-rounds measures the Go client's CPU (bench/go-client.ts): rounds of the same OpenAI-compatible
// chat completion made through a plain http.Client and through one whose Transport is the client's, alternated in one
// process; CPU is the process's (getrusage: every goroutine, the client's sending included, since a traced round ends
// with a Flush). Also: streamed calls, and traces recorded by hand. Prints one JSON object.
//
//	go run . OPENAI_BASE_URL INGEST_URL CALLS ROUNDS
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/vigil-dev/vigil/clients/go/vigil"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

const chatBody = `{"model":"gpt-4o-mini","temperature":0.2,"messages":[{"role":"system","content":"You are the support assistant of Acme. Answer the customer in one sentence."},{"role":"user","content":"Where is my order? It was due on Monday and I have not heard from you."}]}`
const streamBody = `{"model":"gpt-4o-mini","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"Where is my order?"}]}`

func call(hc *http.Client, url, body string) {
	res, err := hc.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		panic(err)
	}
	res.Body.Close()
}

// perCall is the CPU per call of n calls of fn, in µs.
func perCall(n int, fn func()) float64 {
	start := cpu()
	for i := 0; i < n; i++ {
		fn()
	}
	return float64((cpu() - start).Microseconds()) / float64(n)
}

func main() {
	openai, ingest := os.Args[1], os.Args[2]
	calls, _ := strconv.Atoi(os.Args[3])
	rounds, _ := strconv.Atoi(os.Args[4])
	// CPUPROFILE=file writes a CPU profile of the whole run (go tool pprof -top file), for a focused pass.
	if path := os.Getenv("CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			panic(err)
		}
		_ = pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	var errs []string
	client := vigil.New(vigil.Options{URL: ingest, ProjectKey: "test-key", FlushInterval: 50 * time.Millisecond,
		OnError: func(e *vigil.Error) { errs = append(errs, e.Error()) }})
	plain := &http.Client{}
	traced := &http.Client{Transport: client.Transport(nil)}
	chat := openai + "/chat/completions"
	ctx := context.Background()
	flush := func() {
		if err := client.Flush(ctx); err != nil {
			panic(err)
		}
	}
	// Warm the connections, the allocator and the client.
	for i := 0; i < calls; i++ {
		call(plain, chat, chatBody)
		call(traced, chat, chatBody)
	}
	flush()
	out := map[string][]float64{}
	add := func(k string, v float64) { out[k] = append(out[k], v) }
	for r := 0; r < rounds; r++ {
		add("untraced_us", perCall(calls, func() { call(plain, chat, chatBody) }))
		add("traced_us", perCall(calls, func() { call(traced, chat, chatBody) }))
		// The round's traces are sent within it: the Flush is part of what a traced call costs.
		start := cpu()
		flush()
		out["traced_us"][r] += float64((cpu() - start).Microseconds()) / float64(calls)
		add("stream_untraced_us", perCall(calls, func() { call(plain, chat, streamBody) }))
		add("stream_traced_us", perCall(calls, func() { call(traced, chat, streamBody) }))
		start = cpu()
		flush()
		out["stream_traced_us"][r] += float64((cpu() - start).Microseconds()) / float64(calls)
		add("record_us", perCall(calls, func() {
			client.Trace(ctx, vigil.Trace{Model: "gpt-4o-mini", Latency: 840 * time.Millisecond, Tokens: &vigil.Tokens{Input: 21, Output: 7},
				Input: "Where is my order?", Output: "It ships today."})
		}))
		start = cpu()
		flush()
		out["record_us"][r] += float64((cpu() - start).Microseconds()) / float64(calls)
	}
	_ = client.Close()
	s := client.Stats()
	b, _ := json.Marshal(map[string]any{"rounds": out, "stats": s, "errors": errs})
	fmt.Println(string(b))
}
