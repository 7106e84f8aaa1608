package dev.vigil.client;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The encoded items waiting to be sent plus those of the batch in flight, bounded in count and in bytes: a batch counts
 * against the bounds until it settles (sent, rejected or dropped), so the bounds hold everything the client keeps.
 * Memory: at most maxItems items and maxBytes bytes of their UTF-8 JSON. Not thread-safe: Delivery guards it.
 */
final class TraceBuffer {
    /** One trace item as the JSON text that goes into a batch, encoded once, when recorded. */
    record Item(String json, int bytes) {}

    final int maxItems;
    final long maxBytes;
    private final ArrayDeque<Item> queue = new ArrayDeque<>();
    int heldItems;
    long heldBytes;
    /** Items ever added and ever settled: a flush waits for settled to reach added. */
    long added;
    long settled;

    TraceBuffer(int maxItems, long maxBytes) {
        this.maxItems = maxItems;
        this.maxBytes = maxBytes;
    }

    int pending() { return queue.size(); }

    /** Adds the item, or returns false when it would pass either bound (the caller drops and counts it). */
    boolean add(Item item) {
        if (heldItems + 1 > maxItems || heldBytes + item.bytes() > maxBytes) return false;
        queue.addLast(item);
        heldItems++;
        heldBytes += item.bytes();
        added++;
        return true;
    }

    /** The next batch: up to maxItems items and maxBytes bytes, but always one item when any is pending. */
    List<Item> take(int maxItems, long maxBytes) {
        List<Item> batch = new ArrayList<>();
        long bytes = 0;
        while (!queue.isEmpty() && batch.size() < maxItems) {
            Item next = queue.peekFirst();
            if (!batch.isEmpty() && bytes + next.bytes() > maxBytes) break;
            batch.add(queue.pollFirst());
            bytes += next.bytes();
        }
        return batch;
    }

    /** The batch has settled: its items stop counting against the bounds. */
    void release(List<Item> batch) {
        for (Item item : batch) heldBytes -= item.bytes();
        heldItems -= batch.size();
        settled += batch.size();
    }

    /** Drops every item not yet taken and returns how many there were. */
    int dropPending() {
        List<Item> dropped = new ArrayList<>(queue);
        queue.clear();
        release(dropped);
        return dropped.size();
    }
}
