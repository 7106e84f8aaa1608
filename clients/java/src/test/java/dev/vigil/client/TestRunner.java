package dev.vigil.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiConsumer;
import java.util.zip.GZIPInputStream;

/** The Java client's tests, in plain Java: each test is a method listed in main; the first failure exits 1. */
public final class TestRunner {
    private TestRunner() {}

    interface Test { void run() throws Exception; }

    static void check(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }

    /** Maps and lists compare by value (Map.of iterates in an order that changes from run to run); the rest by text. */
    static void equal(Object got, Object want, String what) {
        boolean same = (want instanceof Map || want instanceof List) ? want.equals(got) : String.valueOf(got).equals(String.valueOf(want));
        if (!same) throw new AssertionError(what + ": got " + got + ", want " + want);
    }

    /** A scripted POST /v1/traces on loopback: answer gets the request's number (from 1) and its batch. */
    static final class Ingest implements AutoCloseable {
        final HttpServer server;
        final List<List<Map<String, Object>>> batches = Collections.synchronizedList(new ArrayList<>());
        final List<String> encodings = Collections.synchronizedList(new ArrayList<>());
        final List<String> keys = Collections.synchronizedList(new ArrayList<>());
        volatile BiConsumer<Integer, HttpExchange> answer;

        Ingest() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/v1/traces", this::handle);
            server.start();
        }

        String url() { return "http://127.0.0.1:" + server.getAddress().getPort(); }

        @SuppressWarnings("unchecked")
        private void handle(HttpExchange ex) throws IOException {
            String encoding = ex.getRequestHeaders().getFirst("Content-Encoding");
            InputStream in = "gzip".equals(encoding) ? new GZIPInputStream(ex.getRequestBody()) : ex.getRequestBody();
            Map<String, Object> body = (Map<String, Object>) Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            List<Map<String, Object>> batch = (List<Map<String, Object>>) body.get("traces");
            int n;
            synchronized (batches) {
                batches.add(batch);
                encodings.add(encoding);
                keys.add(ex.getRequestHeaders().getFirst("X-Service-Project-Key"));
                n = batches.size();
            }
            if (answer != null) answer.accept(n, ex);
            else accept(ex, batch.size());
        }

        static void accept(HttpExchange ex, int n) {
            send(ex, 202, "{\"accepted\":" + n + ",\"rejected\":0,\"sampled_out\":0,\"errors\":[],\"ids\":[]}");
        }

