package vigil

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// ingest is a scripted POST /v1/traces: answer decides each request's answer from the batch it got.
type ingest struct {
	mu      sync.Mutex
	batches [][]map[string]any
	headers []http.Header
	answer  func(n int, batch []map[string]any, w http.ResponseWriter)
}

func (s *ingest) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			w.WriteHeader(400)
			return
		}
		body = zr
	}
	var payload struct {
		Traces []map[string]any `json:"traces"`
	}
	if err := json.NewDecoder(body).Decode(&payload); err != nil {
		w.WriteHeader(400)
		return
	}
	s.mu.Lock()
	s.batches = append(s.batches, payload.Traces)
	s.headers = append(s.headers, r.Header.Clone())
	n := len(s.batches)
	s.mu.Unlock()
	if s.answer != nil {
		s.answer(n, payload.Traces, w)
		return
	}
	accept(w, len(payload.Traces))
}

func accept(w http.ResponseWriter, n int) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(202)
	_, _ = w.Write([]byte(`{"accepted":` + itoa(n) + `,"rejected":0,"sampled_out":0,"errors":[],"ids":[]}`))
}

func (s *ingest) sizes() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]int, len(s.batches))
	for i, b := range s.batches {
		out[i] = len(b)
	}
	return out
}

func newTestClient(t *testing.T, s *ingest, o Options) (*Client, *[]*Error) {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	var mu sync.Mutex
	errs := &[]*Error{}
	o.URL = srv.URL
	o.ProjectKey = "vk_test"
	o.OnError = func(e *Error) { mu.Lock(); *errs = append(*errs, e); mu.Unlock() }
	c := New(o)
	t.Cleanup(func() { _ = c.Close() })
	return c, errs
}

func TestBatchesBySizeWithKeyAndGzip(t *testing.T) {
	s := &ingest{}
	c, _ := newTestClient(t, s, Options{BatchSize: 3, FlushInterval: time.Hour})
	for i := 0; i < 7; i++ {
		c.Trace(context.Background(), Trace{Model: "gpt-4o-mini", Input: strings.Repeat("x", 400)})
	}
	if err := c.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := s.sizes(); len(got) != 3 || got[0] != 3 || got[1] != 3 || got[2] != 1 {
		t.Fatalf("batches %v, want [3 3 1]", got)
	}
	h := s.headers[0]
	if h.Get("X-Service-Project-Key") != "vk_test" || h.Get("Content-Encoding") != "gzip" || h.Get("Content-Type") != "application/json" {
		t.Fatalf("headers %v", h)
	}
	if st := c.Stats(); st.Sent != 7 || st.Dropped != 0 || st.Buffered != 0 {
		t.Fatalf("stats %+v", st)
	}
}

func TestSplits413InHalvesAndDropsASingleItem(t *testing.T) {
	s := &ingest{answer: func(_ int, batch []map[string]any, w http.ResponseWriter) {
		if len(batch) > 2 || batch[0]["model"] == "huge" {
			w.WriteHeader(413)
			return
		}
		accept(w, len(batch))
	}}
	c, errs := newTestClient(t, s, Options{BatchSize: 8, FlushInterval: time.Hour})
	for i := 0; i < 7; i++ {
		model := "m"
		if i == 6 {
			model = "huge"
		}
		c.Trace(context.Background(), Trace{Model: model})
	}
	_ = c.Flush(context.Background())
	if st := c.Stats(); st.Sent != 6 || st.Dropped != 1 {
		t.Fatalf("stats %+v, want 6 sent 1 dropped", st)
	}
	if got := jsonOf(s.sizes()); got != "[7,4,2,2,3,2,1]" {
		t.Fatalf("requests %v", got)
	}
	if (*errs)[0].Code != CodeTooLarge {
		t.Fatalf("errors %v", *errs)
	}
}

