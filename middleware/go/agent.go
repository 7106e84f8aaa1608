package vigil

import (
	"context"
	"fmt"
	"log"
	"math/rand"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Options of the middleware; the zero value of each takes its default. They mirror @vigil/express's options
// (middleware/core/options.ts).
type Options struct {
	// AgentURL is the Vigil agent's control plane, e.g. http://127.0.0.1:9095; default VIGIL_AGENT_URL.
	AgentURL string
	// Token is the Bearer token of the agent's ingest route (its capture.ingest_token); default VIGIL_INGEST_TOKEN.
	Token string
	// QueueBytes bounds the bytes of body copies held at once (default 64 MiB); a copy that would pass it is not
	// made, and the record says so.
	QueueBytes int
	// MaxPending bounds the exchanges waiting for governance (default 10,000); beyond, they are dropped and counted.
	MaxPending int
	// MaxQueue bounds the governed records waiting to be sent (default 10,000); beyond, new ones are dropped and counted.
	MaxQueue int
	// BatchSize is the most records per POST to the agent (default 512).
	BatchSize int
	// FlushInterval is the longest a record waits for its batch (default 1 s).
	FlushInterval time.Duration
	// Timeout gives up each POST after this long, and retries it (default 10 s).
	Timeout time.Duration
	// MinBackoff is the first retry delay (default 500 ms), doubling up to MaxBackoff (default 30 s).
	MinBackoff time.Duration
	MaxBackoff time.Duration
	// Workers is the number of goroutines that govern exchanges after their responses (default 2).
	Workers int
	// OnError receives delivery problems and bugs (default: the standard logger, at most one line per 10 s per kind).
	OnError func(error)
	// LookupEnv resolves ${VAR} in the config file and the defaults above (default os.LookupEnv).
	LookupEnv func(string) (string, bool)
	// Random is the sampling roll, uniform in [0, 1) (default math/rand).
	Random func() float64
	// Client sends the records (default: an http.Client of its own).
	Client *http.Client
}

// Stats are the counters of one Agent.
type Stats struct {
	// Captured exchanges (a route that captures nothing is never counted).
	Captured int
	// GovernanceDropped: exchanges refused because MaxPending waited for governance.
	GovernanceDropped int
	// HeldBytes of body copies now (at most QueueBytes).
	HeldBytes int
	// GovernTime spent governing, after the responses.
	GovernTime time.Duration
	// Queued records waiting to be sent; Sent to the agent; Dropped on arrival (the queue was full); Rejected by
	// the agent with a 4xx (not retried); Retries of POSTs that failed and were tried again.
	Queued, Sent, Dropped, Rejected, Retries int
}

// Agent governs an app's traffic in its process and ships the governed records to a Vigil agent.
type Agent struct {
	policy       *compiledPolicy
	maxBodyBytes int
	budget       *byteBudget
	governance   *governancePool
	shipper      *shipper
	onError      func(error)
	captured     atomic.Int64
	closed       atomic.Bool
	closeOnce    sync.Once
	logMu        sync.Mutex
	lastLogged   map[string]time.Time
}

// IngestPath is the agent's ingest route, below its control plane.
const IngestPath = "/api/gateway/records"

func optionsError(message string) error { return &Error{Code: ErrCodeOptions, Message: message} }

// New loads and checks the vigil config file at configPath (its `rules`, and `capture.max_body_bytes`) and the
// options. The error is an *Error: ErrCodeConfig names file:line:column and the key path; ErrCodeOptions the option.
func New(configPath string, o Options) (*Agent, error) {
	env := o.LookupEnv
	if env == nil {
		env = os.LookupEnv
	}
	if configPath == "" {
		return nil, optionsError("configPath is required: the vigil config file whose rules govern")
	}
	agentURL := o.AgentURL
	if agentURL == "" {
		agentURL, _ = env("VIGIL_AGENT_URL")
	}
	if agentURL == "" {
		return nil, optionsError("AgentURL is required (or VIGIL_AGENT_URL): the Vigil agent's control plane, e.g. http://127.0.0.1:9095")
	}
	u, err := url.Parse(agentURL)
	if err != nil || u.Host == "" {
		return nil, optionsError(fmt.Sprintf("AgentURL %q is not a URL; write it as http://host:port", agentURL))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, optionsError(fmt.Sprintf("AgentURL %q must be http or https", agentURL))
	}
	token := o.Token
	if token == "" {
		token, _ = env("VIGIL_INGEST_TOKEN")
	}
	if token == "" {
		return nil, optionsError("Token is required (or VIGIL_INGEST_TOKEN): the agent's capture.ingest_token")
	}
	for name, v := range map[string]int64{"QueueBytes": int64(o.QueueBytes), "MaxPending": int64(o.MaxPending), "MaxQueue": int64(o.MaxQueue),
		"BatchSize": int64(o.BatchSize), "FlushInterval": int64(o.FlushInterval), "Timeout": int64(o.Timeout), "MinBackoff": int64(o.MinBackoff),
		"MaxBackoff": int64(o.MaxBackoff), "Workers": int64(o.Workers)} {
		if v < 0 {
			return nil, optionsError(fmt.Sprintf("%s must be positive (or zero for its default), not %d", name, v))
		}
	}
	loaded, err := loadConfig(configPath, env)
	if err != nil {
		return nil, err
	}
	a := &Agent{policy: loaded.policy, maxBodyBytes: loaded.maxBodyBytes, lastLogged: map[string]time.Time{}}
	a.onError = o.OnError
	if a.onError == nil {
		a.onError = a.logOnce
	}
	a.budget = &byteBudget{limit: orDefault(o.QueueBytes, 64*1024*1024)}
	client := o.Client
	if client == nil {
		client = &http.Client{}
	}
	a.shipper = &shipper{
		url: u.Scheme + "://" + u.Host + strings.TrimRight(u.Path, "/") + IngestPath, token: token,
		maxQueue: orDefault(o.MaxQueue, 10000), maxBatch: orDefault(o.BatchSize, 512),
		flushInterval: orDuration(o.FlushInterval, time.Second), timeout: orDuration(o.Timeout, 10*time.Second),
		minBackoff: orDuration(o.MinBackoff, 500*time.Millisecond), maxBackoff: orDuration(o.MaxBackoff, 30*time.Second),
		client: client, report: a.report,
	}
	a.shipper.start()
	random := o.Random
	if random == nil {
		random = rand.Float64
	}
	a.governance = newGovernancePool(a.policy, governOptions{random: random}, a.budget, orDefault(o.MaxPending, 10000),
		orDefault(o.Workers, 2), a.shipper.push)
	return a, nil
}

func orDefault(v, d int) int {
	if v == 0 {
		return d
	}
	return v
}

func orDuration(v, d time.Duration) time.Duration {
	if v == 0 {
		return d
	}
	return v
}

// Middleware wraps a handler: each request is decided, copied within bounds and, after its response, governed and
// shipped. The handler's responses are byte for byte what they are without it.
func (a *Agent) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { a.serve(w, r, next) })
}

