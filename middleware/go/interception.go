package vigil

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The interception (middleware/core/interception.ts): the decision first, before anything is wrapped, so a route
// that captures nothing costs one cache lookup and allocates nothing. Otherwise the request body is copied as the
// handler reads it and the response as the handler writes it, each into a bounded buffer; no byte is held, delayed
// or changed. When the handler returns, the exchange goes to governance in the background.

const clientAborted = "client_aborted"

func (a *Agent) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	if a.closed.Load() {
		next.ServeHTTP(w, r)
		return
	}
	target := r.RequestURI
	if target == "" {
		target = r.URL.RequestURI()
	}
	// Node reads the request line one character per byte; the TypeScript engine decides on that.
	target = latin1(target)
	d := a.decide(r.Method, target)
	if d == nil || d.capturesNothing() {
		next.ServeHTTP(w, r)
		return
	}
	x := &interception{agent: a, decision: d, target: target, req: r, started: time.Now()}
	if d.captureHeaders || len(d.labels) > 0 {
		x.wire = takeHead(r)
	}
	x.watch = &watchedWriter{ResponseWriter: w, x: x}
	if d.captureRequestBody && r.Body != nil && r.Body != http.NoBody {
		x.originalBody = r.Body
		x.body = &teeBody{ReadCloser: r.Body, x: x}
		r.Body = x.body
	} else {
		x.requestEnded = true
	}
	completed := false
	defer func() {
		if !completed {
			// The handler panicked (net/http aborts the connection): the exchange ends without a whole answer.
			x.err = clientAborted
			x.finish()
		}
	}()
	next.ServeHTTP(x.writer(), r)
	completed = true
	x.finish()
}

// decide is the policy's decision, or nil (reported) should deciding fail: the request then goes on uncaptured.
func (a *Agent) decide(method, target string) (d *routeDecision) {
	defer func() {
		if r := recover(); r != nil {
			d = nil
			a.report(errors.New("vigil: deciding " + method + " " + target + " failed: " + toString(r)))
		}
	}()
	return a.policy.decide(method, target)
}

type interception struct {
	agent        *Agent
	decision     *routeDecision
	target       string
	req          *http.Request
	started      time.Time
	watch        *watchedWriter
	body         *teeBody
	requestCopy  *boundedCopy
	responseCopy *boundedCopy
	requestEnded bool
	err          string
	// What the response's head was, when it was written.
	status      int
	head        http.Header
	wroteHeader bool
	flushed     bool
	written     int
	needSniff   bool      // the head has no Content-Type: net/http sniffs one from the first 512 bytes
	wire        *wireHead // the request's head as it came, when the app serves with Listener and ConnContext
	// The body net/http gave the request: put back before the server sees the request again, since it decides by
	// the body's type whether to read off what the handler left (and whether to close the connection).
	originalBody io.ReadCloser
	sniff        []byte
}

// teeBody copies the request body as the handler reads it.
type teeBody struct {
	io.ReadCloser
	x *interception
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	if n > 0 {
		x := t.x
		if x.requestCopy == nil {
			x.requestCopy = newBoundedCopy(x.agent.maxBodyBytes, declaredLength(x.req.ContentLength), x.agent.budget)
		}
		x.requestCopy.push(p[:n])
	}
	if err == io.EOF {
		t.x.requestEnded = true
	}
	return n, err
}

func declaredLength(n int64) int {
	if n >= 0 && n < 1<<31 {
		return int(n)
	}
	return -1
}

// watchedWriter copies what the handler writes; Flush, Hijack and Push keep working through it.
type watchedWriter struct {
	http.ResponseWriter
	x *interception
}

