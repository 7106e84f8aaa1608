package vigil

import (
	"encoding/base64"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// Detectors (policies/detectors/): sensitive-looking values by what they are. The TypeScript patterns use
// lookbehind and repetition counts past what Go's regexp takes, so each is a small scanner here with the same
// matches (same starts and ends, found left to right, each search resuming after the previous match).

type span struct {
	kind       string
	start, end int
}

func isDigit(c byte) bool   { return c >= '0' && c <= '9' }
func isUpperAZ(c byte) bool { return c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool   { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z') }
func isWordChar(c byte) bool {
	return isAlnum(c) || c == '_'
}
func isKeyChar(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }

func before(text string, i int) int {
	if i == 0 {
		return -1
	}
	return int(text[i-1])
}

func byteIs(text string, i int, f func(byte) bool) bool { return i >= 0 && i < len(text) && f(text[i]) }

// jsSpace is JavaScript's \s.
func jsSpace(r rune) bool { return r == '\v' || jsWhitespace(r) }

// ---- pattern detectors -------------------------------------------------------------------------------------

var privateKeyPattern = regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY-----|$)`)

func findPrivateKeys(text string, out []span) []span {
	if !strings.Contains(text, "-----BEGIN ") {
		return out
	}
	for _, m := range privateKeyPattern.FindAllStringIndex(text, -1) {
		out = append(out, span{"private_key", m[0], m[1]})
	}
	return out
}

// run is the end of the longest run of `class` bytes from `i`, at most `max` long.
func run(text string, i, max int, class func(byte) bool) int {
	j := i
	for j < len(text) && j-i < max && class(text[j]) {
		j++
	}
	return j
}

func isB64URL(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }

func findJWTs(text string, out []span) []span {
	if !strings.Contains(text, "eyJ") {
		return out
	}
	for i := 0; i+3 <= len(text); {
		at := strings.Index(text[i:], "eyJ")
		if at == -1 {
			break
		}
		s := i + at
		if byteIs(text, s-1, isB64URL) {
			i = s + 1
			continue
		}
		end, ok := jwtAt(text, s)
		if !ok {
			i = s + 1
			continue
		}
		if jsonObjectSegment(text[s : strings.IndexByte(text[s:], '.')+s]) {
			out = append(out, span{"jwt", s, end})
		}
		i = end
		if end == s {
			i++
		}
	}
	return out
}

func jwtAt(text string, s int) (int, bool) {
	a := run(text, s+3, 4097, isB64URL)
	if a-(s+3) < 5 || a-(s+3) > 4096 || !strings.HasPrefix(text[a:], ".eyJ") {
		return 0, false
	}
	b := run(text, a+4, 16385, isB64URL)
	if b-(a+4) < 5 || b-(a+4) > 16384 || !strings.HasPrefix(text[b:], ".") {
		return 0, false
	}
	return run(text, b+1, 4096, isB64URL), true
}

func jsonObjectSegment(segment string) bool {
	segment = strings.TrimRight(segment, "=")
	if len(segment)%4 == 1 {
		segment = segment[:len(segment)-1]
	}
	raw, err := base64.RawURLEncoding.DecodeString(segment)
	if err != nil {
		return false
	}
	text := strings.ToValidUTF8(string(raw), "\ufffd")
	if r := governJSONText(text, nil, nil); r.status != jsonOK {
		return false
	}
	v, ok := parseJSValue(text)
	_, isObject := v.(*jsObject)
	return ok && isObject
}

func findAWSKeys(text string, out []span) []span {
	for i := 0; i+20 <= len(text); i++ {
		c := text[i]
		if c != 'A' || byteIs(text, i-1, isAlnum) {
			continue
		}
		p := text[i : i+4]
		if !(p == "AKIA" || p == "ASIA" || p == "ABIA" || p == "ACCA" || (p[:3] == "A3T" && (isUpperAZ(p[3]) || isDigit(p[3])))) {
			continue
		}
		ok := true
		for k := i + 4; k < i+20; k++ {
			if !isUpperAZ(text[k]) && !isDigit(text[k]) {
				ok = false
				break
			}
		}
		if !ok || byteIs(text, i+20, isAlnum) {
			continue
		}
		out = append(out, span{"aws_access_key_id", i, i + 20})
		i += 19
	}
	return out
}

var apiKeyHint = regexp.MustCompile(`k_(?:live|test)_|sk-|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|AIza`)

type keyForm struct {
	prefixes []string
	class    func(byte) bool
	min, max int
}

func alnumOrUnderscore(c byte) bool { return isAlnum(c) || c == '_' }
func alnumOrHyphen(c byte) bool     { return isAlnum(c) || c == '-' }

// The alternatives of the vendor-prefix pattern, in its order; each prefix list in the order its regex tries them.
var keyForms = []keyForm{
	{[]string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_", "pk_test_"}, isAlnum, 16, 128},
	{nil, isKeyChar, 20, 256}, // sk-…, below
	{[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, isAlnum, 36, 255},
	{[]string{"github_pat_"}, alnumOrUnderscore, 22, 255},
	{[]string{"glpat-"}, isKeyChar, 20, 64},
	{[]string{"xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-"}, alnumOrHyphen, 10, 255},
	{[]string{"AIza"}, isKeyChar, 35, 35},
}

func vendorKeyAt(text string, s int) int {
	tail := func(from int, f keyForm) int {
		e := run(text, from, f.max+1, f.class)
		if n := e - from; n < f.min || n > f.max || byteIs(text, e, isKeyChar) {
			return -1
		}
		return e
	}
	for fi, f := range keyForms {
		if fi == 1 {
			if !strings.HasPrefix(text[s:], "sk-") {
				continue
			}
			var options []string
			if strings.HasPrefix(text[s+3:], "proj-") {
				options = append(options, "proj-")
			}
			if strings.HasPrefix(text[s+3:], "ant-") {
				if len(text) >= s+13 && text[s+7:s+10] == "api" && isDigit(text[s+10]) && isDigit(text[s+11]) && text[s+12] == '-' {
					options = append(options, text[s+3:s+13])
				}
				options = append(options, "ant-")
			}
			options = append(options, "")
			for _, o := range options {
				if e := tail(s+3+len(o), f); e != -1 {
					return e
				}
			}
			continue
		}
		for _, p := range f.prefixes {
			if strings.HasPrefix(text[s:], p) {
				if e := tail(s+len(p), f); e != -1 {
					return e
				}
			}
		}
	}
	return -1
}

func findVendorKeys(text string, out []span) []span {
	if !apiKeyHint.MatchString(text) {
		return out
	}
	for i := 0; i < len(text); i++ {
		if byteIs(text, i-1, isKeyChar) {
			continue
		}
		if e := vendorKeyAt(text, i); e != -1 {
			out = append(out, span{"api_key", i, e})
			i = e - 1
		}
	}
	return out
}

const jsSpaceClass = `[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]`

var (
	namedKeyPattern = regexp.MustCompile(`(?i)(?:api[_-]?key|secret[_-]?key|access[_-]?token|client[_-]?secret)["']?` + jsSpaceClass +
		`{0,4}[:=]` + jsSpaceClass + `{0,4}["']?([A-Za-z0-9_\-+/.=]{16,512})`)
	namedKeyHint = regexp.MustCompile(`(?i)key|token|secret`)
)

func findNamedKeys(text string, out []span) []span {
	if !(strings.ContainsAny(text, ":=") && namedKeyHint.MatchString(text)) {
		return out
	}
	for _, m := range namedKeyPattern.FindAllStringSubmatchIndex(text, -1) {
		out = append(out, span{"api_key", m[2], m[3]})
	}
	return out
}

var bearerHint = regexp.MustCompile(`(?i)bearer`)

func isBearerChar(c byte) bool {
	return isAlnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/'
}

func findBearerTokens(text string, out []span) []span {
	if !bearerHint.MatchString(text) {
		return out
	}
	for i := 0; i+6 <= len(text); i++ {
		if !strings.EqualFold(text[i:i+6], "bearer") || byteIs(text, i-1, isWordChar) {
			continue
		}
		j := i + 6
		spaces := 0
		for spaces < 8 && j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			if !jsSpace(r) {
				break
			}
			j += size
			spaces++
		}
		if spaces == 0 {
			continue
		}
		e := run(text, j, 8192, isBearerChar)
		if e-j < 8 {
			continue
		}
		for e < len(text) && text[e] == '=' {
			e++
		}
		out = append(out, span{"bearer_token", j, e})
		i = e - 1
	}
	return out
}

