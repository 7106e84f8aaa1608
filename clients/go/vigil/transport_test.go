package vigil

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const chatAnswer = `{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Paris."}}],"usage":{"prompt_tokens":21,"completion_tokens":7,"total_tokens":28,"prompt_tokens_details":{"cached_tokens":5}}}`

func TestTransportRecordsAChatCompletionUnchanged(t *testing.T) {
	openai := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "req_1")
		_, _ = io.WriteString(w, chatAnswer)
	}))
	defer openai.Close()
	s := &ingest{}
	c, _ := newTestClient(t, s, Options{})
	hc := &http.Client{Transport: c.Transport(nil)}
	ctx := WithAttributes(context.Background(), Attributes{UserID: "u1"})
	req, _ := http.NewRequestWithContext(ctx, "POST", openai.URL+"/v1/chat/completions",
		strings.NewReader(`{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Capital of France?"}],"temperature":0.2}`))
	res, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(body) != chatAnswer {
		t.Fatalf("the application read %q", body)
	}
	waitSent(t, c, 1)
	got := jsonOf(s.batches[0][0])
	for _, want := range []string{`"model":"gpt-4o-mini-2024-07-18"`, `"provider":"openai"`, `"name":"openai.chat.completions"`,
		`"tokens":{"cache_read":5,"input":21,"output":7,"total":28}`, `"input":[{"content":"Capital of France?","role":"user"}]`,
		`"output":{"content":"Paris.","role":"assistant"}`, `"parameters":{"temperature":0.2}`, `"request_id":"req_1"`, `"user_id":"u1"`, `"status":"ok"`} {
		if !strings.Contains(got, want) {
			t.Fatalf("item lacks %s:\n%s", want, got)
		}
	}
}

