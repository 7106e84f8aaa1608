package vigil

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"time"
)

// Tokens are a call's token counts. A zero count is not sent (the server then has no count, not a count of 0).
type Tokens struct {
	Input int64 `json:"input,omitempty"`
	// Output tokens; Input counts all input tokens, cached ones included.
	Output int64 `json:"output,omitempty"`
	// CacheRead is the input tokens served from the provider's prompt cache.
	CacheRead int64 `json:"cache_read,omitempty"`
	Total     int64 `json:"total,omitempty"`
}

// PromptTemplate names the template a call's prompt was made from. Raw is the text before variables were filled in:
// Vigil versions templates by the hash of its normalised Raw.
type PromptTemplate struct {
	Name      string         `json:"name"`
	Raw       string         `json:"raw"`
	Variables map[string]any `json:"variables,omitempty"`
}

// Trace is one LLM call, as Client.Trace records it: the wire item of POST /v1/traces. Model is required.
type Trace struct {
	// ID is a UUID; one is assigned when empty. A retried batch carries the same ids, so Vigil stores it once.
	ID       string
	Model    string
	Name     string
	Provider string
	// Status is "ok" or "error"; empty means "error" when Err or ErrorText is set, else unsent (the server reads ok).
	Status string
	// Err, or ErrorText when Err is nil, is the call's failure.
	Err       error
	ErrorText string
	// StartTime is when the call started; zero is not sent.
	StartTime time.Time
	// Latency is the call's duration; zero is not sent.
	Latency time.Duration
	Tokens  *Tokens
	// CostUSD, when nil, is computed by Vigil from its price table.
	CostUSD        *float64
	Input          any
	Output         any
	PromptTemplate *PromptTemplate
	UserID         string
	SessionID      string
	Tags           []string
	Metadata       map[string]any
}

// wireItem is the JSON of a trace item: field names and order as the server's schema has them.
type wireItem struct {
	ID             string          `json:"id"`
	Model          string          `json:"model"`
	Name           string          `json:"name,omitempty"`
	Provider       string          `json:"provider,omitempty"`
	Status         string          `json:"status,omitempty"`
	Error          string          `json:"error,omitempty"`
	StartTime      string          `json:"start_time,omitempty"`
	LatencyMs      *float64        `json:"latency_ms,omitempty"`
	Tokens         *Tokens         `json:"tokens,omitempty"`
	CostUSD        *float64        `json:"cost_usd,omitempty"`
	Input          any             `json:"input,omitempty"`
	Output         any             `json:"output,omitempty"`
	PromptTemplate *PromptTemplate `json:"prompt_template,omitempty"`
	UserID         string          `json:"user_id,omitempty"`
	SessionID      string          `json:"session_id,omitempty"`
	Tags           []string        `json:"tags,omitempty"`
	Metadata       map[string]any  `json:"metadata,omitempty"`
}

// maxErrorChars caps error text: a provider's error can quote the whole request back.
const maxErrorChars = 8192

// newUUID is a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		// crypto/rand does not fail on the platforms Go supports; a time-based id still keeps items apart.
		now := time.Now().UnixNano()
		for i := 0; i < 8; i++ {
			b[i] = byte(now >> (8 * i))
		}
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// withAttributes merges the attributes of the trace's context underneath its own fields: its own win, tags add up,
// metadata merges key by key.
func (t Trace) withAttributes(a *Attributes) Trace {
	if a == nil {
		return t
	}
	if t.Name == "" {
		t.Name = a.Name
	}
	if t.UserID == "" {
		t.UserID = a.UserID
	}
	if t.SessionID == "" {
		t.SessionID = a.SessionID
	}
	if t.PromptTemplate == nil {
		t.PromptTemplate = a.PromptTemplate
	}
	if len(a.Tags) > 0 {
		seen := map[string]bool{}
		tags := make([]string, 0, len(a.Tags)+len(t.Tags))
		for _, list := range [][]string{a.Tags, t.Tags} {
			for _, tag := range list {
				if tag != "" && !seen[tag] {
					seen[tag] = true
					tags = append(tags, tag)
				}
			}
		}
		t.Tags = tags
	}
	if len(a.Metadata) > 0 {
		m := make(map[string]any, len(a.Metadata)+len(t.Metadata))
		for k, v := range a.Metadata {
			m[k] = v
		}
		for k, v := range t.Metadata {
			m[k] = v
		}
		t.Metadata = m
	}
	return t
}

