package promcfg

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// M is an ordered YAML mapping. Generation builds values of M, []M, []string and scalars
// and emits them with a small emitter: much faster than reflection-based encoders, and the
// key order is exactly the order of construction.
type M []KV

// KV is one key of an ordered mapping.
type KV struct {
	K string
	V any
}

// Set appends a key. Nil values, empty strings, empty slices and empty maps are left out,
// so optional fields can be set unconditionally.
func (m *M) Set(k string, v any) {
	if isEmpty(v) {
		return
	}
	*m = append(*m, KV{k, v})
}

// SetAlways appends a key even when its value is empty (false, 0, "").
func (m *M) SetAlways(k string, v any) { *m = append(*m, KV{k, v}) }

// setOpt sets key to *v when v is not nil; like Set, it leaves an empty value out.
func setOpt[T any](m *M, key string, v *T) {
	if v != nil {
		m.Set(key, *v)
	}
}

// setOptAlways sets key to *v when v is not nil, even when *v is empty ("", false).
func setOptAlways[T any](m *M, key string, v *T) {
	if v != nil {
		m.SetAlways(key, *v)
	}
}

// Get returns the value of a key.
func (m M) Get(k string) (any, bool) {
	for _, kv := range m {
		if kv.K == k {
			return kv.V, true
		}
	}
	return nil, false
}

func isEmpty(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case string:
		return t == ""
	case []string:
		return len(t) == 0
	case M:
		return len(t) == 0
	case []M:
		return len(t) == 0
	case []any:
		return len(t) == 0
	case *bool:
		return t == nil
	case *int64:
		return t == nil
	case *int32:
		return t == nil
	}
	return false
}

// Encode renders a mapping as a YAML document.
func Encode(m M) []byte {
	var b bytes.Buffer
	b.Grow(256)
	writeMap(&b, m, 0, false)
	return b.Bytes()
}

// EncodeListItem renders a mapping as one item of a top-level block sequence ("- k: v").
func EncodeListItem(m M) []byte {
	var b bytes.Buffer
	b.Grow(2048)
	appendListItem(&b, m)
	return b.Bytes()
}

// appendListItem is EncodeListItem writing to b.
func appendListItem(b *bytes.Buffer, m M) {
	writeListItems(b, []M{m}, 0)
}

// spaces holds the indents written (the deepest nesting the generator writes is far less).
const spaces = "                                                                "

func indent(b *bytes.Buffer, n int) {
	for n > len(spaces) {
		b.WriteString(spaces)
		n -= len(spaces)
	}
	b.WriteString(spaces[:n])
}

// writeMap writes the keys of m at column n. When inline is set, the first key continues
// the current line (after "- ").
func writeMap(b *bytes.Buffer, m M, n int, inline bool) {
	first := true
	for _, kv := range m {
		if !first || !inline {
			indent(b, n)
		}
		first = false
		b.WriteString(quoteKey(kv.K))
		b.WriteByte(':')
		writeValue(b, kv.V, n)
	}
}

// writeValue writes a value after "key:".
func writeValue(b *bytes.Buffer, v any, n int) {
	switch t := v.(type) {
	case M:
		if len(t) == 0 {
			b.WriteString(" {}\n")
			return
		}
		b.WriteByte('\n')
		writeMap(b, t, n+2, false)
	case []M:
		if openList(b, len(t)) {
			writeListItems(b, t, n)
		}
	case []string:
		if openList(b, len(t)) {
			for _, s := range t {
				writeScalarItem(b, quote(s), n)
			}
		}
	case []any:
		if openList(b, len(t)) {
			for _, item := range t {
				if m, ok := item.(M); ok {
					indent(b, n)
					b.WriteString("- ")
					writeMap(b, m, n+2, true)
				} else {
					writeScalarItem(b, scalar(item), n)
				}
			}
		}
	default:
		b.WriteByte(' ')
		b.WriteString(scalar(v))
		b.WriteByte('\n')
	}
}