func (w *watchedWriter) WriteHeader(status int) {
	x := w.x
	if !x.wroteHeader && status >= 100 && status <= 199 && status != 101 {
		w.ResponseWriter.WriteHeader(status) // an informational head; the final one comes later
		return
	}
	if !x.wroteHeader {
		x.wroteHeader = true
		x.status = status
		if x.decision.captureHeaders {
			x.head = w.ResponseWriter.Header().Clone()
			_, typed := x.head["Content-Type"]
			x.needSniff = !typed
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *watchedWriter) Write(p []byte) (int, error) {
	x := w.x
	if !x.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	n, err := w.ResponseWriter.Write(p)
	if n > 0 {
		if x.needSniff && x.written < 512 {
			x.sniff = append(x.sniff, p[:min(n, 512-x.written)]...)
		}
		x.written += n
		if x.decision.captureResponseBody && mayHaveBody(x.req.Method, x.status) {
			if x.responseCopy == nil {
				cl := int64(-1)
				if v := x.headerValue("Content-Length"); v != "" {
					cl, _ = strconv.ParseInt(v, 10, 64)
				}
				x.responseCopy = newBoundedCopy(x.agent.maxBodyBytes, declaredLength(cl), x.agent.budget)
			}
			x.responseCopy.push(p[:n])
		}
	}
	return n, err
}

func (x *interception) headerValue(name string) string {
	if x.head != nil {
		return x.head.Get(name)
	}
	return x.watch.ResponseWriter.Header().Get(name)
}

func (w *watchedWriter) Flush() {
	if !w.x.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	w.x.flushed = true
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *watchedWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("vigil: the underlying http.ResponseWriter does not implement http.Hijacker")
	}
	w.x.err = "hijacked"
	return h.Hijack()
}

func (w *watchedWriter) Push(target string, opts *http.PushOptions) error {
	if p, ok := w.ResponseWriter.(http.Pusher); ok {
		return p.Push(target, opts)
	}
	return http.ErrNotSupported
}

// Unwrap lets http.ResponseController (Go 1.20) reach the server's writer.
func (w *watchedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// CloseNotify keeps the deprecated http.CloseNotifier working for handlers that still use it.
func (w *watchedWriter) CloseNotify() <-chan bool {
	return w.ResponseWriter.(http.CloseNotifier).CloseNotify()
}

// writer is the wrapper with exactly the optional interfaces the server's writer has (HTTP/1: Flusher, Hijacker,
// CloseNotifier; HTTP/2: Flusher, Pusher, CloseNotifier), so a handler's type assertions answer as they would
// without the middleware.
func (x *interception) writer() http.ResponseWriter {
	w := x.watch
	_, f := w.ResponseWriter.(http.Flusher)
	_, h := w.ResponseWriter.(http.Hijacker)
	_, p := w.ResponseWriter.(http.Pusher)
	_, c := w.ResponseWriter.(http.CloseNotifier)
	type rw = http.ResponseWriter
	switch {
	case f && h && !p && c:
		return struct {
			rw
			http.Flusher
			http.Hijacker
			http.CloseNotifier
		}{w, w, w, w}
	case f && !h && p && c:
		return struct {
			rw
			http.Flusher
			http.Pusher
			http.CloseNotifier
		}{w, w, w, w}
	case f && h && p && c:
		return struct{ *watchedWriter }{w}
	case f && h:
		return struct {
			rw
			http.Flusher
			http.Hijacker
		}{w, w, w}
	case f && p:
		return struct {
			rw
			http.Flusher
			http.Pusher
		}{w, w, w}
	case f:
		return struct {
			rw
			http.Flusher
		}{w, w}
	}
	return struct{ rw }{w}
}

// mayHaveBody: HEAD responses and 204 / 304 never carry a body.
func mayHaveBody(method string, status int) bool {
	return method != http.MethodHead && status != 204 && status != 304
}

// finish builds the exchange the gateway's proxy would publish and hands it to governance. Never panics into the app.
func (x *interception) finish() {
	defer func() {
		if r := recover(); r != nil {
			if x.requestCopy != nil {
				x.requestCopy.release()
			}
			if x.responseCopy != nil {
				x.responseCopy.release()
			}
			x.agent.report(errors.New("vigil: interception failed: " + strings.TrimSpace(toString(r))))
		}
	}()
	a := x.agent
	d := x.decision
	r := x.req
	if d.captureRequestBody && !x.requestEnded && x.body != nil {
		x.readRest()
	}
	if x.originalBody != nil {
		r.Body = x.originalBody
	}
	status := x.status
	if !x.wroteHeader && x.err == "" {
		status = http.StatusOK // net/http answers 200 for a handler that wrote nothing
	}
	if x.err == "hijacked" {
		status = 0
		x.err = ""
	}
	if d.captureHeaders && x.head == nil && status != 0 {
		// The handler wrote nothing: net/http sends the header map as it is now (read here, while it is the handler's).
		x.head = x.watch.ResponseWriter.Header().Clone()
	}
	e := &rawExchange{
		time: x.started.UnixMilli(), method: r.Method, target: x.target,
		path: receivedPath(x.target), status: status, durationMs: float64(time.Since(x.started).Nanoseconds()) / 1e6, err: x.err,
	}
	if x.requestCopy != nil {
		requestIncomplete := !x.requestEnded
		e.requestTruncated = x.requestCopy.truncated || (requestIncomplete && !x.requestCopy.dropped)
		e.requestIncomplete = requestIncomplete
		e.requestBodyDropped = x.requestCopy.dropped
		e.requestBody = x.requestCopy.handOver()
		e.heldBytes += x.requestCopy.held
	} else if d.captureRequestBody {
		e.requestBody = []byte{}
	}
	responseEnded := x.err == ""
	if x.responseCopy != nil {
		e.responseTruncated = x.responseCopy.truncated || (!responseEnded && !x.responseCopy.dropped)
		e.responseIncomplete = !responseEnded
		e.responseBodyDropped = x.responseCopy.dropped
		e.responseBody = x.responseCopy.handOver()
		e.heldBytes += x.responseCopy.held
	} else if d.captureResponseBody {
		e.responseBody = []byte{}
	}
	x.requestCopy, x.responseCopy = nil, nil
	a.captured.Add(1)
	// The rest is built by the governing goroutine, off the request's: the id, and the header lists (net/http does
	// not reuse a Request or the heads cloned above).
	a.governance.push(e, d, func() {
		e.id = uuidv7(e.time)
		if d.captureHeaders || len(d.labels) > 0 {
			list := requestHeaderList(r)
			if x.wire != nil {
				list = x.wire.fields()
			}
			if d.captureHeaders {
				e.requestHeaders = list
				e.responseHeaders = x.sentResponseHeaders(status)
			}
			if len(d.labels) > 0 {
				e.labels = extractLabels(d, list)
			}
		}
	})
}

// maxPostHandlerReadBytes is what net/http reads off itself of a body its handler left (server.go); past it, it
// closes the connection instead.
const maxPostHandlerReadBytes = 256 << 10

// readRest reads what the handler left of a request body it captures, when net/http would read it off anyway to
// reuse the connection (a declared length, less than its bound left, no 100-continue still owed): the answer is
// the same, and the record holds what the gateway would have seen. Otherwise the body stays as far as the handler
// read it, marked incomplete.
func (x *interception) readRest() {
	r := x.req
	copied := int64(0)
	if x.requestCopy != nil {
		copied = int64(len(x.requestCopy.buffer))
	}
	left := r.ContentLength - copied
	if r.ContentLength < 0 || left >= maxPostHandlerReadBytes || (copied == 0 && r.Header.Get("Expect") != "") {
		return
	}
	buf := make([]byte, 4096)
	for {
		_, err := x.body.Read(buf)
		if err != nil {
			return
		}
	}
}

func toString(v any) string {
	if err, ok := v.(error); ok {
		return err.Error()
	}
	if s, ok := v.(string); ok {
		return s
	}
	return "panic"
}

// requestHeaderList is the request's header block as flat name, value pairs, as Node's rawHeaders gives it as far
// as net/http keeps it: Host first (net/http moves it to Request.Host), then the fields in the order net/http
// writes them (sorted by name; the order on the wire is not kept), each name canonical, values in arrival order.
func requestHeaderList(r *http.Request) []string {
	out := make([]string, 0, 2*len(r.Header)+4)
	if r.Host != "" {
		out = append(out, "Host", latin1(r.Host))
	}
	out = appendSorted(out, r.Header, nil)
	if len(r.TransferEncoding) > 0 {
		out = append(out, "Transfer-Encoding", strings.Join(r.TransferEncoding, ", "))
	}
	return out
}

func appendSorted(out []string, h http.Header, skip func(string) bool) []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if skip != nil && skip(k) {
			continue
		}
		for _, v := range h[k] {
			out = append(out, k, latin1(v))
		}
	}
	return out
}