        static void send(HttpExchange ex, int status, String body) {
            try {
                byte[] b = body.getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", "application/json");
                ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
                if (b.length > 0) ex.getResponseBody().write(b);
                ex.close();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        List<Integer> sizes() {
            synchronized (batches) {
                List<Integer> out = new ArrayList<>();
                for (List<Map<String, Object>> b : batches) out.add(b.size());
                return out;
            }
        }

        @Override
        public void close() { server.stop(0); }
    }

    static Vigil.Builder client(Ingest ingest, List<VigilError> errors) {
        return Vigil.builder().url(ingest.url()).projectKey("vk_test").shutdownHook(false).onError(errors::add);
    }

    static void jsonRoundTrip() {
        String text = "{\"a\":[1,-2.5,1e3,true,false,null,\"\\u00e9\\n\\\"x\\\"\"],\"b\":{},\"big\":123456789012345678901234567890}";
        Object v = Json.parse(text);
        equal(Json.write(v), "{\"a\":[1,-2.5,1000,true,false,null,\"é\\n\\\"x\\\"\"],\"b\":{},\"big\":123456789012345678901234567890}", "round trip");
        for (String bad : new String[] {"", "{", "[1,]", "{\"a\" 1}", "tru", "\"x", "1 2", "{\"a\":1,}"}) {
            boolean threw = false;
            try { Json.parse(bad); } catch (IllegalArgumentException e) { threw = true; }
            check(threw, "parsed " + bad);
        }
        equal(Json.write("\u0001\ud800"), "\"\\u0001\\ud800\"", "control characters and a lone surrogate are escaped");
        List<Object> cycle = new ArrayList<>();
        cycle.add(cycle);
        boolean threw = false;
        try { Json.write(cycle); } catch (IllegalArgumentException e) { threw = true; }
        check(threw, "a cycle was written");
    }

    static void retryDelay() {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        equal(RetryDelay.parseRetryAfter("1.5", now).orElse(-1L), 1500, "delta seconds");
        equal(RetryDelay.parseRetryAfter("Thu, 01 Jan 2026 00:00:03 GMT", now).orElse(-1L), 3000, "HTTP-date");
        check(RetryDelay.parseRetryAfter("-3", now).isEmpty(), "-3 read as a delay");
        equal(RetryDelay.backoffMs(3, 100, 3_600_000, () -> 1.0), 800, "backoff");
        equal(RetryDelay.backoffMs(40, 1000, 30_000, () -> 0.0), 15_000, "backoff cap");
    }

    static void ingestEndpoint() {
        equal(Vigil.ingestEndpoint("http://h:9095"), "http://h:9095/v1/traces", "base");
        equal(Vigil.ingestEndpoint("http://h:9095/vigil/"), "http://h:9095/vigil/v1/traces", "prefix kept");
        equal(Vigil.ingestEndpoint("https://h/v1/traces"), "https://h/v1/traces", "full URL kept");
    }

    @SuppressWarnings("unchecked")
    static void spanRecordsEveryField() throws Exception {
        List<VigilError> errors = new ArrayList<>();
        try (Ingest ingest = new Ingest(); Vigil vigil = client(ingest, errors).build()) {
            String id;
            try (Span span = vigil.trace("gpt-4o-mini").name("support-reply").input(List.of(Map.of("role", "user", "content", "Hi")))
                .userId("u-1").sessionId("s-1").tag("beta").metadata("feature", "faq").promptTemplate("support", "Hello {{name}}", Map.of("name", "Ann"))) {
                span.output("Hello Ann").tokens(21, 7, 5).costUsd(0.0012);
                id = null;
            }
            try (Span failed = vigil.trace("gpt-4o-mini")) {
                failed.error(new IllegalStateException("rate limited"));
            }
            check(vigil.flush(Duration.ofSeconds(5)), "flushed");
            equal(ingest.keys.get(0), "vk_test", "key header");
            Map<String, Object> item = ingest.batches.get(0).get(0);
            check(item.get("id") instanceof String s && s.length() == 36, "a UUID id");
            equal(item.get("model"), "gpt-4o-mini", "model");
            equal(item.get("name"), "support-reply", "name");
            equal(item.get("status"), "ok", "status");
            equal(Json.write(item.get("tokens")), "{\"input\":21,\"output\":7,\"total\":28,\"cache_read\":5}", "tokens");
            check(item.get("input").equals(List.of(Map.of("role", "user", "content", "Hi"))), "input: " + item.get("input"));
            equal(item.get("output"), "Hello Ann", "output");
            equal(item.get("tags"), List.of("beta"), "tags");
            equal(((Map<String, Object>) item.get("metadata")).get("feature"), "faq", "metadata");
            equal(((Map<String, Object>) item.get("prompt_template")).get("raw"), "Hello {{name}}", "template");
            check(item.get("latency_ms") instanceof Number, "latency");
            check(Instant.parse((String) item.get("start_time")).isBefore(Instant.now().plusSeconds(1)), "start_time");
            Map<String, Object> bad = ingest.batches.get(0).size() > 1 ? ingest.batches.get(0).get(1) : ingest.batches.get(1).get(0);
            equal(bad.get("status"), "error", "failed status");
            equal(bad.get("error"), "IllegalStateException: rate limited", "error text");
            equal(vigil.stats(), new Stats(2, 0, 0, 0, 0, 0), "stats");
            check(id == null && errors.isEmpty(), "errors: " + errors);
        }
    }

    static void batchesBySizeAndGzips() throws Exception {
        List<VigilError> errors = new ArrayList<>();
        try (Ingest ingest = new Ingest(); Vigil vigil = client(ingest, errors).batchSize(3).flushInterval(Duration.ofHours(1)).build()) {
            for (int i = 0; i < 7; i++) vigil.record(Map.of("model", "m", "input", "x".repeat(400)));
            check(vigil.flush(Duration.ofSeconds(5)), "flushed");
            equal(ingest.sizes(), List.of(3, 3, 1), "batches");
            equal(ingest.encodings.get(0), "gzip", "gzip");
        }
    }

    static void splits413() throws Exception {
        List<VigilError> errors = new ArrayList<>();
        try (Ingest ingest = new Ingest(); Vigil vigil = client(ingest, errors).batchSize(8).flushInterval(Duration.ofHours(1)).build()) {
            ingest.answer = (n, ex) -> {
                List<Map<String, Object>> batch = ingest.batches.get(n - 1);
                if (batch.size() > 2 || "huge".equals(batch.get(0).get("model"))) Ingest.send(ex, 413, "");
                else Ingest.accept(ex, batch.size());
            };
            for (int i = 0; i < 7; i++) vigil.record(Map.of("model", i == 6 ? "huge" : "m"));
            vigil.flush(Duration.ofSeconds(5));
            equal(ingest.sizes(), List.of(7, 4, 2, 2, 3, 2, 1), "requests");
            equal(vigil.stats().sent(), 6, "sent");
            equal(vigil.stats().dropped(), 1, "dropped");
            equal(errors.get(0).code(), VigilError.TOO_LARGE, "code");
        }
    }

    static void retriesAfterRetryAfterKeepingIds() throws Exception {
        List<VigilError> errors = new ArrayList<>();
        List<Long> times = Collections.synchronizedList(new ArrayList<>());
        try (Ingest ingest = new Ingest(); Vigil vigil = client(ingest, errors).retryBase(Duration.ofMillis(20)).flushInterval(Duration.ofMillis(1)).build()) {
            ingest.answer = (n, ex) -> {
                times.add(System.nanoTime());
                if (n == 1) {
                    ex.getResponseHeaders().set("Retry-After", "0.3");
                    Ingest.send(ex, 429, "{\"error\":{\"code\":\"VIGIL_ERR_LLM_LANE_BUSY\",\"message\":\"busy\"}}");
                } else if (n == 2) Ingest.send(ex, 503, "");
                else Ingest.accept(ex, 1);
            };
            String id = vigil.record(Map.of("model", "m"));
            check(vigil.flush(Duration.ofSeconds(5)), "flushed");
            equal(vigil.stats().retries(), 2, "retries");
            equal(vigil.stats().sent(), 1, "sent");
            check(times.get(1) - times.get(0) >= 300_000_000L, "waited for Retry-After");
            for (List<Map<String, Object>> b : ingest.batches) equal(b.get(0).get("id"), id, "the same id on every attempt");
        }
    }

    static void neverRetries400AndGivesUpAfterMaxRetries() throws Exception {
        List<VigilError> errors = Collections.synchronizedList(new ArrayList<>());
        try (Ingest ingest = new Ingest(); Vigil vigil = client(ingest, errors).maxRetries(2).retryBase(Duration.ofMillis(1)).flushInterval(Duration.ofMillis(1)).build()) {
            ingest.answer = (n, ex) -> Ingest.send(ex, n == 1 ? 400 : 500, "");
            vigil.record(Map.of("model", "m"));
            vigil.flush(Duration.ofSeconds(5));
            vigil.record(Map.of("model", "m"));
            vigil.flush(Duration.ofSeconds(5));
            equal(ingest.batches.size(), 4, "requests: one 400, then three 500s");
            equal(vigil.stats().dropped(), 2, "dropped");
            equal(errors.get(0).code(), VigilError.BATCH_REFUSED, "400");
            equal(errors.get(1).code(), VigilError.RETRIES_EXHAUSTED, "500s");
        }
    }

    static void fullBufferDropsAndReportsOnce() throws Exception {
        List<VigilError> errors = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch release = new CountDownLatch(1);
        try (Ingest ingest = new Ingest(); Vigil vigil = client(ingest, errors).maxBufferItems(3).batchSize(1).flushInterval(Duration.ofHours(1)).build()) {
            ingest.answer = (n, ex) -> {
                try { release.await(); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
                Ingest.accept(ex, 1);
            };
            for (int i = 0; i < 10; i++) vigil.record(Map.of("model", "m"));
            release.countDown();
            vigil.flush(Duration.ofSeconds(5));
            equal(vigil.stats().sent(), 3, "sent");
            equal(vigil.stats().dropped(), 7, "dropped");
            equal(errors.size(), 1, "reported once");
            equal(errors.get(0).code(), VigilError.BUFFER_FULL, "code");
        }
    }

    static void closeGivesUpAtItsDeadline() throws Exception {
        List<VigilError> errors = Collections.synchronizedList(new ArrayList<>());
        try (Ingest ingest = new Ingest()) {
            ingest.answer = (n, ex) -> Ingest.send(ex, 503, "");
            Vigil vigil = client(ingest, errors).retryBase(Duration.ofHours(1)).retryMax(Duration.ofHours(1)).shutdownTimeout(Duration.ofMillis(300)).build();
            vigil.record(Map.of("model", "m"));
            vigil.record(Map.of("model", "m"));
            long t0 = System.nanoTime();
            vigil.close();
            check(System.nanoTime() - t0 < 10_000_000_000L, "close returned");
            equal(vigil.stats().dropped(), 2, "dropped");
            equal(vigil.stats().buffered(), 0, "nothing held");
            check(vigil.record(Map.of("model", "m")) == null, "a trace after close was taken");
            equal(vigil.stats().dropped(), 3, "dropped after close");
            vigil.close();
        }
    }

    static void unusableConfigSaysWhy() {
        List<VigilError> errors = new ArrayList<>();
        Vigil vigil = Vigil.builder().url("ftp://x").projectKey("k").shutdownHook(false).onError(errors::add).build();
        vigil.record(Map.of("model", "m"));
        equal(errors.get(0).code(), VigilError.CONFIG, "config error");
        equal(vigil.stats().dropped(), 1, "dropped");
        vigil.close();
    }

    static void oversizeItemIsTruncated() throws Exception {
        List<VigilError> errors = new ArrayList<>();
        try (Ingest ingest = new Ingest(); Vigil vigil = client(ingest, errors).maxItemBytes(2000).build()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("model", "m");
            item.put("input", "é".repeat(5000));
            vigil.record(item);
            vigil.flush(Duration.ofSeconds(5));
            @SuppressWarnings("unchecked") Map<String, Object> input = (Map<String, Object>) ingest.batches.get(0).get(0).get("input");
            equal(input.get("truncated"), true, "marker");
            equal(vigil.stats().sent(), 1, "sent");
        }
    }

    @SuppressWarnings("unchecked")
    static void openAiChatReadsAnswersAndErrors() throws Exception {
        List<VigilError> errors = new ArrayList<>();
        try (Ingest ingest = new Ingest(); Vigil vigil = client(ingest, errors).build()) {
            String request = "{\"model\":\"gpt-4o-mini\",\"temperature\":0.2,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
            try (Span ok = vigil.trace("gpt-4o-mini")) {
                ok.openAiChat(request, "{\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,\"finish_reason\":\"stop\","
                    + "\"message\":{\"role\":\"assistant\",\"content\":\"Hello\"}}],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":2,\"total_tokens\":11}}");
            }
            try (Span failed = vigil.trace("gpt-4o-mini")) {
                failed.openAiChat(request, "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}");
            }
            List<Object> cycle = new ArrayList<>();
            cycle.add(cycle);
            check(vigil.record(Map.of("model", "m", "input", cycle)) == null, "a cycle was recorded");
            vigil.flush(Duration.ofSeconds(5));
            List<Map<String, Object>> items = new ArrayList<>();
            for (List<Map<String, Object>> b : ingest.batches) items.addAll(b);
            Map<String, Object> ok = items.get(0);
            equal(ok.get("model"), "gpt-4o-mini-2024-07-18", "the answer's model");
            equal(ok.get("output"), Map.of("role", "assistant", "content", "Hello"), "output");
            equal(Json.write(ok.get("tokens")), "{\"input\":9,\"output\":2,\"total\":11}", "tokens");
            equal(((Map<String, Object>) ok.get("metadata")).get("finish_reason"), "stop", "finish_reason");
            equal(((Map<String, Object>) ok.get("metadata")).get("parameters"), Map.of("temperature", 0.2), "parameters");
            Map<String, Object> failed = items.get(1);
            equal(failed.get("status"), "error", "status");
            equal(failed.get("error"), "Rate limit reached", "error");
            equal(((Map<String, Object>) failed.get("metadata")).get("error_code"), "rate_limit_exceeded", "error_code");
            equal(vigil.stats().dropped(), 1, "the cycle dropped");
            equal(errors.get(0).code(), VigilError.INVALID_ITEM, "the cycle reported");
        }
    }

    public static void main(String[] args) {
        Map<String, Test> tests = new LinkedHashMap<>();
        tests.put("json round trip and refusals", TestRunner::jsonRoundTrip);
        tests.put("Retry-After and backoff", TestRunner::retryDelay);
        tests.put("ingest endpoint", TestRunner::ingestEndpoint);
        tests.put("a span records every field", TestRunner::spanRecordsEveryField);
        tests.put("batches by size, gzip", TestRunner::batchesBySizeAndGzips);
        tests.put("413 splits in halves", TestRunner::splits413);
        tests.put("429 Retry-After and 5xx retried with the same ids", TestRunner::retriesAfterRetryAfterKeepingIds);
        tests.put("400 never retried, retries exhausted", TestRunner::neverRetries400AndGivesUpAfterMaxRetries);
        tests.put("a full buffer drops and reports once", TestRunner::fullBufferDropsAndReportsOnce);
        tests.put("close gives up at its deadline", TestRunner::closeGivesUpAtItsDeadline);
        tests.put("an unusable config says why", TestRunner::unusableConfigSaysWhy);
        tests.put("an oversize item is truncated", TestRunner::oversizeItemIsTruncated);
        tests.put("openAiChat reads answers and errors; a cycle is dropped", TestRunner::openAiChatReadsAnswersAndErrors);
        int passed = 0;
        for (Map.Entry<String, Test> t : tests.entrySet()) {
            try {
                t.getValue().run();
                passed++;
                System.out.println("ok   " + t.getKey());
            } catch (Throwable e) {
                System.out.println("FAIL " + t.getKey());
                e.printStackTrace(System.out);
                System.out.println(passed + " passed, 1 failed");
                System.exit(1);
            }
        }
        System.out.println(passed + " passed, 0 failed");
    }
}