// openList writes what follows "key:" of a sequence of size items: " []" when it is
// empty (and reports false), else the line break before the first item.
func openList(b *bytes.Buffer, size int) bool {
	if size == 0 {
		b.WriteString(" []\n")
		return false
	}
	b.WriteByte('\n')
	return true
}

// writeScalarItem writes one rendered scalar as a sequence item at column n.
func writeScalarItem(b *bytes.Buffer, s string, n int) {
	indent(b, n)
	b.WriteString("- ")
	b.WriteString(s)
	b.WriteByte('\n')
}

func writeListItems(b *bytes.Buffer, items []M, n int) {
	for _, it := range items {
		indent(b, n)
		if len(it) == 0 {
			b.WriteString("- {}\n")
			continue
		}
		b.WriteString("- ")
		writeMap(b, it, n+2, true)
	}
}

// scalar renders a scalar value.
func scalar(v any) string {
	switch t := v.(type) {
	case string:
		return quote(t)
	case bool:
		return strconv.FormatBool(t)
	case *bool:
		return strconv.FormatBool(*t)
	case int:
		return strconv.Itoa(t)
	case int32:
		return strconv.FormatInt(int64(t), 10)
	case int64:
		return strconv.FormatInt(t, 10)
	case *int32:
		return strconv.FormatInt(int64(*t), 10)
	case *int64:
		return strconv.FormatInt(*t, 10)
	case uint64:
		return strconv.FormatUint(t, 10)
	case float64:
		return strconv.FormatFloat(t, 'g', -1, 64)
	case rawScalar:
		return string(t)
	}
	panic("promcfg: unsupported YAML value type") // programming error, never user input
}

// rawScalar is emitted as is (already valid YAML).
type rawScalar string

func quoteKey(k string) string { return quote(k) }

// quote returns s as a plain scalar when YAML (1.1 and 1.2) reads it back as the same
// string, and double-quoted otherwise.
func quote(s string) string {
	if plainSafe(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			switch {
			case r == utf8.RuneError:
				b.WriteString(`\uFFFD`)
			case r < 0x20 || r == 0x7f:
				b.WriteString(`\x`)
				b.WriteString(hex2(byte(r)))
			case !unicode.IsPrint(r) || r == 0xFEFF:
				if r > 0xFFFF {
					b.WriteString(`\U`)
					b.WriteString(leftPad(strconv.FormatInt(int64(r), 16), 8))
				} else {
					b.WriteString(`\u`)
					b.WriteString(leftPad(strconv.FormatInt(int64(r), 16), 4))
				}
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

func leftPad(s string, n int) string {
	for len(s) < n {
		s = "0" + s
	}
	return s
}

// yamlSpecialWords are the words a YAML resolver reads as booleans or null; none is longer
// than 5 bytes, which plainSafe relies on.
var yamlSpecialWords = map[string]bool{
	"y": true, "n": true, "yes": true, "no": true, "on": true, "off": true,
	"true": true, "false": true, "null": true, "~": true,
}

func plainSafe(s string) bool {
	if s == "" || len(s) > 256 {
		return false
	}
	if len(s) <= 5 && yamlSpecialWords[strings.ToLower(s)] {
		return false
	}
	switch s[0] {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ', '.', '+', '=', '<':
		return false
	}
	if s[len(s)-1] == ' ' || s[len(s)-1] == ':' {
		return false
	}
	if s[0] >= '0' && s[0] <= '9' && looksNumeric(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || c >= 0x80 {
			return false
		}
		if c == ':' && i+1 < len(s) && s[i+1] == ' ' {
			return false
		}
		if c == '#' && i > 0 && s[i-1] == ' ' {
			return false
		}
	}
	return true
}

// looksNumeric reports whether a YAML 1.1 or 1.2 resolver could read s as a number,
// a timestamp or a sexagesimal value; such strings are quoted.
func looksNumeric(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == '_' || c == ':' || c == 'e' || c == 'E' || c == '+' || c == '-' || c == 'x' || c == 'X' || c == 'o' || c == 'b' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == 'T' || c == 't' || c == 'Z' || c == 'z' || c == ' ') {
			return false
		}
	}
	return true
}