func isLocalChar(c byte) bool {
	return isAlnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'
}

func isDomainChar(c byte) bool { return isAlnum(c) || c == '-' || c == '.' }

func validLabel(l string) bool {
	if len(l) < 1 || len(l) > 63 || !isAlnum(l[0]) || !isAlnum(l[len(l)-1]) {
		return false
	}
	for i := 0; i < len(l); i++ {
		if !isAlnum(l[i]) && l[i] != '-' {
			return false
		}
	}
	return true
}

func tldLike(l string) bool {
	if len(l) < 2 || len(l) > 24 {
		return false
	}
	for i := 0; i < len(l); i++ {
		if l[i]|0x20 < 'a' || l[i]|0x20 > 'z' {
			return false
		}
	}
	return true
}

func findEmails(text string, out []span) []span {
	lastEnd := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '@' {
			continue
		}
		s := i
		for s > 0 && isLocalChar(text[s-1]) {
			s--
		}
		if s == i || i-s > 64 || s < lastEnd {
			continue
		}
		d := run(text, i+1, len(text), isDomainChar)
		labels := strings.Split(text[i+1:d], ".")
		if !validLabel(labels[0]) {
			continue
		}
		best := -1
		for k := 1; k < len(labels) && k <= 9; k++ {
			if tldLike(labels[k]) {
				best = k
			}
			if !validLabel(labels[k]) {
				break
			}
		}
		if best == -1 {
			continue
		}
		end := i + 1 + len(strings.Join(labels[:best+1], "."))
		out = append(out, span{"email", s, end})
		lastEnd = end
		i = end - 1
	}
	return out
}

