package vigil

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A captured body made readable (gateway/govern/decode-body.ts): content-encoding undone, charset read, JSON
// validated, redacted and metered in one pass. Fails closed: where json_fields apply, anything short of a whole,
// parsed JSON value is dropped with its reason, never stored as text.

const (
	bodyEmpty = iota
	bodyJSON
	bodyText
	bodyDropped
)

type decodedBody struct {
	kind      int
	text      string // bodyJSON: the governed JSON text; bodyText: the text; bodyDropped: the reason
	number    float64
	hasNumber bool
}

const defaultMaxDecodedBytes = 8 * 1024 * 1024

type decodeOptions struct {
	jsonRequired    bool
	maxDecodedBytes int
	redact          []*compiledJSONPath
	read            *compiledJSONPath
	incomplete      bool
}

const jsonRequiredSuffix = " where json_fields redaction applies"

var (
	binaryType = regexp.MustCompile(`^(?:image|audio|video|font)/|^application/(?:octet-stream|pdf|zip|gzip|x-gzip|x-tar|x-7z-compressed|x-protobuf|protobuf|vnd\.google\.protobuf|grpc(?:\+[a-z]+)?|msgpack|x-msgpack|cbor|wasm)$`)
	jsonType   = regexp.MustCompile(`^application/(?:json|[a-z0-9.+-]+\+json)$|^text/json$`)
	charsetRe  = regexp.MustCompile(`(?i);\s*charset\s*=\s*"?([^";\s]+)"?`)
)

// isBinaryType and isJSONType answer the commonest types without a regexp.
func isBinaryType(mediaType string) bool {
	switch mediaType {
	case "", "application/json", "text/plain", "text/html":
		return false
	}
	return binaryType.MatchString(mediaType)
}

func isJSONType(mediaType string) bool {
	switch mediaType {
	case "application/json":
		return true
	case "", "text/plain", "text/html":
		return false
	}
	return jsonType.MatchString(mediaType)
}

func dropped(reason string) decodedBody { return decodedBody{kind: bodyDropped, text: reason} }

func decodeBody(data []byte, rawHeaders []string, headersKnown bool, truncated bool, o decodeOptions) decodedBody {
	if len(data) == 0 {
		return decodedBody{kind: bodyEmpty}
	}
	suffix := ""
	if o.jsonRequired {
		suffix = jsonRequiredSuffix
	}
	cut := "truncated at capture limit"
	if o.incomplete {
		cut = "incomplete: cut short on the wire"
	}
	if truncated && o.jsonRequired {
		return dropped(cut + jsonRequiredSuffix)
	}
	contentType := ""
	if v := headerValues(rawHeaders, "content-type"); len(v) > 0 {
		contentType = v[0]
	}
	mediaType := jsLower(jsTrim(strings.SplitN(contentType, ";", 2)[0]))
	var encodings []string
	if headersKnown {
		for _, e := range strings.Split(strings.Join(headerValues(rawHeaders, "content-encoding"), ","), ",") {
			e = jsLower(jsTrim(e))
			if e != "" && e != "identity" {
				encodings = append(encodings, e)
			}
		}
	} else if len(data) > 1 && data[0] == 0x1f && data[1] == 0x8b {
		encodings = []string{"gzip"}
	}
	if len(encodings) > 0 {
		if truncated {
			return dropped(cut + ", and a " + strings.Join(encodings, ", ") + "-encoded body cannot be decoded in part")
		}
		decoded, reason := decompress(data, encodings, o.maxDecodedBytes)
		if reason != "" {
			return dropped(reason + suffix)
		}
		data = decoded
	}
	if isBinaryType(mediaType) {
		return dropped("binary content (" + mediaType + ") is not stored")
	}
	charset, hasCharset := charsetOf(contentType)
	text, ok := decodeText(data, charset, hasCharset, truncated)
	if !ok {
		name := "UTF-8"
		if hasCharset {
			name = charset
		}
		return dropped("invalid " + name + " text" + suffix)
	}
	declaredJSON := isJSONType(mediaType)
	if !declaredJSON && !o.jsonRequired && strings.IndexByte(text, 0) != -1 {
		what := mediaType
		if what == "" {
			what = "no content-type"
		}
		return dropped("binary content (" + what + ") is not stored")
	}
	if !truncated && (declaredJSON || o.jsonRequired || (mediaType == "" && looksLikeJSON(text))) {
		r := governJSONText(text, o.redact, o.read)
		if r.status == jsonOK {
			return decodedBody{kind: bodyJSON, text: r.text, number: r.number, hasNumber: r.hasNumber}
		}
		if o.jsonRequired {
			if r.status == jsonTooDeep {
				return dropped("JSON nested deeper than " + strconv.Itoa(maxJSONDepth) + " levels" + suffix)
			}
			if declaredJSON {
				return dropped("malformed JSON" + suffix)
			}
			what := mediaType
			if what == "" {
				what = "no content-type"
			}
			return dropped("non-JSON content (" + what + ")" + suffix)
		}
	}
	return decodedBody{kind: bodyText, text: text}
}

