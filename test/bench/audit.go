package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

// auditPolicy logs the operator user's requests at Metadata level once they complete and
// nothing else: the harness's own requests stay out of the log.
func auditPolicy(user string) string {
	return fmt.Sprintf(`apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived", "ResponseStarted"]
rules:
- level: Metadata
  users: [%q]
- level: None
`, user)
}

// auditEvent is the part of an audit.k8s.io/v1 Event the harness reads.
type auditEvent struct {
	Stage string `json:"stage"`
	Verb  string `json:"verb"`
	User  struct {
		Username string `json:"username"`
	} `json:"user"`
	ObjectRef *struct {
		Resource    string `json:"resource"`
		Subresource string `json:"subresource"`
		Namespace   string `json:"namespace"`
		Name        string `json:"name"`
	} `json:"objectRef"`
	ResponseStatus *struct {
		Code int `json:"code"`
	} `json:"responseStatus"`
	StageTimestamp time.Time `json:"stageTimestamp"`
	// RequestReceivedTimestamp is when the API server received the request.
	RequestReceivedTimestamp time.Time `json:"requestReceivedTimestamp"`
}

// write reports whether the request changes state.
func (e *auditEvent) write() bool {
	switch e.Verb {
	case "create":
		// A review (the operator checking its own permissions) is a question, not a write:
		// the API server stores nothing.
		return e.ObjectRef == nil || !reviews[e.ObjectRef.Resource]
	case "update", "patch", "delete", "deletecollection":
		return true
	}
	return false
}

// reviews are the resources whose create asks the API server something and stores nothing.
var reviews = map[string]bool{
	"selfsubjectaccessreviews": true, "subjectaccessreviews": true, "localsubjectaccessreviews": true,
	"selfsubjectrulesreviews": true, "tokenreviews": true, "selfsubjectreviews": true,
}

// kind is "verb resource[/subresource]", e.g. "update servicemonitors/status".
func (e *auditEvent) kind() string {
	r := "?"
	if e.ObjectRef != nil {
		r = e.ObjectRef.Resource
		if e.ObjectRef.Subresource != "" {
			r += "/" + e.ObjectRef.Subresource
		}
	}
	k := e.Verb + " " + r
	if e.ResponseStatus != nil && e.ResponseStatus.Code >= 300 {
		k += fmt.Sprintf(" (%d)", e.ResponseStatus.Code)
	}
	return k
}

// auditTail reads the events appended to the audit log since the last read.
type auditTail struct {
	path    string
	user    string
	off     int64
	partial []byte
}

// next returns the operator user's events written since the previous call.
func (a *auditTail) next() ([]auditEvent, error) {
	f, err := os.Open(a.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(a.off, io.SeekStart); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	a.off += int64(len(data))
	data = append(a.partial, data...)
	end := bytes.LastIndexByte(data, '\n')
	if end < 0 {
		a.partial = data
		return nil, nil
	}
	a.partial = append([]byte(nil), data[end+1:]...)
	var out []auditEvent
	for _, line := range bytes.Split(data[:end], []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var e auditEvent
		if err := json.Unmarshal(line, &e); err != nil {
			return out, fmt.Errorf("audit log %s: %w", a.path, err)
		}
		if e.User.Username == a.user {
			out = append(out, e)
		}
	}
	return out, nil
}

// requestCount counts requests by kind.
type requestCount struct {
	writes, reads int
	byKind        map[string]int // writes only
}

func (c *requestCount) add(evs []auditEvent) {
	if c.byKind == nil {
		c.byKind = map[string]int{}
	}
	for i := range evs {
		if evs[i].write() {
			c.writes++
			c.byKind[evs[i].kind()]++
		} else {
			c.reads++
		}
	}
}

// String lists the writes by kind, most frequent first: "5000 update servicemonitors/status, 1 create secrets".
func (c *requestCount) String() string {
	if c.writes == 0 {
		return "none"
	}
	type kv struct {
		k string
		v int
	}
	var l []kv
	for k, v := range c.byKind {
		l = append(l, kv{k, v})
	}
	sort.Slice(l, func(i, j int) bool {
		if l[i].v != l[j].v {
			return l[i].v > l[j].v
		}
		return l[i].k < l[j].k
	})
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = fmt.Sprintf("%d %s", e.v, e.k)
	}
	return strings.Join(parts, ", ")
}