var hopByHop = map[string]bool{"connection": true, "keep-alive": true, "proxy-connection": true, "te": true, "trailer": true, "transfer-encoding": true, "upgrade": true}

// sentResponseHeaders is the response head as net/http wrote it (the handler's fields in net/http's order, then
// the Date, Content-Length and Content-Type it adds itself), less the hop-by-hop fields: what the gateway records
// of an upstream's answer (gateway/exchange/response-headers.ts).
func (x *interception) sentResponseHeaders(status int) []string {
	if status == 0 {
		return nil
	}
	h := x.head
	listed := map[string]bool{}
	for _, v := range h.Values("Connection") {
		for _, t := range strings.Split(v, ",") {
			if name := strings.ToLower(strings.TrimSpace(t)); name != "" && name != "close" && name != "keep-alive" && name != "host" && name != "content-length" {
				listed[name] = true
			}
		}
	}
	out := appendSorted(make([]string, 0, 2*len(h)+6), h, func(k string) bool {
		lower := strings.ToLower(k)
		return hopByHop[lower] || listed[lower]
	})
	if _, set := h["Date"]; !set {
		out = append(out, "Date", x.started.UTC().Format(http.TimeFormat))
	}
	bodyAllowed := status != 204 && status != 304 && !(status >= 100 && status < 200)
	if _, set := h["Content-Length"]; !set && bodyAllowed && !x.flushed && x.written <= 2048 && !hasTransferEncoding(h) &&
		(x.req.Method != http.MethodHead || x.written > 0) {
		out = append(out, "Content-Length", strconv.Itoa(x.written))
	}
	if _, set := h["Content-Type"]; !set && bodyAllowed && x.written > 0 && h.Get("Transfer-Encoding") == "" {
		out = append(out, "Content-Type", http.DetectContentType(x.sniff))
	}
	return out
}

func hasTransferEncoding(h http.Header) bool { return h.Get("Transfer-Encoding") != "" }
