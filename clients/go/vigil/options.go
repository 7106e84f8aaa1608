package vigil

import (
	"fmt"
	"log"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// Options configure a Client. The zero value of every field means its default; VIGIL_URL and VIGIL_PROJECT_KEY stand in
// for URL and ProjectKey. New never fails: a client without a usable URL or key records nothing and says why once,
// through OnError.
type Options struct {
	// URL is Vigil's control plane, http://host:9095 (the route /v1/traces is added, a path prefix kept), or the full
	// ingest URL. Default: VIGIL_URL, else http://127.0.0.1:9095.
	URL string
	// ProjectKey is sent as X-Service-Project-Key. Default: VIGIL_PROJECT_KEY.
	ProjectKey string
	// BatchSize is the items per request; a batch leaves as soon as this many wait. Default 100.
	BatchSize int
	// FlushInterval is how long fewer items wait before they leave. Default 1 s.
	FlushInterval time.Duration
	// MaxBufferItems bounds the items held, in flight included; beyond it new traces are dropped and counted. Default 10,000.
	MaxBufferItems int
	// MaxBufferBytes bounds the bytes of item JSON held, in flight included. Default 32 MiB.
	MaxBufferBytes int
	// MaxBatchBytes is the item JSON per request, before gzip. Default 2 MiB.
	MaxBatchBytes int
	// MaxItemBytes is one item's JSON; larger inputs and outputs are replaced by a truncation marker. Default 512 KiB.
	MaxItemBytes int
	// MaxRetries is the retries of a batch after network errors, 5xx and 429. 0 means the default, 5; negative means none.
	MaxRetries int
	// RetryBase is about the first retry's wait (half fixed, half random); each next one waits twice as long. Default 500 ms.
	RetryBase time.Duration
	// RetryMax caps the backoff; a server's Retry-After is honoured as given. Default 30 s.
	RetryMax time.Duration
	// Timeout is one request's deadline, connection included. Default 10 s.
	Timeout time.Duration
	// ShutdownTimeout is how long Close and Flush without a deadline wait for delivery. Default 5 s.
	ShutdownTimeout time.Duration
	// DisableGzip sends bodies uncompressed; by default bodies of 1 KiB and more are gzipped.
	DisableGzip bool
	// OmitContent records no input and no output (model, tokens, timings and status only).
	OmitContent bool
	// OnError receives every loss or refusal. Default: a log line, at most once a minute per code.
	OnError func(*Error)
	// HTTPClient sends the batches. Default: a client of its own with one kept-alive connection.
	HTTPClient *http.Client
}

type resolved struct {
	endpoint        string
	projectKey      string
	unusable        string
	batchSize       int
	flushInterval   time.Duration
	maxBufferItems  int
	maxBufferBytes  int
	maxBatchBytes   int
	maxItemBytes    int
	maxRetries      int
	retryBase       time.Duration
	retryMax        time.Duration
	timeout         time.Duration
	shutdownTimeout time.Duration
	gzipMinBytes    int
	omitContent     bool
	onError         func(*Error)
	httpClient      *http.Client
}

const ingestPath = "v1/traces"

// ingestEndpoint is the ingest URL for raw: a base (any path prefix kept) gets /v1/traces added; a URL already ending
// so is kept.
func ingestEndpoint(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("%q is not http or https", u.Scheme)
	}
	if u.Host == "" {
		return "", fmt.Errorf("no host")
	}
	if strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/"+ingestPath) {
		return u.String(), nil
	}
	u.RawQuery, u.Fragment, u.RawPath = "", "", ""
	u.Path = strings.TrimRight(u.Path, "/") + "/" + ingestPath
	return u.String(), nil
}

func orInt(v, fallback int) int {
	if v > 0 {
		return v
	}
	return fallback
}

func orDuration(v, fallback time.Duration) time.Duration {
	if v > 0 {
		return v
	}
	return fallback
}

func resolve(o Options) resolved {
	raw := o.URL
	if raw == "" {
		raw = os.Getenv("VIGIL_URL")
	}
	if raw == "" {
		raw = "http://127.0.0.1:9095"
	}
	key := o.ProjectKey
	if key == "" {
		key = os.Getenv("VIGIL_PROJECT_KEY")
	}
	r := resolved{
		projectKey:      key,
		batchSize:       orInt(o.BatchSize, 100),
		flushInterval:   orDuration(o.FlushInterval, time.Second),
		maxBufferItems:  orInt(o.MaxBufferItems, 10_000),
		maxBufferBytes:  orInt(o.MaxBufferBytes, 32<<20),
		maxBatchBytes:   orInt(o.MaxBatchBytes, 2<<20),
		maxItemBytes:    orInt(o.MaxItemBytes, 512<<10),
		maxRetries:      orInt(o.MaxRetries, 5),
		retryBase:       orDuration(o.RetryBase, 500*time.Millisecond),
		retryMax:        orDuration(o.RetryMax, 30*time.Second),
		timeout:         orDuration(o.Timeout, 10*time.Second),
		shutdownTimeout: orDuration(o.ShutdownTimeout, 5*time.Second),
		gzipMinBytes:    1024,
		omitContent:     o.OmitContent,
		onError:         o.OnError,
		httpClient:      o.HTTPClient,
	}
	if o.MaxRetries < 0 {
		r.maxRetries = 0
	}
	if o.DisableGzip {
		r.gzipMinBytes = 0
	}
	endpoint, err := ingestEndpoint(raw)
	if err != nil {
		r.unusable = fmt.Sprintf("the URL %q is not a usable http(s) URL (%v)", raw, err)
	} else if key == "" {
		r.unusable = "no project key: set Options.ProjectKey or VIGIL_PROJECT_KEY"
	}
	r.endpoint = endpoint
	if r.onError == nil {
		r.onError = logOncePerMinute()
	}
	if r.httpClient == nil {
		// One idle connection: batches go one at a time, so one kept-alive connection is all the client needs.
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 1
		r.httpClient = &http.Client{Transport: t}
	}
	return r
}

// logOncePerMinute is the default OnError: a log line at most once a minute per code, so a dead server cannot flood
// the application's log.
func logOncePerMinute() func(*Error) {
	var mu sync.Mutex
	last := map[Code]time.Time{}
	return func(e *Error) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		if t, ok := last[e.Code]; ok && now.Sub(t) < time.Minute {
			return
		}
		last[e.Code] = now
		log.Printf("vigil: %s", e.Error())
	}
}
