package vigil

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"sync"
	"time"
)

// The records' way to the agent (middleware/core/record-shipper.ts): `POST <agent>/api/gateway/records` with
// `{"records":[…]}` and the ingest token, in batches, one POST at a time. Network errors, timeouts, 429 and 5xx
// keep the batch at the head of the queue and retry it with exponential backoff; another 4xx drops it. The queue
// is bounded: when full, the newest records are dropped and counted. Nothing here blocks or fails the app.

const maxBatchBytes = 4 * 1024 * 1024

type shipper struct {
	url, token    string
	maxQueue      int
	maxBatch      int
	flushInterval time.Duration
	timeout       time.Duration
	minBackoff    time.Duration
	maxBackoff    time.Duration
	client        *http.Client
	report        func(error)

	sendMu                           sync.Mutex // one POST at a time, whoever sends it (the loop or a flush)
	mu                               sync.Mutex
	queue                            [][]byte
	wake                             chan struct{}
	stop                             chan struct{}
	done                             chan struct{}
	loopCtx                          context.Context
	cancel                           context.CancelFunc
	attempt                          int
	closed                           bool
	sent, dropped, rejected, retries int
}

func (s *shipper) start() {
	s.wake = make(chan struct{}, 1)
	s.stop = make(chan struct{})
	s.done = make(chan struct{})
	s.loopCtx, s.cancel = context.WithCancel(context.Background())
	go s.loop()
}

// push queues governed records (their JSON text); never blocks.
func (s *shipper) push(record []byte) {
	s.mu.Lock()
	if s.closed || len(s.queue) >= s.maxQueue {
		s.dropped++
		s.mu.Unlock()
		return
	}
	s.queue = append(s.queue, record)
	full := len(s.queue) >= s.maxBatch
	s.mu.Unlock()
	if full {
		s.poke()
	}
}

func (s *shipper) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *shipper) queued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// loop sends a batch when maxBatch records wait or flushInterval after the last send, and backs off after failures.
func (s *shipper) loop() {
	defer close(s.done)
	timer := time.NewTimer(s.flushInterval)
	defer timer.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-s.wake:
		case <-timer.C:
		}
		for s.queued() > 0 {
			ok := s.sendOne(s.loopCtx)
			if !ok {
				break
			}
			if s.queued() < s.maxBatch {
				break
			}
		}
		wait := s.flushInterval
		s.mu.Lock()
		if s.attempt > 0 {
			wait = s.backoff()
		}
		s.mu.Unlock()
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(wait)
	}
}

func (s *shipper) backoff() time.Duration {
	shift := s.attempt - 1
	if shift > 20 {
		shift = 20
	}
	base := s.minBackoff << shift
	if base > s.maxBackoff || base <= 0 {
		base = s.maxBackoff
	}
	// Full jitter in the upper half: app instances coming back at once do not retry in step.
	return base/2 + time.Duration(rand.Int63n(int64(base/2)+1))
}

var errRejected = errors.New("rejected")

// sendOne POSTs the records at the head of the queue; false when it failed and will be retried.
func (s *shipper) sendOne(ctx context.Context) bool {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	s.mu.Lock()
	count, size := 0, 0
	for count < len(s.queue) && count < s.maxBatch {
		size += len(s.queue[count]) + 1
		if count > 0 && size > maxBatchBytes {
			break
		}
		count++
	}
	if count == 0 {
		s.mu.Unlock()
		return true
	}
	body := make([]byte, 0, size+16)
	body = append(body, `{"records":[`...)
	for i := 0; i < count; i++ {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, s.queue[i]...)
	}
	body = append(body, "]}"...)
	s.mu.Unlock()

	err := s.post(ctx, body, count)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case err == nil:
		s.queue = s.queue[count:]
		s.sent += count
		s.attempt = 0
		return true
	case errors.Is(err, errRejected):
		s.queue = s.queue[count:]
		s.rejected += count
		s.attempt = 0
		s.report(err)
		return true
	}
	s.attempt++
	s.retries++
	s.report(fmt.Errorf("sending %d record(s) to %s failed (attempt %d, retrying): %w", count, s.url, s.attempt, err))
	return false
}

func (s *shipper) post(ctx context.Context, body []byte, count int) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+s.token)
	res, err := s.client.Do(req)
	if err != nil {
		return err
	}
	text, _ := io.ReadAll(io.LimitReader(res.Body, 300))
	res.Body.Close()
	if res.StatusCode >= 200 && res.StatusCode < 300 {
		return nil
	}
	message := fmt.Sprintf("the agent answered %d to %d record(s): %s", res.StatusCode, count, text)
	if res.StatusCode == 429 || res.StatusCode >= 500 {
		return errors.New(message)
	}
	return fmt.Errorf("%w: %s", errRejected, message)
}

// flush sends what is queued, retrying with backoff until it is delivered or ctx is done.
func (s *shipper) flush(ctx context.Context) {
	for s.queued() > 0 && ctx.Err() == nil {
		if s.sendOne(ctx) {
			continue
		}
		s.mu.Lock()
		wait := s.backoff()
		s.mu.Unlock()
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
	}
}

// close flushes within ctx, then stops the loop; later records are dropped.
func (s *shipper) close(ctx context.Context) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	// A POST of the loop's in flight (to an agent that hangs) is given up: the flush below retries it in ctx.
	s.cancel()
	close(s.stop)
	<-s.done
	s.flush(ctx)
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}
