package listdecode

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"runtime"
	"strconv"
	"sync"

	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	sigsjson "sigs.k8s.io/json"
)

// Request is a list request whose items the transport decodes.
type Request struct {
	newItem func() k8sruntime.Object
	items   []k8sruntime.Object
	done    bool
}

type contextKey struct{}

// Mark returns ctx marked for a list whose items newItem makes (a new, empty object of
// the list's item type), and the Request that will hold them.
func Mark(ctx context.Context, newItem func() k8sruntime.Object) (context.Context, *Request) {
	r := &Request{newItem: newItem}
	return context.WithValue(ctx, contextKey{}, r), r
}

// Items returns the items decoded and true, or false when the response was not decoded
// here (an error status, another content type): the list client-go returned then holds
// its items itself. With no items (null or []) the list client-go returned is already
// right.
func (r *Request) Items() ([]k8sruntime.Object, bool) { return r.items, r.done }

// Wrap wraps a transport (rest.Config.Wrap) so that the list requests marked with Mark
// have their items decoded as they arrive.
func Wrap(rt http.RoundTripper) http.RoundTripper { return transport{rt} }

type transport struct{ next http.RoundTripper }

func (t transport) RoundTrip(req *http.Request) (*http.Response, error) {
	r, ok := req.Context().Value(contextKey{}).(*Request)
	if !ok || req.Method != http.MethodGet {
		return t.next.RoundTrip(req)
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusOK || !isJSON(resp.Header.Get("Content-Type")) {
		return resp, err
	}
	head, items, err := decode(resp.Body, r.newItem, runtime.GOMAXPROCS(0))
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("decoding the list response of %s: %w", req.URL.Path, err)
	}
	r.items, r.done = items, true
	resp.Body = io.NopCloser(bytes.NewReader(head))
	resp.ContentLength = int64(len(head))
	resp.Header = resp.Header.Clone()
	resp.Header.Set("Content-Length", strconv.Itoa(len(head)))
	resp.Header.Del("Content-Encoding")
	return resp, nil
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}

// decode reads a list object from body. It returns the object with "items": [] in place
// of its items, and the items, each decoded by one of workers goroutines as the API
// machinery's JSON serializer decodes (case-sensitive field names, integers kept as
// int64) into a new object from newItem, in order.
func decode(body io.Reader, newItem func() k8sruntime.Object, workers int) ([]byte, []k8sruntime.Object, error) {
	dec := json.NewDecoder(body)
	if err := expectDelim(dec, '{'); err != nil {
		return nil, nil, err
	}
	var head bytes.Buffer
	head.WriteByte('{')
	var items []k8sruntime.Object
	sawItems := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, nil, fmt.Errorf("a key of the list object is %v", tok)
		}
		if head.Len() > 1 {
			head.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		head.Write(k)
		head.WriteByte(':')
		if key != "items" || sawItems {
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return nil, nil, err
			}
			head.Write(v)
			continue
		}
		sawItems = true
		if items, err = decodeItems(dec, newItem, workers); err != nil {
			return nil, nil, err
		}
		if items == nil {
			head.WriteString("null") // client-go decodes the list's own null as nil
		} else {
			head.WriteString("[]")
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, nil, err
	}
	head.WriteByte('}')
	return head.Bytes(), items, nil
}

// decodeItems decodes the array the decoder is at (or null) on workers goroutines.
func decodeItems(dec *json.Decoder, newItem func() k8sruntime.Object, workers int) ([]k8sruntime.Object, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok == nil {
		return nil, nil // null
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fmt.Errorf("items is %v, not an array", tok)
	}
	type job struct {
		i   int
		raw []byte
	}
	jobs := make(chan job, 64)
	var (
		mu    sync.Mutex
		items []k8sruntime.Object
		first error
		wg    sync.WaitGroup
	)
	for range max(workers, 1) {
		wg.Go(func() {
			for j := range jobs {
				obj := newItem()
				err := sigsjson.UnmarshalCaseSensitivePreserveInts(j.raw, obj)
				mu.Lock()
				if err != nil && first == nil {
					first = fmt.Errorf("item %d: %w", j.i, err)
				}
				if j.i >= len(items) {
					items = append(items, make([]k8sruntime.Object, j.i+1-len(items))...)
				}
				items[j.i] = obj
				mu.Unlock()
			}
		})
	}
	n := 0
	for ; dec.More(); n++ {
		var raw json.RawMessage
		if err = dec.Decode(&raw); err != nil {
			break
		}
		jobs <- job{n, raw}
	}
	close(jobs)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	if first != nil {
		return nil, first
	}
	if err := expectDelim(dec, ']'); err != nil {
		return nil, err
	}
	if n == 0 {
		return []k8sruntime.Object{}, nil
	}
	return items[:n], nil
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("found %v where %q was expected", tok, want)
	}
	return nil
}