// Flush governs what was captured and sends it, retrying until it is delivered or ctx is done.
func (a *Agent) Flush(ctx context.Context) {
	a.governance.wait()
	a.shipper.flush(ctx)
}

// Close stops capturing, governs what was captured and sends it, retrying for at most 5 s. Safe to call twice.
func (a *Agent) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return a.CloseContext(ctx)
}

// CloseContext is Close with the caller's deadline.
func (a *Agent) CloseContext(ctx context.Context) error {
	a.closeOnce.Do(func() {
		a.closed.Store(true)
		a.governance.close()
		a.shipper.close(ctx)
	})
	if n := a.shipper.queued(); n > 0 {
		return fmt.Errorf("vigil: %d record(s) not delivered before the deadline", n)
	}
	return nil
}

// Stats returns the counters.
func (a *Agent) Stats() Stats {
	a.governance.mu.Lock()
	dropped, governNs := a.governance.dropped, a.governance.governNs
	a.governance.mu.Unlock()
	s := a.shipper
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{
		Captured: int(a.captured.Load()), GovernanceDropped: dropped, HeldBytes: a.budget.current(), GovernTime: time.Duration(governNs),
		Queued: len(s.queue), Sent: s.sent, Dropped: s.dropped, Rejected: s.rejected, Retries: s.retries,
	}
}

func (a *Agent) report(err error) {
	defer func() { _ = recover() }()
	a.onError(err)
}

var digitsRe = regexp.MustCompile(`\d+`)

// logOnce: one line per kind of problem per 10 s, so an agent that is down does not flood the app's log.
func (a *Agent) logOnce(err error) {
	kind := digitsRe.ReplaceAllString(err.Error(), "#")
	if len(kind) > 80 {
		kind = kind[:80]
	}
	a.logMu.Lock()
	defer a.logMu.Unlock()
	if last, ok := a.lastLogged[kind]; ok && time.Since(last) < 10*time.Second {
		return
	}
	a.lastLogged[kind] = time.Now()
	log.Printf("[vigil] %v", err)
}
