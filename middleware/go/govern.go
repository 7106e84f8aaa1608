package vigil

import (
	"fmt"
	"strings"
)

// Governance of one exchange (gateway/govern/govern.ts): headers, query parameters and JSON fields redacted,
// labels attached, bodies sampled, tokens metered, detectors last. Nothing unredacted is returned; a failure keeps
// metadata only.

// rawExchange is what the interception hands governance (gateway/exchange/raw-exchange.ts).
type rawExchange struct {
	id              string
	time            int64 // epoch ms, request start
	method          string
	target          string // raw request-target, query included
	path            string
	labels          *jsObject
	requestHeaders  []string // flat name, value…; nil when headers are restricted
	responseHeaders []string
	status          int
	durationMs      float64
	// nil when the decision captures no such body; empty when it does and there was none.
	requestBody         []byte
	requestTruncated    bool
	responseBody        []byte
	responseTruncated   bool
	requestIncomplete   bool
	responseIncomplete  bool
	requestBodyDropped  bool
	responseBodyDropped bool
	heldBytes           int
	err                 string // "" when none
}

// storableRecord is a governed record whose bodies are JSON text (gateway/records/governed-record.ts).
type storableRecord struct {
	id              string
	time            int64
	method          string
	path            string
	route           []string
	query           *jsObject
	status          int
	durationMs      float64
	headers         *jsObject
	responseHeaders *jsObject
	requestBody     string
	responseBody    string
	labels          *jsObject
	matchedRules    []string
	tokens          float64
	hasTokens       bool
	sampled         bool
	truncated       bool
	partial         bool
	droppedReason   string
	hasDropped      bool
	err             string
}

const overBudget = "not copied: the capture lane held capture.queue_bytes of bodies already"

type governOptions struct {
	random          func() float64
	maxDecodedBytes int
}

// governForStorage turns a raw exchange into the record that may be stored.
func governForStorage(e *rawExchange, d *routeDecision, o governOptions) (record *storableRecord) {
	defer func() {
		if r := recover(); r != nil {
			record = metadataOnly(e, d, fmt.Sprint(r))
		}
	}()
	record = governOrPanic(e, d, o)
	if len(d.detect) != 0 {
		record = maskDetected(record, d.detect)
	}
	return record
}

func metadataOnly(e *rawExchange, d *routeDecision, why string) *storableRecord {
	path := e.path
	if len(d.detect) != 0 {
		path = redactText(path, d.detect)
	}
	return &storableRecord{
		id: e.id, time: e.time, method: e.method, path: path, route: append([]string{}, d.routes...), query: newJSObject(),
		status: e.status, durationMs: e.durationMs, requestBody: "null", responseBody: "null", labels: newJSObject(),
		matchedRules:  append([]string{}, d.matchedRules...),
		droppedReason: "governance failed (" + why + "); only metadata was kept", hasDropped: true, err: e.err,
	}
}

func governOrPanic(e *rawExchange, d *routeDecision, o governOptions) *storableRecord {
	maxDecoded := o.maxDecodedBytes
	if maxDecoded <= 0 {
		maxDecoded = defaultMaxDecodedBytes
	}
	status := e.status
	isError := status == 0 || status >= 500
	var rolled bool
	switch {
	case d.sample >= 1:
		rolled = true
	case d.sample <= 0:
		rolled = false
	default:
		rolled = o.random() < d.sample
	}
	keepBodies := rolled || (d.keepErrors && isError)

	captureRequest := d.captureRequestBody && e.requestBody != nil
	captureResponse := d.captureResponseBody && e.responseBody != nil
	needTokens := d.meterTokens != nil
	base := decodeOptions{jsonRequired: len(d.jsonFields) > 0, maxDecodedBytes: maxDecoded, redact: d.jsonFields, read: d.meterTokens}
	decodeWanted := keepBodies || needTokens

	requestIncomplete := captureRequest && e.requestIncomplete
	responseIncomplete := captureResponse && e.responseIncomplete
	requestTruncated := e.requestTruncated || requestIncomplete
	responseTruncated := e.responseTruncated || responseIncomplete
	var reasons []string
	requestDropped := captureRequest && e.requestBodyDropped
	responseDropped := captureResponse && e.responseBodyDropped
	request := decodedBody{kind: bodyEmpty}
	if captureRequest && !requestDropped && decodeWanted {
		opts := base
		opts.incomplete = requestIncomplete
		request = decodeBody(e.requestBody, e.requestHeaders, e.requestHeaders != nil, requestTruncated, opts)
	}
	response := decodedBody{kind: bodyEmpty}
	if captureResponse && !responseDropped && decodeWanted {
		opts := base
		opts.incomplete = responseIncomplete
		response = decodeBody(e.responseBody, e.responseHeaders, e.responseHeaders != nil, responseTruncated, opts)
	}
	if keepBodies && request.kind == bodyDropped {
		reasons = append(reasons, "request_body: "+request.text)
	}
	if keepBodies && requestDropped {
		reasons = append(reasons, "request_body: "+overBudget)
	}
	if keepBodies && response.kind == bodyDropped {
		reasons = append(reasons, "response_body: "+response.text)
	}
	if keepBodies && responseDropped {
		reasons = append(reasons, "response_body: "+overBudget)
	}

	r := &storableRecord{
		id: e.id, time: e.time, method: e.method, path: e.path, route: append([]string{}, d.routes...),
		query: queryToRecord(e.target, d.redactQuery), status: status, durationMs: e.durationMs,
		requestBody: "null", responseBody: "null", labels: governLabels(e.labels, d),
		matchedRules: append([]string{}, d.matchedRules...), sampled: keepBodies,
		truncated: (captureRequest && requestTruncated) || (captureResponse && responseTruncated),
		partial:   requestIncomplete || responseIncomplete, err: e.err,
	}
	if response.kind == bodyJSON && response.hasNumber {
		r.tokens, r.hasTokens = response.number, true
	} else if request.kind == bodyJSON && request.hasNumber {
		r.tokens, r.hasTokens = request.number, true
	}
	if d.captureHeaders && e.requestHeaders != nil {
		r.headers = headersToRecord(e.requestHeaders, d.redactHeaders)
	}
	if d.captureHeaders && e.responseHeaders != nil {
		r.responseHeaders = headersToRecord(e.responseHeaders, d.redactHeaders)
	}
	if keepBodies {
		r.requestBody = bodyJSONText(request)
		r.responseBody = bodyJSONText(response)
	}
	if len(reasons) > 0 {
		r.droppedReason, r.hasDropped = strings.Join(reasons, "; "), true
	}
	return r
}

