package vigil

import (
	"strconv"
)

// parseJSValue parses JSON text already validated (by governJSONText) into the values appendJSValue writes, as
// JSON.parse builds them: a repeated key keeps its first place and its last value.
func parseJSValue(text string) (v any, ok bool) {
	p := &jsParser{text: text}
	defer func() {
		if recover() != nil {
			v, ok = nil, false
		}
	}()
	p.ws()
	v = p.value()
	p.ws()
	return v, p.pos == len(text)
}

type jsParser struct {
	text string
	pos  int
}

func (p *jsParser) ws() {
	for p.pos < len(p.text) {
		switch p.text[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsParser) value() any {
	switch c := p.text[p.pos]; {
	case c == '{':
		p.pos++
		o := newJSObject()
		p.ws()
		if p.text[p.pos] == '}' {
			p.pos++
			return o
		}
		for {
			p.ws()
			k := p.str()
			p.ws()
			p.pos++ // ':'
			p.ws()
			o.set(k, p.value())
			p.ws()
			c := p.text[p.pos]
			p.pos++
			if c == '}' {
				return o
			}
		}
	case c == '[':
		p.pos++
		a := []any{}
		p.ws()
		if p.text[p.pos] == ']' {
			p.pos++
			return a
		}
		for {
			p.ws()
			a = append(a, p.value())
			p.ws()
			c := p.text[p.pos]
			p.pos++
			if c == ']' {
				return a
			}
		}
	case c == '"':
		return p.str()
	case c == 't':
		p.pos += 4
		return true
	case c == 'f':
		p.pos += 5
		return false
	case c == 'n':
		p.pos += 4
		return nil
	default:
		start := p.pos
		for p.pos < len(p.text) && (p.text[p.pos] == '-' || p.text[p.pos] == '+' || p.text[p.pos] == '.' ||
			p.text[p.pos] == 'e' || p.text[p.pos] == 'E' || (p.text[p.pos] >= '0' && p.text[p.pos] <= '9')) {
			p.pos++
		}
		f, err := strconv.ParseFloat(p.text[start:p.pos], 64)
		if err != nil && !isRangeErrorToZero(err, f) && !isInf(f) {
			panic("bad number")
		}
		return f
	}
}

func (p *jsParser) str() string {
	start := p.pos + 1
	i := start
	for p.text[i] != '"' {
		if p.text[i] == '\\' {
			i++
		}
		i++
	}
	p.pos = i + 1
	return unescapeJSONString(p.text[start:i])
}
