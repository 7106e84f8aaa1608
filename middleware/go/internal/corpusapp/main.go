// Command corpusapp plays the governance corpus's responses behind the Vigil middleware, following the corpus
// protocol (tests/fixtures/governance-corpus/README.md, "Running it through an app"): started with CORPUS_FILE,
// CORPUS_CONFIG, VIGIL_CONFIG, VIGIL_AGENT_URL, VIGIL_INGEST_TOKEN and PORT, it answers the Nth request it receives
// with the Nth case of its config: status, headers, body bytes. On SIGTERM it closes the middleware (which flushes
// the records to the agent) and exits.
package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	vigil "github.com/vigil-dev/vigil/middleware/go"
)

type part struct {
	Status     int         `json:"status"`
	Headers    [][2]string `json:"headers"`
	BodyBase64 string      `json:"body_base64"`
}

type corpus struct {
	Cases []struct {
		Config  string `json:"config"`
		Request struct {
			Target string `json:"target"`
		} `json:"request"`
		Response part `json:"response"`
	} `json:"cases"`
}

// served reports whether net/http hands a request for `target` to a handler at all: it answers 400 itself to a
// target its URL parser refuses (IIS's `%u0061` escapes), so no middleware ever sees those.
func served(target string) bool {
	_, err := url.ParseRequestURI(target)
	return err == nil
}

func main() {
	if len(os.Args) == 4 && os.Args[1] == "-served" {
		writeServed(os.Args[2], os.Args[3])
		return
	}
	text, err := os.ReadFile(os.Getenv("CORPUS_FILE"))
	if err != nil {
		log.Fatal(err)
	}
	var c corpus
	if err := json.Unmarshal(text, &c); err != nil {
		log.Fatal(err)
	}
	var responses []part
	for _, x := range c.Cases {
		if x.Config == os.Getenv("CORPUS_CONFIG") && served(x.Request.Target) {
			responses = append(responses, x.Response)
		}
	}
	agent, err := vigil.New(os.Getenv("VIGIL_CONFIG"), vigil.Options{FlushInterval: 20 * time.Millisecond})
	if err != nil {
		log.Fatal(err)
	}
	var mu sync.Mutex
	served := 0
	play := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		n := served
		served++
		mu.Unlock()
		if n >= len(responses) {
			w.WriteHeader(599)
			return
		}
		p := responses[n]
		h := w.Header()
		for _, kv := range p.Headers {
			h.Add(kv[0], kv[1])
		}
		// The case's headers are all there is: net/http adds no Content-Type of its own.
		if _, ok := h["Content-Type"]; !ok {
			h["Content-Type"] = nil
		}
		w.WriteHeader(p.Status)
		body, _ := base64.StdEncoding.DecodeString(p.BodyBase64)
		_, _ = w.Write(body)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:"+os.Getenv("PORT"))
	if err != nil {
		log.Fatal(err)
	}
	// Listener and ConnContext: the records hold each request's header fields as they came.
	server := &http.Server{Handler: agent.Middleware(play), ConnContext: agent.ConnContext}
	go func() { _ = server.Serve(agent.Listener(ln)) }()
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	<-stop
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = server.Shutdown(ctx)
	if err := agent.CloseContext(ctx); err != nil {
		log.Print(err)
	}
}

// writeServed copies the corpus file `from` to `to` without the cases whose request net/http refuses itself.
func writeServed(from, to string) {
	text, err := os.ReadFile(from)
	if err != nil {
		log.Fatal(err)
	}
	var whole map[string]json.RawMessage
	var cases []json.RawMessage
	if json.Unmarshal(text, &whole) != nil || json.Unmarshal(whole["cases"], &cases) != nil {
		log.Fatalf("%s: not a corpus file", from)
	}
	kept := []json.RawMessage{}
	for _, c := range cases {
		var x struct {
			Request struct {
				Target string `json:"target"`
			} `json:"request"`
		}
		_ = json.Unmarshal(c, &x)
		if served(x.Request.Target) {
			kept = append(kept, c)
		}
	}
	whole["cases"], _ = json.Marshal(kept)
	out, _ := json.Marshal(whole)
	if err := os.WriteFile(to, out, 0o600); err != nil {
		log.Fatal(err)
	}
}