func bodyJSONText(b decodedBody) string {
	switch b.kind {
	case bodyJSON:
		return b.text
	case bodyText:
		return jsString(b.text)
	}
	return "null"
}

// governLabels: a label read from a redacted header holds the marker.
func governLabels(labels *jsObject, d *routeDecision) *jsObject {
	out := newJSObject()
	if labels != nil {
		for _, k := range labels.keys {
			out.set(k, labels.values[k])
		}
	}
	if len(d.redactHeaders) != 0 {
		for _, l := range d.labels {
			if out.has(l.name) && d.redactHeaders[l.header] {
				out.values[l.name] = redacted
			}
		}
	}
	return out
}

// extractLabels: label values from the request headers (first value of each, case-insensitive names).
func extractLabels(d *routeDecision, raw []string) *jsObject {
	out := newJSObject()
	for _, l := range d.labels {
		for i := 0; i+1 < len(raw); i += 2 {
			if len(raw[i]) == len(l.header) && jsLower(raw[i]) == l.header {
				out.set(l.name, raw[i+1])
				break
			}
		}
	}
	return out
}

// recordJSON is the record's JSON text exactly as the TypeScript engine's recordJson writes it.
func recordJSON(r *storableRecord) []byte {
	b := make([]byte, 0, 512+len(r.requestBody)+len(r.responseBody))
	b = append(b, `{"id":`...)
	b = appendJSString(b, r.id)
	b = append(b, `,"time":`...)
	b = appendJSNumber(b, float64(r.time))
	b = append(b, `,"method":`...)
	b = appendJSString(b, r.method)
	b = append(b, `,"path":`...)
	b = appendJSString(b, r.path)
	b = append(b, `,"route":`...)
	b = appendJSValue(b, r.route)
	b = append(b, `,"query":`...)
	b = appendJSValue(b, r.query)
	b = append(b, `,"status":`...)
	b = appendJSNumber(b, float64(r.status))
	b = append(b, `,"duration_ms":`...)
	b = appendJSNumber(b, r.durationMs)
	b = append(b, `,"headers":`...)
	b = appendJSValue(b, r.headers)
	b = append(b, `,"response_headers":`...)
	b = appendJSValue(b, r.responseHeaders)
	b = append(b, `,"request_body":`...)
	b = appendOneLine(b, r.requestBody)
	b = append(b, `,"response_body":`...)
	b = appendOneLine(b, r.responseBody)
	b = append(b, `,"labels":`...)
	b = appendJSValue(b, r.labels)
	b = append(b, `,"matched_rules":`...)
	b = appendJSValue(b, r.matchedRules)
	b = append(b, `,"tokens":`...)
	if r.hasTokens {
		b = appendJSNumber(b, r.tokens)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"sampled":`...)
	b = appendJSValue(b, r.sampled)
	b = append(b, `,"truncated":`...)
	b = appendJSValue(b, r.truncated)
	b = append(b, `,"partial":`...)
	b = appendJSValue(b, r.partial)
	b = append(b, `,"dropped_reason":`...)
	if r.hasDropped {
		b = appendJSString(b, r.droppedReason)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"error":`...)
	if r.err != "" {
		b = appendJSString(b, r.err)
	} else {
		b = append(b, "null"...)
	}
	return append(b, '}')
}

// appendOneLine: a body's JSON text on one line (a raw CR or LF in valid JSON is whitespace between tokens).
func appendOneLine(b []byte, json string) []byte {
	for i := 0; i < len(json); i++ {
		c := json[i]
		if c == '\n' || c == '\r' {
			c = ' '
		}
		b = append(b, c)
	}
	return b
}
