package dev.vigil.client;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One call being traced, from {@link Vigil#trace(String)} to {@link #close()}, which records it once with its start
 * time and latency. Setters return the span; none throws. Not meant to be shared between threads.
 */
public final class Span implements AutoCloseable {
    private static final int MAX_ERROR_CHARS = 8192;

    private final Vigil vigil;
    private final Instant start = Instant.now();
    private final long startNanos = System.nanoTime();
    private final Map<String, Object> item = new LinkedHashMap<>();
    private final Map<String, Object> metadata = new LinkedHashMap<>();
    private final List<String> tags = new ArrayList<>();
    private boolean closed;
    private String id;

    Span(Vigil vigil, String model) {
        this.vigil = vigil;
        if (model != null && !model.isEmpty()) item.put("model", model);
    }

    /** The model as the provider reported it, when it differs from the one asked for. */
    public Span model(String model) { if (model != null && !model.isEmpty()) item.put("model", model); return this; }
    public Span name(String name) { return put("name", name); }
    public Span provider(String provider) { return put("provider", provider); }
    /** What was sent: messages, a prompt; any value Json can write (maps, lists, strings, numbers). */
    public Span input(Object input) { if (!vigil.omitContent()) item.put("input", input); return this; }
    /** What came back. */
    public Span output(Object output) { if (!vigil.omitContent()) item.put("output", output); return this; }
    public Span tokens(long input, long output) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("input", input);
        t.put("output", output);
        t.put("total", input + output);
        item.put("tokens", t);
        return this;
    }
    /** Token counts with the input tokens served from the provider's prompt cache. */
    public Span tokens(long input, long output, long cacheRead) {
        tokens(input, output);
        if (cacheRead > 0) {
            @SuppressWarnings("unchecked") Map<String, Object> t = (Map<String, Object>) item.get("tokens");
            t.put("cache_read", cacheRead);
        }
        return this;
    }
    /** USD for this call; when not given, Vigil computes it from its price table. */
    public Span costUsd(double usd) { item.put("cost_usd", usd); return this; }
    public Span userId(String id) { return put("user_id", id); }
    public Span sessionId(String id) { return put("session_id", id); }
    public Span tag(String tag) { if (tag != null && !tag.isEmpty() && !tags.contains(tag)) tags.add(tag); return this; }
    public Span metadata(String key, Object value) { metadata.put(key, value); return this; }
    /** The template the prompt was made from: raw is its text before variables were filled in. */
    public Span promptTemplate(String name, String raw, Map<String, ?> variables) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("name", name);
        t.put("raw", raw);
        if (variables != null) t.put("variables", variables);
        item.put("prompt_template", t);
        return this;
    }
    /**
     * Fills the span from an OpenAI-compatible chat completion: the request body sent (messages, parameters) and the
     * answer's body (model, tokens, message, finish_reason, or its error). Either may be null.
     */
    public Span openAiChat(String requestJson, String answerJson) {
        OpenAiChat.read(this, requestJson, answerJson);
        return this;
    }

    /** Marks the call failed with the exception's class and message. */
    public Span error(Throwable e) {
        return error(e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    public Span error(String message) {
        String text = message.length() > MAX_ERROR_CHARS ? message.substring(0, MAX_ERROR_CHARS) + "…[truncated " + (message.length() - MAX_ERROR_CHARS) + " chars]" : message;
        item.put("status", "error");
        item.put("error", text);
        return this;
    }

    private Span put(String key, String value) {
        if (value != null && !value.isEmpty()) item.put(key, value);
        return this;
    }

    /** The trace's id once recorded (after close), or null when it was dropped. */
    public String id() { return id; }

    /** Records the call, once; a span without a model is dropped and counted (VIGIL_ERR_CLIENT_INVALID_ITEM). */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        if (!item.containsKey("model")) {
            vigil.invalid("a trace without a model was dropped");
            return;
        }
        item.put("start_time", start.truncatedTo(ChronoUnit.MILLIS).toString());
        item.put("latency_ms", Duration.ofNanos(System.nanoTime() - startNanos).toNanos() / 1e6);
        if (!tags.isEmpty()) item.put("tags", tags);
        if (!metadata.isEmpty()) item.put("metadata", metadata);
        item.putIfAbsent("status", "ok");
        id = vigil.record(item);
    }
}
