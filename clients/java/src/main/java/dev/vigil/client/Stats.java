package dev.vigil.client;

/**
 * A client's counters. {@code sent}: items Vigil accepted; {@code dropped}: items the client gave up on (buffer full,
 * a refused batch, retries exhausted, not delivered by close, recorded after close, invalid); {@code rejected}: items
 * Vigil rejected one by one in its 202 (never retried); {@code retries}: attempts after a batch's first;
 * {@code buffered} and {@code bufferedBytes}: what is held now, in flight included.
 */
public record Stats(long sent, long dropped, long rejected, long retries, int buffered, long bufferedBytes) {}
