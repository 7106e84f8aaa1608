package vigil

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// The `rules` section checked against the rule schema (policies/schema.ts), strictly: an unknown key, a wrong type
// or a value out of range is a problem placed at its line, with its key path.

var (
	methodRe      = regexp.MustCompile(`^[A-Za-z]+$`)
	headerNameRe  = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
	labelNameRe   = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)
	labelSourceRe = regexp.MustCompile("^header:[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
	byteSizeRe    = regexp.MustCompile(`(?i)^(\d+(?:\.\d+)?|\.\d+)\s*(?:([kmgt])(?:i?b)?|(b))?$`)
)

var detectorKinds = []string{"card_number", "iban", "email", "jwt", "aws_access_key_id", "private_key", "bearer_token", "api_key", "us_ssn"}

func (l *configLoader) expectKeys(n *yaml.Node, path []any, allowed []string) bool {
	if n.Kind != yaml.MappingNode {
		l.problem(n, keyPath(path)+" must be an object, got "+describeNode(n))
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		ok := false
		for _, a := range allowed {
			if a == k {
				ok = true
			}
		}
		if !ok {
			l.problem(n.Content[i], "unknown key "+keyPath(with(path, k))+"; allowed here: "+strings.Join(allowed, ", "))
		}
	}
	return true
}

func (l *configLoader) str(n *yaml.Node, path []any) (string, bool) {
	n = resolveAlias(n)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		l.problem(n, keyPath(path)+" must be a string, got "+describeNode(n))
		return "", false
	}
	return n.Value, true
}

func (l *configLoader) pattern(n *yaml.Node, path []any, re *regexp.Regexp, source string) (string, bool) {
	s, ok := l.str(n, path)
	if ok && !re.MatchString(s) {
		l.problem(n, keyPath(path)+" must match the pattern "+source)
		return "", false
	}
	return s, ok
}

func (l *configLoader) list(n *yaml.Node, path []any, item func(*yaml.Node, []any) (string, bool)) []string {
	n = resolveAlias(n)
	if n.Kind != yaml.SequenceNode {
		l.problem(n, keyPath(path)+" must be an array, got "+describeNode(n))
		return nil
	}
	out := []string{}
	for i, c := range n.Content {
		if s, ok := item(resolveAlias(c), with(path, i)); ok {
			out = append(out, s)
		}
	}
	return out
}

func (l *configLoader) enum(values []string) func(*yaml.Node, []any) (string, bool) {
	return func(n *yaml.Node, path []any) (string, bool) {
		s, ok := l.str(n, path)
		if !ok {
			return "", false
		}
		for _, v := range values {
			if v == s {
				return s, true
			}
		}
		l.problem(n, keyPath(path)+" must be one of: "+strings.Join(values, ", "))
		return "", false
	}
}

func (l *configLoader) rules(n *yaml.Node) []*ruleConfig {
	path := []any{"rules"}
	if n.Kind != yaml.SequenceNode {
		l.problem(n, "rules must be an array, got "+describeNode(n))
		return nil
	}
	var out []*ruleConfig
	for i, c := range n.Content {
		if r := l.rule(resolveAlias(c), with(path, i)); r != nil {
			out = append(out, r)
		}
	}
	return out
}

