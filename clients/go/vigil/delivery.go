package vigil

import (
	"fmt"
	"strings"
	"time"
)

// run is the sending goroutine: one batch in flight at a time, in order. A batch leaves when BatchSize items wait,
// when the flush interval passed, or when a Flush waits.
func (c *Client) run() {
	defer close(c.done)
	for {
		select {
		case <-c.wake:
		case <-c.stopCtx.Done():
			return
		}
		for {
			c.mu.Lock()
			pending := c.buf.pending()
			if c.stopped || pending == 0 || !(c.drainWanted || c.flushing > 0 || pending >= c.o.batchSize) {
				if pending == 0 {
					c.drainWanted = false
				} else {
					c.armInterval()
				}
				c.mu.Unlock()
				break
			}
			batch := c.buf.take(c.o.batchSize, c.o.maxBatchBytes)
			c.mu.Unlock()
			c.deliverSafely(batch)
			c.mu.Lock()
			c.buf.release(batch)
			c.notifySettled()
			c.mu.Unlock()
		}
	}
}

// deliverSafely is deliver, with a bug of ours counted and reported rather than ending the goroutine.
func (c *Client) deliverSafely(batch []encoded) {
	defer func() {
		if r := recover(); r != nil {
			c.drop(len(batch), CodeInternal, fmt.Sprintf("sending loop: %v", r), 0)
		}
	}()
	c.deliver(batch)
}

func (c *Client) isStopped() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopped
}

// deliver sends one batch until it settles; every outcome is counted here.
func (c *Client) deliver(batch []encoded) {
	for attempt := 0; ; attempt++ {
		if c.isStopped() {
			c.drop(len(batch), CodeNotDelivered, fmt.Sprintf("%d trace item(s) waiting for a retry were not delivered before the client stopped", len(batch)), 0)
			return
		}
		o := c.post(c.stopCtx, batch)
		switch o.kind {
		case accepted:
			c.mu.Lock()
			c.stats.Sent += int64(o.accepted)
			c.stats.Rejected += int64(o.rejected)
			c.mu.Unlock()
			if o.rejected > 0 {
				var detail []string
				for i, e := range o.errors {
					if i == 5 {
						break
					}
					detail = append(detail, strings.TrimSpace(fmt.Sprintf("#%d %s: %s %s", e.Index, e.Path, e.Code, e.Message)))
				}
				c.report(&Error{Code: CodeItemsRejected, Items: o.rejected, Status: o.status,
					Message: fmt.Sprintf("Vigil rejected %d of %d item(s): %s", o.rejected, len(batch), strings.Join(detail, "; "))})
			}
			return
		case tooLarge:
			if len(batch) > 1 {
				// Halves are new requests, each with its own retries: the server's limit is below ours.
				half := (len(batch) + 1) / 2
				c.deliver(batch[:half])
				c.deliver(batch[half:])
			} else {
				c.drop(1, CodeTooLarge, fmt.Sprintf("Vigil refused one trace item as too large (%d bytes): %s", len(batch[0].json), o.reason), 413)
			}
			return
		case refused:
			code := CodeBatchRefused
			if o.status == 401 || o.status == 403 {
				code = CodeAuth
			}
			c.drop(len(batch), code, fmt.Sprintf("Vigil refused a batch of %d item(s): %s", len(batch), o.reason), o.status)
			return
		case retry:
			if c.isStopped() {
				c.drop(len(batch), CodeNotDelivered, fmt.Sprintf("%d trace item(s) in flight were not delivered before the client stopped (%s)", len(batch), o.reason), 0)
				return
			}
			if attempt >= c.o.maxRetries {
				c.drop(len(batch), CodeRetriesExhausted, fmt.Sprintf("a batch of %d item(s) failed %d time(s), last: %s", len(batch), attempt+1, o.reason), o.status)
				return
			}
			c.mu.Lock()
			c.stats.Retries++
			c.mu.Unlock()
			wait := o.retryAfter
			if !o.hasRetry {
				wait = backoff(attempt, c.o.retryBase, c.o.retryMax, jitter)
			}
			timer := time.NewTimer(wait)
			select {
			case <-timer.C:
			case <-c.stopCtx.Done():
				timer.Stop()
			}
		}
	}
}

func (c *Client) drop(items int, code Code, message string, status int) {
	c.mu.Lock()
	c.stats.Dropped += int64(items)
	c.mu.Unlock()
	c.report(&Error{Code: code, Message: message, Items: items, Status: status})
}
