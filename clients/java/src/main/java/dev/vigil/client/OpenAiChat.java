package dev.vigil.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads an OpenAI-compatible chat completion (the request body the application sent and the answer it got) into a
 * span: the messages as input, the other request fields as metadata.parameters, the answer's model, usage
 * (prompt_tokens, completion_tokens, prompt_tokens_details.cached_tokens), message(s) and finish_reason, or its
 * {"error": {...}}. Text that is not JSON is ignored: the span keeps what it had.
 */
final class OpenAiChat {
    private OpenAiChat() {}

    private static Object parse(String json) {
        if (json == null) return null;
        try { return Json.parse(json); } catch (IllegalArgumentException e) { return null; }
    }

    private static long count(Object v) { return v instanceof Number n ? n.longValue() : 0; }

    static void read(Span span, String requestJson, String answerJson) {
        if (parse(requestJson) instanceof Map<?, ?> req) {
            if (req.get("messages") != null) span.input(req.get("messages"));
            Map<String, Object> parameters = new java.util.LinkedHashMap<>();
            for (Map.Entry<?, ?> e : req.entrySet()) {
                String k = String.valueOf(e.getKey());
                if (!k.equals("model") && !k.equals("messages") && !k.equals("stream")) parameters.put(k, e.getValue());
            }
            if (!parameters.isEmpty()) span.metadata("parameters", parameters);
        }
        span.provider("openai").metadata("operation", "chat.completions");
        if (!(parse(answerJson) instanceof Map<?, ?> answer)) return;
        if (answer.get("error") instanceof Map<?, ?> err) {
            span.error(err.get("message") instanceof String m ? m : "the call failed");
            if (err.get("type") instanceof String t) span.metadata("error_type", t);
            if (err.get("code") instanceof String c) span.metadata("error_code", c);
            return;
        }
        if (answer.get("model") instanceof String model) span.model(model);
        if (answer.get("usage") instanceof Map<?, ?> u) {
            long cached = u.get("prompt_tokens_details") instanceof Map<?, ?> d ? count(d.get("cached_tokens")) : 0;
            span.tokens(count(u.get("prompt_tokens")), count(u.get("completion_tokens")), cached);
        } else {
            span.metadata("usage_missing", true);
        }
        List<Object> messages = new ArrayList<>();
        List<Object> reasons = new ArrayList<>();
        if (answer.get("choices") instanceof List<?> choices) {
            for (Object c : choices) {
                if (!(c instanceof Map<?, ?> choice)) continue;
                messages.add(choice.get("message"));
                if (choice.get("finish_reason") instanceof String r) reasons.add(r);
            }
        }
        if (messages.size() == 1) span.output(messages.get(0));
        else if (!messages.isEmpty()) span.output(messages);
        if (reasons.size() == 1) span.metadata("finish_reason", reasons.get(0));
        else if (!reasons.isEmpty()) span.metadata("finish_reason", reasons);
    }
}
