package vigil

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// Stats are a client's counters.
type Stats struct {
	// Sent is the items Vigil accepted.
	Sent int64 `json:"sent"`
	// Dropped is the items the client gave up on: buffer full, a refused batch, retries exhausted, not delivered by
	// Close, recorded after Close, invalid, or recorded by a client without a usable URL or key.
	Dropped int64 `json:"dropped"`
	// Rejected is the items Vigil rejected one by one in its 202 (counted, never retried).
	Rejected int64 `json:"rejected"`
	// Retries is the attempts after a batch's first.
	Retries int64 `json:"retries"`
	// Buffered is the items held now, waiting or in flight; BufferedBytes their JSON.
	Buffered      int `json:"buffered"`
	BufferedBytes int `json:"buffered_bytes"`
}

// Client records traces and sends them to Vigil from one goroutine. Its methods are safe for concurrent use and never
// panic into the application. Close it (defer client.Close()) to send what is buffered.
type Client struct {
	o resolved

	mu          sync.Mutex
	buf         traceBuffer
	stats       Stats
	quiet       map[Code]bool
	drainWanted bool
	flushing    int
	interval    *time.Timer
	stopped     bool
	// recordsStarted and recordsDone count the Transport's calls being turned into traces off the application's
	// goroutine: a Flush waits for those started before it, so a trace read just before Close is not lost.
	recordsStarted, recordsDone int64
	// settled is closed and replaced whenever items settle or the client stops: what Flush waits on.
	settled chan struct{}

	// zw is the sending goroutine's gzip writer, reused for every batch.
	zw *gzip.Writer

	wake       chan struct{}
	stopCtx    context.Context
	stopCancel context.CancelFunc
	done       chan struct{}
	closeOnce  sync.Once
	closeErr   error
}

// New makes a client and starts its sending goroutine. It never fails: without a usable URL or project key the
// client records nothing, counts what it drops, and reports why once through OnError, before New returns.
func New(options Options) *Client {
	c := &Client{o: resolve(options), quiet: map[Code]bool{}, settled: make(chan struct{}), wake: make(chan struct{}, 1), done: make(chan struct{})}
	c.buf = traceBuffer{maxItems: c.o.maxBufferItems, maxBytes: c.o.maxBufferBytes}
	c.stopCtx, c.stopCancel = context.WithCancel(context.Background())
	if c.o.unusable != "" {
		close(c.done)
		c.report(&Error{Code: CodeConfig, Message: "the Vigil client records nothing: " + c.o.unusable})
		return c
	}
	go c.run()
	return c
}

// Trace records a finished call by hand, with the attributes ctx carries (WithAttributes) underneath its own fields.
// It returns the trace's id, or "" when it was dropped (no model, buffer full, client closed).
func (c *Client) Trace(ctx context.Context, t Trace) string {
	if t.Model == "" {
		c.countDrop(&Error{Code: CodeInvalidItem, Message: "a trace without a model was dropped", Items: 1})
		return ""
	}
	if t.ID == "" {
		t.ID = newUUID()
	}
	item, err := encodeItem(t.withAttributes(attributesOf(ctx)).wire(c.o.omitContent), c.o.maxItemBytes)
	if err != nil {
		c.countDrop(&Error{Code: CodeInvalidItem, Message: "a trace could not be encoded as JSON: " + err.Error(), Items: 1})
		return ""
	}
	if !c.enqueue(item) {
		return ""
	}
	return t.ID
}

// RecordJSON records one wire item given as a JSON object, sent as it is, but with an "id" (a UUID) added when it has
// none. It returns the item's id, or "" when the item was dropped. The low-level path: Trace builds the item for you.
func (c *Client) RecordJSON(item []byte) string {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(item, &fields); err != nil || fields == nil {
		c.countDrop(&Error{Code: CodeInvalidItem, Message: "RecordJSON takes one JSON object", Items: 1})
		return ""
	}
	var id string
	if raw, ok := fields["id"]; !ok || json.Unmarshal(raw, &id) != nil || id == "" {
		id = newUUID()
		fields["id"], _ = json.Marshal(id)
	}
	b, err := json.Marshal(fields)
	if err != nil || !c.enqueue(encoded{json: b}) {
		return ""
	}
	return id
}

// Stats returns the client's counters.
func (c *Client) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Buffered, s.BufferedBytes = c.buf.heldItems, c.buf.heldBytes
	return s
}

