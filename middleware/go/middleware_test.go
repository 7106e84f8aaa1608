package vigil

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The middleware end to end on real sockets: an app served by net/http, the middleware in front of it, and an
// agent (a recording HTTP server, or one that is down) receiving the records.

const testConfig = `rules:
  - name: all
    match: { path: /** }
  - name: payments
    match: { path: /api/payments/** }
    redact:
      json_fields: [$.card, $.**.cvv]
      headers: [Authorization]
      query_params: [token]
    meter: { tokens: $.usage.total_tokens }
  - name: admin
    match: { path: /admin/** }
    restrict: [request_body, response_body, headers]
capture:
  max_body_bytes: ${MAX_BODY:-1kb}
`

type recordingAgent struct {
	mu      sync.Mutex
	records []map[string]any
	texts   []string
	auth    []string
	status  int // answered to each POST (0: 202)
	posts   int
}

func (a *recordingAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.posts++
	a.auth = append(a.auth, r.Header.Get("Authorization"))
	if r.URL.Path != IngestPath || r.Method != http.MethodPost {
		w.WriteHeader(404)
		return
	}
	if a.status != 0 {
		w.WriteHeader(a.status)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var body struct {
		Records []json.RawMessage `json:"records"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		w.WriteHeader(400)
		return
	}
	for _, text := range body.Records {
		var record map[string]any
		if err := json.Unmarshal(text, &record); err != nil {
			w.WriteHeader(400)
			return
		}
		a.records = append(a.records, record)
		a.texts = append(a.texts, string(text))
	}
	w.WriteHeader(202)
}

func (a *recordingAgent) snapshot() []map[string]any {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]map[string]any(nil), a.records...)
}

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "vigil.yaml")
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

func noEnv(string) (string, bool) { return "", false }

// app answers like a small JSON API: it reads the body and echoes parts of it.
func app() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/api/payments/charge", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Add("Set-Cookie", "a=1")
		w.Header().Add("Set-Cookie", "b=2")
		w.WriteHeader(201)
		fmt.Fprintf(w, `{"ok":true,"card":"4111111111111111","usage":{"total_tokens":42},"echo":%q}`, body)
	})
	mux.HandleFunc("/ignore", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("not read")) // the body is left for net/http
	})
	mux.HandleFunc("/admin/users", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("secret admin page"))
	})
	mux.HandleFunc("/stream", func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < 3; i++ {
			fmt.Fprintf(w, "chunk %d\n", i)
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/gzip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		z := gzip.NewWriter(w)
		z.Write([]byte(`{"cvv":"123","x":1}`))
		z.Close()
	})
	mux.HandleFunc("/hijack", func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 8\r\nConnection: close\r\n\r\nhijacked")
		buf.Flush()
		conn.Close()
	})
	return mux
}

func newTestAgent(t *testing.T, agentURL string, o Options) *Agent {
	t.Helper()
	o.AgentURL = agentURL
	o.Token = "ingest-token-0123456789"
	if o.LookupEnv == nil {
		o.LookupEnv = noEnv
	}
	if o.FlushInterval == 0 {
		o.FlushInterval = 20 * time.Millisecond
	}
	a, err := New(writeConfig(t, testConfig), o)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// rawExchangeOver sends a raw HTTP/1.1 request and returns every byte of the answer.
func rawExchangeOver(t *testing.T, addr, request string) []byte {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := conn.Write([]byte(request)); err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(conn)
	return out
}

// withoutDate blanks the Date header's value, the one part of an answer that depends on the clock.
func withoutDate(b []byte) string {
	lines := strings.Split(string(b), "\r\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "Date: ") {
			lines[i] = "Date: -"
		}
	}
	return strings.Join(lines, "\r\n")
}

func TestResponsesAreByteIdenticalWithAndWithoutTheMiddleware(t *testing.T) {
	agent := &recordingAgent{}
	agentServer := httptest.NewServer(agent)
	defer agentServer.Close()
	a := newTestAgent(t, agentServer.URL, Options{})
	defer a.Close()
	plain := httptest.NewServer(app())
	defer plain.Close()
	governed := httptest.NewServer(a.Middleware(app()))
	defer governed.Close()

	requests := []string{
		"POST /api/payments/charge?token=abc HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s\r\nContent-Type: application/json\r\nContent-Length: 27\r\nConnection: close\r\n\r\n{\"card\":\"4111\",\"cvv\":\"123\"}",
		"POST /api/payments/charge HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
		"GET /admin/users HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
		"GET /stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
		"GET /gzip HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
		"HEAD /api/payments/charge HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
		"GET /missing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
		"GET /hijack HTTP/1.1\r\nHost: x\r\n\r\n",
		"POST /api/payments/charge HTTP/1.1\r\nHost: x\r\nContent-Length: 3000\r\nConnection: close\r\n\r\n" + strings.Repeat("z", 3000),
		// Bodies the handler leaves: net/http reads a small one off, and closes the connection after a large one.
		"POST /ignore HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789GET /ignore HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
		"POST /ignore HTTP/1.1\r\nHost: x\r\nContent-Length: 300000\r\n\r\n" + strings.Repeat("b", 300000) + "GET /ignore HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
		"POST /ignore HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 10\r\nConnection: close\r\n\r\n0123456789",
	}
	for _, req := range requests {
		want := withoutDate(rawExchangeOver(t, plain.Listener.Addr().String(), req))
		got := withoutDate(rawExchangeOver(t, governed.Listener.Addr().String(), req))
		if got != want {
			t.Errorf("request %q:\nwith the middleware:\n%s\nwithout:\n%s", strings.SplitN(req, "\r\n", 2)[0], got, want)
		}
	}
	// Every request but the restricted one makes a record (a hijacked one when its handler returns, which may be
	// after its client read the answer).
	// The two requests on one connection make two records each, if net/http answers both.
	captured := len(requests) - 1 + strings.Count(strings.Join(requests, ""), "GET /ignore")
	if strings.Contains(withoutDate(rawExchangeOver(t, plain.Listener.Addr().String(), requests[len(requests)-2])), "Connection: close") {
		captured-- // the large unread body closed the connection: its second request was never read
	}
	waitFor(t, "a record of every captured request", func() bool { return len(agent.snapshot()) >= captured })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a.Flush(ctx)
	if got := len(agent.snapshot()); got != captured {
		t.Errorf("%d records reached the agent, want %d", got, captured)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestRecordsAreGovernedAndShippedWithTheToken(t *testing.T) {
	agent := &recordingAgent{}
	agentServer := httptest.NewServer(agent)
	defer agentServer.Close()
	a := newTestAgent(t, agentServer.URL+"/", Options{})
	defer a.Close()
	server := httptest.NewServer(a.Middleware(app()))
	defer server.Close()

	req, _ := http.NewRequest("POST", server.URL+"/api/payments/charge?token=abc&x=1", strings.NewReader(`{"card":"4111","n":{"cvv":"123"}}`))
	req.Header.Set("Authorization", "Bearer secret")
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(res.Body)
	res.Body.Close()
	res, _ = http.Get(server.URL + "/admin/users")
	io.ReadAll(res.Body)
	res.Body.Close()

	waitFor(t, "the record", func() bool { return len(agent.snapshot()) == 1 })
	r := agent.snapshot()[0]
	if r["path"] != "/api/payments/charge" || r["status"] != float64(201) || r["tokens"] != float64(42) {
		t.Errorf("record %v", r)
	}
	if q := r["query"].(map[string]any); q["token"] != "[REDACTED]" || q["x"] != "1" {
		t.Errorf("query %v", q)
	}
	if h := r["headers"].(map[string]any); h["Authorization"] != "[REDACTED]" || h["Host"] == nil {
		t.Errorf("headers %v", h)
	}
	if b := r["request_body"].(map[string]any); b["card"] != "[REDACTED]" || b["n"].(map[string]any)["cvv"] != "[REDACTED]" {
		t.Errorf("request body %v", b)
	}
	if b := r["response_body"].(map[string]any); b["card"] != "[REDACTED]" || b["ok"] != true {
		t.Errorf("response body %v", b)
	}
	if c := r["response_headers"].(map[string]any)["Set-Cookie"]; fmt.Sprint(c) != "[a=1 b=2]" {
		t.Errorf("Set-Cookie %v", c)
	}
	agent.mu.Lock()
	if agent.auth[0] != "Bearer ingest-token-0123456789" {
		t.Errorf("authorization %q", agent.auth[0])
	}
	agent.mu.Unlock()
	// The agent holds the record before the shipper has read its answer and counted it as sent.
	waitFor(t, "the record counted as sent", func() bool { return a.Stats().Sent == 1 })
	if s := a.Stats(); s.Captured != 1 || s.Sent != 1 {
		t.Errorf("stats %+v", s)
	}
}

func TestARestrictedRouteAllocatesNothing(t *testing.T) {
	a := newTestAgent(t, "http://127.0.0.1:9", Options{})
	defer a.Close()
	handler := a.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	req := httptest.NewRequest("GET", "/admin/users?x=1", nil)
	w := &discardWriter{h: http.Header{}}
	handler.ServeHTTP(w, req) // fills the decision cache
	allocs := testing.AllocsPerRun(200, func() { handler.ServeHTTP(w, req) })
	if allocs != 0 {
		t.Errorf("a restricted request allocated %v times", allocs)
	}
	if a.Stats().Captured != 0 {
		t.Errorf("captured %d", a.Stats().Captured)
	}
}

type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) WriteHeader(int)             {}

func TestAnAgentThatIsDownNeverDelaysTheApp(t *testing.T) {
	// A closed port, and an agent that accepts and never answers.
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	closedURL := "http://" + closed.Addr().String()
	closed.Close()
	hanging, _ := net.Listen("tcp", "127.0.0.1:0")
	defer hanging.Close()
	var held []net.Conn
	var heldMu sync.Mutex
	go func() {
		for {
			c, err := hanging.Accept()
			if err != nil {
				return
			}
			heldMu.Lock()
			held = append(held, c)
			heldMu.Unlock()
		}
	}()
	defer func() {
		heldMu.Lock()
		for _, c := range held {
			c.Close()
		}
		heldMu.Unlock()
	}()
	for _, agentURL := range []string{closedURL, "http://" + hanging.Addr().String()} {
		var errs []error
		var errMu sync.Mutex
		a := newTestAgent(t, agentURL, Options{MaxQueue: 50, Timeout: 30 * time.Second, BatchSize: 5, OnError: func(err error) {
			errMu.Lock()
			errs = append(errs, err)
			errMu.Unlock()
		}})
		server := httptest.NewServer(a.Middleware(app()))
		client := &http.Client{Timeout: 5 * time.Second}
		for i := 0; i < 200; i++ {
			res, err := client.Post(server.URL+"/api/payments/charge", "application/json", strings.NewReader(`{"card":"1"}`))
			if err != nil {
				t.Fatalf("agent %s: request %d failed: %v", agentURL, i, err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 201 || !bytes.Contains(body, []byte(`"ok":true`)) {
				t.Fatalf("agent %s: answer %d %s", agentURL, res.StatusCode, body)
			}
		}
		server.Close()
		waitFor(t, "records to be dropped at the bounded queue", func() bool { return a.Stats().Dropped > 0 })
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		started := time.Now()
		err := a.CloseContext(ctx)
		cancel()
		if err == nil {
			t.Errorf("agent %s: Close reported every record delivered", agentURL)
		}
		if elapsed := time.Since(started); elapsed > 5*time.Second {
			t.Errorf("agent %s: Close took %v past its deadline", agentURL, elapsed)
		}
		s := a.Stats()
		if s.Captured != 200 || s.Queued > 50 || s.Sent != 0 {
			t.Errorf("agent %s: stats %+v", agentURL, s)
		}
	}
}

func TestRetriesOn5xxAndDropsOn4xx(t *testing.T) {
	agent := &recordingAgent{status: 503}
	agentServer := httptest.NewServer(agent)
	defer agentServer.Close()
	var reported []string
	var mu sync.Mutex
	a := newTestAgent(t, agentServer.URL, Options{MinBackoff: 10 * time.Millisecond, MaxBackoff: 20 * time.Millisecond, OnError: func(err error) {
		mu.Lock()
		reported = append(reported, err.Error())
		mu.Unlock()
	}})
	defer a.Close()
	server := httptest.NewServer(a.Middleware(app()))
	defer server.Close()
	res, _ := http.Get(server.URL + "/api/payments/charge")
	res.Body.Close()
	waitFor(t, "retries", func() bool { return a.Stats().Retries >= 2 })
	agent.mu.Lock()
	agent.status = 0
	agent.mu.Unlock()
	waitFor(t, "delivery after the agent recovered", func() bool { return len(agent.snapshot()) == 1 })

	agent.mu.Lock()
	agent.status = 401
	agent.mu.Unlock()
	res, _ = http.Get(server.URL + "/api/payments/charge")
	res.Body.Close()
	waitFor(t, "the rejection", func() bool { return a.Stats().Rejected == 1 })
	s := a.Stats()
	if s.Sent != 1 || s.Queued != 0 {
		t.Errorf("stats %+v", s)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reported) == 0 || !strings.Contains(strings.Join(reported, "\n"), "503") || !strings.Contains(strings.Join(reported, "\n"), "401") {
		t.Errorf("reported %q", reported)
	}
}

func TestTheWriterKeepsTheServersInterfaces(t *testing.T) {
	a := newTestAgent(t, "http://127.0.0.1:9", Options{})
	defer a.Close()
	var flusher, hijacker, notifier, pusher bool
	server := httptest.NewServer(a.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, flusher = w.(http.Flusher)
		_, hijacker = w.(http.Hijacker)
		_, notifier = w.(http.CloseNotifier)
		_, pusher = w.(http.Pusher)
	})))
	defer server.Close()
	res, err := http.Get(server.URL + "/x")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	// net/http's HTTP/1 writer: a Flusher, a Hijacker and a CloseNotifier, no Pusher.
	if !flusher || !hijacker || !notifier || pusher {
		t.Errorf("flusher %v hijacker %v close notifier %v pusher %v", flusher, hijacker, notifier, pusher)
	}
}

func TestConfigProblemsNameTheFileLineAndKeyPath(t *testing.T) {
	cases := map[string]string{
		"rules:\n  - name: a\n    match: { path: /x }\n    redact: { json_feilds: [$.a] }\n":   `vigil.yaml:4:15: unknown key rules[0].redact.json_feilds`,
		"rules:\n  - name: a\n    match: { path: /x }\n    wasm: ./p.wasm\n":                   `vigil.yaml:4:11: rules[0].wasm: WASM policy modules are not run by the Go middleware`,
		"rules:\n  - name: a\n    match: { path: x }\n":                                        `vigil.yaml:3:20: rules[0].match.path must match the pattern ^/`,
		"rules:\n  - name: a\n    match: { path: /x }\n    sample: 2\n":                        `vigil.yaml:4:13: rules[0].sample must be <= 1`,
		"rules:\n  - name: a\n    match: { path: /x }\n  - name: a\n    match: { path: /y }\n": `rules[1].name: rule name "a" is already used by rules[0]`,
		"rules:\n  - name: a\n    match: { path: /a/**b }\n":                                   `rules[0].match.path: "/a/**b": "**" must be a whole segment`,
		"rules:\n  - name: a\n    match: { path: \"${P}\" }\n":                                 `uses environment variable P, which is not set`,
		"service: { upstream: http://x }\n":                                                    `no "rules" key`,
		"rules:\n  - name: a\n    match: { path: /x }\ncapture: { max_body_bytes: lots }\n":    `capture.max_body_bytes must be a byte size`,
	}
	for text, want := range cases {
		_, err := New(writeConfig(t, text), Options{AgentURL: "http://127.0.0.1:9", Token: "t", LookupEnv: noEnv})
		var e *Error
		if err == nil || !strings.Contains(err.Error(), want) || !errorsAs(err, &e) || e.Code != ErrCodeConfig {
			t.Errorf("config %q: error %v, want it to contain %q", text, err, want)
		}
	}
	_, err := New(writeConfig(t, testConfig), Options{LookupEnv: noEnv})
	if err == nil || !strings.Contains(err.Error(), "VIGIL_AGENT_URL") {
		t.Errorf("no agent URL: %v", err)
	}
	env := func(k string) (string, bool) {
		v, ok := map[string]string{"VIGIL_AGENT_URL": "http://127.0.0.1:9", "VIGIL_INGEST_TOKEN": "t", "MAX_BODY": "16"}[k]
		return v, ok
	}
	a, err := New(writeConfig(t, testConfig), Options{LookupEnv: env})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.maxBodyBytes != 16 {
		t.Errorf("max body %d, want 16 from ${MAX_BODY}", a.maxBodyBytes)
	}
}

func errorsAs(err error, target **Error) bool {
	e, ok := err.(*Error)
	if ok {
		*target = e
	}
	return ok
}

func TestBodiesAreBoundedByMaxBodyBytesAndAnUnreadBodyIsReadOff(t *testing.T) {
	agent := &recordingAgent{}
	agentServer := httptest.NewServer(agent)
	defer agentServer.Close()
	a := newTestAgent(t, agentServer.URL, Options{LookupEnv: func(k string) (string, bool) {
		if k == "MAX_BODY" {
			return "32", true
		}
		return "", false
	}})
	defer a.Close()
	server := httptest.NewServer(a.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/read" {
			io.ReadAll(r.Body)
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(strings.Repeat("r", 40)))
	})))
	defer server.Close()
	for _, path := range []string{"/read", "/unread"} {
		res, err := http.Post(server.URL+path, "text/plain", strings.NewReader(strings.Repeat("q", 20)))
		if err != nil {
			t.Fatal(err)
		}
		io.ReadAll(res.Body)
		res.Body.Close()
	}
	waitFor(t, "two records", func() bool { return len(agent.snapshot()) == 2 })
	for _, r := range agent.snapshot() {
		if r["request_body"] != strings.Repeat("q", 20) || r["partial"] != false {
			t.Errorf("%s: request body %v, partial %v", r["path"], r["request_body"], r["partial"])
		}
		if r["response_body"] != strings.Repeat("r", 32) || r["truncated"] != true {
			t.Errorf("%s: response body %v, truncated %v", r["path"], r["response_body"], r["truncated"])
		}
	}
}

func TestWithListenerAndConnContextRequestHeadersAreRecordedAsTheyCame(t *testing.T) {
	agent := &recordingAgent{}
	agentServer := httptest.NewServer(agent)
	defer agentServer.Close()
	a := newTestAgent(t, agentServer.URL, Options{})
	defer a.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	server := &http.Server{Handler: a.Middleware(app()), ConnContext: a.ConnContext}
	go server.Serve(a.Listener(ln))
	defer server.Close()
	// Two requests on one connection, the first with a chunked body, the second in absolute form.
	out := rawExchangeOver(t, ln.Addr().String(),
		"POST /api/payments/charge HTTP/1.1\r\nHost: api.example.test\r\nx-b: 2\r\nAuthorization: Bearer s\r\nX-A: 1\r\nx-b: 3\r\nTransfer-Encoding: chunked\r\n\r\n"+
			"5\r\n{\"a\":\r\n2\r\n1}\r\n0\r\n\r\n"+
			"GET http://other.example/api/payments/charge HTTP/1.1\r\nHost: api.example.test\r\nZ: z\r\nA: a\r\nConnection: close\r\n\r\n")
	if n := strings.Count(string(out), "HTTP/1.1 201"); n != 2 {
		t.Fatalf("%d answers:\n%s", n, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a.Flush(ctx)
	waitFor(t, "two records", func() bool { return len(agent.snapshot()) == 2 })
	agent.mu.Lock()
	all := strings.Join(agent.texts, "\n")
	agent.mu.Unlock()
	// In the order they came, the Host as sent (not the absolute-form target's authority).
	for _, want := range []string{
		`"headers":{"Host":"api.example.test","X-B":["2","3"],"Authorization":"[REDACTED]","X-A":"1","Transfer-Encoding":"chunked"}`,
		`"headers":{"Host":"api.example.test","Z":"z","A":"a","Connection":"close"}`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no record holds %s:\n%s", want, all)
		}
	}
}

func TestRecordedResponseHeadersAreWhatNetHTTPSent(t *testing.T) {
	agent := &recordingAgent{}
	agentServer := httptest.NewServer(agent)
	defer agentServer.Close()
	a := newTestAgent(t, agentServer.URL, Options{})
	defer a.Close()
	handlers := map[string]http.HandlerFunc{
		"/small":   func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"a":1}`)) },                   // sniffed type, length added
		"/large":   func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(strings.Repeat("<p>", 1000))) }, // chunked
		"/nothing": func(w http.ResponseWriter, r *http.Request) { w.Header().Set("X-Only", "1") },
		"/flushed": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte("a"))
			w.(http.Flusher).Flush()
			w.Write([]byte("b"))
		},
		"/typed": func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = nil
			w.Header().Set("Date", "Thu, 01 Jan 2026 00:00:00 GMT")
			w.WriteHeader(202)
			w.Write([]byte("x"))
		},
		"/nocontent": func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) },
	}
	mux := http.NewServeMux()
	for path, h := range handlers {
		mux.HandleFunc(path, h)
	}
	server := httptest.NewServer(a.Middleware(mux))
	defer server.Close()
	wire := map[string]http.Header{}
	for path := range handlers {
		res, err := http.Get(server.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		io.ReadAll(res.Body)
		res.Body.Close()
		h := res.Header.Clone()
		if len(res.TransferEncoding) == 0 && res.ContentLength >= 0 && res.StatusCode != 204 {
			h.Set("Content-Length", fmt.Sprint(res.ContentLength)) // net/http's client moves it out of the map
		}
		wire[path] = h
	}
	waitFor(t, "the records", func() bool { return len(agent.snapshot()) == len(handlers) })
	for _, r := range agent.snapshot() {
		path := r["path"].(string)
		recorded := http.Header{}
		for k, v := range r["response_headers"].(map[string]any) {
			switch x := v.(type) {
			case string:
				recorded[k] = []string{x}
			case []any:
				for _, s := range x {
					recorded[k] = append(recorded[k], s.(string))
				}
			}
		}
		want := wire[path]
		// The clock may turn between the head's writing and the record's: the Date is checked for presence only.
		if want.Get("Date") != "" && recorded.Get("Date") == "" {
			t.Errorf("%s: no Date recorded", path)
		}
		recorded.Del("Date")
		want.Del("Date")
		if fmt.Sprint(recorded) != fmt.Sprint(want) {
			t.Errorf("%s: recorded %v, sent %v", path, recorded, want)
		}
	}
}
