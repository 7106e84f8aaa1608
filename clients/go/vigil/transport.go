package vigil

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// maxCapture bounds what the Transport copies of one request or answer body: a call past it is recorded with what fits
// (its stream's last events, usage included, may then be missing; the trace says capture_truncated).
const maxCapture = 8 << 20

// Transport returns an http.RoundTripper that records the calls made through it to OpenAI-compatible endpoints
// (POST …/chat/completions, plain and streamed; …/embeddings; …/responses) and passes every other request through
// untouched. base is the RoundTripper that sends, http.DefaultTransport when nil.
//
// The request and the response reach the application unchanged: the request body is read from a copy (GetBody) or
// as it is sent, and the response body, a stream included, is copied while the application reads it, never ahead of
// it. The trace is recorded, from another goroutine, when the application has read the body to its end or closed it.
// Attributes of the request's context (WithAttributes) apply.
func (c *Client) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &recordingTransport{client: c, base: base}
}

type recordingTransport struct {
	client *Client
	base   http.RoundTripper
}

func (t *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	op := operationOf(req.Method, req.URL.Path)
	if op == "" {
		return t.base.RoundTrip(req)
	}
	start := time.Now()
	sent, capture := requestCopy(req)
	res, err := t.base.RoundTrip(sent)
	call := &observedCall{client: t.client, op: op, req: req, start: start, requestBody: capture}
	if err != nil {
		call.finish(nil, 0, err)
		return res, err
	}
	call.status = res.StatusCode
	call.requestID = res.Header.Get("X-Request-Id")
	call.stream = strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream")
	if res.Body == nil || res.Body == http.NoBody {
		call.finish(nil, 0, nil)
		return res, nil
	}
	res.Body = &observedBody{body: res.Body, call: call}
	return res, nil
}

// requestCopy is the request to send and a way to read its body. With GetBody (bytes, strings and buffers set it) the
// body is read from a fresh copy and the request goes as it is; otherwise a clone is sent whose body is teed, as the
// base transport reads it, into a bounded capture.
func requestCopy(req *http.Request) (*http.Request, func() []byte) {
	if req.Body == nil || req.Body == http.NoBody {
		return req, func() []byte { return nil }
	}
	if req.GetBody != nil {
		return req, func() []byte {
			rc, err := req.GetBody()
			if err != nil {
				return nil
			}
			defer rc.Close()
			b, _ := io.ReadAll(io.LimitReader(rc, maxCapture))
			return b
		}
	}
	tee := &teeBody{body: req.Body}
	clone := req.Clone(req.Context())
	clone.Body = tee
	return clone, tee.bytes
}

// teeBody copies what the base transport reads of a request body, up to maxCapture.
type teeBody struct {
	body io.ReadCloser
	mu   sync.Mutex
	buf  bytes.Buffer
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.body.Read(p)
	if n > 0 {
		t.mu.Lock()
		if room := maxCapture - t.buf.Len(); room > 0 {
			if n < room {
				room = n
			}
			t.buf.Write(p[:room])
		}
		t.mu.Unlock()
	}
	return n, err
}

func (t *teeBody) Close() error { return t.body.Close() }

func (t *teeBody) bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]byte(nil), t.buf.Bytes()...)
}

// observedBody is the response body the application reads: the same bytes, the same errors, at the same moments. It
// keeps a bounded copy and hands it on when the body ends (EOF, an error, or Close).
type observedBody struct {
	body      io.ReadCloser
	call      *observedCall
	buf       bytes.Buffer
	truncated bool
	firstByte time.Duration
	ended     sync.Once
}

func (b *observedBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	if n > 0 {
		if b.firstByte == 0 {
			b.firstByte = time.Since(b.call.start)
		}
		if room := maxCapture - b.buf.Len(); room >= n {
			b.buf.Write(p[:n])
		} else {
			b.truncated = true
		}
	}
	if err == io.EOF {
		b.end(endDone, nil)
	} else if err != nil {
		b.end(endFailed, err)
	}
	return n, err
}

func (b *observedBody) Close() error {
	b.end(endLeft, nil)
	return b.body.Close()
}

func (b *observedBody) end(how endKind, err error) {
	b.ended.Do(func() {
		latency := time.Since(b.call.start)
		body, firstByte, truncated := b.buf.Bytes(), b.firstByte, b.truncated
		// Parsing and encoding happen off the application's goroutine: the read that saw EOF returns at once.
		b.call.client.recording(func() { b.call.record(body, how, err, latency, firstByte, truncated) })
	})
}

type endKind int

const (
	endDone endKind = iota
	endLeft
	endFailed
)

// observedCall is one recorded call, from the request to the end of its answer.
type observedCall struct {
	client      *Client
	op          operation
	req         *http.Request
	start       time.Time
	requestBody func() []byte
	status      int
	requestID   string
	stream      bool
}

// finish records a call that has no body to wait for: a transport error, or an answer without a body.
func (c *observedCall) finish(body []byte, latency time.Duration, err error) {
	if latency == 0 {
		latency = time.Since(c.start)
	}
	how := endDone
	if err != nil {
		how = endFailed
	}
	c.client.recording(func() { c.record(body, how, err, latency, 0, false) })
}

func (c *observedCall) record(body []byte, how endKind, readErr error, latency, firstByte time.Duration, truncated bool) {
	defer func() {
		if r := recover(); r != nil {
			c.client.report(&Error{Code: CodeInternal, Message: "recording an OpenAI-compatible call failed; the call itself went through unchanged"})
		}
	}()
	reqInfo := describeRequest(c.op, c.requestBody())
	t := Trace{Model: reqInfo.model, Name: "openai." + string(c.op), Provider: "openai", StartTime: c.start, Latency: latency, Status: "ok"}
	metadata := map[string]any{"operation": string(c.op)}
	if len(reqInfo.parameters) > 0 {
		metadata["parameters"] = reqInfo.parameters
	}
	if reqInfo.stream {
		metadata["stream"] = true
	}
	if c.requestID != "" {
		metadata["request_id"] = c.requestID
	}
	if reqInfo.input != nil {
		t.Input = reqInfo.input
	}
	var result callResult
	switch {
	case c.status == 0:
		result = callResult{status: "error", errText: readErr.Error(), metadata: map[string]any{}}
		readErr = nil
	case c.status >= 400:
		result = describeErrorAnswer(c.status, body)
	case c.stream:
		var done bool
		if c.op == opResponses {
			result, done = responsesStream(body)
		} else {
			result, done = chatStream(body)
		}
		if firstByte > 0 {
			metadata["time_to_first_chunk_ms"] = float64(firstByte.Microseconds()) / 1000
		}
		if how == endLeft && !done {
			metadata["stream_left_early"] = true
		}
	default:
		result = describeResult(c.op, body)
	}
	if how == endFailed && readErr != nil && result.status != "error" {
		result.status, result.errText = "error", "reading the answer: "+readErr.Error()
	}
	if truncated {
		metadata["capture_truncated"] = true
	}
	for k, v := range result.metadata {
		metadata[k] = v
	}
	if result.model != "" {
		t.Model = result.model
	}
	if t.Model == "" {
		t.Model = "unknown"
	}
	if result.status != "" {
		t.Status = result.status
	}
	t.ErrorText = result.errText
	t.Tokens = result.tokens
	if result.output != nil {
		t.Output = result.output
	}
	t.Metadata = metadata
	c.client.Trace(c.req.Context(), t)
}
