package vigil

import (
	"strconv"
	"strings"
	"sync"
)

// JSON governed as text (policies/json-text.ts): one pass that validates a body exactly as JSON.parse would,
// replaces the values redaction paths match with the marker and reads the meter's number. The body keeps its own
// text otherwise. A key repeated in one object is redacted at every occurrence; nesting past 256 levels is refused.

const maxJSONDepth = 256

const (
	jsonOK = iota
	jsonMalformed
	jsonTooDeep
)

type jsonTextResult struct {
	status     int
	text       string
	redactions int
	number     float64
	hasNumber  bool
}

type scanAbort int

// Path states per nesting level, one scratch array per scan in flight: a scan writes a level before it reads it.
var statesPool = sync.Pool{New: func() any { return new([]uint32) }}

type jsonScan struct {
	text        string
	pos         int
	out         strings.Builder
	copiedTo    int
	redactions  int
	number      float64
	hasNumber   bool
	paths       []*pathAutomaton
	redactCount int
	states      []uint32
	width       int
}

func governJSONText(text string, redact []*compiledJSONPath, read *compiledJSONPath) (result jsonTextResult) {
	s := &jsonScan{text: text}
	for _, p := range redact {
		s.paths = append(s.paths, p.automaton)
	}
	s.redactCount = len(s.paths)
	if read != nil {
		s.paths = append(s.paths, read.automaton)
	}
	s.width = len(s.paths)
	states := statesPool.Get().(*[]uint32)
	if need := (maxJSONDepth + 2) * s.width; cap(*states) < need {
		*states = make([]uint32, need)
	}
	s.states = (*states)[:(maxJSONDepth+2)*s.width]
	defer statesPool.Put(states)
	defer func() {
		if r := recover(); r != nil {
			abort, ok := r.(scanAbort)
			if !ok {
				panic(r)
			}
			result = jsonTextResult{status: int(abort)}
		}
	}()
	s.document()
	out := text
	if s.redactions > 0 {
		s.out.WriteString(text[s.copiedTo:])
		out = s.out.String()
	}
	return jsonTextResult{status: jsonOK, text: out, redactions: s.redactions, number: s.number, hasNumber: s.hasNumber}
}

func (s *jsonScan) at(i int) int {
	if i < len(s.text) {
		return int(s.text[i])
	}
	return -1
}

func (s *jsonScan) document() {
	live := false
	for p := 0; p < s.width; p++ {
		m := s.paths[p].start
		s.states[p] = m
		if m != 0 {
			live = true
		}
	}
	s.skipWhitespace()
	if live {
		s.value(0, true)
	} else {
		s.skipValue(0)
	}
	s.skipWhitespace()
	if s.pos != len(s.text) {
		panic(scanAbort(jsonMalformed))
	}
}

func (s *jsonScan) value(level int, matched bool) {
	base := level * s.width
	wantNumber := false
	for p := 0; matched && p < s.width; p++ {
		if s.states[base+p]&s.paths[p].matched != 0 {
			if p < s.redactCount {
				start := s.pos
				s.skipValue(level)
				s.out.WriteString(s.text[s.copiedTo:start])
				s.out.WriteString(`"` + redacted + `"`)
				s.copiedTo = s.pos
				s.redactions++
				return
			}
			wantNumber = true
		}
	}
	c := s.at(s.pos)
	switch {
	case c == '{':
		s.object(level)
	case c == '[':
		s.array(level)
	case wantNumber && !s.hasNumber && (c == '-' || (c >= '0' && c <= '9')):
		start := s.pos
		s.skipNumber()
		n, err := strconv.ParseFloat(s.text[start:s.pos], 64)
		if (err == nil || isRangeErrorToZero(err, n)) && n >= 0 && !isInf(n) {
			s.number = n
			s.hasNumber = true
		}
	default:
		s.skipValue(level)
	}
}

func isInf(f float64) bool { return f > 1.7976931348623157e308 || f < -1.7976931348623157e308 }