// jsWhitespace is what JavaScript's trim removes.
func jsWhitespace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

func jsTrim(s string) string { return strings.TrimFunc(s, jsWhitespace) }

func looksLikeJSON(text string) bool {
	t := strings.TrimLeftFunc(text, jsWhitespace)
	return t != "" && (t[0] == '{' || t[0] == '[')
}

func charsetOf(contentType string) (string, bool) {
	if !strings.Contains(strings.ToLower(contentType), "charset") {
		return "", false
	}
	m := charsetRe.FindStringSubmatch(contentType)
	if m == nil {
		return "", false
	}
	cs := jsLower(m[1])
	if cs == "utf-8" || cs == "utf8" || cs == "us-ascii" {
		return "", false
	}
	return cs, true
}

// windows1252 is what TextDecoder reads for latin1 and its aliases: bytes 0x80-0x9f are not the C1 controls.
var windows1252 = [32]rune{0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
	0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178}

// decodeText reads the bytes in the charset, fatally: ok false when they are not valid text. UTF-8 (with its BOM
// dropped), windows-1252 and its labels, UTF-16 LE and BE; another charset is refused (the Node engine's ICU reads
// more of them: see README, "What differs"). A truncated body may end mid-character: that tail is dropped.
func decodeText(data []byte, charset string, hasCharset bool, truncated bool) (string, bool) {
	if !hasCharset || charset == "unicode-1-1-utf-8" || charset == "unicode11utf8" || charset == "unicode20utf8" || charset == "x-unicode20utf8" {
		data = bytes.TrimPrefix(data, []byte{0xef, 0xbb, 0xbf})
		if utf8.Valid(data) {
			return string(data), true
		}
		if truncated {
			// A valid prefix of a sequence at the very end is held back, as TextDecoder's stream mode does.
			for k := 1; k <= 3 && k <= len(data); k++ {
				head := data[len(data)-k:]
				if utf8.RuneStart(head[0]) && !utf8.FullRune(head) && utf8.Valid(data[:len(data)-k]) && validUTF8Prefix(head) {
					return string(data[:len(data)-k]), true
				}
			}
		}
		return "", false
	}
	switch charset {
	case "latin1", "iso-8859-1", "iso8859-1", "iso_8859-1", "iso_8859-1:1987", "l1", "ascii", "ansi_x3.4-1968", "windows-1252", "cp1252",
		"x-cp1252", "cp819", "csisolatin1", "ibm819", "iso-ir-100", "iso88591":
		rs := make([]rune, len(data))
		for i, b := range data {
			if b >= 0x80 && b < 0xa0 {
				rs[i] = windows1252[b-0x80]
			} else {
				rs[i] = rune(b)
			}
		}
		return string(rs), true
	case "utf-16", "utf-16le", "csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16be", "unicodefffe":
		be := charset == "utf-16be" || charset == "unicodefffe"
		if len(data)%2 == 1 {
			if !truncated {
				return "", false
			}
			data = data[:len(data)-1]
		}
		units := make([]uint16, len(data)/2)
		for i := range units {
			if be {
				units[i] = uint16(data[2*i])<<8 | uint16(data[2*i+1])
			} else {
				units[i] = uint16(data[2*i+1])<<8 | uint16(data[2*i])
			}
		}
		if len(units) > 0 && units[0] == 0xfeff {
			units = units[1:]
		}
		for i := 0; i < len(units); i++ {
			u := units[i]
			if u >= 0xd800 && u < 0xdc00 {
				if i+1 < len(units) && units[i+1] >= 0xdc00 && units[i+1] < 0xe000 {
					i++
					continue
				}
				if i+1 == len(units) && truncated {
					units = units[:i]
					break
				}
				return "", false
			}
			if u >= 0xdc00 && u < 0xe000 {
				return "", false
			}
		}
		return string(utf16.Decode(units)), true
	}
	return "", false
}