func waitSent(t *testing.T, c *Client, n int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for c.Stats().Sent < n {
		_ = c.Flush(context.Background())
		if time.Now().After(deadline) {
			t.Fatalf("stats %+v", c.Stats())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestTransportTeesAStreamWithoutReadingAhead(t *testing.T) {
	next := make(chan struct{})
	chunks := []string{
		`{"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{"role":"assistant","content":"Par"}}]}`,
		`{"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{"content":"is."},"finish_reason":"stop"}]}`,
		`{"model":"gpt-4o-mini-2024-07-18","choices":[],"usage":{"prompt_tokens":19,"completion_tokens":3,"total_tokens":22}}`,
	}
	openai := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, c := range chunks {
			_, _ = io.WriteString(w, "data: "+c+"\n\n")
			w.(http.Flusher).Flush()
			// The next chunk is written only once the application has read this one: a transport that read ahead
			// of the application would wait here for ever.
			<-next
		}
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	}))
	defer openai.Close()
	s := &ingest{}
	c, _ := newTestClient(t, s, Options{})
	hc := &http.Client{Transport: c.Transport(nil)}
	res, err := hc.Post(openai.URL+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"gpt-4o-mini","stream":true,"stream_options":{"include_usage":true},"messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(res.Body)
	var read []string
	for lines.Scan() {
		if line := lines.Text(); strings.HasPrefix(line, "data: {") {
			read = append(read, strings.TrimPrefix(line, "data: "))
			next <- struct{}{}
		}
	}
	res.Body.Close()
	if strings.Join(read, "\n") != strings.Join(chunks, "\n") {
		t.Fatalf("the application read %v", read)
	}
	waitSent(t, c, 1)
	got := jsonOf(s.batches[0][0])
	for _, want := range []string{`"output":{"content":"Paris.","role":"assistant"}`, `"tokens":{"input":19,"output":3,"total":22}`,
		`"finish_reason":"stop"`, `"stream":true`, `"time_to_first_chunk_ms":`} {
		if !strings.Contains(got, want) {
			t.Fatalf("item lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, "stream_left_early") {
		t.Fatalf("a stream read to [DONE] was marked left early: %s", got)
	}
}

func TestTransportRecordsErrorsAndPassesOtherRequests(t *testing.T) {
	openai := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/models" {
			_, _ = io.WriteString(w, `{"data":[]}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(429)
		_, _ = io.WriteString(w, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`)
	}))
	defer openai.Close()
	s := &ingest{}
	c, _ := newTestClient(t, s, Options{})
	hc := &http.Client{Transport: c.Transport(nil)}
	res, err := hc.Get(openai.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.ReadAll(res.Body)
	res.Body.Close()
	res, err = hc.Post(openai.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"gpt-4o","messages":[]}`))
	if err != nil || res.StatusCode != 429 {
		t.Fatal(err, res.StatusCode)
	}
	_, _ = io.ReadAll(res.Body)
	res.Body.Close()
	_, err = hc.Post("http://127.0.0.1:1/v1/embeddings", "application/json", strings.NewReader(`{"model":"text-embedding-3-small","input":"x"}`))
	if err == nil {
		t.Fatal("a dead endpoint answered")
	}
	waitSent(t, c, 2)
	rateLimited, failed := jsonOf(s.batches[0][0]), ""
	if len(s.batches) > 1 {
		failed = jsonOf(s.batches[1][0])
	} else {
		failed = jsonOf(s.batches[0][1])
	}
	if strings.Contains(rateLimited, "embeddings") {
		rateLimited, failed = failed, rateLimited
	}
	for _, want := range []string{`"status":"error"`, `"error":"HTTP 429: Rate limit reached"`, `"http_status":429`, `"error_code":"rate_limit_exceeded"`, `"model":"gpt-4o"`} {
		if !strings.Contains(rateLimited, want) {
			t.Fatalf("item lacks %s:\n%s", want, rateLimited)
		}
	}
	if !strings.Contains(failed, `"status":"error"`) || !strings.Contains(failed, `"name":"openai.embeddings"`) || !strings.Contains(failed, "connect") {
		t.Fatalf("transport error item: %s", failed)
	}
	if c.Stats().Sent != 2 {
		t.Fatalf("the /v1/models request was recorded: %+v", c.Stats())
	}
}

func TestTransportRecordsResponsesAndEmbeddings(t *testing.T) {
	answers := map[string]string{
		"/v1/responses":  `{"id":"resp_1","object":"response","status":"completed","model":"gpt-4o-mini-2024-07-18","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Paris."}]}],"usage":{"input_tokens":12,"input_tokens_details":{"cached_tokens":4},"output_tokens":6,"total_tokens":18}}`,
		"/v1/embeddings": `{"object":"list","model":"text-embedding-3-small","data":[{"index":0,"embedding":[0.25,-0.5,0.125]}],"usage":{"prompt_tokens":4,"total_tokens":4}}`,
	}
	openai := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, answers[r.URL.Path])
	}))
	defer openai.Close()
	s := &ingest{}
	c, _ := newTestClient(t, s, Options{BatchSize: 1})
	hc := &http.Client{Transport: c.Transport(nil)}
	for path, body := range map[string]string{
		"/v1/responses":  `{"model":"gpt-4o-mini","instructions":"Be brief.","input":"Capital of France?"}`,
		"/v1/embeddings": `{"model":"text-embedding-3-small","input":["Where is my order?"]}`,
	} {
		res, err := hc.Post(openai.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.ReadAll(res.Body)
		res.Body.Close()
	}
	waitSent(t, c, 2)
	var responses, embeddings string
	for _, b := range s.batches {
		for _, item := range b {
			if item["name"] == "openai.responses" {
				responses = jsonOf(item)
			} else {
				embeddings = jsonOf(item)
			}
		}
	}
	for _, want := range []string{`"output":"Paris."`, `"tokens":{"cache_read":4,"input":12,"output":6,"total":18}`,
		`"input":{"input":"Capital of France?","instructions":"Be brief."}`, `"response_status":"completed"`} {
		if !strings.Contains(responses, want) {
			t.Fatalf("responses item lacks %s:\n%s", want, responses)
		}
	}
	for _, want := range []string{`"output":{"dimensions":3,"embeddings":1}`, `"tokens":{"input":4,"total":4}`, `"name":"openai.embeddings"`} {
		if !strings.Contains(embeddings, want) {
			t.Fatalf("embeddings item lacks %s:\n%s", want, embeddings)
		}
	}
}
