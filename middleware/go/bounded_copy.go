package vigil

import "sync"

// byteBudget counts the bytes of body copies held at once (Options.QueueBytes), from the first chunk copied until
// governance is done with them.
type byteBudget struct {
	mu    sync.Mutex
	limit int
	held  int
}

func (b *byteBudget) take(n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.held+n > b.limit {
		return false
	}
	b.held += n
	return true
}

func (b *byteBudget) give(n int) {
	b.mu.Lock()
	b.held -= n
	if b.held < 0 {
		b.held = 0
	}
	b.mu.Unlock()
}

func (b *byteBudget) current() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.held
}

// A body of unknown length starts with room for its first chunk (at least this much) and doubles up to the limit.
const initialCopyCapacity = 1024

// boundedCopy is a copy of a body as it streams past (gateway/exchange/bounded-copy.ts): the first `limit`
// bytes, and whether more went by. Memory: one buffer of at most `limit` bytes, sized to the declared length when
// there is one, taken from the budget before it is allocated; when the budget has no room the copy is dropped
// whole, so a body is missing, never silently shorter.
type boundedCopy struct {
	limit     int
	expected  int
	budget    *byteBudget
	buffer    []byte
	truncated bool
	dropped   bool
	held      int
}

func newBoundedCopy(limit, expected int, budget *byteBudget) *boundedCopy {
	return &boundedCopy{limit: limit, expected: expected, budget: budget}
}

func (c *boundedCopy) push(chunk []byte) {
	if c.dropped {
		return
	}
	room := c.limit - len(c.buffer)
	if len(chunk) > room {
		c.truncated = true
	}
	n := len(chunk)
	if room < n {
		n = room
	}
	if n <= 0 {
		return
	}
	needed := len(c.buffer) + n
	if cap(c.buffer) < needed && !c.grow(needed) {
		c.drop()
		return
	}
	c.buffer = append(c.buffer, chunk[:n]...)
}

func (c *boundedCopy) grow(needed int) bool {
	var capacity int
	if c.buffer == nil && c.expected >= needed {
		capacity = min(c.expected, c.limit)
	} else {
		capacity = min(c.limit, max(needed, max(initialCopyCapacity, cap(c.buffer)*2)))
	}
	more := capacity - cap(c.buffer)
	if !c.budget.take(more) {
		return false
	}
	c.held += more
	next := make([]byte, len(c.buffer), capacity)
	copy(next, c.buffer)
	c.buffer = next
	return true
}

func (c *boundedCopy) drop() {
	c.release()
	c.dropped = true
	c.truncated = false
}

func (c *boundedCopy) release() {
	c.budget.give(c.held)
	c.held = 0
	c.buffer = nil
}

// handOver gives the bytes kept (empty when dropped); the budget keeps counting their buffer (held) until
// governance is done with them.
func (c *boundedCopy) handOver() []byte {
	out := c.buffer
	if out == nil {
		out = []byte{}
	}
	c.buffer = nil
	return out
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func max(a, b int) int {
	if a > b {
		return a
	}
	return b
}
