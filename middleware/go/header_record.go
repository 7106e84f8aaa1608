package vigil

import (
	"strings"
	"sync"
)

// Headers and query parameters as records (gateway/govern/header-record.ts, query-record.ts).

var (
	canonicalMu    sync.RWMutex
	canonicalCache = map[string]string{}
)

const canonicalCacheMax = 2048

func isTokenChar(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || strings.IndexByte("!#$%&'*+.^_`|~-", c) != -1
}

func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isTokenChar(s[i]) {
			return false
		}
	}
	return true
}

// canonicalHeaderName: `content-type` is `Content-Type`, `X-API-KEY` is `X-Api-Key`; a name that is no token stays.
func canonicalHeaderName(name string) string {
	canonicalMu.RLock()
	hit, ok := canonicalCache[name]
	canonicalMu.RUnlock()
	if ok {
		return hit
	}
	out := name
	if isToken(name) {
		b := []byte(strings.ToLower(name))
		for i := range b {
			if (i == 0 || b[i-1] == '-') && b[i] >= 'a' && b[i] <= 'z' {
				b[i] -= 32
			}
		}
		out = string(b)
	}
	canonicalMu.Lock()
	if len(canonicalCache) < canonicalCacheMax {
		canonicalCache[name] = out
	}
	canonicalMu.Unlock()
	return out
}

// appendValue adds `value` under `key`; a repeated key becomes an array, in arrival order.
func appendValue(target *jsObject, key, value string) {
	prev, ok := target.values[key]
	if !ok {
		target.set(key, value)
		return
	}
	switch p := prev.(type) {
	case []string:
		target.values[key] = append(p, value)
	case string:
		target.values[key] = []string{p, value}
	}
}

// headersToRecord: flat name/value pairs as a record with canonical names; every value of a redacted header (by
// lower-case name) is the marker.
func headersToRecord(raw []string, redact map[string]bool) *jsObject {
	out := newJSObject()
	for i := 0; i+1 < len(raw); i += 2 {
		name := raw[i]
		value := raw[i+1]
		if len(redact) != 0 && redact[jsLower(name)] {
			value = redacted
		}
		appendValue(out, canonicalHeaderName(name), value)
	}
	return out
}

// headerValues: every value of a header (case-insensitive), in order.
func headerValues(raw []string, lowerName string) []string {
	var out []string
	for i := 0; i+1 < len(raw); i += 2 {
		if len(raw[i]) == len(lowerName) && strings.EqualFold(raw[i], lowerName) && jsLower(raw[i]) == lowerName {
			out = append(out, raw[i+1])
		}
	}
	return out
}

// decodeComponent: `+` as space, then decodeURIComponent; a malformed escape keeps the text as written.
func decodeComponent(text string) string {
	spaced := text
	if strings.IndexByte(text, '+') != -1 {
		spaced = strings.ReplaceAll(text, "+", " ")
	}
	if strings.IndexByte(spaced, '%') == -1 {
		return spaced
	}
	if d, ok := decodeURIComponent(spaced); ok {
		return d
	}
	return spaced
}

// decodeURIComponent is JavaScript's: every escape decoded, the bytes strictly UTF-8 (else URIError: ok false).
func decodeURIComponent(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '%' {
			b.WriteByte(s[i])
			i++
			continue
		}
		first := hexAt(s, i+1, 2)
		if first < 0 {
			return "", false
		}
		i += 3
		if first < 0x80 {
			b.WriteByte(byte(first))
			continue
		}
		var n int
		switch {
		case first&0xe0 == 0xc0:
			n = 2
		case first&0xf0 == 0xe0:
			n = 3
		case first&0xf8 == 0xf0:
			n = 4
		default:
			return "", false
		}
		cp := first & (0xff >> (n + 1))
		for k := 1; k < n; k++ {
			if i >= len(s) || s[i] != '%' {
				return "", false
			}
			next := hexAt(s, i+1, 2)
			if next < 0 || next&0xc0 != 0x80 {
				return "", false
			}
			cp = cp<<6 | next&0x3f
			i += 3
		}
		minimum := [5]int{0, 0, 0x80, 0x800, 0x10000}[n]
		if cp < minimum || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000) {
			return "", false
		}
		b.WriteRune(rune(cp))
	}
	return b.String(), true
}

// queryToRecord: the query of a request-target, names and values decoded, a repeated name an array; every value of
// a parameter whose decoded name is in `redact` (lower case) is the marker.
func queryToRecord(target string, redact map[string]bool) *jsObject {
	out := newJSObject()
	q := strings.IndexByte(target, '?')
	if q == -1 {
		return out
	}
	query := target[q+1:]
	if hash := strings.IndexByte(query, '#'); hash != -1 {
		query = query[:hash]
	}
	if query == "" {
		return out
	}
	for _, pair := range strings.Split(query, "&") {
		if pair == "" {
			continue
		}
		eq := strings.IndexByte(pair, '=')
		rawName := pair
		if eq != -1 {
			rawName = pair[:eq]
		}
		name := decodeComponent(rawName)
		value := ""
		switch {
		case len(redact) != 0 && redact[jsLower(name)]:
			value = redacted
		case eq != -1:
			value = decodeComponent(pair[eq+1:])
		}
		appendValue(out, name, value)
	}
	return out
}