// isRangeErrorToZero: an underflow parses to 0 in JavaScript, as in Go (which also reports it).
func isRangeErrorToZero(err error, n float64) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange && n == 0
}

func (s *jsonScan) object(level int) {
	if level >= maxJSONDepth {
		panic(scanAbort(jsonTooDeep))
	}
	s.pos++
	s.skipWhitespace()
	if s.at(s.pos) == '}' {
		s.pos++
		return
	}
	for {
		if s.at(s.pos) != '"' {
			panic(scanAbort(jsonMalformed))
		}
		keyStart := s.pos
		escaped := s.skipString()
		keyEnd := s.pos - 1
		key, hasKey := "", false
		if escaped {
			key, hasKey = unescapeJSONString(s.text[keyStart+1:keyEnd]), true
		}
		s.skipWhitespace()
		if s.at(s.pos) != ':' {
			panic(scanAbort(jsonMalformed))
		}
		s.pos++
		s.skipWhitespace()
		s.child(level, key, hasKey, keyStart+1, keyEnd)
		s.skipWhitespace()
		c := s.at(s.pos)
		s.pos++
		if c == '}' {
			return
		}
		if c != ',' {
			panic(scanAbort(jsonMalformed))
		}
		s.skipWhitespace()
	}
}

func (s *jsonScan) array(level int) {
	if level >= maxJSONDepth {
		panic(scanAbort(jsonTooDeep))
	}
	s.pos++
	s.skipWhitespace()
	if s.at(s.pos) == ']' {
		s.pos++
		return
	}
	for index := 0; ; index++ {
		s.child(level, "", false, -1, index)
		s.skipWhitespace()
		c := s.at(s.pos)
		s.pos++
		if c == ']' {
			return
		}
		if c != ',' {
			panic(scanAbort(jsonMalformed))
		}
		s.skipWhitespace()
	}
}

func (s *jsonScan) child(level int, key string, hasKey bool, from, to int) {
	base := level * s.width
	next := base + s.width
	live, matched := false, false
	for p := 0; p < s.width; p++ {
		m := s.states[base+p]
		if m == 0 {
			s.states[next+p] = 0
			continue
		}
		path := s.paths[p]
		c := s.step(path, m, key, hasKey, from, to)
		s.states[next+p] = c
		if c != 0 {
			live = true
		}
		if c&path.matched != 0 {
			matched = true
		}
	}
	if live {
		s.value(level+1, matched)
	} else {
		s.skipValue(level + 1)
	}
}

func (s *jsonScan) step(path *pathAutomaton, mask uint32, key string, hasKey bool, from, to int) uint32 {
	var next uint32
	for i := range path.kinds {
		bit := uint32(1) << i
		if mask&bit == 0 {
			continue
		}
		switch path.kinds[i] {
		case segDeep:
			next |= bit
		case segAny:
			next |= bit << 1
		default:
			var hit bool
			switch {
			case from < 0:
				hit = path.indexes[i] == to
			case !hasKey:
				hit = s.text[from:to] == path.names[i]
			default:
				hit = path.names[i] == key
			}
			if hit {
				next |= bit << 1
			}
		}
	}
	return next | ((next & path.deep) << 1)
}

func (s *jsonScan) skipValue(level int) {
	c := s.at(s.pos)
	switch {
	case c == '"':
		s.skipString()
		return
	case c == '{' || c == '[':
		if level >= maxJSONDepth {
			panic(scanAbort(jsonTooDeep))
		}
		closing := ']'
		if c == '{' {
			closing = '}'
		}
		s.pos++
		s.skipWhitespace()
		if s.at(s.pos) == int(closing) {
			s.pos++
			return
		}
		for {
			if closing == '}' {
				if s.at(s.pos) != '"' {
					panic(scanAbort(jsonMalformed))
				}
				s.skipString()
				s.skipWhitespace()
				if s.at(s.pos) != ':' {
					panic(scanAbort(jsonMalformed))
				}
				s.pos++
				s.skipWhitespace()
			}
			s.skipValue(level + 1)
			s.skipWhitespace()
			d := s.at(s.pos)
			s.pos++
			if d == int(closing) {
				return
			}
			if d != ',' {
				panic(scanAbort(jsonMalformed))
			}
			s.skipWhitespace()
		}
	case c == '-' || (c >= '0' && c <= '9'):
		s.skipNumber()
	case c == 't':
		s.literal("true")
	case c == 'f':
		s.literal("false")
	case c == 'n':
		s.literal("null")
	default:
		panic(scanAbort(jsonMalformed))
	}
}

