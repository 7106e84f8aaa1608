package vigil

import (
	"sync"
	"time"
)

// Governance runs in the application's process, after the responses: finished exchanges wait in a bounded queue
// (Options.MaxPending; beyond it they are dropped and counted), and a few goroutines govern them and hand the
// records to the shipper. Raw exchanges never leave the process; only governed records do.
type governancePool struct {
	policy   *compiledPolicy
	options  governOptions
	budget   *byteBudget
	queue    chan *pendingExchange
	deliver  func([]byte)
	wg       sync.WaitGroup
	mu       sync.Mutex
	dropped  int
	governNs int64
	inFlight sync.WaitGroup
	closing  sync.Once
	state    sync.RWMutex // held to read while pushing, to write while closing: nothing is sent on a closed queue
	isClosed bool
}

type pendingExchange struct {
	exchange *rawExchange
	decision *routeDecision
	complete func() // finishes the exchange (its id and header lists) on the governing goroutine
}

func newGovernancePool(policy *compiledPolicy, o governOptions, budget *byteBudget, maxPending, workers int, deliver func([]byte)) *governancePool {
	p := &governancePool{policy: policy, options: o, budget: budget, queue: make(chan *pendingExchange, maxPending), deliver: deliver}
	for i := 0; i < workers; i++ {
		p.wg.Add(1)
		go p.work()
	}
	return p
}

// push queues an exchange; false (and its bytes given back) when the queue is full. Never blocks.
func (p *governancePool) push(e *rawExchange, d *routeDecision, complete func()) bool {
	p.state.RLock()
	defer p.state.RUnlock()
	p.inFlight.Add(1)
	if p.isClosed {
		p.inFlight.Done()
		p.budget.give(e.heldBytes)
		return false
	}
	select {
	case p.queue <- &pendingExchange{e, d, complete}:
		return true
	default:
		p.inFlight.Done()
		p.budget.give(e.heldBytes)
		p.mu.Lock()
		p.dropped++
		p.mu.Unlock()
		return false
	}
}

func (p *governancePool) work() {
	defer p.wg.Done()
	for item := range p.queue {
		started := time.Now()
		if item.complete != nil {
			item.complete()
		}
		record := governForStorage(item.exchange, item.decision, p.options)
		json := recordJSON(record)
		p.budget.give(item.exchange.heldBytes)
		p.mu.Lock()
		p.governNs += int64(time.Since(started))
		p.mu.Unlock()
		p.deliver(json)
		p.inFlight.Done()
	}
}

// wait returns once every exchange queued so far is governed and delivered.
func (p *governancePool) wait() { p.inFlight.Wait() }

func (p *governancePool) close() {
	p.closing.Do(func() {
		p.state.Lock()
		p.isClosed = true
		p.state.Unlock()
		p.inFlight.Wait()
		close(p.queue)
		p.wg.Wait()
	})
}
