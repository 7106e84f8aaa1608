package vigil

import "strings"

// One round of the fold on one path segment (policies/fold-segment.ts). foldPath repeats rounds until nothing
// changes, so a step that reveals work for another (a decoded `%3B` is a `;` to cut) is finished by the next round.

// inSegmentSeparator is what a decoded `/` or `\` inside a segment becomes in the literal router reading.
const inSegmentSeparator = "%2f"

func foldSegmentOnce(segment string, keepSeparatorsInSegment bool) string {
	if isPlainSegment(segment) {
		return segment
	}
	s := segment
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	}
	// Tomcat, Jetty and Spring cut path parameters before they decode.
	if semicolon := strings.IndexByte(s, ';'); semicolon != -1 {
		s = s[:semicolon]
	}
	if strings.IndexByte(s, '%') != -1 || !isASCII(s) {
		s = decodeEscapes(s)
	}
	if !isASCII(s) {
		s = unicodeCaseless(nfkc(s))
	} else if hasASCIIUpper(s) {
		s = strings.ToLower(s)
	}
	// A server written in C reads a name up to its NUL.
	if nul := strings.IndexByte(s, 0); nul != -1 {
		s = s[:nul]
	}
	s = trimSegment(s)
	if keepSeparatorsInSegment {
		if strings.ContainsAny(s, "/\\") {
			s = strings.NewReplacer("/", inSegmentSeparator, "\\", inSegmentSeparator).Replace(s)
		}
	} else if strings.IndexByte(s, '\\') != -1 {
		s = strings.ReplaceAll(s, "\\", "/")
	}
	return escapeUnprintable(s)
}

func hasASCIIUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// isPlainSegment: a round leaves the segment as it is.
func isPlainSegment(segment string) bool {
	n := len(segment)
	for i := 0; i < n; i++ {
		c := segment[i]
		if c <= 0x20 || c >= 0x7f || (c >= 'A' && c <= 'Z') || c == '%' || c == ';' || c == '\\' {
			return false
		}
	}
	if n == 0 || segment[n-1] != '.' {
		return true
	}
	return strings.Trim(segment, ".") == ""
}

// unicodeCaseless: lower case as comparisons through upper case see it (`ı` and `ſ` are `i` and `s`, `İ` is `i`).
func unicodeCaseless(s string) string {
	return strings.ReplaceAll(jsLower(jsUpper(s)), "i\u0307", "i")
}

// escapeUnprintable writes controls, DEL and everything beyond ASCII as lower-case UTF-8 escapes.
func escapeUnprintable(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f {
			b.WriteByte('%')
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isBlank(c rune) bool {
	return c <= 0x20 || (c >= 0x85 && (c == 0x85 || c == 0xa0 || c == 0x1680 || c == 0x180e || (c >= 0x2000 && c <= 0x200b) ||
		c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000 || c == 0xfeff))
}

// trimSegment: blanks at both ends and dots at the end, unless the segment is dots alone.
func trimSegment(s string) string {
	rs := []rune(s)
	start, end := 0, len(rs)
	for start < end && isBlank(rs[start]) {
		start++
	}
	for end > start && isBlank(rs[end-1]) {
		end--
	}
	name := end
	for name > start && (rs[name-1] == '.' || isBlank(rs[name-1])) {
		name--
	}
	if name > start {
		end = name
	}
	if start == 0 && end == len(rs) {
		return s
	}
	return string(rs[start:end])
}
