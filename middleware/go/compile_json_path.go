package vigil

import (
	"regexp"
	"strconv"
	"strings"
)

// JSON paths (policies/compile-json-path.ts): `$.a.b`, `$.*.x`, `$.**.x`, `$['a.b'][0]` and their combinations.

// redacted is the marker that replaces the whole matched value.
const redacted = "[REDACTED]"

const (
	segKey = iota
	segAny
	segDeep
)

type jsonPathSegment struct {
	kind int
	name string
}

type compiledJSONPath struct {
	expression string
	segments   []jsonPathSegment
	automaton  *pathAutomaton
}

const maxJSONPathSegments = 30

var (
	digitsOnly        = regexp.MustCompile(`^[0-9]+$`)
	quotedName        = regexp.MustCompile(`^'(?:[^'\\]|\\.)*'$|^"(?:[^"\\]|\\.)*"$`)
	backslashEscape   = regexp.MustCompile(`\\(.)`)
	canonicalIndexKey = regexp.MustCompile(`^(?:0|[1-9][0-9]{0,8})$`)
)

func compileJSONPath(expression, where string) (*compiledJSONPath, error) {
	fail := func(why string) error {
		return policyError(errJSONPath, where, jsString(expression)+": "+why)
	}
	if !strings.HasPrefix(expression, "$") {
		return nil, fail(`must start with "$" (e.g. "$.card.number")`)
	}
	var segments []jsonPathSegment
	i := 1
	for i < len(expression) {
		c := expression[i]
		switch c {
		case '.':
			j := i + 1
			for j < len(expression) && expression[j] != '.' && expression[j] != '[' {
				j++
			}
			name := expression[i+1 : j]
			switch {
			case name == "":
				return nil, fail("empty name at offset " + strconv.Itoa(utf16Length(expression[:i+1])) + ` (write "$.a.b", "$.*.x" or "$.**.x")`)
			case name == "**":
				if len(segments) == 0 || segments[len(segments)-1].kind != segDeep {
					segments = append(segments, jsonPathSegment{kind: segDeep})
				}
			case name == "*":
				segments = append(segments, jsonPathSegment{kind: segAny})
			case strings.Contains(name, "*"):
				return nil, fail(`"` + name + `": "*" and "**" must be a whole name`)
			default:
				segments = append(segments, jsonPathSegment{kind: segKey, name: name})
			}
			i = j
		case '[':
			end := bracketEnd(expression, i)
			if end == -1 {
				return nil, fail(`unclosed "[" at offset ` + strconv.Itoa(utf16Length(expression[:i])))
			}
			inner := expression[i+1 : end]
			switch {
			case inner == "*":
				segments = append(segments, jsonPathSegment{kind: segAny})
			case digitsOnly.MatchString(inner):
				v, _ := strconv.ParseFloat(inner, 64)
				segments = append(segments, jsonPathSegment{kind: segKey, name: string(appendJSNumber(nil, v))})
			case quotedName.MatchString(inner):
				segments = append(segments, jsonPathSegment{kind: segKey, name: backslashEscape.ReplaceAllString(inner[1:len(inner)-1], "$1")})
			default:
				return nil, fail(`"[` + inner + `]": write [*], [0] or ['name']`)
			}
			i = end + 1
		default:
			r := []rune(expression[i:])[0]
			return nil, fail(`unexpected "` + string(r) + `" at offset ` + strconv.Itoa(utf16Length(expression[:i])))
		}
	}
	if len(segments) > 0 && segments[len(segments)-1].kind == segDeep {
		return nil, fail(`cannot end with "**" (name the key it leads to, e.g. "$.**.card", or use "$" for the whole body)`)
	}
	if len(segments) > maxJSONPathSegments {
		return nil, fail("more than 30 segments")
	}
	p := &compiledJSONPath{expression: expression, segments: segments}
	p.automaton = automatonOf(p)
	return p, nil
}

func bracketEnd(text string, open int) int {
	if open+1 < len(text) && (text[open+1] == '\'' || text[open+1] == '"') {
		quote := text[open+1]
		for k := open + 2; k < len(text); k++ {
			if text[k] == '\\' {
				k++
				continue
			}
			if text[k] == quote {
				if k+1 < len(text) && text[k+1] == ']' {
					return k + 1
				}
				return -1
			}
		}
		return -1
	}
	if j := strings.IndexByte(text[open:], ']'); j != -1 {
		return open + j
	}
	return -1
}

// pathAutomaton is a compiled path as the text scan runs it (policies/json-path-automaton.ts).
type pathAutomaton struct {
	kinds   []int
	names   []string
	indexes []int
	deep    uint32
	matched uint32
	start   uint32
}

func automatonOf(p *compiledJSONPath) *pathAutomaton {
	var segments []jsonPathSegment
	for i, s := range p.segments {
		if s.kind == segDeep && i > 0 && p.segments[i-1].kind == segDeep {
			continue
		}
		segments = append(segments, s)
	}
	a := &pathAutomaton{kinds: make([]int, len(segments)), names: make([]string, len(segments)), indexes: make([]int, len(segments))}
	for i, s := range segments {
		a.kinds[i] = s.kind
		a.indexes[i] = -1
		if s.kind == segKey {
			a.names[i] = s.name
			if canonicalIndexKey.MatchString(s.name) {
				a.indexes[i], _ = strconv.Atoi(s.name)
			}
		}
		if s.kind == segDeep {
			a.deep |= 1 << i
		}
	}
	a.matched = 1 << len(segments)
	a.start = 1 | ((1 & a.deep) << 1)
	return a
}