// Flush sends everything recorded so far and waits until it has settled (sent, rejected or dropped), or until ctx is
// done: then it returns ctx's error and the items stay buffered.
func (c *Client) Flush(ctx context.Context) error {
	c.mu.Lock()
	started := c.recordsStarted
	for c.recordsDone < started && !c.stopped {
		ch := c.settled
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
		c.mu.Lock()
	}
	target := c.buf.added
	if c.buf.settled >= target || c.stopped {
		c.mu.Unlock()
		return nil
	}
	c.flushing++
	c.drainWanted = true
	c.mu.Unlock()
	c.kick()
	defer func() {
		c.mu.Lock()
		c.flushing--
		c.mu.Unlock()
	}()
	for {
		c.mu.Lock()
		if c.buf.settled >= target || c.stopped {
			c.mu.Unlock()
			return nil
		}
		ch := c.settled
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Close flushes for at most ShutdownTimeout, then stops: what could not be sent is dropped and counted, and later
// traces are dropped. It returns an error naming how many items were not delivered, else nil. Safe to call twice.
func (c *Client) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), c.o.shutdownTimeout)
	defer cancel()
	return c.Shutdown(ctx)
}

// Shutdown is Close with the deadline of ctx.
func (c *Client) Shutdown(ctx context.Context) error {
	c.closeOnce.Do(func() {
		before := c.Stats().Dropped
		_ = c.Flush(ctx)
		c.mu.Lock()
		c.stopped = true
		if c.interval != nil {
			c.interval.Stop()
		}
		dropped := c.buf.dropPending()
		c.stats.Dropped += int64(dropped)
		c.notifySettled()
		c.mu.Unlock()
		c.stopCancel()
		if dropped > 0 {
			c.report(&Error{Code: CodeNotDelivered, Message: fmt.Sprintf("%d trace item(s) were not sent before the client stopped", dropped), Items: dropped})
		}
		<-c.done
		if lost := c.Stats().Dropped - before; lost > 0 {
			c.closeErr = &Error{Code: CodeNotDelivered, Message: fmt.Sprintf("%d trace item(s) were dropped while closing", lost), Items: int(lost)}
		}
	})
	return c.closeErr
}

// recording runs fn, which turns an observed call into a trace, on a goroutine of its own, counted for Flush.
func (c *Client) recording(fn func()) {
	c.mu.Lock()
	c.recordsStarted++
	c.mu.Unlock()
	go func() {
		defer func() {
			c.mu.Lock()
			c.recordsDone++
			c.notifySettled()
			c.mu.Unlock()
		}()
		fn()
	}()
}

// enqueue queues one encoded item, or drops and counts it when the buffer is at its bound or the client stopped.
func (c *Client) enqueue(item encoded) bool {
	c.mu.Lock()
	if c.o.unusable != "" {
		c.stats.Dropped++
		c.mu.Unlock()
		return false
	}
	if c.stopped {
		e := c.dropQuietly(CodeClosed, "a trace was recorded after the client closed; it and any later ones are dropped")
		c.mu.Unlock()
		c.report(e)
		return false
	}
	if !c.buf.add(item) {
		e := c.dropQuietly(CodeBufferFull, fmt.Sprintf("the buffer is full (%d items, %d bytes held; bounds %d items, %d bytes): "+
			"Vigil is slow or unreachable; traces are dropped until it drains", c.buf.heldItems, c.buf.heldBytes, c.buf.maxItems, c.buf.maxBytes))
		c.mu.Unlock()
		c.report(e)
		return false
	}
	delete(c.quiet, CodeBufferFull)
	full := c.buf.pending() >= c.o.batchSize
	if !full {
		c.armInterval()
	}
	c.mu.Unlock()
	if full {
		c.kick()
	}
	return true
}

// armInterval makes the pending items leave after FlushInterval. Called with mu held.
func (c *Client) armInterval() {
	if c.interval != nil || c.stopped {
		return
	}
	c.interval = time.AfterFunc(c.o.flushInterval, func() {
		c.mu.Lock()
		c.interval = nil
		c.drainWanted = true
		c.mu.Unlock()
		c.kick()
	})
}

func (c *Client) kick() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// notifySettled wakes every Flush. Called with mu held.
func (c *Client) notifySettled() {
	close(c.settled)
	c.settled = make(chan struct{})
}

// dropQuietly counts one dropped item and returns the error to report, only for the first of a run with the same
// code: a full buffer reports once per episode, not once per trace. Called with mu held.
func (c *Client) dropQuietly(code Code, message string) *Error {
	c.stats.Dropped++
	if c.quiet[code] {
		return nil
	}
	c.quiet[code] = true
	return &Error{Code: code, Message: message, Items: 1}
}

func (c *Client) countDrop(e *Error) {
	c.mu.Lock()
	c.stats.Dropped += int64(e.Items)
	c.mu.Unlock()
	c.report(e)
}

// report hands e to OnError; OnError belongs to the application, so its panic is not the application's problem here.
func (c *Client) report(e *Error) {
	if e == nil {
		return
	}
	defer func() { _ = recover() }()
	c.o.onError(e)
}
