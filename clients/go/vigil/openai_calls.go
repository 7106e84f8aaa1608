package vigil

import (
	"encoding/json"
	"strings"
)

// What a trace keeps of an OpenAI-compatible call: the request as the application sent it and the answer as the server
// gave it. Nothing here changes either; it only reads copies.

type operation string

const (
	opChat       operation = "chat.completions"
	opEmbeddings operation = "embeddings"
	opResponses  operation = "responses"
)

// operationOf is the call a request path names, or "" for a request the Transport passes through unrecorded.
func operationOf(method, path string) operation {
	if method != "POST" {
		return ""
	}
	path = strings.TrimRight(path, "/")
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
		return opChat
	case strings.HasSuffix(path, "/embeddings"):
		return opEmbeddings
	case strings.HasSuffix(path, "/responses"):
		return opResponses
	}
	return ""
}

// callResult is what a trace keeps of the answer.
type callResult struct {
	model    string
	status   string
	errText  string
	tokens   *Tokens
	output   any
	metadata map[string]any
}

type callRequest struct {
	model      string
	stream     bool
	input      json.RawMessage
	parameters map[string]json.RawMessage
}

var inputFields = map[operation][]string{
	opChat:       {"messages"},
	opEmbeddings: {"input"},
	opResponses:  {"input", "instructions"},
}

