package vigil

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The governance conformance corpus (tests/fixtures/governance-corpus) through the port's engine directly, on the
// path the Express and Koa middleware take: decide, bounded copies, the exchange, governance, recordJSON. Every
// record must be the corpus's, byte for byte (id, time and duration_ms normalized).

type corpusFile struct {
	Version int               `json:"version"`
	Configs map[string]string `json:"configs"`
	Cases   []corpusCase      `json:"cases"`
}

type corpusPart struct {
	Method     string      `json:"method"`
	Target     string      `json:"target"`
	Status     int         `json:"status"`
	Headers    [][2]string `json:"headers"`
	BodyBase64 *string     `json:"body_base64"`
}

type corpusCase struct {
	Name     string     `json:"name"`
	Family   string     `json:"family"`
	Config   string     `json:"config"`
	Request  corpusPart `json:"request"`
	Response corpusPart `json:"response"`
	Record   *string    `json:"record"`
}

func (p corpusPart) body() []byte {
	if p.BodyBase64 == nil {
		return nil
	}
	b, _ := base64.StdEncoding.DecodeString(*p.BodyBase64)
	return b
}

func flatHeaders(pairs [][2]string) []string {
	out := make([]string, 0, 2*len(pairs))
	for _, p := range pairs {
		out = append(out, p[0], p[1])
	}
	return out
}

func headerOf(pairs [][2]string, lower string) string {
	for _, p := range pairs {
		if strings.ToLower(p[0]) == lower {
			return p[1]
		}
	}
	return ""
}

// withoutHopByHop is what the gateway keeps of a response head (downstreamResponseHead).
func withoutHopByHop(raw []string) []string {
	listed := map[string]bool{}
	for i := 0; i+1 < len(raw); i += 2 {
		if strings.ToLower(raw[i]) == "connection" {
			for _, t := range strings.Split(raw[i+1], ",") {
				if n := strings.ToLower(strings.TrimSpace(t)); n != "" && n != "close" && n != "keep-alive" && n != "host" && n != "content-length" {
					listed[n] = true
				}
			}
		}
	}
	var out []string
	for i := 0; i+1 < len(raw); i += 2 {
		lower := strings.ToLower(raw[i])
		if hopByHop[lower] || listed[lower] {
			continue
		}
		out = append(out, raw[i], raw[i+1])
	}
	if out == nil {
		out = []string{}
	}
	return out
}

func copyOf(body []byte, maxBody int, declared string) *boundedCopy {
	if len(body) == 0 {
		return nil
	}
	n, err := strconv.Atoi(declared)
	if err != nil || n < 0 {
		n = -1
	}
	c := newBoundedCopy(maxBody, n, &byteBudget{limit: 1 << 40})
	c.push(body)
	return c
}

// governCorpusCase is the record the engine makes of one case, normalized, or nil when it makes none.
func governCorpusCase(loaded *loadedPolicy, c corpusCase) *string {
	d := loaded.policy.decide(c.Request.Method, c.Request.Target)
	if d.capturesNothing() {
		return nil
	}
	requestHeaders := flatHeaders(c.Request.Headers)
	e := &rawExchange{id: "", time: 0, method: c.Request.Method, target: c.Request.Target, path: receivedPath(c.Request.Target),
		status: c.Response.Status, labels: extractLabels(d, requestHeaders)}
	if d.captureHeaders {
		e.requestHeaders = requestHeaders
		e.responseHeaders = withoutHopByHop(flatHeaders(c.Response.Headers))
	}
	if d.captureRequestBody {
		if cp := copyOf(c.Request.body(), loaded.maxBodyBytes, headerOf(c.Request.Headers, "content-length")); cp != nil {
			e.requestTruncated = cp.truncated
			e.requestBody = cp.handOver()
		} else {
			e.requestBody = []byte{}
		}
	}
	if d.captureResponseBody {
		var cp *boundedCopy
		if mayHaveBody(c.Request.Method, c.Response.Status) {
			cp = copyOf(c.Response.body(), loaded.maxBodyBytes, headerOf(c.Response.Headers, "content-length"))
		}
		if cp != nil {
			e.responseTruncated = cp.truncated
			e.responseBody = cp.handOver()
		} else {
			e.responseBody = []byte{}
		}
	}
	text := string(recordJSON(governForStorage(e, d, governOptions{random: func() float64 { return 0.5 }})))
	return &text
}

func loadCorpus(t *testing.T) (*corpusFile, string) {
	t.Helper()
	file := os.Getenv("CORPUS_FILE")
	if file == "" {
		file = filepath.Join("..", "..", "tests", "fixtures", "governance-corpus", "corpus.json")
	}
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the governance corpus: %v", err)
	}
	var corpus corpusFile
	if err := json.Unmarshal(text, &corpus); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if corpus.Version != 1 {
		t.Fatalf("%s: version %d, this test reads version 1", file, corpus.Version)
	}
	return &corpus, file
}

func TestEveryCorpusCaseMakesTheCorpusRecord(t *testing.T) {
	corpus, _ := loadCorpus(t)
	dir := t.TempDir()
	policies := map[string]*loadedPolicy{}
	for name, text := range corpus.Configs {
		file := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		loaded, err := loadConfig(file, noEnv)
		if err != nil {
			t.Fatalf("config %s: %v", name, err)
		}
		policies[name] = loaded
	}
	differ := 0
	for _, c := range corpus.Cases {
		got := governCorpusCase(policies[c.Config], c)
		want := c.Record
		if known := knownDifference(c, policies[c.Config].policy.decide(c.Request.Method, c.Request.Target)); known != nil {
			want = known(want)
		}
		if deref(got) != deref(want) {
			differ++
			t.Errorf("[%s] %s (%s %s):\n got %s\nwant %s", c.Config, c.Name, c.Request.Method, c.Request.Target, deref(got), deref(c.Record))
		}
	}
	if len(corpus.Cases) < 200 {
		t.Errorf("only %d cases in the corpus", len(corpus.Cases))
	}
	t.Logf("%d corpus cases, %d differ", len(corpus.Cases), differ)
}

// knownDifference is what the port does otherwise, on purpose, for a case (README.md, "What differs"): a
// Brotli-encoded body, which Go's standard library cannot decode, is dropped with its reason where the TypeScript
// engine decodes it. Nil for every other case: those records are the corpus's, byte for byte.
func knownDifference(c corpusCase, d *routeDecision) func(*string) *string {
	if !strings.EqualFold(headerOf(c.Response.Headers, "content-encoding"), "br") || c.Record == nil {
		return nil
	}
	return func(want *string) *string {
		var r map[string]json.RawMessage
		if json.Unmarshal([]byte(*want), &r) != nil {
			return want
		}
		reason := "response_body: unsupported content-encoding br"
		if len(d.jsonFields) > 0 {
			reason += jsonRequiredSuffix
		}
		body := `"response_body":` + string(r["response_body"])
		out := strings.Replace(*want, body, `"response_body":null`, 1)
		out = strings.Replace(out, `"dropped_reason":null`, `"dropped_reason":`+jsString(reason), 1)
		return &out
	}
}
