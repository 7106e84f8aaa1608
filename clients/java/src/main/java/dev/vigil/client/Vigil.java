package dev.vigil.client;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Sends the LLM calls of a Java application to Vigil's POST /v1/traces. Traces are buffered (bounded) and sent in
 * batches from one daemon thread; {@link #close()} (and, unless turned off, a shutdown hook) sends what is buffered
 * within {@code shutdownTimeout}. No method throws into the application: losses are counted in {@link #stats()} and
 * reported to {@code onError}.
 *
 * <pre>{@code
 * try (Vigil vigil = Vigil.builder().build()) {          // VIGIL_URL and VIGIL_PROJECT_KEY from the environment
 *     try (Span call = vigil.trace("gpt-4o-mini").input(messages)) {
 *         call.output(callTheModel(messages)).tokens(21, 7);
 *     }                                                   // recorded here, with its latency
 * }
 * }</pre>
 */
public final class Vigil implements AutoCloseable {
    public static final String VERSION = "0.1.0";

    private final Builder o;
    private final Delivery delivery;
    private final String unusable;
    private final Thread hook;
    private volatile boolean closed;
    private long disabledDrops;

    private Vigil(Builder o) {
        this.o = o;
        String why = null;
        URI endpoint = null;
        try {
            endpoint = ingestEndpoint(o.url);
        } catch (IllegalArgumentException e) {
            why = "the URL \"" + o.url + "\" is not a usable http(s) URL (" + e.getMessage() + ")";
        }
        if (why == null && (o.projectKey == null || o.projectKey.isEmpty())) why = "no project key: call projectKey(...) or set VIGIL_PROJECT_KEY";
        this.unusable = why;
        if (why != null) {
            delivery = null;
            hook = null;
            report(new VigilError(VigilError.CONFIG, "the Vigil client records nothing: " + why, 0, 0));
            return;
        }
        delivery = new Delivery(new TraceBuffer(o.maxBufferItems, o.maxBufferBytes),
            new Transport(endpoint, o.projectKey, o.timeout, o.gzip ? 1024 : 0),
            new Delivery.Settings(o.batchSize, o.maxBatchBytes, o.flushInterval.toMillis(), o.maxRetries, o.retryBase.toMillis(), o.retryMax.toMillis()),
            this::report);
        if (o.shutdownHook) {
            hook = new Thread(this::closeFromHook, "vigil-client-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
        } else {
            hook = null;
        }
    }

    public static Builder builder() { return new Builder(); }

    /** The ingest URL for url: a base (any path prefix kept) gets /v1/traces; a URL already ending so is kept. */
    static URI ingestEndpoint(String url) {
        URI u = URI.create(url);
        if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme())) throw new IllegalArgumentException("not http or https");
        if (u.getHost() == null) throw new IllegalArgumentException("no host");
        String path = u.getRawPath() == null ? "" : u.getRawPath().replaceAll("/+$", "");
        if (path.endsWith("/v1/traces")) return u;
        return URI.create(u.getScheme() + "://" + u.getRawAuthority() + path + "/v1/traces");
    }

    /**
     * Starts a trace of one call; {@link Span#close()} records it with its latency. Use it in try-with-resources, and
     * call {@link Span#error(Throwable)} in a catch when the call fails.
     */
    public Span trace(String model) {
        return new Span(this, model);
    }

    /**
     * Records one wire item (the fields of docs/llm-wire-contract.md) as given, with an "id" (a UUID) added when absent.
     * Returns the id, or null when the item was dropped. The low-level path: {@link #trace} builds the item for you.
     */
    public String record(Map<String, ?> item) {
        try {
            Map<String, Object> copy = new LinkedHashMap<>();
            String id = item.get("id") instanceof String s && !s.isEmpty() ? s : UUID.randomUUID().toString();
            copy.put("id", id);
            for (Map.Entry<String, ?> e : item.entrySet()) if (!e.getKey().equals("id")) copy.put(e.getKey(), e.getValue());
            TraceBuffer.Item encoded = encode(copy);
            if (delivery == null) {
                synchronized (this) { disabledDrops++; }
                return null;
            }
            return delivery.enqueue(encoded) ? id : null;
        } catch (RuntimeException e) {
            invalid("the trace could not be encoded as JSON: " + e.getMessage());
            return null;
        }
    }

    /** {@link #record(Map)} for an item given as JSON text (one object). */
    public String recordJson(String json) {
        Object item;
        try {
            item = Json.parse(json);
        } catch (IllegalArgumentException e) {
            item = null;
        }
        if (!(item instanceof Map<?, ?> m)) {
            invalid("recordJson takes one JSON object");
            return null;
        }
        @SuppressWarnings("unchecked") Map<String, ?> fields = (Map<String, ?>) m;
        return record(fields);
    }

    void invalid(String message) {
        if (delivery != null) delivery.countDropped(1);
        else synchronized (this) { disabledDrops++; }
        report(new VigilError(VigilError.INVALID_ITEM, message, 1, 0));
    }

    boolean omitContent() { return o.omitContent; }

    private static final int PREVIEW_CHARS = 1024;

    private static Map<String, Object> marker(Object value) {
        String text = Json.write(value);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("truncated", true);
        m.put("bytes", text.getBytes(StandardCharsets.UTF_8).length);
        // Cut before a lone high surrogate: a preview must stay valid UTF-8.
        int end = Math.min(PREVIEW_CHARS, text.length());
        if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) end--;
        m.put("preview", text.substring(0, end));
        return m;
    }

    /**
     * The item's JSON within maxItemBytes: when it is over, input, output and metadata are replaced by truncation
     * markers; a prompt template's raw text is never cut (Vigil versions it by its hash), the template is left out instead.
     */
    private TraceBuffer.Item encode(Map<String, Object> item) {
        String json = Json.write(item);
        int bytes = json.getBytes(StandardCharsets.UTF_8).length;
        if (bytes <= o.maxItemBytes) return new TraceBuffer.Item(json, bytes);
        for (String k : new String[] {"input", "output"}) if (item.get(k) != null) item.put(k, marker(item.get(k)));
        if (item.get("metadata") != null) item.put("metadata", Map.of("truncated", true, "bytes", marker(item.get("metadata")).get("bytes")));
        if (item.get("prompt_template") instanceof Map<?, ?> t && t.get("variables") != null) {
            Map<Object, Object> copy = new LinkedHashMap<>(t);
            copy.put("variables", Map.of("truncated", true));
            item.put("prompt_template", copy);
        }
        json = Json.write(item);
        bytes = json.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > o.maxItemBytes && item.remove("prompt_template") != null) {
            json = Json.write(item);
            bytes = json.getBytes(StandardCharsets.UTF_8).length;
        }
        return new TraceBuffer.Item(json, bytes);
    }

    /** Sends everything recorded so far; true when it all settled within {@code timeout}. Never throws. */
    public boolean flush(Duration timeout) {
        return delivery == null || delivery.flush(timeout.toMillis());
    }

    /** {@link #flush(Duration)} with the builder's shutdownTimeout. */
    public boolean flush() {
        return flush(o.shutdownTimeout);
    }

    /**
     * Flushes for at most shutdownTimeout, then stops: what could not be sent is dropped and counted, later traces are
     * dropped. Safe to call twice.
     */
    @Override
    public void close() {
        if (!stop()) return;
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is already shutting down: the hook is what is running us, or will find the client closed.
            }
        }
    }

    private void closeFromHook() {
        stop();
    }

    private synchronized boolean stop() {
        if (closed) return false;
        closed = true;
        if (delivery != null) {
            delivery.flush(o.shutdownTimeout.toMillis());
            delivery.stop();
        }
        return true;
    }

    public Stats stats() {
        if (delivery == null) {
            synchronized (this) { return new Stats(0, disabledDrops, 0, 0, 0, 0); }
        }
        return delivery.stats();
    }

    private final Map<String, Long> lastReported = new ConcurrentHashMap<>();

    private void report(VigilError e) {
        try {
            if (o.onError != null) {
                o.onError.accept(e);
                return;
            }
            // The default: one line on stderr, at most once a minute per code, so a dead server cannot flood it.
            long now = System.currentTimeMillis();
            Long last = lastReported.get(e.code());
            if (last != null && now - last < 60_000) return;
            lastReported.put(e.code(), now);
            System.err.println("vigil: " + e);
        } catch (RuntimeException ignored) {
            // onError is the application's; its failure is not ours to raise.
        }
    }

    /**
     * Options; every one has a default, and VIGIL_URL and VIGIL_PROJECT_KEY stand in for url and projectKey. build()
     * never throws: a client without a usable URL or key records nothing and says why once, through onError.
     */
    public static final class Builder {
        private String url = orDefault(System.getenv("VIGIL_URL"), "http://127.0.0.1:9095");
        private String projectKey = System.getenv("VIGIL_PROJECT_KEY");
        private int batchSize = 100;
        private Duration flushInterval = Duration.ofSeconds(1);
        private int maxBufferItems = 10_000;
        private long maxBufferBytes = 32L << 20;
        private long maxBatchBytes = 2L << 20;
        private int maxItemBytes = 512 << 10;
        private int maxRetries = 5;
        private Duration retryBase = Duration.ofMillis(500);
        private Duration retryMax = Duration.ofSeconds(30);
        private Duration timeout = Duration.ofSeconds(10);
        private Duration shutdownTimeout = Duration.ofSeconds(5);
        private boolean gzip = true;
        private boolean omitContent;
        private boolean shutdownHook = true;
        private Consumer<VigilError> onError;

        private Builder() {}

        private static String orDefault(String v, String fallback) { return v == null || v.isEmpty() ? fallback : v; }

        private static int positive(int v, int fallback) { return v > 0 ? v : fallback; }

        private static Duration positive(Duration v, Duration fallback) { return v != null && !v.isNegative() && !v.isZero() ? v : fallback; }

        /** Vigil's control plane, http://host:9095 (/v1/traces is added), or the full ingest URL. */
        public Builder url(String url) { if (url != null && !url.isEmpty()) this.url = url; return this; }
        /** Sent as X-Service-Project-Key. */
        public Builder projectKey(String key) { if (key != null && !key.isEmpty()) this.projectKey = key; return this; }
        /** Items per request; a batch leaves as soon as this many wait. Default 100. */
        public Builder batchSize(int n) { batchSize = positive(n, batchSize); return this; }
        /** How long fewer items wait before they leave. Default 1 s. */
        public Builder flushInterval(Duration d) { flushInterval = positive(d, flushInterval); return this; }
        /** Items held, in flight included; beyond it new traces are dropped and counted. Default 10,000. */
        public Builder maxBufferItems(int n) { maxBufferItems = positive(n, maxBufferItems); return this; }
        /** Bytes of item JSON held, in flight included. Default 32 MiB. */
        public Builder maxBufferBytes(long n) { if (n > 0) maxBufferBytes = n; return this; }
        /** Item JSON per request, before gzip. Default 2 MiB. */
        public Builder maxBatchBytes(long n) { if (n > 0) maxBatchBytes = n; return this; }
        /** One item's JSON; larger inputs and outputs are replaced by truncation markers. Default 512 KiB. */
        public Builder maxItemBytes(int n) { maxItemBytes = positive(n, maxItemBytes); return this; }
        /** Retries of a batch after network errors, 5xx and 429; 0 for none. Default 5. */
        public Builder maxRetries(int n) { if (n >= 0) maxRetries = n; return this; }
        /** About the first retry's wait (half fixed, half random); each next one twice as long. Default 500 ms. */
        public Builder retryBase(Duration d) { retryBase = positive(d, retryBase); return this; }
        /** The longest backoff; a server's Retry-After is honoured as given. Default 30 s. */
        public Builder retryMax(Duration d) { retryMax = positive(d, retryMax); return this; }
        /** One request's deadline, connection included. Default 10 s. */
        public Builder timeout(Duration d) { timeout = positive(d, timeout); return this; }
        /** How long close(), flush() and the shutdown hook wait for delivery. Default 5 s. */
        public Builder shutdownTimeout(Duration d) { shutdownTimeout = positive(d, shutdownTimeout); return this; }
        /** Gzip bodies of 1 KiB and more. Default true. */
        public Builder gzip(boolean on) { gzip = on; return this; }
        /** Record no input and no output (model, tokens, timings and status only). Default false. */
        public Builder omitContent(boolean on) { omitContent = on; return this; }
        /** Flush at JVM shutdown (a shutdown hook). Default true. */
        public Builder shutdownHook(boolean on) { shutdownHook = on; return this; }
        /** Receives every loss or refusal. Default: a line on stderr, once a minute per code. */
        public Builder onError(Consumer<VigilError> f) { onError = f; return this; }

        public Vigil build() { return new Vigil(this); }
    }
}
