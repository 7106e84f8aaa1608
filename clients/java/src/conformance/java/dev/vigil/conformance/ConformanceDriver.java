package dev.vigil.conformance;

import dev.vigil.client.Json;
import dev.vigil.client.Stats;
import dev.vigil.client.Vigil;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Runs the Java client under Vigil's client conformance suite (docs/llm-wire-contract.md): reads one JSON object
 * {"items": [...], "options": {...}} from stdin, records every item through the client's low-level record(Map), closes
 * the client (which flushes), and prints {"sent": n, "dropped": n} on one line. Env: VIGIL_BASE_URL, VIGIL_PROJECT_KEY.
 *
 * <pre>
 * cd clients/java &amp;&amp; ./build.sh &amp;&amp; java -cp build/classes dev.vigil.conformance.ConformanceDriver &lt; input.json
 * </pre>
 */
public final class ConformanceDriver {
    private ConformanceDriver() {}

    private static int option(Map<?, ?> options, String key, int fallback) {
        return options.get(key) instanceof Number n ? n.intValue() : fallback;
    }

    public static void main(String[] args) throws IOException {
        Object input;
        try {
            input = Json.parse(new String(System.in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            input = null;
        }
        if (!(input instanceof Map<?, ?> in) || !(in.get("items") instanceof List<?> items)) {
            System.err.println("conformance-driver: stdin is not the suite's JSON object {\"items\": [...], \"options\": {...}}");
            System.exit(2);
            return;
        }
        Map<?, ?> o = in.get("options") instanceof Map<?, ?> m ? m : Map.of();
        Vigil.Builder builder = Vigil.builder()
            .url(System.getenv("VIGIL_BASE_URL"))
            .projectKey(System.getenv("VIGIL_PROJECT_KEY"))
            .batchSize(option(o, "max_batch_items", 0))
            .maxBufferItems(option(o, "max_buffer_items", 0))
            .maxRetries(option(o, "max_retries", -1))
            // Close's deadline covers every retry the options allow, so a slow scripted answer is waited for, not dropped.
            .shutdownTimeout(Duration.ofSeconds(60))
            .shutdownHook(false)
            .onError(e -> System.err.println(e));
        int flush = option(o, "flush_interval_ms", 0);
        if (flush > 0) builder.flushInterval(Duration.ofMillis(flush));
        int base = option(o, "retry_base_ms", 0);
        if (base > 0) builder.retryBase(Duration.ofMillis(base));
        int timeout = option(o, "timeout_ms", 0);
        if (timeout > 0) builder.timeout(Duration.ofMillis(timeout));
        Vigil vigil = builder.build();
        for (Object item : items) {
            if (item instanceof Map<?, ?> fields) {
                @SuppressWarnings("unchecked") Map<String, ?> typed = (Map<String, ?>) fields;
                vigil.record(typed);
            } else {
                vigil.recordJson(Json.write(item));
            }
        }
        vigil.close();
        Stats s = vigil.stats();
        System.out.println("{\"sent\":" + s.sent() + ",\"dropped\":" + s.dropped() + "}");
    }
}
