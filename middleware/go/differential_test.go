package vigil

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Inputs generated and answered by the TypeScript engine (tests/support/go-engine-differential.ts, run by
// tests/integration/middleware-go.test.ts, which passes the file in VIGIL_DIFFERENTIAL_FILE): the port must give
// the same readings, folds, redactions and records.

type differentialFile struct {
	ConfigText string `json:"configText"`
	Folds      []struct {
		Target   string    `json:"target"`
		Readings *[]string `json:"readings"`
		Folded   *string   `json:"folded"`
	} `json:"folds"`
	Detect []struct {
		Text     string `json:"text"`
		Redacted string `json:"redacted"`
	} `json:"detect"`
	Govern []struct {
		Exchange struct {
			Method            string          `json:"method"`
			Target            string          `json:"target"`
			Path              string          `json:"path"`
			Labels            json.RawMessage `json:"labels"`
			RequestHeaders    []string        `json:"requestHeaders"`
			ResponseHeaders   []string        `json:"responseHeaders"`
			Status            int             `json:"status"`
			RequestBody       *string         `json:"requestBody"`
			RequestTruncated  bool            `json:"requestTruncated"`
			ResponseBody      *string         `json:"responseBody"`
			ResponseTruncated bool            `json:"responseTruncated"`
		} `json:"exchange"`
		Record *string `json:"record"`
	} `json:"govern"`
}

func TestDifferentialAgainstTheTypeScriptEngine(t *testing.T) {
	file := os.Getenv("VIGIL_DIFFERENTIAL_FILE")
	if file == "" {
		t.Skip("VIGIL_DIFFERENTIAL_FILE not set: tests/integration/middleware-go.test.ts generates it with the TypeScript engine")
	}
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var f differentialFile
	if err := json.Unmarshal(text, &f); err != nil {
		t.Fatal(err)
	}
	failures := 0
	fail := func(format string, args ...any) {
		failures++
		if failures <= 40 {
			t.Errorf(format, args...)
		}
	}
	for _, c := range f.Folds {
		readings, ok := pathReadings(c.Target)
		if (c.Readings == nil) != !ok || (ok && !equalStrings(readings, *c.Readings)) {
			fail("pathReadings(%q) = %q %v, want %v", c.Target, readings, ok, c.Readings)
		}
		folded, ok := foldPath(c.Target)
		if (c.Folded == nil) != !ok || (ok && folded != *c.Folded) {
			fail("foldPath(%q) = %q %v, want %v", c.Target, folded, ok, c.Folded)
		}
	}
	for _, c := range f.Detect {
		if got := redactText(c.Text, detectorKinds); got != c.Redacted {
			fail("redactText(%q) = %q, want %q", c.Text, got, c.Redacted)
		}
	}
	dir := t.TempDir()
	config := filepath.Join(dir, "vigil.yaml")
	if err := os.WriteFile(config, []byte(f.ConfigText), 0o600); err != nil {
		t.Fatal(err)
	}
	loaded, err := loadConfig(config, func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Govern {
		x := c.Exchange
		d := loaded.policy.decide(x.Method, x.Target)
		if d.capturesNothing() {
			if c.Record != nil {
				fail("%s %s: no record, want %s", x.Method, x.Target, *c.Record)
			}
			continue
		}
		e := &rawExchange{method: x.Method, target: x.Target, path: x.Path, status: x.Status,
			requestHeaders: x.RequestHeaders, responseHeaders: x.ResponseHeaders,
			requestTruncated: x.RequestTruncated, responseTruncated: x.ResponseTruncated}
		e.labels = extractLabels(d, x.RequestHeaders)
		if x.RequestBody != nil {
			e.requestBody, _ = base64.StdEncoding.DecodeString(*x.RequestBody)
		}
		if x.ResponseBody != nil {
			e.responseBody, _ = base64.StdEncoding.DecodeString(*x.ResponseBody)
		}
		got := string(recordJSON(governForStorage(e, d, governOptions{random: func() float64 { return 0.5 }})))
		if c.Record == nil || got != *c.Record {
			fail("%s %s:\n got %s\nwant %v", x.Method, x.Target, got, deref(c.Record))
		}
	}
	t.Logf("%d folds, %d detector texts, %d records compared; %d differ", len(f.Folds), len(f.Detect), len(f.Govern), failures)
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func deref(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}
