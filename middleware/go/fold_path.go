package vigil

import "strings"

// The paths rules are matched against (policies/fold-path.ts; policies/README.md, "Paths"): every reading of a
// request-target that a common upstream could make, each folded; a rule applies when it meets any of them.

const (
	maxFoldRounds = 8
	maxFoldLength = 2048
)

// receivedPath is the request-target's path as received, without the query: what a record keeps.
func receivedPath(target string) string {
	if q := strings.IndexByte(target, '?'); q != -1 {
		return target[:q]
	}
	return target
}

var plainPathChar = func() (t [128]bool) {
	for _, c := range "abcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,=:@" {
		t[c] = true
	}
	return
}()

// isFolded: every reading of `path` is `path` itself.
func isFolded(path string) bool {
	n := len(path)
	if n == 0 || path[0] != '/' {
		return false
	}
	if n == 1 {
		return true
	}
	for i := 1; i < n; i++ {
		c := path[i]
		if c == '/' {
			if b := path[i-1]; b == '/' || b == '.' {
				return false
			}
		} else if c >= 128 || !plainPathChar[c] {
			return false
		}
	}
	last := path[n-1]
	return last != '/' && last != '.'
}

func foldedLowerCase(path string) (string, bool) {
	lower := jsLower(path)
	return lower, isFolded(lower)
}

func isSlash(c byte) bool { return c == '/' || c == '\\' }

// absoluteFormLength: the length of `scheme://authority` at the start of `t` (ABSOLUTE_FORM), or 0.
func absoluteFormLength(t string) int {
	if len(t) == 0 || !isAlpha(t[0]) {
		return 0
	}
	i := 1
	for i < len(t) && (isAlpha(t[i]) || (t[i] >= '0' && t[i] <= '9') || t[i] == '+' || t[i] == '.' || t[i] == '-') {
		i++
	}
	if i+3 > len(t) || t[i] != ':' || !isSlash(t[i+1]) || !isSlash(t[i+2]) {
		return 0
	}
	i += 3
	for i < len(t) && !isSlash(t[i]) && t[i] != '?' && t[i] != '#' {
		i++
	}
	return i
}

func isAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

func originForm(target string) string {
	if len(target) > 0 && isSlash(target[0]) {
		return target
	}
	rest := target[absoluteFormLength(target):]
	if len(rest) > 0 && isSlash(rest[0]) {
		return rest
	}
	return "/" + rest
}

func resolveDots(segments []string) []string {
	out := make([]string, 0, len(segments))
	for _, s := range segments {
		switch s {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, s)
		}
	}
	return out
}

func decodingRound(path string) string {
	parts := strings.Split(strings.ReplaceAll(path, "\\", "/"), "/")
	for i, s := range parts {
		parts[i] = foldSegmentOnce(s, false)
	}
	return "/" + strings.Join(resolveDots(strings.Split(strings.Join(parts, "/"), "/")), "/")
}

// utf16Length is JavaScript's `string.length`.
func utf16Length(s string) int {
	if isASCII(s) {
		return len(s)
	}
	n := 0
	for _, r := range s {
		n++
		if r > 0xffff {
			n++
		}
	}
	return n
}

// foldPath is the decoding reading of `target`; ok false when it is ambiguous.
func foldPath(target string) (string, bool) {
	path := receivedPath(target)
	if isFolded(path) {
		return path, true
	}
	if lower, ok := foldedLowerCase(path); ok {
		return lower, true
	}
	if utf16Length(path) > maxFoldLength {
		return "", false
	}
	current := originForm(path)
	for round := 1; ; round++ {
		next := decodingRound(current)
		if next == current {
			return next, true
		}
		if round > maxFoldRounds {
			return "", false
		}
		if isFolded(next) {
			return next, true
		}
		current = next
	}
}

