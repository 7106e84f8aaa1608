package vigil

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Version is this client's version, sent in its User-Agent.
const Version = "0.1.0"

// outcomeKind says what an answer means for the batch it answers.
type outcomeKind int

const (
	accepted outcomeKind = iota
	// retry: a network error, a timeout, 5xx or 429: worth another attempt.
	retry
	// tooLarge: 413, the batch is over the server's body or batch limit.
	tooLarge
	// refused: any other 4xx (or an unexpected status): the same batch cannot succeed.
	refused
)

type itemError struct {
	Index   int    `json:"index"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Path    string `json:"path"`
}

type outcome struct {
	kind       outcomeKind
	accepted   int
	rejected   int
	errors     []itemError
	status     int
	reason     string
	retryAfter time.Duration
	hasRetry   bool
}

// maxAnswerBytes caps how much of an answer is read: enough for any error list the server sends for a batch.
const maxAnswerBytes = 1 << 20

func batchBody(batch []encoded) []byte {
	size := len(`{"traces":[]}`)
	for _, item := range batch {
		size += len(item.json) + 1
	}
	body := make([]byte, 0, size)
	body = append(body, `{"traces":[`...)
	for i, item := range batch {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, item.json...)
	}
	return append(body, "]}"...)
}

// post sends one batch and classifies the answer; ctx cancels the request in flight (the client stopping).
func (c *Client) post(ctx context.Context, batch []encoded) outcome {
	body := batchBody(batch)
	gzipped := false
	if c.o.gzipMinBytes > 0 && len(body) >= c.o.gzipMinBytes {
		// One writer, reset per batch: only the sending goroutine posts, and a new writer allocates its whole window.
		// BestSpeed: trace JSON compresses well at any level, and the CPU is the application's.
		var buf bytes.Buffer
		if c.zw == nil {
			c.zw, _ = gzip.NewWriterLevel(&buf, gzip.BestSpeed)
		} else {
			c.zw.Reset(&buf)
		}
		if _, err := c.zw.Write(body); err == nil && c.zw.Close() == nil {
			body, gzipped = buf.Bytes(), true
		}
	}
	ctx, cancel := context.WithTimeout(ctx, c.o.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.o.endpoint, bytes.NewReader(body))
	if err != nil {
		return outcome{kind: refused, reason: err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Service-Project-Key", c.o.projectKey)
	req.Header.Set("User-Agent", "vigil-llm-client-go/"+Version)
	if gzipped {
		req.Header.Set("Content-Encoding", "gzip")
	}
	res, err := c.o.httpClient.Do(req)
	if err != nil {
		return outcome{kind: retry, reason: err.Error()}
	}
	defer res.Body.Close()
	text, err := io.ReadAll(io.LimitReader(res.Body, maxAnswerBytes))
	if err != nil {
		return outcome{kind: retry, reason: "reading the answer: " + err.Error()}
	}
	return classify(res.StatusCode, res.Header, text, len(batch), time.Now())
}

// serverReason is the server's error from the control plane's {"error": {"code", "message"}} shape, or the raw text.
func serverReason(status int, text []byte) string {
	var body struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	said := ""
	if json.Unmarshal(text, &body) == nil && (body.Error.Code != "" || body.Error.Message != "") {
		said = strings.TrimPrefix(body.Error.Code+": "+body.Error.Message, ": ")
	} else {
		said = strings.TrimSpace(string(text))
		if len(said) > 200 {
			said = said[:200]
		}
	}
	if said == "" {
		return fmt.Sprintf("HTTP %d", status)
	}
	return fmt.Sprintf("HTTP %d: %s", status, said)
}

func classify(status int, header http.Header, text []byte, items int, now time.Time) outcome {
	switch {
	case status >= 200 && status < 300:
		var body struct {
			Accepted *int        `json:"accepted"`
			Rejected *int        `json:"rejected"`
			Errors   []itemError `json:"errors"`
		}
		_ = json.Unmarshal(text, &body)
		o := outcome{kind: accepted, status: status, errors: body.Errors, rejected: len(body.Errors)}
		if body.Rejected != nil {
			o.rejected = *body.Rejected
		}
		o.accepted = items - o.rejected
		if body.Accepted != nil {
			o.accepted = *body.Accepted
		}
		return o
	case status == 429 || status >= 500:
		o := outcome{kind: retry, status: status, reason: serverReason(status, text)}
		o.retryAfter, o.hasRetry = parseRetryAfter(header.Get("Retry-After"), now)
		return o
	case status == 413:
		return outcome{kind: tooLarge, status: status, reason: serverReason(status, text)}
	default:
		return outcome{kind: refused, status: status, reason: serverReason(status, text)}
	}
}
