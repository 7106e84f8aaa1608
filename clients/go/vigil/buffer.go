package vigil

// traceBuffer holds the encoded items waiting to be sent plus those of the batch in flight, bounded in count and in
// bytes: a batch counts against the bounds until it settles (sent, rejected or dropped), so the bounds hold everything
// the client keeps. Memory: at most maxItems items and maxBytes bytes of their JSON. Not safe for concurrent use: the
// client guards it with its mutex.
type traceBuffer struct {
	maxItems, maxBytes int
	queue              []encoded
	heldItems          int
	heldBytes          int
	// added and settled count items ever added and ever settled: a flush waits for settled to reach added.
	added, settled int64
}

func (b *traceBuffer) pending() int { return len(b.queue) }

// add queues the item, or returns false when it would pass either bound (the caller drops and counts it).
func (b *traceBuffer) add(item encoded) bool {
	if b.heldItems+1 > b.maxItems || b.heldBytes+len(item.json) > b.maxBytes {
		return false
	}
	b.queue = append(b.queue, item)
	b.heldItems++
	b.heldBytes += len(item.json)
	b.added++
	return true
}

// take is the next batch: up to maxItems items and maxBytes bytes of item JSON, but always one item when any is pending.
func (b *traceBuffer) take(maxItems, maxBytes int) []encoded {
	n, bytes := 0, 0
	for n < len(b.queue) && n < maxItems {
		size := len(b.queue[n].json)
		if n > 0 && bytes+size > maxBytes {
			break
		}
		bytes += size
		n++
	}
	batch := make([]encoded, n)
	copy(batch, b.queue[:n])
	// Shift by copying so the backing array does not keep sent items reachable.
	rest := copy(b.queue, b.queue[n:])
	for i := rest; i < len(b.queue); i++ {
		b.queue[i] = encoded{}
	}
	b.queue = b.queue[:rest]
	return batch
}

// release marks a batch settled: its items stop counting against the bounds.
func (b *traceBuffer) release(batch []encoded) {
	for _, item := range batch {
		b.heldBytes -= len(item.json)
	}
	b.heldItems -= len(batch)
	b.settled += int64(len(batch))
}

// dropPending drops every item not yet taken and returns how many there were.
func (b *traceBuffer) dropPending() int {
	dropped := b.queue
	b.queue = nil
	b.release(dropped)
	return len(dropped)
}
