package vigil

import (
	"bytes"
	"encoding/json"
	"sort"
)

// Folds an SSE stream's events into what a call without streaming would have returned.

type toolCall struct {
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type choiceState struct {
	role         string
	content      bytes.Buffer
	refusal      bytes.Buffer
	toolCalls    map[int]*toolCall
	finishReason *string
}

type chatChunk struct {
	Model   string `json:"model"`
	Usage   *usage `json:"usage"`
	Choices []struct {
		Index        int     `json:"index"`
		FinishReason *string `json:"finish_reason"`
		Delta        struct {
			Role      string  `json:"role"`
			Content   *string `json:"content"`
			Refusal   *string `json:"refusal"`
			ToolCalls []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
	} `json:"choices"`
}

// sseEvents calls fn with the data of each event of an SSE stream; "[DONE]" is reported as done, not as an event.
func sseEvents(stream []byte, fn func(data []byte)) (done bool) {
	for len(stream) > 0 {
		line := stream
		if i := bytes.IndexByte(stream, '\n'); i >= 0 {
			line, stream = stream[:i], stream[i+1:]
		} else {
			stream = nil
		}
		line = bytes.TrimRight(line, "\r")
		if !bytes.HasPrefix(line, []byte("data:")) {
			continue
		}
		data := bytes.TrimSpace(line[len("data:"):])
		if string(data) == "[DONE]" {
			done = true
			continue
		}
		fn(data)
	}
	return done
}

// chatStream folds chat completion chunks: content by choice, tool-call arguments by index, usage from the last chunk
// when the request asked for it (stream_options.include_usage).
func chatStream(stream []byte) (callResult, bool) {
	var model string
	var u *usage
	choices := map[int]*choiceState{}
	done := sseEvents(stream, func(data []byte) {
		var c chatChunk
		if json.Unmarshal(data, &c) != nil {
			return
		}
		if c.Model != "" {
			model = c.Model
		}
		if c.Usage != nil {
			u = c.Usage
		}
		for _, ch := range c.Choices {
			s := choices[ch.Index]
			if s == nil {
				s = &choiceState{toolCalls: map[int]*toolCall{}}
				choices[ch.Index] = s
			}
			if ch.FinishReason != nil {
				s.finishReason = ch.FinishReason
			}
			if ch.Delta.Role != "" {
				s.role = ch.Delta.Role
			}
			if ch.Delta.Content != nil {
				s.content.WriteString(*ch.Delta.Content)
			}
			if ch.Delta.Refusal != nil {
				s.refusal.WriteString(*ch.Delta.Refusal)
			}
			for _, t := range ch.Delta.ToolCalls {
				call := s.toolCalls[t.Index]
				if call == nil {
					call = &toolCall{}
					s.toolCalls[t.Index] = call
				}
				if t.ID != "" {
					call.ID = t.ID
				}
				if t.Type != "" {
					call.Type = t.Type
				}
				call.Function.Name += t.Function.Name
				call.Function.Arguments += t.Function.Arguments
			}
		}
	})
	indexes := make([]int, 0, len(choices))
	for i := range choices {
		indexes = append(indexes, i)
	}
	sort.Ints(indexes)
	var messages []map[string]any
	var reasons []string
	for _, i := range indexes {
		s := choices[i]
		role := s.role
		if role == "" {
			role = "assistant"
		}
		m := map[string]any{"role": role}
		switch {
		case s.content.Len() > 0:
			m["content"] = s.content.String()
		case len(s.toolCalls) > 0 || s.refusal.Len() > 0:
			m["content"] = nil
		default:
			m["content"] = ""
		}
		if s.refusal.Len() > 0 {
			m["refusal"] = s.refusal.String()
		}
		if len(s.toolCalls) > 0 {
			keys := make([]int, 0, len(s.toolCalls))
			for k := range s.toolCalls {
				keys = append(keys, k)
			}
			sort.Ints(keys)
			calls := make([]*toolCall, 0, len(keys))
			for _, k := range keys {
				calls = append(calls, s.toolCalls[k])
			}
			m["tool_calls"] = calls
		}
		messages = append(messages, m)
		if s.finishReason != nil {
			reasons = append(reasons, *s.finishReason)
		}
	}
	r := callResult{model: model, tokens: tokensOf(u), metadata: map[string]any{}}
	if len(messages) == 1 {
		r.output = messages[0]
	} else if len(messages) > 1 {
		r.output = messages
	}
	setReasons(r.metadata, reasons)
	if r.tokens == nil {
		r.metadata["usage_missing"] = true
	}
	return r, done
}

// responsesStream reads Responses API events: the final response.completed (or failed, incomplete) carries everything;
// text deltas are the fallback.
func responsesStream(stream []byte) (callResult, bool) {
	var final *response
	var model, errText string
	var text bytes.Buffer
	sseEvents(stream, func(data []byte) {
		var e struct {
			Type     string    `json:"type"`
			Delta    string    `json:"delta"`
			Message  string    `json:"message"`
			Response *response `json:"response"`
		}
		if json.Unmarshal(data, &e) != nil {
			return
		}
		if e.Response != nil && e.Response.Model != "" {
			model = e.Response.Model
		}
		switch e.Type {
		case "response.completed", "response.failed", "response.incomplete":
			final = e.Response
		case "response.output_text.delta":
			text.WriteString(e.Delta)
		case "error":
			errText = e.Message
			if errText == "" {
				errText = "the stream reported an error"
			}
		}
	})
	if final != nil {
		r := describeResponseValue(*final)
		if _, isText := r.output.(string); !isText && text.Len() > 0 {
			if _, ok := messageText(final.Output); ok {
				r.output = text.String()
			}
		}
		return r, true
	}
	r := callResult{model: model, metadata: map[string]any{"usage_missing": true}}
	if text.Len() > 0 {
		r.output = text.String()
	}
	if errText != "" {
		r.status, r.errText = "error", errText
	}
	return r, false
}
