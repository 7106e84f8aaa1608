package vigil

import (
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// NFKC and JavaScript's full-string case mapping, as the TypeScript engine gets them from V8 and ICU: the tables in
// unicode_tables.go are generated from Node (gen/unicode-tables.mjs), so a path folds here exactly as it folds there.

var (
	unicodeOnce  sync.Once
	nfkdMap      map[rune][]rune
	upperMap     map[rune][]rune
	lowerMap     map[rune][]rune
	cccMap       map[rune]uint8
	compositions map[[2]rune]rune
)

func parseRunes(s string) []rune {
	fields := strings.Fields(s)
	out := make([]rune, len(fields))
	for i, f := range fields {
		v, _ := strconv.ParseUint(f, 16, 32)
		out[i] = rune(v)
	}
	return out
}

func loadUnicode() {
	unicodeOnce.Do(func() {
		table := func(text string) map[rune][]rune {
			m := make(map[rune][]rune, 2048)
			for _, e := range strings.Split(text, ";") {
				colon := strings.IndexByte(e, ':')
				k, _ := strconv.ParseUint(e[:colon], 16, 32)
				m[rune(k)] = parseRunes(e[colon+1:])
			}
			return m
		}
		nfkdMap = table(tableNFKD)
		upperMap = table(tableUpper)
		lowerMap = table(tableLower)
		cccMap = make(map[rune]uint8, 1024)
		for _, e := range strings.Split(tableCCC, ";") {
			colon := strings.IndexByte(e, ':')
			k, _ := strconv.ParseUint(e[:colon], 16, 32)
			v, _ := strconv.ParseUint(e[colon+1:], 16, 8)
			cccMap[rune(k)] = uint8(v)
		}
		compositions = make(map[[2]rune]rune, 1024)
		for _, e := range strings.Split(tablePairs, ";") {
			colon := strings.IndexByte(e, ':')
			ab := parseRunes(e[:colon])
			c := parseRunes(e[colon+1:])
			compositions[[2]rune{ab[0], ab[1]}] = c[0]
		}
	})
}

const (
	hangulS = 0xac00
	hangulL = 0x1100
	hangulV = 0x1161
	hangulT = 0x11a7
	hangulN = 588
	hangulC = 11172
)

// nfkc is JavaScript's `s.normalize('NFKC')`.
func nfkc(s string) string {
	loadUnicode()
	// Decompose (compatibility), then put combining marks in canonical order.
	d := make([]rune, 0, len(s))
	for _, r := range s {
		if r >= hangulS && r < hangulS+hangulC {
			i := r - hangulS
			d = append(d, hangulL+i/hangulN, hangulV+(i%hangulN)/28)
			if t := i % 28; t != 0 {
				d = append(d, hangulT+t)
			}
		} else if m, ok := nfkdMap[r]; ok {
			d = append(d, m...)
		} else {
			d = append(d, r)
		}
	}
	for i := 0; i < len(d); {
		if cccMap[d[i]] == 0 {
			i++
			continue
		}
		j := i
		for j < len(d) && cccMap[d[j]] != 0 {
			j++
		}
		run := d[i:j]
		sort.SliceStable(run, func(a, b int) bool { return cccMap[run[a]] < cccMap[run[b]] })
		i = j
	}
	// Canonical composition.
	out := make([]rune, 0, len(d))
	starter := -1
	lastClass := 0
	for _, r := range d {
		class := int(cccMap[r])
		if starter >= 0 && (len(out)-1 == starter || (lastClass != 0 && lastClass < class)) {
			if c, ok := composePair(out[starter], r); ok {
				out[starter] = c
				continue
			}
		}
		if class == 0 {
			starter = len(out)
		}
		lastClass = class
		out = append(out, r)
	}
	return string(out)
}

func composePair(a, b rune) (rune, bool) {
	if a >= hangulL && a < hangulL+19 && b >= hangulV && b < hangulV+21 {
		return hangulS + ((a-hangulL)*21+(b-hangulV))*28, true
	}
	if a >= hangulS && a < hangulS+hangulC && (a-hangulS)%28 == 0 && b > hangulT && b < hangulT+28 {
		return a + (b - hangulT), true
	}
	c, ok := compositions[[2]rune{a, b}]
	return c, ok
}

// jsUpper is JavaScript's `s.toUpperCase()` (full mappings: `ß` is `SS`).
func jsUpper(s string) string {
	if isASCII(s) {
		return strings.ToUpper(s)
	}
	loadUnicode()
	var b strings.Builder
	for _, r := range s {
		if m, ok := upperMap[r]; ok {
			for _, x := range m {
				b.WriteRune(x)
			}
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// jsLower is JavaScript's `s.toLowerCase()`, final sigma included.
func jsLower(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	loadUnicode()
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if r == 0x3a3 && finalSigma(rs, i) {
			b.WriteRune(0x3c2)
			continue
		}
		if m, ok := lowerMap[r]; ok {
			for _, x := range m {
				b.WriteRune(x)
			}
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isCased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r)
}

func isCaseIgnorable(r rune) bool {
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk) || r == '\'' || r == '.' || r == ':' || r == 0xb7 || r == 0x2019
}

// finalSigma: Unicode's Final_Sigma condition for the capital sigma at rs[i].
func finalSigma(rs []rune, i int) bool {
	before := false
	for j := i - 1; j >= 0; j-- {
		if isCaseIgnorable(rs[j]) {
			continue
		}
		before = isCased(rs[j])
		break
	}
	if !before {
		return false
	}
	for j := i + 1; j < len(rs); j++ {
		if isCaseIgnorable(rs[j]) {
			continue
		}
		return !isCased(rs[j])
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// latin1 reads bytes as Node reads a request line and header values: one character per byte.
func latin1(s string) string {
	if isASCII(s) {
		return s
	}
	rs := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		rs[i] = rune(s[i])
	}
	return string(rs)
}
