import com.sun.management.OperatingSystemMXBean;
import dev.vigil.client.Span;
import dev.vigil.client.Stats;
import dev.vigil.client.Vigil;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Measures the Java client's CPU (bench/java-client.ts): rounds of the same OpenAI-compatible chat completion, made
 * plain and made inside a Span filled by openAiChat, alternated in one JVM after a warm-up (the JIT's). CPU is the
 * process's, every thread (the sender's encoding, gzip and HTTP included: a traced round ends with a flush). Also:
 * traces recorded by hand. Prints one JSON object.
 * Usage: java -cp CLASSES JavaClientRounds.java OPENAI_BASE_URL INGEST_URL CALLS ROUNDS
 */
public class JavaClientRounds {
    static final String BODY = "{\"model\":\"gpt-4o-mini\",\"temperature\":0.2,\"messages\":[{\"role\":\"system\",\"content\":\"You are the support assistant of Acme. "
        + "Answer the customer in one sentence.\"},{\"role\":\"user\",\"content\":\"Where is my order? It was due on Monday and I have not heard from you.\"}]}";
    static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    interface Call { void run() throws Exception; }

    /** CPU per call of n calls of fn, in µs. */
    static double perCall(int n, Call fn) throws Exception {
        long start = OS.getProcessCpuTime();
        for (int i = 0; i < n; i++) fn.run();
        return (OS.getProcessCpuTime() - start) / 1000.0 / n;
    }

    public static void main(String[] args) throws Exception {
        String chat = args[0] + "/chat/completions";
        int calls = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        List<String> errors = new ArrayList<>();
        Vigil vigil = Vigil.builder().url(args[1]).projectKey("test-key").flushInterval(Duration.ofMillis(50)).shutdownHook(false)
            .onError(e -> errors.add(e.toString())).build();
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create(chat)).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(BODY)).build();
        Call plain = () -> http.send(request, HttpResponse.BodyHandlers.ofString()).body();
        Call traced = () -> {
            try (Span span = vigil.trace("gpt-4o-mini")) {
                span.openAiChat(BODY, http.send(request, HttpResponse.BodyHandlers.ofString()).body());
            }
        };
        Call byHand = () -> {
            try (Span span = vigil.trace("gpt-4o-mini").input("Where is my order?")) {
                span.output("It ships today.").tokens(21, 7);
            }
        };
        // The JIT's warm-up: every path compiled (C2 included) before the first measured round; compiler threads still
        // at work would be counted in whichever round they fell.
        for (int i = 0; i < 10; i++) {
            perCall(calls, plain);
            perCall(calls, traced);
            perCall(calls, byHand);
            vigil.flush(Duration.ofSeconds(30));
        }
        List<Double> untracedUs = new ArrayList<>(), tracedUs = new ArrayList<>(), recordUs = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            untracedUs.add(perCall(calls, plain));
            tracedUs.add(roundWithFlush(vigil, calls, traced));
            recordUs.add(roundWithFlush(vigil, calls, byHand));
        }
        vigil.close();
        Stats s = vigil.stats();
        System.out.println(dev.vigil.client.Json.write(Map.of("untraced_us", untracedUs, "traced_us", tracedUs, "record_us", recordUs,
            "stats", Map.of("sent", s.sent(), "dropped", s.dropped()), "errors", errors)));
    }

    /** CPU per call of a round of `calls` calls, with the flush that sends the round's traces. */
    static double roundWithFlush(Vigil vigil, int calls, Call fn) throws Exception {
        long start = OS.getProcessCpuTime();
        for (int i = 0; i < calls; i++) fn.run();
        vigil.flush(Duration.ofSeconds(30));
        return (OS.getProcessCpuTime() - start) / 1000.0 / calls;
    }
}