func jsonOf(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestRetriesAfterRetryAfterThenGivesUp(t *testing.T) {
	var times []time.Time
	s := &ingest{answer: func(n int, batch []map[string]any, w http.ResponseWriter) {
		times = append(times, time.Now())
		switch n {
		case 1:
			w.Header().Set("Retry-After", "0.3")
			w.WriteHeader(429)
		case 2:
			w.WriteHeader(503)
		default:
			accept(w, len(batch))
		}
	}}
	c, _ := newTestClient(t, s, Options{RetryBase: 20 * time.Millisecond, FlushInterval: time.Millisecond})
	id := c.Trace(context.Background(), Trace{Model: "m"})
	_ = c.Flush(context.Background())
	if st := c.Stats(); st.Sent != 1 || st.Retries != 2 {
		t.Fatalf("stats %+v", st)
	}
	if wait := times[1].Sub(times[0]); wait < 300*time.Millisecond {
		t.Fatalf("retried after %v, before Retry-After", wait)
	}
	for _, b := range s.batches {
		if b[0]["id"] != id {
			t.Fatalf("a retry changed the id: %v", b[0]["id"])
		}
	}
}

func TestNeverRetriesA400AndCountsExhaustedRetries(t *testing.T) {
	s := &ingest{answer: func(n int, _ []map[string]any, w http.ResponseWriter) {
		if n == 1 {
			w.WriteHeader(400)
			return
		}
		w.WriteHeader(500)
	}}
	c, errs := newTestClient(t, s, Options{MaxRetries: 2, RetryBase: time.Millisecond, FlushInterval: time.Millisecond})
	c.Trace(context.Background(), Trace{Model: "m"})
	_ = c.Flush(context.Background())
	c.Trace(context.Background(), Trace{Model: "m"})
	_ = c.Flush(context.Background())
	if got := len(s.sizes()); got != 4 {
		t.Fatalf("%d requests, want 1 + 3", got)
	}
	if st := c.Stats(); st.Dropped != 2 || st.Retries != 2 {
		t.Fatalf("stats %+v", st)
	}
	if (*errs)[0].Code != CodeBatchRefused || (*errs)[1].Code != CodeRetriesExhausted {
		t.Fatalf("errors %v", *errs)
	}
}

func TestFullBufferDropsAndCountsOnce(t *testing.T) {
	release := make(chan struct{})
	s := &ingest{answer: func(_ int, batch []map[string]any, w http.ResponseWriter) {
		<-release
		accept(w, len(batch))
	}}
	c, errs := newTestClient(t, s, Options{MaxBufferItems: 3, BatchSize: 1, FlushInterval: time.Hour})
	for i := 0; i < 10; i++ {
		c.Trace(context.Background(), Trace{Model: "m"})
	}
	close(release)
	_ = c.Flush(context.Background())
	if st := c.Stats(); st.Sent != 3 || st.Dropped != 7 {
		t.Fatalf("stats %+v", st)
	}
	if len(*errs) != 1 || (*errs)[0].Code != CodeBufferFull {
		t.Fatalf("errors %v", *errs)
	}
}

func TestCloseGivesUpAtItsDeadlineAndCounts(t *testing.T) {
	s := &ingest{answer: func(_ int, _ []map[string]any, w http.ResponseWriter) { w.WriteHeader(503) }}
	c, _ := newTestClient(t, s, Options{RetryBase: time.Hour, RetryMax: time.Hour, ShutdownTimeout: 200 * time.Millisecond})
	c.Trace(context.Background(), Trace{Model: "m"})
	c.Trace(context.Background(), Trace{Model: "m"})
	if err := c.Close(); err == nil {
		t.Fatal("Close said everything was delivered")
	}
	if st := c.Stats(); st.Dropped != 2 || st.Buffered != 0 {
		t.Fatalf("stats %+v", st)
	}
	if c.Trace(context.Background(), Trace{Model: "m"}) != "" || c.Stats().Dropped != 3 {
		t.Fatal("a trace after Close was not dropped")
	}
}

func TestUnusableConfigRecordsNothingAndSaysWhy(t *testing.T) {
	var got []*Error
	t.Setenv("VIGIL_PROJECT_KEY", "")
	c := New(Options{URL: "ftp://x", OnError: func(e *Error) { got = append(got, e) }})
	c.Trace(context.Background(), Trace{Model: "m"})
	if len(got) != 1 || got[0].Code != CodeConfig || c.Stats().Dropped != 1 {
		t.Fatalf("errors %v stats %+v", got, c.Stats())
	}
	if c.Close() != nil {
		t.Fatal("Close of an unusable client failed")
	}
}

func TestRetryAfterAndBackoff(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if d, ok := parseRetryAfter("1.5", now); !ok || d != 1500*time.Millisecond {
		t.Fatal(d)
	}
	if d, ok := parseRetryAfter("Thu, 01 Jan 2026 00:00:03 GMT", now); !ok || d != 3*time.Second {
		t.Fatal(d)
	}
	if _, ok := parseRetryAfter("-3", now); ok {
		t.Fatal("-3 read as a delay")
	}
	if d := backoff(3, 100*time.Millisecond, time.Hour, func() float64 { return 1 }); d != 800*time.Millisecond {
		t.Fatal(d)
	}
	if d := backoff(40, time.Second, 30*time.Second, func() float64 { return 0 }); d != 15*time.Second {
		t.Fatal(d)
	}
}

func TestAttributesMergeUnderTheTrace(t *testing.T) {
	s := &ingest{}
	c, _ := newTestClient(t, s, Options{})
	ctx := WithAttributes(context.Background(), Attributes{UserID: "u1", Tags: []string{"a"}, Metadata: map[string]any{"k": 1, "j": 1}})
	ctx = WithAttributes(ctx, Attributes{SessionID: "s1", Tags: []string{"b"}})
	c.Trace(ctx, Trace{Model: "m", Tags: []string{"c"}, Metadata: map[string]any{"k": 2}, Err: io.EOF, StartTime: time.Unix(1764000000, 0)})
	_ = c.Flush(context.Background())
	got := s.batches[0][0]
	want := `{"error":"EOF","id":"` + got["id"].(string) + `","metadata":{"j":1,"k":2},"model":"m","session_id":"s1","start_time":"2025-11-24T16:00:00.000Z","status":"error","tags":["a","b","c"],"user_id":"u1"}`
	if jsonOf(got) != want {
		t.Fatalf("item\n%s\nwant\n%s", jsonOf(got), want)
	}
}

func TestOversizeItemIsTruncatedWithMarkers(t *testing.T) {
	item, err := encodeItem(Trace{ID: "x", Model: "m", Input: strings.Repeat("é", 5000)}.wire(false), 2000)
	if err != nil || len(item.json) > 2000 || !strings.Contains(string(item.json), `"truncated":true`) {
		t.Fatalf("%d bytes: %s", len(item.json), item.json[:200])
	}
	var back map[string]any
	if json.Unmarshal(item.json, &back) != nil {
		t.Fatal("not JSON")
	}
}
