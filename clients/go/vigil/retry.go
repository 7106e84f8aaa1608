package vigil

import (
	"math/rand"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// backoff is exponential backoff with equal jitter: attempt n waits between cap/2 and cap, cap = min(max, base·2ⁿ).
// Clients that failed together spread out, and none retries at once.
func backoff(attempt int, base, max time.Duration, random func() float64) time.Duration {
	if attempt > 30 {
		attempt = 30
	}
	limit := base << attempt
	if limit > max || limit <= 0 {
		limit = max
	}
	return limit/2 + time.Duration(random()*float64(limit/2))
}

func jitter() float64 { return rand.Float64() }

// parseRetryAfter reads a Retry-After header: delta-seconds (fractions accepted) or an HTTP-date, counted from now.
// ok is false when it is absent or unreadable; the wait is never negative.
func parseRetryAfter(value string, now time.Time) (time.Duration, bool) {
	text := strings.TrimSpace(value)
	if text == "" {
		return 0, false
	}
	if text[0] >= '0' && text[0] <= '9' {
		secs, err := strconv.ParseFloat(text, 64)
		if err != nil || secs < 0 {
			return 0, false
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	at, err := http.ParseTime(text)
	if err != nil {
		return 0, false
	}
	if d := at.Sub(now); d > 0 {
		return d, true
	}
	return 0, true
}