func foldWholeSegment(segment string) (string, bool) {
	current := segment
	for round := 1; ; round++ {
		next := foldSegmentOnce(current, true)
		if next == current {
			return next, true
		}
		if round > maxFoldRounds {
			return "", false
		}
		if isPlainSegment(next) {
			return next, true
		}
		current = next
	}
}

func withoutExtension(path string) []string {
	slash := strings.LastIndexByte(path, '/')
	start := slash + 1
	for start < len(path) && path[start] == '.' {
		start++
	}
	if start == len(path) {
		return nil
	}
	first := -1
	if start+1 <= len(path) {
		if i := strings.IndexByte(path[start+1:], '.'); i != -1 {
			first = start + 1 + i
		}
	}
	if first == -1 {
		return nil
	}
	last := strings.LastIndexByte(path, '.')
	if last == first {
		return []string{path[:first]}
	}
	return []string{path[:first], path[:last]}
}

func addUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func withExtensionReadings(readings []string) []string {
	out := append([]string(nil), readings...)
	for _, r := range readings {
		for _, e := range withoutExtension(r) {
			out = addUnique(out, e)
		}
	}
	return out
}

func escapedOrWide(s string) bool {
	return strings.IndexByte(s, '%') != -1 || !isASCII(s)
}

func terminatedReadings(received string) ([]string, bool) {
	var out []string
	text := received
	for layer := 0; layer <= maxFoldRounds && escapedOrWide(text); layer++ {
		decoded := nfkc(decodeEscapes(text))
		if decoded == text {
			break
		}
		if at := strings.IndexAny(decoded, "?#\x00\t\n\r "); at != -1 {
			part, ok := pathReadings(decoded[:at])
			if !ok {
				return nil, false
			}
			for _, r := range part {
				out = addUnique(out, r)
			}
			return out, true
		}
		text = decoded
	}
	return out, true
}

// authorityLength: a leading `//host` (AUTHORITY): two or more slashes and what follows up to the next one.
func authorityLength(raw string) int {
	i := 0
	for i < len(raw) && isSlash(raw[i]) {
		i++
	}
	if i < 2 {
		return -1
	}
	for i < len(raw) && !isSlash(raw[i]) {
		i++
	}
	return i
}

// pathReadings is every distinct reading of `target` (decoding first); ok false when one does not settle.
func pathReadings(target string) ([]string, bool) {
	received := receivedPath(target)
	if isFolded(received) {
		return withExtensionReadings([]string{received}), true
	}
	if lower, ok := foldedLowerCase(received); ok {
		return withExtensionReadings([]string{lower}), true
	}
	decoding, ok := foldPath(received)
	if !ok {
		return nil, false
	}
	path := originForm(received)
	if hash := strings.IndexByte(path, '#'); hash != -1 {
		path = path[:hash]
	}
	raw := strings.ReplaceAll(path, "\\", "/")
	rawSegments := strings.Split(raw, "/")
	literal := make([]string, 0, len(rawSegments))
	for _, segment := range rawSegments {
		folded, ok := foldWholeSegment(segment)
		if !ok {
			return nil, false
		}
		literal = append(literal, folded)
	}
	hostSegments := 0
	if n := authorityLength(raw); n >= 0 {
		hostSegments = len(strings.Split(raw[:n], "/"))
	}
	whatwg := "/" + strings.Join(resolveDots(literal[hostSegments:]), "/")
	nonEmpty := make([]string, 0, len(literal))
	for _, s := range literal {
		if s != "" {
			nonEmpty = append(nonEmpty, s)
		}
	}
	router := "/" + strings.Join(nonEmpty, "/")
	readings := []string{decoding}
	readings = addUnique(readings, whatwg)
	readings = addUnique(readings, router)
	terminated, ok := terminatedReadings(received)
	if !ok {
		return nil, false
	}
	all := withExtensionReadings(readings)
	for _, r := range terminated {
		all = addUnique(all, r)
	}
	return all, true
}
