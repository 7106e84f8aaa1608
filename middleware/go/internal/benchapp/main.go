// Command benchapp is a small JSON API in Go with the Vigil middleware on or off, for bench/go-middleware.ts: it
// answers like the Express app of bench/middleware-cpu.ts (the request body parsed, a JSON answer echoing it), and
// a control port reports the process's CPU and flushes the middleware.
// Usage: benchapp on|off CONFIG AGENT_URL (prints "PORT CONTROL_PORT" once listening)
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"syscall"
	"time"

	vigil "github.com/vigil-dev/vigil/middleware/go"
)

func cpuMicros() int64 {
	var u syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return u.Utime.Sec*1e6 + u.Utime.Usec + u.Stime.Sec*1e6 + u.Stime.Usec
}

func main() {
	mode, config, agentURL := os.Args[1], os.Args[2], os.Args[3]
	handler := http.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body any
		if data, _ := io.ReadAll(r.Body); len(data) > 0 {
			_ = json.Unmarshal(data, &body)
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "id": 1234, "path": r.URL.Path, "echo": body, "password": "server-side"})
	}))
	var agent *vigil.Agent
	if mode == "on" {
		var err error
		agent, err = vigil.New(config, vigil.Options{AgentURL: agentURL, Token: "bench-ingest-token-0123456789"})
		if err != nil {
			log.Fatal(err)
		}
		handler = agent.Middleware(handler)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	control, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	server := &http.Server{Handler: handler}
	if agent != nil {
		// As the README's usage: request heads read off the connection, for records with the fields as they came.
		server.ConnContext = agent.ConnContext
		ln = agent.Listener(ln)
	}
	go func() { _ = server.Serve(ln) }()
	mux := http.NewServeMux()
	mux.HandleFunc("/cpu", func(w http.ResponseWriter, r *http.Request) {
		governMs := 0.0
		if agent != nil {
			governMs = float64(agent.Stats().GovernTime) / float64(time.Millisecond)
		}
		fmt.Fprintf(w, `{"cpu":%d,"governMs":%f}`, cpuMicros(), governMs)
	})
	mux.HandleFunc("/flush", func(w http.ResponseWriter, r *http.Request) {
		if agent != nil {
			ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
			agent.Flush(ctx)
			cancel()
		}
		fmt.Fprint(w, `{"flushed":true}`)
	})
	mux.HandleFunc("/stop", func(w http.ResponseWriter, r *http.Request) {
		if agent != nil {
			_ = agent.Close()
		}
		os.Exit(0)
	})
	fmt.Printf("%d %d\n", ln.Addr().(*net.TCPAddr).Port, control.Addr().(*net.TCPAddr).Port)
	_ = http.Serve(control, mux)
}
