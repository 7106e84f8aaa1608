package vigil

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The policy language (policies/compile.ts, merge.ts, decision-cache.ts): rules compiled once, every request
// decided by the merge of the rules any reading of its path meets, decisions cached per method and path.

type ruleConfig struct {
	name       string
	path       string
	methods    []string // nil: every method
	restrict   []string
	headers    []string
	query      []string
	jsonFields []string
	detect     []string
	labels     [][2]string // name, source, in file order
	sample     *float64
	keepErrors bool
	meter      *string
}

type labelSource struct{ name, header string }

type compiledRule struct {
	config      *ruleConfig
	matcher     *pathMatcher
	methods     map[string]bool
	jsonFields  []*compiledJSONPath
	meterTokens *compiledJSONPath
	labels      []labelSource
}

// routeDecision is what the policy says about one request. Shared and cached: never changed once made.
type routeDecision struct {
	ruleIndexes         []int
	matchedRules        []string
	routes              []string
	captureRequestBody  bool
	captureResponseBody bool
	captureHeaders      bool
	redactHeaders       map[string]bool
	redactQuery         map[string]bool
	jsonFields          []*compiledJSONPath
	detect              []string
	labels              []labelSource
	sample              float64
	keepErrors          bool
	meterTokens         *compiledJSONPath
}

// capturesNothing: the route is restricted in full, and the request path does nothing more for it.
func (d *routeDecision) capturesNothing() bool {
	return !d.captureRequestBody && !d.captureResponseBody && !d.captureHeaders
}

var trafficDimensions = []string{"route", "method", "status_class"}

const (
	defaultCacheSize = 10000
	maxMemoisedSets  = 4096
)

type compiledPolicy struct {
	rules      []*compiledRule
	memoMu     sync.Mutex
	memo       map[string]*routeDecision
	byReceived *decisionCache
	byFolded   *decisionCache
}

var headerSource = regexp.MustCompile(`^header:(.+)$`)

func compilePolicy(configs []*ruleConfig, cacheSize int) (*compiledPolicy, error) {
	if cacheSize <= 0 {
		cacheSize = defaultCacheSize
	}
	seen := map[string]int{}
	for i, r := range configs {
		if first, ok := seen[r.name]; ok {
			return nil, policyError(errDuplicateRule, "rules["+strconv.Itoa(i)+"].name",
				"rule name \""+r.name+"\" is already used by rules["+strconv.Itoa(first)+"]; rule names must be unique "+
					"(they identify rules in matched_rules), so rename rules["+strconv.Itoa(first)+"] or rules["+strconv.Itoa(i)+"]")
		}
		seen[r.name] = i
	}
	p := &compiledPolicy{memo: map[string]*routeDecision{}, byReceived: newDecisionCache(cacheSize), byFolded: newDecisionCache(cacheSize)}
	for i, c := range configs {
		r, err := compileRule(c, i)
		if err != nil {
			return nil, err
		}
		p.rules = append(p.rules, r)
	}
	return p, nil
}

func compileRule(c *ruleConfig, i int) (*compiledRule, error) {
	at := "rules[" + strconv.Itoa(i) + "]"
	r := &compiledRule{config: c}
	for j, e := range c.jsonFields {
		p, err := compileJSONPath(e, at+".redact.json_fields["+strconv.Itoa(j)+"]")
		if err != nil {
			return nil, err
		}
		r.jsonFields = append(r.jsonFields, p)
	}
	if c.meter != nil {
		p, err := compileJSONPath(*c.meter, at+".meter.tokens")
		if err != nil {
			return nil, err
		}
		r.meterTokens = p
	}
	for _, l := range c.labels {
		name, source := l[0], l[1]
		m := headerSource.FindStringSubmatch(source)
		if m == nil {
			return nil, policyError(errLabel, at+".labels."+name, "source "+jsString(source)+` is not supported; write "header:<Header-Name>"`)
		}
		for _, d := range trafficDimensions {
			if d == name {
				return nil, policyError(errLabel, at+".labels."+name, `"`+name+`" is a built-in dimension of the traffic metrics (`+
					strings.Join(trafficDimensions, ", ")+`); give the label another name, e.g. "`+name+`_label"`)
			}
		}
		r.labels = append(r.labels, labelSource{name: name, header: jsLower(strings.TrimSpace(m[1]))})
	}
	matcher, err := compileGlob(c.path, at+".match.path")
	if err != nil {
		return nil, err
	}
	r.matcher = matcher
	if c.methods != nil {
		r.methods = map[string]bool{}
		for _, m := range c.methods {
			r.methods[jsUpper(m)] = true
		}
	}
	return r, nil
}

// decisionFor is the merged decision for a set of matching rules, memoised.
func (p *compiledPolicy) decisionFor(indexes []int) *routeDecision {
	var key strings.Builder
	for i, x := range indexes {
		if i > 0 {
			key.WriteByte(',')
		}
		key.WriteString(strconv.Itoa(x))
	}
	p.memoMu.Lock()
	defer p.memoMu.Unlock()
	if d, ok := p.memo[key.String()]; ok {
		return d
	}
	d := mergeRules(p.rules, indexes)
	if len(p.memo) < maxMemoisedSets {
		p.memo[key.String()] = d
	}
	return d
}