// skipString skips a string token; true when it holds an escape.
func (s *jsonScan) skipString() bool {
	text := s.text
	i := s.pos + 1
	escaped := false
	for {
		if i >= len(text) {
			panic(scanAbort(jsonMalformed))
		}
		c := text[i]
		i++
		if c == '"' {
			break
		}
		if c == '\\' {
			escaped = true
			e := s.at(i)
			i++
			if e == 'u' {
				for k := 0; k < 4; k++ {
					if !isHexDigit(s.at(i)) {
						panic(scanAbort(jsonMalformed))
					}
					i++
				}
			} else if !(e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
				panic(scanAbort(jsonMalformed))
			}
		} else if c < 0x20 {
			panic(scanAbort(jsonMalformed))
		}
	}
	s.pos = i
	return escaped
}

func isHexDigit(c int) bool {
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f')
}

func (s *jsonScan) skipNumber() {
	i := s.pos
	if s.at(i) == '-' {
		i++
	}
	first := s.at(i)
	switch {
	case first == '0':
		i++
	case first >= '1' && first <= '9':
		i = s.digits(i)
	default:
		panic(scanAbort(jsonMalformed))
	}
	if s.at(i) == '.' {
		j := s.digits(i + 1)
		if j == i+1 {
			panic(scanAbort(jsonMalformed))
		}
		i = j
	}
	if e := s.at(i); e == 'e' || e == 'E' {
		i++
		if sign := s.at(i); sign == '+' || sign == '-' {
			i++
		}
		j := s.digits(i)
		if j == i {
			panic(scanAbort(jsonMalformed))
		}
		i = j
	}
	s.pos = i
}

func (s *jsonScan) digits(i int) int {
	for i < len(s.text) && s.text[i] >= '0' && s.text[i] <= '9' {
		i++
	}
	return i
}

func (s *jsonScan) literal(word string) {
	if !strings.HasPrefix(s.text[s.pos:], word) {
		panic(scanAbort(jsonMalformed))
	}
	s.pos += len(word)
}

func (s *jsonScan) skipWhitespace() {
	i := s.pos
	for i < len(s.text) {
		c := s.text[i]
		if c == ' ' || c == '\n' || c == '\r' || c == '\t' {
			i++
		} else {
			break
		}
	}
	s.pos = i
}

// unescapeJSONString decodes the inside of a valid JSON string literal, as JSON.parse does. A lone surrogate is
// kept in its UTF-8 form (which appendJSString escapes again), as JavaScript keeps it in the string.
func unescapeJSONString(raw string) string {
	if strings.IndexByte(raw, '\\') == -1 {
		return raw
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		switch raw[i] {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			u := rune(hexAt(raw, i+1, 4))
			i += 4
			if u >= 0xd800 && u < 0xdc00 && i+6 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
				if low := rune(hexAt(raw, i+3, 4)); low >= 0xdc00 && low < 0xe000 {
					b.WriteRune(0x10000 + (u-0xd800)<<10 + (low - 0xdc00))
					i += 6
					continue
				}
			}
			if u >= 0xd800 && u < 0xe000 {
				b.WriteByte(byte(0xe0 | u>>12))
				b.WriteByte(byte(0x80 | (u>>6)&63))
				b.WriteByte(byte(0x80 | u&63))
			} else {
				b.WriteRune(u)
			}
		default:
			b.WriteByte(raw[i])
		}
	}
	return b.String()
}
