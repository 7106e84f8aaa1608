package dev.vigil.client;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Ships the buffer to Vigil from one executor thread (a daemon: it never keeps the JVM alive): a batch when batchSize
 * items wait, everything pending after flushInterval, and everything on flush(). One batch is in flight at a time, in
 * order; a batch is retried (same bytes, same item ids, so the server stores it once) on network errors, 5xx and 429,
 * after the server's Retry-After or an exponential backoff with jitter, at most maxRetries times. A 413 splits the
 * batch in halves; any other 4xx drops it. Every loss is counted and reported through {@code report}, never thrown.
 */
final class Delivery {
    record Settings(int batchSize, long maxBatchBytes, long flushIntervalMs, int maxRetries, long retryBaseMs, long retryMaxMs) {}

    private final TraceBuffer buffer;
    private final Transport transport;
    private final Settings s;
    private final Consumer<VigilError> report;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled on every change the sending loop or a flush waits for: items, a flush, a settled batch, the stop. */
    private final Condition changed = lock.newCondition();
    private final ExecutorService executor;
    private final Set<String> quiet = new HashSet<>();
    private long sent, dropped, rejected, retries;
    private boolean drainWanted;
    private int flushing;
    private boolean stopped;
    /** System.nanoTime() when the oldest pending item started waiting for the interval. */
    private long waitingSince;

