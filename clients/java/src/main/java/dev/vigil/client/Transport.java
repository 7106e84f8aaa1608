package dev.vigil.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * One POST /v1/traces of a batch, and what its answer means for the batch: header X-Service-Project-Key, body
 * {"traces": [...]}, gzip-encoded from gzipMinBytes; 202 with per-item errors, 401, 400, 413, 429 with Retry-After.
 */
final class Transport {
    enum Kind { ACCEPTED, RETRY, TOO_LARGE, REFUSED }

    /** What an answer means: accepted (with counts), worth a retry (network error, timeout, 5xx, 429), 413, or refused. */
    record Outcome(Kind kind, int accepted, int rejected, List<String> errors, int status, String reason, Long retryAfterMs) {}

    /** Answers are read up to this many bytes: enough for any error list the server sends for a batch. */
    static final int MAX_ANSWER_BYTES = 1 << 20;

    private final HttpClient http;
    private final URI endpoint;
    private final String projectKey;
    private final Duration timeout;
    private final int gzipMinBytes;

    Transport(URI endpoint, String projectKey, Duration timeout, int gzipMinBytes) {
        this.endpoint = endpoint;
        this.projectKey = projectKey;
        this.timeout = timeout;
        this.gzipMinBytes = gzipMinBytes;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1).build();
    }

    static byte[] body(List<TraceBuffer.Item> batch) {
        StringBuilder b = new StringBuilder("{\"traces\":[");
        for (int i = 0; i < batch.size(); i++) {
            if (i > 0) b.append(',');
            b.append(batch.get(i).json());
        }
        return b.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Sends one batch; an interrupt (the client stopping) ends the request and answers RETRY, which the caller drops. */
    Outcome post(List<TraceBuffer.Item> batch) {
        byte[] body = body(batch);
        HttpRequest.Builder req = HttpRequest.newBuilder(endpoint).timeout(timeout)
            .header("Content-Type", "application/json")
            .header("X-Service-Project-Key", projectKey)
            .header("User-Agent", "vigil-llm-client-java/" + Vigil.VERSION);
        if (gzipMinBytes > 0 && body.length >= gzipMinBytes) {
            ByteArrayOutputStream zipped = new ByteArrayOutputStream(body.length / 4 + 64);
            try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
                gz.write(body);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            body = zipped.toByteArray();
            req.header("Content-Encoding", "gzip");
        }
        try {
            HttpResponse<InputStream> res = http.send(req.POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofInputStream());
            String text;
            try (InputStream in = res.body()) {
                text = new String(in.readNBytes(MAX_ANSWER_BYTES), StandardCharsets.UTF_8);
            }
            return classify(res.statusCode(), res.headers(), text, batch.size(), Instant.now());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(Kind.RETRY, 0, 0, List.of(), 0, "interrupted: the client stopped", null);
        } catch (IOException | RuntimeException e) {
            return new Outcome(Kind.RETRY, 0, 0, List.of(), 0, e.getClass().getSimpleName() + ": " + e.getMessage(), null);
        }
    }

    private static Object parseOrNull(String text) {
        try { return Json.parse(text); } catch (IllegalArgumentException e) { return null; }
    }

    /** The server's error from the control plane's {"error": {"code", "message"}} shape, or the raw text. */
    static String serverReason(int status, String text) {
        Object body = parseOrNull(text);
        String said = null;
        if (body instanceof Map<?, ?> m && m.get("error") instanceof Map<?, ?> e) {
            said = (e.get("code") instanceof String c ? c : "") + (e.get("message") instanceof String s ? ": " + s : "");
        }
        if (said == null) said = text.length() > 200 ? text.substring(0, 200).trim() : text.trim();
        return said.isEmpty() ? "HTTP " + status : "HTTP " + status + ": " + said;
    }

    static Outcome classify(int status, HttpHeaders headers, String text, int items, Instant now) {
        if (status >= 200 && status < 300) {
            List<String> errors = new ArrayList<>();
            int rejected = 0;
            Integer accepted = null;
            if (parseOrNull(text) instanceof Map<?, ?> m) {
                if (m.get("errors") instanceof List<?> list) {
                    for (Object e : list) {
                        if (e instanceof Map<?, ?> err) errors.add("#" + err.get("index") + " " + err.get("path") + ": " + err.get("code") + " " + err.get("message"));
                    }
                }
                rejected = m.get("rejected") instanceof Number n ? n.intValue() : errors.size();
                if (m.get("accepted") instanceof Number n) accepted = n.intValue();
            }
            return new Outcome(Kind.ACCEPTED, accepted != null ? accepted : items - rejected, rejected, errors, status, "", null);
        }
        if (status == 429 || status >= 500) {
            Long after = RetryDelay.parseRetryAfter(headers.firstValue("Retry-After").orElse(null), now).orElse(null);
            return new Outcome(Kind.RETRY, 0, 0, List.of(), status, serverReason(status, text), after);
        }
        if (status == 413) return new Outcome(Kind.TOO_LARGE, 0, 0, List.of(), status, serverReason(status, text), null);
        return new Outcome(Kind.REFUSED, 0, 0, List.of(), status, serverReason(status, text), null);
    }
}
