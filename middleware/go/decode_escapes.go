package vigil

import (
	"strings"
)

// One round of percent-decoding, as lenient as the most lenient decoder an upstream might run
// (policies/decode-escapes.ts): `%XX`, IIS's `%uXXXX`, overlong UTF-8 read as the character it spells, and what is
// no character kept as a lower-case escape, so decoding again changes nothing.

func hexAt(text string, at, digits int) int {
	if at+digits > len(text) {
		return -1
	}
	v := 0
	for i := at; i < at+digits; i++ {
		c := text[i]
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c|0x20 >= 'a' && c|0x20 <= 'f':
			d = int(c|0x20) - 87
		default:
			return -1
		}
		v = v*16 + d
	}
	return v
}

func pushUTF8(bytes []int, cp int) []int {
	switch {
	case cp < 0x80:
		return append(bytes, cp)
	case cp < 0x800:
		return append(bytes, 0xc0|cp>>6, 0x80|cp&63)
	case cp < 0x10000:
		return append(bytes, 0xe0|cp>>12, 0x80|(cp>>6)&63, 0x80|cp&63)
	}
	return append(bytes, 0xf0|cp>>18, 0x80|(cp>>12)&63, 0x80|(cp>>6)&63, 0x80|cp&63)
}

func sequenceLength(lead int) int {
	switch {
	case lead < 0xc0:
		return 0
	case lead < 0xe0:
		return 2
	case lead < 0xf0:
		return 3
	case lead < 0xf8:
		return 4
	case lead < 0xfc:
		return 5
	case lead < 0xfe:
		return 6
	}
	return 0
}

func byteAt(s string, i int) int {
	if i < len(s) {
		return int(s[i])
	}
	return -1
}

// decodeEscapes decodes one layer of escapes in `text` (UTF-8), reading the bytes as UTF-8 with the text around them.
func decodeEscapes(text string) string {
	bytes := make([]int, 0, len(text))
	var kept map[int]string
	for i := 0; i < len(text); {
		c := text[i]
		if c == '%' {
			if b := hexAt(text, i+1, 2); b >= 0 {
				bytes = append(bytes, b)
				i += 3
				continue
			}
			if byteAt(text, i+1)|0x20 == 'u' {
				if unit := hexAt(text, i+2, 4); unit >= 0 {
					low := -1
					if unit >= 0xd800 && unit < 0xdc00 && byteAt(text, i+6) == '%' && byteAt(text, i+7)|0x20 == 'u' {
						low = hexAt(text, i+8, 4)
					}
					switch {
					case low >= 0xdc00 && low < 0xe000:
						bytes = pushUTF8(bytes, 0x10000+(unit-0xd800)<<10+(low-0xdc00))
						i += 12
					case unit >= 0xd800 && unit < 0xe000:
						if kept == nil {
							kept = map[int]string{}
						}
						kept[len(bytes)] = "%u" + strings.ToLower(text[i+2:i+6])
						bytes = append(bytes, -1)
						i += 6
					default:
						bytes = pushUTF8(bytes, unit)
						i += 6
					}
					continue
				}
			}
		}
		bytes = append(bytes, int(c))
		i++
	}
	return readUTF8(bytes, kept)
}

func readUTF8(bytes []int, kept map[int]string) string {
	var out strings.Builder
	out.Grow(len(bytes))
	for i := 0; i < len(bytes); {
		b := bytes[i]
		if b == -1 {
			out.WriteString(kept[i])
			i++
			continue
		}
		if b < 0x80 {
			out.WriteByte(byte(b))
			i++
			continue
		}
		n := sequenceLength(b)
		cp := -1
		if n != 0 {
			cp = b & (0x7f >> n)
		}
		for k := 1; k < n && cp >= 0; k++ {
			next := -1
			if i+k < len(bytes) {
				next = bytes[i+k]
			}
			if next >= 0 && next&0xc0 == 0x80 {
				cp = cp*64 + next&63
			} else {
				cp = -1
			}
		}
		if cp < 0 || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000) {
			out.WriteByte('%')
			out.WriteByte(hexDigits[b>>4])
			out.WriteByte(hexDigits[b&15])
			i++
		} else {
			out.WriteRune(rune(cp))
			i += n
		}
	}
	return out.String()
}