func describeRequest(op operation, body []byte) callRequest {
	var fields map[string]json.RawMessage
	if json.Unmarshal(body, &fields) != nil {
		return callRequest{}
	}
	r := callRequest{parameters: map[string]json.RawMessage{}}
	_ = json.Unmarshal(fields["model"], &r.model)
	_ = json.Unmarshal(fields["stream"], &r.stream)
	if op == opResponses && fields["instructions"] != nil {
		r.input, _ = json.Marshal(map[string]json.RawMessage{"instructions": fields["instructions"], "input": fields["input"]})
	} else {
		r.input = fields[inputFields[op][0]]
	}
	for k, v := range fields {
		if k == "model" || k == "stream" || contains(inputFields[op], k) {
			continue
		}
		r.parameters[k] = v
	}
	return r
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

type usage struct {
	PromptTokens        *int64 `json:"prompt_tokens"`
	CompletionTokens    *int64 `json:"completion_tokens"`
	TotalTokens         *int64 `json:"total_tokens"`
	InputTokens         *int64 `json:"input_tokens"`
	OutputTokens        *int64 `json:"output_tokens"`
	PromptTokensDetails *struct {
		CachedTokens *int64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	InputTokensDetails *struct {
		CachedTokens *int64 `json:"cached_tokens"`
	} `json:"input_tokens_details"`
}

func first(values ...*int64) int64 {
	for _, v := range values {
		if v != nil && *v > 0 {
			return *v
		}
	}
	return 0
}

// tokensOf reads chat completions' usage (prompt_tokens, completion_tokens, prompt_tokens_details.cached_tokens) and
// the Responses API's (input_tokens, output_tokens, input_tokens_details.cached_tokens); nil when there is none.
func tokensOf(u *usage) *Tokens {
	if u == nil {
		return nil
	}
	t := Tokens{Input: first(u.PromptTokens, u.InputTokens), Output: first(u.CompletionTokens, u.OutputTokens), Total: first(u.TotalTokens)}
	if u.PromptTokensDetails != nil {
		t.CacheRead = first(u.PromptTokensDetails.CachedTokens)
	}
	if u.InputTokensDetails != nil {
		t.CacheRead = first(u.InputTokensDetails.CachedTokens)
	}
	if t == (Tokens{}) {
		return nil
	}
	return &t
}

type chatCompletion struct {
	Model   string `json:"model"`
	Usage   *usage `json:"usage"`
	Choices []struct {
		FinishReason *string         `json:"finish_reason"`
		Message      json.RawMessage `json:"message"`
	} `json:"choices"`
}

func describeChat(body []byte) callResult {
	var v chatCompletion
	if json.Unmarshal(body, &v) != nil {
		return callResult{metadata: map[string]any{"usage_missing": true}}
	}
	r := callResult{model: v.Model, tokens: tokensOf(v.Usage), metadata: map[string]any{}}
	var reasons []string
	messages := make([]json.RawMessage, 0, len(v.Choices))
	for _, c := range v.Choices {
		if c.FinishReason != nil {
			reasons = append(reasons, *c.FinishReason)
		}
		messages = append(messages, c.Message)
	}
	if len(messages) == 1 {
		r.output = messages[0]
	} else if len(messages) > 1 {
		r.output = messages
	}
	setReasons(r.metadata, reasons)
	if r.tokens == nil {
		r.metadata["usage_missing"] = true
	}
	return r
}

func setReasons(metadata map[string]any, reasons []string) {
	if len(reasons) == 1 {
		metadata["finish_reason"] = reasons[0]
	} else if len(reasons) > 1 {
		metadata["finish_reason"] = reasons
	}
}

func describeEmbeddings(body []byte) callResult {
	var v struct {
		Model string `json:"model"`
		Usage *usage `json:"usage"`
		Data  []struct {
			Embedding json.RawMessage `json:"embedding"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &v) != nil {
		return callResult{metadata: map[string]any{"usage_missing": true}}
	}
	out := map[string]any{"embeddings": len(v.Data)}
	if len(v.Data) > 0 {
		var vector []float64
		if json.Unmarshal(v.Data[0].Embedding, &vector) == nil {
			out["dimensions"] = len(vector)
		}
	}
	r := callResult{model: v.Model, tokens: tokensOf(v.Usage), output: out, metadata: map[string]any{}}
	if r.tokens == nil {
		r.metadata["usage_missing"] = true
	}
	return r
}

type response struct {
	Model             string          `json:"model"`
	Status            string          `json:"status"`
	Usage             *usage          `json:"usage"`
	Output            json.RawMessage `json:"output"`
	OutputText        *string         `json:"output_text"`
	IncompleteDetails json.RawMessage `json:"incomplete_details"`
	Error             *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func describeResponseValue(v response) callResult {
	r := callResult{model: v.Model, tokens: tokensOf(v.Usage), metadata: map[string]any{}}
	if v.Status != "" {
		r.metadata["response_status"] = v.Status
	}
	if len(v.IncompleteDetails) > 0 && string(v.IncompleteDetails) != "null" {
		r.metadata["incomplete_details"] = v.IncompleteDetails
	}
	r.output = v.Output
	if v.OutputText != nil {
		r.output = *v.OutputText
	} else if text, ok := messageText(v.Output); ok {
		r.output = text
	}
	if v.Status == "failed" {
		r.status, r.errText = "error", "the response failed"
		if v.Error != nil && v.Error.Message != "" {
			r.errText = v.Error.Message
		}
	}
	if r.tokens == nil {
		r.metadata["usage_missing"] = true
	}
	return r
}

// messageText is the text of a Responses output made of messages only (what a reader wants to see); false when it holds
// tool calls or other items, which only survive in the full output list.
func messageText(output json.RawMessage) (string, bool) {
	var items []struct {
		Type    string `json:"type"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(output, &items) != nil || len(items) == 0 {
		return "", false
	}
	var b strings.Builder
	for _, it := range items {
		if it.Type != "message" {
			return "", false
		}
		for _, c := range it.Content {
			if c.Type == "output_text" {
				b.WriteString(c.Text)
			}
		}
	}
	return b.String(), true
}

func describeResult(op operation, body []byte) callResult {
	switch op {
	case opChat:
		return describeChat(body)
	case opEmbeddings:
		return describeEmbeddings(body)
	default:
		var v response
		if json.Unmarshal(body, &v) != nil {
			return callResult{metadata: map[string]any{"usage_missing": true}}
		}
		return describeResponseValue(v)
	}
}

// describeErrorAnswer reads an error answer in OpenAI's shape, {"error": {"message", "type", "code"}}.
func describeErrorAnswer(status int, body []byte) callResult {
	var v struct {
		Error struct {
			Message string          `json:"message"`
			Type    string          `json:"type"`
			Code    json.RawMessage `json:"code"`
		} `json:"error"`
	}
	r := callResult{status: "error", metadata: map[string]any{"http_status": status}}
	message := ""
	if json.Unmarshal(body, &v) == nil {
		message = v.Error.Message
		if v.Error.Type != "" {
			r.metadata["error_type"] = v.Error.Type
		}
		var code string
		if json.Unmarshal(v.Error.Code, &code) == nil && code != "" {
			r.metadata["error_code"] = code
		}
	}
	if message == "" {
		message = strings.TrimSpace(string(body))
		if len(message) > 512 {
			message = message[:512]
		}
	}
	r.errText = "HTTP " + itoa(status)
	if message != "" {
		r.errText += ": " + message
	}
	return r
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