func validUTF8Prefix(b []byte) bool {
	n := 0
	switch {
	case b[0]&0xe0 == 0xc0 && b[0] >= 0xc2:
		n = 2
	case b[0]&0xf0 == 0xe0:
		n = 3
	case b[0]&0xf8 == 0xf0 && b[0] <= 0xf4:
		n = 4
	default:
		return false
	}
	if len(b) >= n {
		return false
	}
	for i := 1; i < len(b); i++ {
		lo, hi := byte(0x80), byte(0xbf)
		if i == 1 {
			switch b[0] {
			case 0xe0:
				lo = 0xa0
			case 0xed:
				hi = 0x9f
			case 0xf0:
				lo = 0x90
			case 0xf4:
				hi = 0x8f
			}
		}
		if b[i] < lo || b[i] > hi {
			return false
		}
	}
	return true
}

var errTooLarge = errors.New("too large")

// decompress undoes the encodings, listed in the order they were applied; a reason when it cannot.
func decompress(data []byte, encodings []string, max int) ([]byte, string) {
	for i := len(encodings) - 1; i >= 0; i-- {
		encoding := encodings[i]
		var out []byte
		var err error
		switch encoding {
		case "gzip", "x-gzip":
			out, err = gunzip(data, max)
		case "deflate":
			out, err = inflate(data, max)
		default:
			// Brotli has no reader in Go's standard library: `br` is refused (README, "What differs").
			return nil, "unsupported content-encoding " + encoding
		}
		if err == errTooLarge {
			return nil, "decoded body exceeds " + strconv.Itoa(max) + " bytes"
		}
		if err != nil {
			return nil, "undecodable " + encoding + " content (" + zlibMessage(err) + ")"
		}
		data = out
	}
	return data, ""
}

func readBounded(r io.Reader, max int) ([]byte, error) {
	out, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	if err != nil {
		return nil, err
	}
	if len(out) > max {
		return nil, errTooLarge
	}
	return out, nil
}

func gunzip(data []byte, max int) ([]byte, error) {
	r, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return readBounded(r, max)
}

// inflate: HTTP `deflate` is meant to be zlib-wrapped, but some servers send raw deflate; both are accepted.
func inflate(data []byte, max int) ([]byte, error) {
	if r, err := zlib.NewReader(bytes.NewReader(data)); err == nil {
		out, err := readBounded(r, max)
		if err == nil || err == errTooLarge {
			return out, err
		}
	}
	return readBounded(flate.NewReader(bytes.NewReader(data)), max)
}

// zlibMessage: Node's zlib wording for the failures both libraries name alike.
func zlibMessage(err error) string {
	switch {
	case errors.Is(err, gzip.ErrHeader), errors.Is(err, zlib.ErrHeader):
		return "incorrect header check"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "unexpected end of file"
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, zlib.ErrChecksum):
		return "incorrect data check"
	}
	return err.Error()
}
