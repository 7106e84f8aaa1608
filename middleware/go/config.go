package vigil

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// The vigil config file as the middleware reads it (middleware/core/load-policy.ts): `${ENV}` interpolation in
// values, `rules` checked strictly against the rule schema (policies/schema.ts) with file:line:column and the key
// path in every problem, `capture.max_body_bytes`; the other sections are `vigil run`'s and are not read here.

type loadedPolicy struct {
	file         string
	policy       *compiledPolicy
	maxBodyBytes int
}

const defaultMaxBodyBytes = 1024 * 1024

type configLoader struct {
	file     string
	env      func(string) (string, bool)
	problems []string
}

func (l *configLoader) problem(n *yaml.Node, message string) {
	if n != nil && n.Line > 0 {
		l.problems = append(l.problems, fmt.Sprintf("%s:%d:%d: %s", l.file, n.Line, n.Column, message))
	} else {
		l.problems = append(l.problems, l.file+": "+message)
	}
}

var plainKeyRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// keyPath formats a key path as the config layer does: `rules[2].redact.json_fields`.
func keyPath(path []any) string {
	var b strings.Builder
	for _, s := range path {
		switch v := s.(type) {
		case int:
			b.WriteString("[" + strconv.Itoa(v) + "]")
		case string:
			if plainKeyRe.MatchString(v) {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(v)
			} else {
				b.WriteString("[" + jsString(v) + "]")
			}
		}
	}
	return b.String()
}

func with(path []any, s any) []any { return append(append([]any{}, path...), s) }

var (
	referenceRe      = regexp.MustCompile(`\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$\{`)
	wholeReferenceRe = regexp.MustCompile(`^\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}$`)
)

// interpolate expands `${VAR}` and `${VAR:-default}` in the scalar values of the tree, in place, as the config
// layer does: a plain scalar that is one whole reference takes the type of its value.
func (l *configLoader) interpolate(n *yaml.Node, path []any, seen map[*yaml.Node]bool) {
	if n == nil || seen[n] {
		return
	}
	seen[n] = true
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			l.interpolate(c, path, seen)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			l.interpolate(n.Content[i+1], with(path, n.Content[i].Value), seen)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			l.interpolate(c, with(path, i), seen)
		}
	case yaml.AliasNode:
		l.interpolate(n.Alias, path, seen)
	case yaml.ScalarNode:
		if n.Tag != "!!str" || !strings.Contains(n.Value, "${") {
			return
		}
		source := n.Value
		var missing []string
		malformed := false
		text := referenceRe.ReplaceAllStringFunc(source, func(match string) string {
			if match == "$${" {
				return "${"
			}
			m := referenceRe.FindStringSubmatch(match)
			if m[1] == "" {
				malformed = true
				return match
			}
			value, set := l.env(m[1])
			if strings.Contains(match, ":-") {
				if !set || value == "" {
					return m[2]
				}
				return value
			}
			if !set {
				missing = append(missing, m[1])
				return ""
			}
			return value
		})
		where := keyPath(path)
		if where == "" {
			where = "value"
		}
		if malformed {
			l.problem(n, where+" has a malformed reference: write ${NAME} or ${NAME:-default} (NAME: letters, digits, _), or $${ for a literal ${")
			return
		}
		for _, name := range missing {
			l.problem(n, fmt.Sprintf("%s uses environment variable %s, which is not set (set it, or give a default: ${%s:-value})", where, name, name))
		}
		if len(missing) > 0 {
			return
		}
		n.Value = text
		if n.Style == 0 && wholeReferenceRe.MatchString(source) && strings.TrimSpace(text) != "" {
			var typed yaml.Node
			if yaml.Unmarshal([]byte(text), &typed) == nil && len(typed.Content) == 1 && typed.Content[0].Kind == yaml.ScalarNode &&
				typed.Content[0].Style == 0 {
				n.Tag = typed.Content[0].Tag
			}
		}
	}
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch n.Tag {
	case "!!null":
		return "null"
	case "!!bool":
		return "a boolean (" + n.Value + ")"
	case "!!int", "!!float":
		return "a number (" + n.Value + ")"
	}
	return "a string (" + jsString(n.Value) + ")"
}