    Delivery(TraceBuffer buffer, Transport transport, Settings settings, Consumer<VigilError> report) {
        this.buffer = buffer;
        this.transport = transport;
        this.s = settings;
        this.report = report;
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "vigil-client-sender");
            t.setDaemon(true);
            return t;
        });
        executor.execute(this::loop);
    }

    /** Queues one encoded item, or drops and counts it when the buffer is at its bound or the client stopped. */
    boolean enqueue(TraceBuffer.Item item) {
        VigilError error = null;
        boolean queued = false;
        lock.lock();
        try {
            if (stopped) {
                error = dropQuietly(VigilError.CLOSED, "a trace was recorded after the client closed; it and any later ones are dropped");
            } else if (!buffer.add(item)) {
                error = dropQuietly(VigilError.BUFFER_FULL, "the buffer is full (" + buffer.heldItems + " items, " + buffer.heldBytes
                    + " bytes held; bounds " + buffer.maxItems + " items, " + buffer.maxBytes + " bytes): Vigil is slow or unreachable; traces are dropped until it drains");
            } else {
                queued = true;
                quiet.remove(VigilError.BUFFER_FULL);
                int pending = buffer.pending();
                if (pending == 1) waitingSince = System.nanoTime();
                if (pending == 1 || pending >= s.batchSize()) changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
        if (error != null) report.accept(error);
        return queued;
    }

    /** True once everything recorded before the call has settled (sent, rejected or dropped); false at the deadline. */
    boolean flush(long timeoutMs) {
        lock.lock();
        try {
            long target = buffer.added;
            if (buffer.settled >= target || stopped) return true;
            flushing++;
            changed.signalAll();
            try {
                long left = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
                while (buffer.settled < target && !stopped) {
                    if (left <= 0) return false;
                    left = changed.awaitNanos(left);
                }
                return buffer.settled >= target;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } finally {
                flushing--;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Stops: drops what is pending and what is in flight (counted), interrupts the request in flight. Idempotent. */
    void stop() {
        int pending;
        lock.lock();
        try {
            if (stopped) return;
            stopped = true;
            pending = buffer.dropPending();
            dropped += pending;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (pending > 0) report.accept(new VigilError(VigilError.NOT_DELIVERED, pending + " trace item(s) were not sent before the client stopped", pending, 0));
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    Stats stats() {
        lock.lock();
        try {
            return new Stats(sent, dropped, rejected, retries, buffer.heldItems, buffer.heldBytes);
        } finally {
            lock.unlock();
        }
    }

    /** Counts items dropped before they reached the buffer (invalid ones). */
    void countDropped(int items) {
        lock.lock();
        try { dropped += items; } finally { lock.unlock(); }
    }

    private void loop() {
        long interval = TimeUnit.MILLISECONDS.toNanos(s.flushIntervalMs());
        for (;;) {
            List<TraceBuffer.Item> batch;
            lock.lock();
            try {
                for (;;) {
                    if (stopped) return;
                    int pending = buffer.pending();
                    if (pending == 0) {
                        drainWanted = false;
                        changed.await();
                        continue;
                    }
                    long waited = System.nanoTime() - waitingSince;
                    if (waited >= interval) drainWanted = true;
                    if (drainWanted || flushing > 0 || pending >= s.batchSize()) break;
                    changed.awaitNanos(interval - waited);
                }
                batch = buffer.take(s.batchSize(), s.maxBatchBytes());
                if (buffer.pending() > 0 && !drainWanted) waitingSince = System.nanoTime();
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
            try {
                deliver(batch);
            } catch (RuntimeException e) {
                drop(batch.size(), VigilError.INTERNAL, "sending loop: " + e, 0);
            } finally {
                lock.lock();
                try {
                    buffer.release(batch);
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    private boolean isStopped() {
        lock.lock();
        try { return stopped; } finally { lock.unlock(); }
    }

    /** Sends one batch until it settles; every outcome is counted here. */
    private void deliver(List<TraceBuffer.Item> batch) {
        for (int attempt = 0; ; attempt++) {
            if (isStopped()) {
                drop(batch.size(), VigilError.NOT_DELIVERED, batch.size() + " trace item(s) waiting for a retry were not delivered before the client stopped", 0);
                return;
            }
            Transport.Outcome o = transport.post(batch);
            switch (o.kind()) {
                case ACCEPTED -> {
                    lock.lock();
                    try {
                        sent += o.accepted();
                        rejected += o.rejected();
                    } finally {
                        lock.unlock();
                    }
                    if (o.rejected() > 0) {
                        report.accept(new VigilError(VigilError.ITEMS_REJECTED, "Vigil rejected " + o.rejected() + " of " + batch.size() + " item(s): "
                            + String.join("; ", o.errors().subList(0, Math.min(5, o.errors().size()))), o.rejected(), o.status()));
                    }
                    return;
                }
                case TOO_LARGE -> {
                    if (batch.size() > 1) {
                        // Halves are new requests, each with its own retries: the server's limit is below ours.
                        int half = (batch.size() + 1) / 2;
                        deliver(new ArrayList<>(batch.subList(0, half)));
                        deliver(new ArrayList<>(batch.subList(half, batch.size())));
                    } else {
                        drop(1, VigilError.TOO_LARGE, "Vigil refused one trace item as too large (" + batch.get(0).bytes() + " bytes): " + o.reason(), 413);
                    }
                    return;
                }
                case REFUSED -> {
                    String code = o.status() == 401 || o.status() == 403 ? VigilError.AUTH : VigilError.BATCH_REFUSED;
                    drop(batch.size(), code, "Vigil refused a batch of " + batch.size() + " item(s): " + o.reason(), o.status());
                    return;
                }
                case RETRY -> {
                    if (isStopped()) {
                        drop(batch.size(), VigilError.NOT_DELIVERED, batch.size() + " trace item(s) in flight were not delivered before the client stopped (" + o.reason() + ")", 0);
                        return;
                    }
                    if (attempt >= s.maxRetries()) {
                        drop(batch.size(), VigilError.RETRIES_EXHAUSTED, "a batch of " + batch.size() + " item(s) failed " + (attempt + 1) + " time(s), last: " + o.reason(), o.status());
                        return;
                    }
                    long wait = o.retryAfterMs() != null ? o.retryAfterMs() : RetryDelay.backoffMs(attempt, s.retryBaseMs(), s.retryMaxMs(), Math::random);
                    lock.lock();
                    try {
                        retries++;
                        long left = TimeUnit.MILLISECONDS.toNanos(wait);
                        while (left > 0 && !stopped) left = changed.awaitNanos(left);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        lock.unlock();
                    }
                }
            }
        }
    }

    /** Counts one dropped item; returns the error to report only for the first of a run with the same code. Lock held. */
    private VigilError dropQuietly(String code, String message) {
        dropped++;
        return quiet.add(code) ? new VigilError(code, message, 1, 0) : null;
    }

    private void drop(int items, String code, String message, int status) {
        lock.lock();
        try { dropped += items; } finally { lock.unlock(); }
        report.accept(new VigilError(code, message, items, status));
    }
}
