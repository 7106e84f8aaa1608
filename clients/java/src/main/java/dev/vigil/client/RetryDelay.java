package dev.vigil.client;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/** How long to wait before a batch's next attempt: the server's Retry-After when it gave one, else backoff. */
final class RetryDelay {
    private RetryDelay() {}

    /**
     * Exponential backoff with equal jitter: attempt n waits between cap/2 and cap, cap = min(max, base·2ⁿ). Clients
     * that failed together spread out, and none retries at once.
     */
    static long backoffMs(int attempt, long baseMs, long maxMs, DoubleSupplier random) {
        double cap = Math.min((double) maxMs, baseMs * Math.pow(2, Math.min(attempt, 30)));
        return Math.round(cap / 2 + random.getAsDouble() * (cap / 2));
    }

    /** A Retry-After header in ms: delta-seconds (fractions accepted) or an HTTP-date from now; empty when unreadable. */
    static Optional<Long> parseRetryAfter(String header, Instant now) {
        if (header == null) return Optional.empty();
        String text = header.trim();
        if (text.isEmpty()) return Optional.empty();
        if (Character.isDigit(text.charAt(0))) {
            try {
                return Optional.of(Math.round(Double.parseDouble(text) * 1000));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        try {
            Instant at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return Optional.of(Math.max(0, Duration.between(now, at).toMillis()));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}