func findSSNs(text string, out []span) []span {
	if strings.IndexByte(text, '-') == -1 {
		return out
	}
	isDigitOrHyphen := func(c byte) bool { return isDigit(c) || c == '-' }
	for i := 0; i+11 <= len(text); i++ {
		t := text[i : i+11]
		if byteIs(text, i-1, isDigitOrHyphen) || byteIs(text, i+11, isDigitOrHyphen) {
			continue
		}
		if !(isDigit(t[0]) && isDigit(t[1]) && isDigit(t[2]) && t[3] == '-' && isDigit(t[4]) && isDigit(t[5]) && t[6] == '-' &&
			isDigit(t[7]) && isDigit(t[8]) && isDigit(t[9]) && isDigit(t[10])) {
			continue
		}
		if t[:3] == "000" || t[:3] == "666" || t[0] == '9' || t[4:6] == "00" || t[7:] == "0000" {
			continue
		}
		out = append(out, span{"us_ssn", i, i + 11})
		i += 10
	}
	return out
}

// ---- cards and IBANs -----------------------------------------------------------------------------------------

type cardIssuer struct {
	prefix       *regexp.Regexp
	minLen, maxL int
	lengths      []int
}

func lengthsRange(a, b int) []int {
	var out []int
	for i := a; i <= b; i++ {
		out = append(out, i)
	}
	return out
}

var cardIssuers = []cardIssuer{
	{prefix: regexp.MustCompile(`^4`), lengths: []int{13, 16, 19}},
	{prefix: regexp.MustCompile(`^(?:5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)`), lengths: []int{16}},
	{prefix: regexp.MustCompile(`^3[47]`), lengths: []int{15}},
	{prefix: regexp.MustCompile(`^(?:6011|64[4-9]|65|622(?:12[6-9]|1[3-9]\d|[2-8]\d\d|9[01]\d|92[0-5]))`), lengths: lengthsRange(16, 19)},
	{prefix: regexp.MustCompile(`^(?:30[0-5]|3095|36|3[89])`), lengths: lengthsRange(14, 19)},
	{prefix: regexp.MustCompile(`^35(?:2[89]|[3-8]\d)`), lengths: lengthsRange(16, 19)},
	{prefix: regexp.MustCompile(`^62`), lengths: lengthsRange(16, 19)},
	{prefix: regexp.MustCompile(`^(?:5018|5020|5038|5893|6304|6759|676[1-3])`), lengths: lengthsRange(13, 19)},
	{prefix: regexp.MustCompile(`^220[0-4]`), lengths: lengthsRange(16, 19)},
}

