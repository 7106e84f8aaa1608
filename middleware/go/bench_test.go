package vigil

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Profiles of the two costs bench/go-middleware.ts measures: the request path (decide, copies, hand-off) and the
// governance of one record. `go test -run X -bench . -cpuprofile cpu.out`.

const benchConfig = `rules:
  - name: all
    match: { path: /** }
    labels: { tenant: header:X-Tenant }
    redact: { headers: [Authorization], query_params: [token] }
  - name: orders
    match: { path: /api/orders/** }
    redact: { json_fields: [$.card.number, $.customer.email] }
  - name: admin
    match: { path: /admin/** }
    restrict: [request_body, response_body, headers]
`

var benchOrder = `{"customer":{"email":"a@example.com","name":"Ada"},"card":{"number":"4111111111111111"},"items":[` +
	strings.TrimSuffix(strings.Repeat(`{"sku":"SKU-1","qty":1,"note":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},`, 12), ",") + `]}`

func BenchmarkGovernOneRecord(b *testing.B) {
	loaded, err := loadConfig(writeConfig(&testing.T{}, benchConfig), noEnv)
	if err != nil {
		b.Fatal(err)
	}
	d := loaded.policy.decide("POST", "/api/orders/17?token=t")
	headers := []string{"Host", "127.0.0.1:1", "Content-Type", "application/json", "X-Tenant", "acme", "Authorization", "Bearer x", "Content-Length", "1000"}
	e := &rawExchange{id: "x", method: "POST", target: "/api/orders/17?token=t", path: "/api/orders/17", status: 200,
		requestHeaders: headers, responseHeaders: []string{"Content-Type", "application/json", "Date", "x", "Content-Length", "1000"},
		requestBody: []byte(benchOrder), responseBody: []byte(benchOrder), labels: extractLabels(d, headers)}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		recordJSON(governForStorage(e, d, governOptions{}))
	}
}

func BenchmarkCapturedRequestPath(b *testing.B) {
	file := writeConfig(&testing.T{}, benchConfig)
	a, err := New(file, Options{AgentURL: "http://127.0.0.1:9", Token: "t", LookupEnv: noEnv, MaxPending: 1 << 20, FlushInterval: time.Hour, OnError: func(error) {}})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	h := a.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(benchOrder))
	}))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r := httptest.NewRequest("POST", "/api/orders/17?token=t", strings.NewReader(benchOrder))
		r.Header.Set("X-Tenant", "acme")
		r.Header.Set("Authorization", "Bearer x")
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
}
