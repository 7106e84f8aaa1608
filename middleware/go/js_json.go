package vigil

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// JSON text exactly as JavaScript's JSON.stringify writes it: records are compared byte for byte with the
// TypeScript engine's. No HTML escaping, non-ASCII kept as it is, controls as \u00XX except \b \f \n \r \t.

const hexDigits = "0123456789abcdef"

// appendJSString appends `s` as a JSON string literal. Bytes that are no UTF-8 are read as U+FFFD, except a
// surrogate written in UTF-8 form (what decoding `\ud800` gives here), which is escaped as JavaScript escapes a
// lone surrogate.
func appendJSString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < 0x80 {
			i++
			continue
		}
		if c < 0x80 {
			b = append(b, s[start:i]...)
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			b = append(b, s[start:i]...)
			if c == 0xed && i+2 < len(s) && s[i+1] >= 0xa0 && s[i+1] <= 0xbf && s[i+2] >= 0x80 && s[i+2] <= 0xbf {
				u := 0xd000 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f)
				b = append(b, '\\', 'u', hexDigits[u>>12], hexDigits[(u>>8)&15], hexDigits[(u>>4)&15], hexDigits[u&15])
				i += 3
			} else {
				b = append(b, "\ufffd"...)
				i++
			}
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func jsString(s string) string { return string(appendJSString(nil, s)) }

// appendJSNumber appends a number as JavaScript's Number#toString writes it (JSON.stringify writes NaN and the
// infinities as null).
func appendJSNumber(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	if f == 0 {
		return append(b, '0')
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	// Shortest round-trip digits and the exponent, laid out by ECMAScript's Number::toString rules.
	e := strconv.FormatFloat(math.Abs(f), 'e', -1, 64)
	mant, expText, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expText)
	n := exp + 1 // position of the decimal point relative to the digits
	k := len(digits)
	if f < 0 {
		b = append(b, '-')
	}
	switch {
	case k <= n && n <= 21:
		b = append(b, digits...)
		for i := k; i < n; i++ {
			b = append(b, '0')
		}
	case 0 < n && n <= 21:
		b = append(b, digits[:n]...)
		b = append(b, '.')
		b = append(b, digits[n:]...)
	case -6 < n && n <= 0:
		b = append(b, '0', '.')
		for i := 0; i < -n; i++ {
			b = append(b, '0')
		}
		b = append(b, digits...)
	default:
		b = append(b, digits[0])
		if k > 1 {
			b = append(b, '.')
			b = append(b, digits[1:]...)
		}
		b = append(b, 'e')
		if n-1 >= 0 {
			b = append(b, '+')
		}
		b = strconv.AppendInt(b, int64(n-1), 10)
	}
	return b
}

// jsObject is a JavaScript object as JSON.stringify walks it: keys that are array indices first, ascending, then
// the other keys in insertion order. A key set twice keeps its first place.
type jsObject struct {
	keys   []string
	values map[string]any
}

func newJSObject() *jsObject { return &jsObject{values: map[string]any{}} }

func (o *jsObject) has(k string) bool {
	_, ok := o.values[k]
	return ok
}

func (o *jsObject) get(k string) any { return o.values[k] }

func (o *jsObject) set(k string, v any) {
	if _, ok := o.values[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.values[k] = v
}

func (o *jsObject) len() int { return len(o.keys) }

// isArrayIndex: a canonical decimal below 2^32 - 1, which JavaScript orders before every other key.
func isArrayIndex(k string) (uint64, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseUint(k, 10, 64)
	return v, err == nil && v < 4294967295
}

// orderedKeys are the keys in JavaScript's property order.
func (o *jsObject) orderedKeys() []string {
	var idx []string
	for _, k := range o.keys {
		if _, ok := isArrayIndex(k); ok {
			idx = append(idx, k)
		}
	}
	if len(idx) == 0 {
		return o.keys
	}
	out := make([]string, 0, len(o.keys))
	// Insertion sort by value: index keys are few.
	for _, k := range idx {
		v, _ := isArrayIndex(k)
		at := len(out)
		for at > 0 {
			w, _ := isArrayIndex(out[at-1])
			if w < v {
				break
			}
			at--
		}
		out = append(out, "")
		copy(out[at+1:], out[at:])
		out[at] = k
	}
	for _, k := range o.keys {
		if _, ok := isArrayIndex(k); !ok {
			out = append(out, k)
		}
	}
	return out
}

// appendJSValue writes a value built of nil, bool, float64, string, []any, []string and *jsObject.
func appendJSValue(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		if x {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case float64:
		return appendJSNumber(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case string:
		return appendJSString(b, x)
	case []string:
		b = append(b, '[')
		for i, s := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSString(b, s)
		}
		return append(b, ']')
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSValue(b, e)
		}
		return append(b, ']')
	case *jsObject:
		if x == nil {
			return append(b, "null"...)
		}
		b = append(b, '{')
		for i, k := range x.orderedKeys() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSString(b, k)
			b = append(b, ':')
			b = appendJSValue(b, x.values[k])
		}
		return append(b, '}')
	}
	return append(b, "null"...)
}