func (t Trace) wire(omitContent bool) wireItem {
	w := wireItem{ID: t.ID, Model: t.Model, Name: t.Name, Provider: t.Provider, Status: t.Status, Tokens: t.Tokens,
		CostUSD: t.CostUSD, PromptTemplate: t.PromptTemplate, UserID: t.UserID, SessionID: t.SessionID, Tags: t.Tags, Metadata: t.Metadata}
	if t.Err != nil {
		w.Error = t.Err.Error()
	} else {
		w.Error = t.ErrorText
	}
	if len(w.Error) > maxErrorChars {
		w.Error = fmt.Sprintf("%s…[truncated %d chars]", w.Error[:maxErrorChars], len(w.Error)-maxErrorChars)
	}
	if w.Status == "" && w.Error != "" {
		w.Status = "error"
	}
	if !t.StartTime.IsZero() {
		w.StartTime = t.StartTime.UTC().Format("2006-01-02T15:04:05.000Z07:00")
	}
	if t.Latency > 0 {
		ms := float64(t.Latency.Microseconds()) / 1000
		w.LatencyMs = &ms
	}
	if t.Tokens != nil && *t.Tokens == (Tokens{}) {
		w.Tokens = nil
	}
	if !omitContent {
		w.Input, w.Output = t.Input, t.Output
	}
	return w
}

// encoded is one trace item as the JSON text that goes into a batch: encoded once, when recorded, so the buffer counts
// exact bytes and a retried batch is re-sent without serialising again.
type encoded struct {
	json []byte
}

// truncatedValue stands in for an input, output or metadata too large for MaxItemBytes.
type truncatedValue struct {
	Truncated bool   `json:"truncated"`
	Bytes     int    `json:"bytes"`
	Preview   string `json:"preview"`
}

const previewChars = 1024

func marker(v any) truncatedValue {
	b, _ := json.Marshal(v)
	p := string(b)
	if len(p) > previewChars {
		p = p[:previewChars]
		// Cut on a rune boundary: a preview must stay valid UTF-8.
		for len(p) > 0 && !validTail(p) {
			p = p[:len(p)-1]
		}
	}
	return truncatedValue{Truncated: true, Bytes: len(b), Preview: p}
}

func validTail(s string) bool {
	c := s[len(s)-1]
	if c < 0x80 {
		return true
	}
	// Walk back to the lead byte and check that the sequence it starts is complete.
	i := len(s) - 1
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	lead := s[i]
	need := 1
	switch {
	case lead&0xE0 == 0xC0:
		need = 2
	case lead&0xF0 == 0xE0:
		need = 3
	case lead&0xF8 == 0xF0:
		need = 4
	}
	return len(s)-i == need
}

// encodeItem is the item's JSON within maxBytes: when it is over, input, output and metadata are replaced by
// truncation markers (model, tokens, ids and timings are never cut). A value that cannot be encoded (a channel, a
// cycle) is replaced the same way.
func encodeItem(w wireItem, maxBytes int) (encoded, error) {
	b, err := json.Marshal(w)
	if err == nil && len(b) <= maxBytes {
		return encoded{json: b}, nil
	}
	if w.Input != nil {
		w.Input = marker(w.Input)
	}
	if w.Output != nil {
		w.Output = marker(w.Output)
	}
	if w.Metadata != nil {
		w.Metadata = map[string]any{"truncated": true, "bytes": marker(w.Metadata).Bytes}
	}
	if w.PromptTemplate != nil && w.PromptTemplate.Variables != nil {
		t := *w.PromptTemplate
		t.Variables = map[string]any{"truncated": true}
		w.PromptTemplate = &t
	}
	b, err = json.Marshal(w)
	if err != nil {
		return encoded{}, err
	}
	if len(b) > maxBytes && w.PromptTemplate != nil {
		// A template's raw text is never cut (Vigil versions it by its hash): one too large is left out instead.
		w.PromptTemplate = nil
		b, err = json.Marshal(w)
	}
	return encoded{json: b}, err
}
