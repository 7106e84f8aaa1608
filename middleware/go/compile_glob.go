package vigil

import (
	"regexp"
	"strings"
)

// pathMatcher is a compiled `match.path` glob (policies/compile-glob.ts); it tests folded paths (readings).
type pathMatcher struct {
	glob  string
	regex *regexp.Regexp
}

func (m *pathMatcher) test(folded string) bool {
	// The root path is "no segments": `/**` and `/` both match it.
	if folded == "/" {
		folded = ""
	}
	return m.regex.MatchString(folded)
}

func compileGlob(glob, where string) (*pathMatcher, error) {
	if !strings.HasPrefix(glob, "/") {
		return nil, policyError(errGlob, where, jsString(glob)+` must start with "/"`)
	}
	if strings.ContainsAny(glob, "?#") {
		return nil, policyError(errGlob, where, jsString(glob)+` contains "?" or "#": paths are matched without their query, so remove that part `+
			"(use redact.query_params for query parameters)")
	}
	folded, ok := foldPath(glob)
	if !ok {
		return nil, policyError(errGlob, where, jsString(glob)+" does not fold to one path: it is percent-encoded in more layers than the fold decodes, "+
			"or too long to fold; write it decoded, and shorter")
	}
	var source strings.Builder
	source.WriteString("^")
	for _, segment := range strings.Split(folded, "/")[1:] {
		if segment == "" {
			continue
		}
		if segment == "**" {
			source.WriteString("(?:/[^/]+)*")
			continue
		}
		if strings.Contains(segment, "**") {
			return nil, policyError(errGlob, where, jsString(glob)+`: "**" must be a whole segment (write "/a/**/b", or "*" to match within a segment)`)
		}
		if segment == "*" {
			source.WriteString("/[^/]+")
			continue
		}
		parts := strings.Split(segment, "*")
		for i, p := range parts {
			parts[i] = regexp.QuoteMeta(p)
		}
		source.WriteString("/" + strings.Join(parts, "[^/]*"))
	}
	source.WriteString("$")
	return &pathMatcher{glob: glob, regex: regexp.MustCompile(source.String())}, nil
}