func (l *configLoader) rule(n *yaml.Node, path []any) *ruleConfig {
	if !l.expectKeys(n, path, []string{"name", "match", "restrict", "redact", "labels", "sample", "keep_errors", "meter", "wasm"}) {
		return nil
	}
	r := &ruleConfig{}
	before := len(l.problems)
	if mappingValue(n, "name") == nil {
		l.problem(n, "missing required key "+keyPath(with(path, "name")))
	}
	if mappingValue(n, "match") == nil {
		l.problem(n, "missing required key "+keyPath(with(path, "match")))
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, v := n.Content[i].Value, resolveAlias(n.Content[i+1])
		at := with(path, key)
		switch key {
		case "name":
			if s, ok := l.str(v, at); ok {
				if s == "" {
					l.problem(v, keyPath(at)+" must not be empty")
				}
				r.name = s
			}
		case "match":
			l.match(v, at, r)
		case "restrict":
			r.restrict = l.list(v, at, l.enum([]string{"request_body", "response_body", "headers"}))
		case "redact":
			l.redact(v, at, r)
		case "labels":
			if v.Kind != yaml.MappingNode {
				l.problem(v, keyPath(at)+" must be an object, got "+describeNode(v))
				continue
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				name := v.Content[j].Value
				if !labelNameRe.MatchString(name) || strings.HasPrefix(name, "__") {
					l.problem(v, keyPath(at)+" has an invalid key "+jsString(name))
					continue
				}
				if s, ok := l.pattern(v.Content[j+1], with(at, name), labelSourceRe, "^header:[!#$%&'*+.^_`|~0-9A-Za-z-]+$"); ok {
					r.labels = append(r.labels, [2]string{name, s})
				}
			}
		case "sample":
			if v.Kind != yaml.ScalarNode || (v.Tag != "!!int" && v.Tag != "!!float") {
				l.problem(v, keyPath(at)+" must be a number, got "+describeNode(v))
				continue
			}
			f, err := strconv.ParseFloat(strings.ReplaceAll(v.Value, "_", ""), 64)
			if err != nil || math.IsNaN(f) {
				l.problem(v, keyPath(at)+" must be a number, got "+describeNode(v))
				continue
			}
			if f < 0 {
				l.problem(v, keyPath(at)+" must be >= 0")
			} else if f > 1 {
				l.problem(v, keyPath(at)+" must be <= 1")
			}
			r.sample = &f
		case "keep_errors":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
				l.problem(v, keyPath(at)+" must be a boolean, got "+describeNode(v))
				continue
			}
			r.keepErrors = v.Value == "true"
		case "meter":
			if l.expectKeys(v, at, []string{"tokens"}) {
				if t := mappingValue(v, "tokens"); t != nil {
					if s, ok := l.pattern(t, with(at, "tokens"), regexp.MustCompile(`^\$`), `^\$`); ok {
						r.meter = &s
					}
				}
			}
		case "wasm":
			l.problem(v, keyPath(at)+": WASM policy modules are not run by the Go middleware; govern this route with the gateway "+
				"(vigil run), or remove the wasm rule from the config file the middleware reads")
		}
	}
	if len(l.problems) > before {
		return nil
	}
	return r
}

func (l *configLoader) match(n *yaml.Node, path []any, r *ruleConfig) {
	if !l.expectKeys(n, path, []string{"path", "methods"}) {
		return
	}
	p := mappingValue(n, "path")
	if p == nil {
		l.problem(n, "missing required key "+keyPath(with(path, "path")))
	} else if s, ok := l.pattern(p, with(path, "path"), regexp.MustCompile(`^/`), "^/"); ok {
		r.path = s
	}
	if m := mappingValue(n, "methods"); m != nil {
		r.methods = l.list(m, with(path, "methods"), func(n *yaml.Node, at []any) (string, bool) {
			return l.pattern(n, at, methodRe, "^[A-Za-z]+$")
		})
	}
}

func (l *configLoader) redact(n *yaml.Node, path []any, r *ruleConfig) {
	if !l.expectKeys(n, path, []string{"headers", "query_params", "json_fields", "detect"}) {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, v := n.Content[i].Value, n.Content[i+1]
		at := with(path, key)
		switch key {
		case "headers":
			r.headers = l.list(v, at, func(n *yaml.Node, at []any) (string, bool) {
				return l.pattern(n, at, headerNameRe, "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
			})
		case "query_params":
			r.query = l.list(v, at, func(n *yaml.Node, at []any) (string, bool) {
				s, ok := l.str(n, at)
				if ok && s == "" {
					l.problem(n, keyPath(at)+" must not be empty")
					return "", false
				}
				return s, ok
			})
		case "json_fields":
			r.jsonFields = l.list(v, at, func(n *yaml.Node, at []any) (string, bool) {
				return l.pattern(n, at, regexp.MustCompile(`^\$`), `^\$`)
			})
		case "detect":
			r.detect = l.list(v, at, l.enum(detectorKinds))
		}
	}
}

// capture reads `capture.max_body_bytes` (a byte size: 512, 64kb, 1mb; binary units). The other capture keys are
// the agent's.
func (l *configLoader) capture(n *yaml.Node) int {
	if n.Kind != yaml.MappingNode {
		if n.Tag == "!!null" {
			return defaultMaxBodyBytes
		}
		l.problem(n, "capture must be an object, got "+describeNode(n))
		return 0
	}
	v := mappingValue(n, "max_body_bytes")
	if v == nil {
		return defaultMaxBodyBytes
	}
	v = resolveAlias(v)
	bytes, ok := parseByteSize(v.Value)
	if v.Kind != yaml.ScalarNode || (v.Tag != "!!str" && v.Tag != "!!int") || !ok {
		l.problem(v, "capture.max_body_bytes must be a byte size such as 512, 64kb or 1mb, got "+describeNode(v))
		return 0
	}
	return bytes
}

func parseByteSize(text string) (int, bool) {
	m := byteSizeRe.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, false
	}
	unit := 1.0
	switch strings.ToLower(m[2]) {
	case "k":
		unit = 1024
	case "m":
		unit = 1024 * 1024
	case "g":
		unit = 1024 * 1024 * 1024
	case "t":
		unit = 1024 * 1024 * 1024 * 1024
	}
	return int(math.Floor(f * unit)), true
}