func hasCardIssuer(digits string) bool {
	for _, c := range cardIssuers {
		for _, l := range c.lengths {
			if l == len(digits) && c.prefix.MatchString(digits) {
				return true
			}
		}
	}
	return false
}

func luhnValid(digits string) bool {
	sum := 0
	double := false
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i]) - '0'
		if d < 0 || d > 9 {
			return false
		}
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

func findCardNumbers(text string, out []span) []span {
	digits := 0
	for i := 0; i < len(text) && digits < 13; i++ {
		if isDigit(text[i]) {
			digits++
		}
	}
	if digits < 13 {
		return out
	}
	for i := 0; i < len(text); i++ {
		if !isDigit(text[i]) || byteIs(text, i-1, isDigit) {
			continue
		}
		// The candidate's ends after 12 to 18 more digits, each maybe after one separator.
		var ends []int
		j := i + 1
		for groups := 1; groups <= 18; groups++ {
			if j+1 < len(text) && (text[j] == ' ' || text[j] == '-') && isDigit(text[j+1]) {
				j += 2
			} else if j < len(text) && isDigit(text[j]) {
				j++
			} else {
				break
			}
			if groups >= 12 {
				ends = append(ends, j)
			}
		}
		end := -1
		for k := len(ends) - 1; k >= 0; k-- {
			if !byteIs(text, ends[k], isDigit) {
				end = ends[k]
				break
			}
		}
		if end == -1 {
			continue
		}
		m := text[i:end]
		if !(strings.Contains(m, " ") && strings.Contains(m, "-")) {
			d := strings.NewReplacer(" ", "", "-", "").Replace(m)
			if hasCardIssuer(d) && luhnValid(d) {
				out = append(out, span{"card_number", i, end})
			}
		}
		i = end - 1
	}
	return out
}

var ibanLengths = func() map[string]int {
	m := map[string]int{}
	for _, e := range strings.Fields("AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DK18 DO28 EE20 EG29 ES24 " +
		"FI18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 LB28 LC32 " +
		"LI21 LT20 LU20 LV21 MC27 MD24 ME22 MK19 MR27 MT31 MU30 NL18 NO15 PK24 PL28 PS29 PT25 QA29 RO24 RS22 SA24 " +
		"SC31 SE24 SI19 SK24 SM27 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20") {
		n := 0
		for _, c := range e[2:] {
			n = n*10 + int(c-'0')
		}
		m[e[:2]] = n
	}
	return m
}()

var countryAndCheck = regexp.MustCompile(`[A-Z]{2}[0-9]{2}`)

func ibanChecksumValid(iban string) bool {
	rearranged := iban[4:] + iban[:4]
	remainder := 0
	for i := 0; i < len(rearranged); i++ {
		c := rearranged[i]
		if isUpperAZ(c) {
			v := int(c) - 55
			remainder = (remainder*10 + v/10) % 97
			remainder = (remainder*10 + v%10) % 97
			continue
		}
		if !isDigit(c) {
			return false
		}
		remainder = (remainder*10 + int(c-'0')) % 97
	}
	return remainder == 1
}

func isIBANChar(c byte) bool { return isUpperAZ(c) || isDigit(c) }

func findIBANs(text string, out []span) []span {
	if !countryAndCheck.MatchString(text) {
		return out
	}
	for i := 0; i+4 <= len(text); i++ {
		if byteIs(text, i-1, isAlnum) || !isUpperAZ(text[i]) || !isUpperAZ(text[i+1]) || !isDigit(text[i+2]) || !isDigit(text[i+3]) {
			continue
		}
		j := i + 4
		groups := 0
		for groups < 30 {
			if j+1 < len(text) && text[j] == ' ' && isIBANChar(text[j+1]) {
				j += 2
			} else if j < len(text) && isIBANChar(text[j]) {
				j++
			} else {
				break
			}
			groups++
		}
		if groups < 11 {
			continue
		}
		m := text[i:j]
		i = j - 1
		expected, ok := ibanLengths[m[:2]]
		if !ok {
			continue
		}
		count, end := 0, 0
		for end < len(m) && count < expected {
			if m[end] != ' ' {
				count++
			}
			end++
		}
		if count < expected || (end < len(m) && m[end] != ' ') {
			continue
		}
		if ibanChecksumValid(strings.ReplaceAll(m[:end], " ", "")) {
			out = append(out, span{"iban", i - len(m) + 1, i - len(m) + 1 + end})
		}
	}
	return out
}

