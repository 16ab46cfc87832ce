package reloader

import (
	"bufio"
	"bytes"
	"io"
)

// maxRefName bounds the NAME of a $(NAME) reference the expander holds back while it
// reads it. Linux limits every environment string ("NAME=value") to 128 KiB
// (MAX_ARG_STRLEN), so no variable with a longer name can be set: a longer "$(NAME"
// is copied as plain text, and the memory held stays bounded whatever the input.
const maxRefName = 128 << 10

// maxUnsetRecorded bounds how many unset references an expander lists by name (it
// counts them all).
const maxUnsetRecorded = 64

// maxCachedNames bounds the lookups an expander remembers.
const maxCachedNames = 1024

// lookupResult is one remembered lookup.
type lookupResult struct {
	value string
	set   bool
}

// expander states: where in a possible "$(NAME)" the input is.
const (
	inText   = iota // outside a reference
	inDollar        // after "$"
	inName          // after "$(" and zero or more name characters
)

// expander copies what is written to it to an io.Writer, replacing every $(NAME) (NAME
// of [A-Za-z0-9_]+, the references prometheus-config-reloader expands) with the value
// lookup returns. A reference to an unset variable is copied as it is and counted.
// Prometheus's own $1, ${1} and $NAME are not references. Input may arrive in chunks
// of any size, split anywhere; Close writes out a reference left incomplete at the end
// and flushes.
type expander struct {
	out    *bufio.Writer
	lookup func(string) (string, bool)
	state  int
	// held is the incomplete reference being read: "$", "$(", "$(NA".
	held []byte
	// cache holds the lookups done so far, at most maxCachedNames of them.
	cache map[string]lookupResult
	// unset lists the names of unset references, once per occurrence, at most
	// maxUnsetRecorded of them; unsetCount counts them all.
	unset      []string
	unsetCount int
}

// newExpander returns an expander writing to w.
func newExpander(w io.Writer, lookup func(string) (string, bool)) *expander {
	return &expander{out: bufio.NewWriterSize(w, readBufferSize), lookup: lookup}
}

// Write implements io.Writer.
func (e *expander) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if e.state == inText {
			i := bytes.IndexByte(p, '$')
			if i < 0 {
				_, err := e.out.Write(p)
				return n, err
			}
			if _, err := e.out.Write(p[:i]); err != nil {
				return n, err
			}
			e.held = append(e.held[:0], '$')
			e.state = inDollar
			p = p[i+1:]
			continue
		}
		if err := e.step(p[0]); err != nil {
			return n, err
		}
		p = p[1:]
	}
	return n, nil
}

// step advances a reference in progress by one byte.
func (e *expander) step(c byte) error {
	switch {
	case e.state == inDollar && c == '(':
		e.held = append(e.held, c)
		e.state = inName
		return nil
	case e.state == inName && isNameByte(c) && len(e.held)-2 < maxRefName:
		e.held = append(e.held, c)
		return nil
	case e.state == inName && c == ')' && len(e.held) > 2:
		e.state = inText
		return e.replace(e.held[2:])
	}
	// Not a reference after all: copy what was held, then read c afresh (it may start
	// the next reference).
	e.state = inText
	if _, err := e.out.Write(e.held); err != nil {
		return err
	}
	if c == '$' {
		e.held = append(e.held[:0], '$')
		e.state = inDollar
		return nil
	}
	return e.out.WriteByte(c)
}

// replace writes the value of the reference to name, or the reference itself.
func (e *expander) replace(name []byte) error {
	v, ok := e.resolve(name)
	if ok {
		_, err := e.out.WriteString(v)
		return err
	}
	e.unsetCount++
	if len(e.unset) < maxUnsetRecorded {
		e.unset = append(e.unset, string(name))
	}
	if _, err := e.out.WriteString("$("); err != nil {
		return err
	}
	if _, err := e.out.Write(name); err != nil {
		return err
	}
	return e.out.WriteByte(')')
}

// resolve looks name up once per expander: a large config repeats the same few
// references thousands of times, and the cache spares an allocation for each.
func (e *expander) resolve(name []byte) (string, bool) {
	if r, ok := e.cache[string(name)]; ok { // no allocation for the lookup itself
		return r.value, r.set
	}
	key := string(name)
	v, ok := e.lookup(key)
	if e.cache == nil {
		e.cache = map[string]lookupResult{}
	}
	if len(e.cache) < maxCachedNames {
		e.cache[key] = lookupResult{v, ok}
	}
	return v, ok
}

// Close writes out an incomplete reference and flushes; it does not close the
// underlying writer.
func (e *expander) Close() error {
	if e.state != inText {
		if _, err := e.out.Write(e.held); err != nil {
			return err
		}
		e.state = inText
	}
	return e.out.Flush()
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// Expand is expander on a byte slice: it returns in with every $(NAME) replaced and the
// names of the unset references, once per occurrence (at most 64).
func Expand(in []byte, lookup func(string) (string, bool)) (out []byte, unset []string) {
	var b bytes.Buffer
	e := newExpander(&b, lookup)
	_, _ = e.Write(in) // a bytes.Buffer does not fail
	_ = e.Close()
	return b.Bytes(), e.unset
}
