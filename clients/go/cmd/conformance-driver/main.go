// Command conformance-driver runs the Go client under Vigil's client conformance suite (docs/llm-wire-contract.md):
// it reads one JSON object {"items": [...], "options": {...}} from stdin, records every item through the client's
// low-level RecordJSON, closes the client (which flushes), and prints {"sent": n, "dropped": n} on one line.
//
//	cd clients/go && VIGIL_BASE_URL=http://127.0.0.1:9095 VIGIL_PROJECT_KEY=vk_… go run ./cmd/conformance-driver < input.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/vigil-dev/vigil/clients/go/vigil"
)

type input struct {
	Items   []json.RawMessage `json:"items"`
	Options struct {
		MaxBatchItems   int  `json:"max_batch_items"`
		MaxBufferItems  int  `json:"max_buffer_items"`
		FlushIntervalMs int  `json:"flush_interval_ms"`
		MaxRetries      *int `json:"max_retries"`
		RetryBaseMs     int  `json:"retry_base_ms"`
		TimeoutMs       int  `json:"timeout_ms"`
	} `json:"options"`
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fmt.Fprintln(os.Stderr, "conformance-driver: stdin is not the suite's JSON object:", err)
		os.Exit(2)
	}
	o := in.Options
	options := vigil.Options{
		URL:            os.Getenv("VIGIL_BASE_URL"),
		ProjectKey:     os.Getenv("VIGIL_PROJECT_KEY"),
		BatchSize:      o.MaxBatchItems,
		MaxBufferItems: o.MaxBufferItems,
		FlushInterval:  time.Duration(o.FlushIntervalMs) * time.Millisecond,
		RetryBase:      time.Duration(o.RetryBaseMs) * time.Millisecond,
		Timeout:        time.Duration(o.TimeoutMs) * time.Millisecond,
		// The suite counts; the log lines of the default OnError would only be noise on its stderr.
		OnError: func(e *vigil.Error) { fmt.Fprintln(os.Stderr, e.Error()) },
	}
	if o.MaxRetries != nil {
		options.MaxRetries = *o.MaxRetries
		if *o.MaxRetries == 0 {
			options.MaxRetries = -1
		}
	}
	// Close's deadline covers every retry the options allow, so a slow scripted answer is waited for, not dropped.
	options.ShutdownTimeout = 60 * time.Second
	client := vigil.New(options)
	for _, item := range in.Items {
		client.RecordJSON(item)
	}
	_ = client.Close()
	s := client.Stats()
	out, _ := json.Marshal(map[string]int64{"sent": s.Sent, "dropped": s.Dropped})
	fmt.Println(string(out))
}