// loadConfig reads a vigil config file for the middleware. Problems come back as one *Error (ErrCodeConfig), one
// line per problem, each `file:line:column: what is wrong`.
func loadConfig(file string, env func(string) (string, bool)) (*loadedPolicy, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	text, err := os.ReadFile(abs)
	if err != nil {
		reason := err.Error()
		if errors.Is(err, os.ErrNotExist) {
			reason = "no such file"
		} else if info, statErr := os.Stat(abs); statErr == nil && info.IsDir() {
			reason = "it is a directory"
		}
		return nil, &Error{Code: ErrCodeConfig, Message: abs + ": cannot read the config file: " + reason}
	}
	l := &configLoader{file: abs, env: env}
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return nil, &Error{Code: ErrCodeConfig, Message: abs + ": " + err.Error()}
	}
	if len(doc.Content) == 0 {
		return nil, &Error{Code: ErrCodeConfig, Message: abs + ":1:1: the config file is empty: it must be a mapping of config keys, e.g. \"control_plane: { listen: 9095 }\""}
	}
	root := resolveAlias(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		return nil, &Error{Code: ErrCodeConfig, Message: fmt.Sprintf("%s:%d:%d: the top level must be a mapping of config keys, got %s", abs, root.Line, root.Column, describeNode(root))}
	}
	l.checkDuplicates(root, nil)
	l.interpolate(&doc, nil, map[*yaml.Node]bool{})
	if len(l.problems) > 0 {
		return nil, &Error{Code: ErrCodeConfig, Message: strings.Join(l.problems, "\n")}
	}
	rulesNode, captureNode := mappingValue(root, "rules"), mappingValue(root, "capture")
	if rulesNode == nil {
		return nil, &Error{Code: ErrCodeConfig, Message: abs + `: no "rules" key; the middleware governs with the rules of a vigil config file`}
	}
	rules := l.rules(resolveAlias(rulesNode))
	maxBody := defaultMaxBodyBytes
	if captureNode != nil {
		maxBody = l.capture(resolveAlias(captureNode))
	}
	if len(l.problems) > 0 {
		return nil, &Error{Code: ErrCodeConfig, Message: strings.Join(l.problems, "\n")}
	}
	policy, err := compilePolicy(rules, 0)
	if err != nil {
		var pe *policyErr
		if errors.As(err, &pe) {
			at := l.locate(rulesNode, pe.where)
			message := pe.message
			if at != nil {
				return nil, &Error{Code: ErrCodeConfig, Message: fmt.Sprintf("%s:%d:%d: %s: %s", abs, at.Line, at.Column, pe.where, message)}
			}
			return nil, &Error{Code: ErrCodeConfig, Message: abs + ": " + pe.where + ": " + message}
		}
		return nil, &Error{Code: ErrCodeConfig, Message: abs + ": " + err.Error()}
	}
	return &loadedPolicy{file: abs, policy: policy, maxBodyBytes: maxBody}, nil
}

func (l *configLoader) checkDuplicates(n *yaml.Node, path []any) {
	n = resolveAlias(n)
	switch n.Kind {
	case yaml.MappingNode:
		first := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if earlier, ok := first[k.Value]; ok && k.Value != "<<" {
				p := keyPath(with(path, k.Value))
				l.problem(k, fmt.Sprintf("duplicate key %s (first set on line %d); keep one of them", p, earlier.Line))
			} else {
				first[k.Value] = k
			}
			l.checkDuplicates(n.Content[i+1], with(path, k.Value))
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			l.checkDuplicates(c, with(path, i))
		}
	}
}

func mappingValue(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// locate finds the node at a policy key path such as `rules[2].match.path` (under the rules list).
var keyPathPart = regexp.MustCompile(`\[(\d+)\]|\.?([A-Za-z_][A-Za-z0-9_]*)`)

func (l *configLoader) locate(rules *yaml.Node, where string) *yaml.Node {
	n := resolveAlias(rules)
	parts := keyPathPart.FindAllStringSubmatch(strings.TrimPrefix(where, "rules"), -1)
	for _, p := range parts {
		if n == nil {
			return nil
		}
		if p[1] != "" {
			i, _ := strconv.Atoi(p[1])
			if n.Kind != yaml.SequenceNode || i >= len(n.Content) {
				return n
			}
			n = resolveAlias(n.Content[i])
		} else {
			if n.Kind != yaml.MappingNode {
				return n
			}
			v := mappingValue(n, p[2])
			if v == nil {
				return n
			}
			n = resolveAlias(v)
		}
	}
	return n
}