func (p *compiledPolicy) resolve(method string, readings []string, ambiguous bool) *routeDecision {
	upper := jsUpper(method)
	var indexes []int
	for i, r := range p.rules {
		if r.methods != nil && !r.methods[upper] {
			continue
		}
		if ambiguous {
			indexes = append(indexes, i)
			continue
		}
		for _, path := range readings {
			if r.matcher.test(path) {
				indexes = append(indexes, i)
				break
			}
		}
	}
	return p.decisionFor(indexes)
}

// decide is the hot path: `target` is the raw request-target (it may hold a query).
func (p *compiledPolicy) decide(method, target string) *routeDecision {
	path := receivedPath(target)
	if d := p.byReceived.get(method, path); d != nil {
		return d
	}
	readings, ok := pathReadings(path)
	key := ""
	if ok {
		key = strings.Join(readings, "\n")
	}
	d := p.byFolded.get(method, key)
	if d == nil {
		d = p.resolve(method, readings, !ok)
		p.byFolded.set(method, key, d)
	}
	p.byReceived.set(method, path, d)
	return d
}

func mergeRules(rules []*compiledRule, indexes []int) *routeDecision {
	d := &routeDecision{
		ruleIndexes: append([]int{}, indexes...), captureRequestBody: true, captureResponseBody: true, captureHeaders: true,
		redactHeaders: map[string]bool{}, redactQuery: map[string]bool{}, sample: 1, matchedRules: []string{}, routes: []string{},
	}
	seenPaths := map[string]bool{}
	detect := map[string]bool{}
	for _, index := range indexes {
		rule := rules[index]
		c := rule.config
		for _, part := range c.restrict {
			switch part {
			case "request_body":
				d.captureRequestBody = false
			case "response_body":
				d.captureResponseBody = false
			case "headers":
				d.captureHeaders = false
			}
		}
		for _, h := range c.headers {
			d.redactHeaders[jsLower(h)] = true
		}
		for _, q := range c.query {
			d.redactQuery[jsLower(q)] = true
		}
		for _, jp := range rule.jsonFields {
			if !seenPaths[jp.expression] {
				seenPaths[jp.expression] = true
				d.jsonFields = append(d.jsonFields, jp)
			}
		}
		for _, k := range c.detect {
			if !detect[k] {
				detect[k] = true
				d.detect = append(d.detect, k)
			}
		}
		for _, l := range rule.labels {
			// Re-inserted last: the winning source also takes the later position.
			for i, x := range d.labels {
				if x.name == l.name {
					d.labels = append(d.labels[:i:i], d.labels[i+1:]...)
					break
				}
			}
			d.labels = append(d.labels, l)
		}
		if c.sample != nil {
			d.sample = *c.sample
		}
		if c.keepErrors {
			d.keepErrors = true
		}
		if rule.meterTokens != nil {
			d.meterTokens = rule.meterTokens
		}
		for i, r := range d.routes {
			if r == c.path {
				d.routes = append(d.routes[:i:i], d.routes[i+1:]...)
				break
			}
		}
		d.routes = append(d.routes, c.path)
		d.matchedRules = append(d.matchedRules, c.name)
	}
	return d
}

// decisionCache is a bounded map from (method, path) to a decision; when full, the oldest entry goes (first in,
// first out: a hit costs nothing extra). A hit takes a read lock and allocates nothing.
type decisionCache struct {
	mu       sync.RWMutex
	capacity int
	byMethod map[string]map[string]*routeDecision
	ring     [][2]string
	head     int
	count    int
}

func newDecisionCache(capacity int) *decisionCache {
	return &decisionCache{capacity: capacity, byMethod: map[string]map[string]*routeDecision{}, ring: make([][2]string, capacity)}
}

func (c *decisionCache) get(method, path string) *routeDecision {
	c.mu.RLock()
	d := c.byMethod[method][path]
	c.mu.RUnlock()
	return d
}

func (c *decisionCache) size() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.count
}

func (c *decisionCache) set(method, path string, d *routeDecision) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byMethod[method][path]; ok {
		return // another request decided the same path meanwhile
	}
	if c.count == c.capacity {
		old := c.ring[c.head]
		if inner := c.byMethod[old[0]]; inner != nil {
			delete(inner, old[1])
			if len(inner) == 0 {
				delete(c.byMethod, old[0])
			}
		}
		c.count--
		c.ring[c.head] = [2]string{method, path}
		c.head = (c.head + 1) % c.capacity
	} else {
		c.ring[(c.head+c.count)%c.capacity] = [2]string{method, path}
	}
	inner := c.byMethod[method]
	if inner == nil {
		inner = map[string]*routeDecision{}
		c.byMethod[method] = inner
	}
	inner[path] = d
	c.count++
}