// detect: sensitive-looking spans, sorted by start; where two overlap, the earlier (then longer) one wins.
func detect(value string) []span {
	if value == "" {
		return nil
	}
	var all []span
	all = findPrivateKeys(value, all)
	all = findJWTs(value, all)
	all = findAWSKeys(value, all)
	all = findVendorKeys(value, all)
	all = findNamedKeys(value, all)
	all = findBearerTokens(value, all)
	all = findEmails(value, all)
	all = findSSNs(value, all)
	all = findCardNumbers(value, all)
	all = findIBANs(value, all)
	sort.SliceStable(all, func(a, b int) bool {
		if all[a].start != all[b].start {
			return all[a].start < all[b].start
		}
		return all[a].end > all[b].end
	})
	out := all[:0]
	reach := -1
	for _, d := range all {
		if d.start < reach {
			continue
		}
		out = append(out, d)
		reach = d.end
	}
	return out
}

// redactText: `text` with detected spans of `kinds` replaced by the marker.
func redactText(text string, kinds []string) string {
	spans := detect(text)
	if len(spans) == 0 {
		return text
	}
	var b strings.Builder
	at := 0
	for _, s := range spans {
		wanted := false
		for _, k := range kinds {
			if k == s.kind {
				wanted = true
				break
			}
		}
		if !wanted {
			continue
		}
		b.WriteString(text[at:s.start])
		b.WriteString(redacted)
		at = s.end
	}
	b.WriteString(text[at:])
	return b.String()
}

// maskStrings: a parsed JSON value with every detected span of `kinds`, in any string or key, masked.
func maskStrings(value any, kinds []string) any {
	switch v := value.(type) {
	case string:
		if v == redacted {
			return v
		}
		return redactText(v, kinds)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = maskStrings(x, kinds)
		}
		return out
	case *jsObject:
		out := newJSObject()
		for _, k := range v.orderedKeys() {
			masked := redactText(k, kinds)
			key := masked
			for n := 2; key != k && out.has(key); n++ {
				key = masked + "#" + itoa(n)
			}
			out.set(key, maskStrings(v.values[k], kinds))
		}
		return out
	}
	return value
}

func itoa(n int) string { return string(appendJSNumber(nil, float64(n))) }

func maskValues(values *jsObject, kinds []string) *jsObject {
	if values == nil {
		return nil
	}
	out := newJSObject()
	for _, k := range values.keys {
		switch v := values.values[k].(type) {
		case string:
			out.set(k, redactText(v, kinds))
		case []string:
			m := make([]string, len(v))
			for i, x := range v {
				m[i] = redactText(x, kinds)
			}
			out.set(k, m)
		}
	}
	return out
}

func maskBodyJSON(json string, kinds []string) string {
	if json == "null" {
		return json
	}
	value, ok := parseJSValue(json)
	if !ok {
		panic("a kept body is not JSON")
	}
	masked := maskStrings(value, kinds)
	before := string(appendJSValue(nil, value))
	after := string(appendJSValue(nil, masked))
	if before == after {
		return json
	}
	return after
}

// maskDetected: the record with every span the detectors of `kinds` find masked.
func maskDetected(r *storableRecord, kinds []string) *storableRecord {
	out := *r
	out.path = redactText(r.path, kinds)
	out.query = maskValues(r.query, kinds)
	out.headers = maskValues(r.headers, kinds)
	out.responseHeaders = maskValues(r.responseHeaders, kinds)
	out.labels = maskValues(r.labels, kinds)
	out.requestBody = maskBodyJSON(r.requestBody, kinds)
	out.responseBody = maskBodyJSON(r.responseBody, kinds)
	return &out
}
