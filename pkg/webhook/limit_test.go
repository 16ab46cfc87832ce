package webhook

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// countingBody counts what the handler chain read of a request body.
type countingBody struct {
	r    io.Reader
	read int
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += n
	return n, err
}
func (c *countingBody) Close() error { return nil }

func TestLimit(t *testing.T) {
	var got int
	h := Limit(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = len(b)
	}))
	cases := []struct {
		name   string
		size   int
		length int64 // Content-Length (-1: unknown)
		code   int
	}{
		{"small", 1000, 1000, http.StatusOK},
		{"at the limit", MaxRequestBytes, -1, http.StatusOK},
		{"one byte over, no length", MaxRequestBytes + 1, -1, http.StatusRequestEntityTooLarge},
		{"64 MiB declared", 64 << 20, 64 << 20, http.StatusRequestEntityTooLarge},
		{"64 MiB streamed", 64 << 20, -1, http.StatusRequestEntityTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got = -1
			body := &countingBody{r: strings.NewReader(strings.Repeat("x", c.size))}
			req := httptest.NewRequest(http.MethodPost, "/convert", nil)
			req.Body, req.ContentLength = body, c.length
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != c.code {
				t.Fatalf("code %d, want %d", rec.Code, c.code)
			}
			if c.code == http.StatusOK && got != c.size {
				t.Errorf("the handler read %d bytes, want %d", got, c.size)
			}
			if c.code != http.StatusOK && (got != -1 || body.read > MaxRequestBytes+1) {
				t.Errorf("refused body: handler called %v, %d bytes read", got != -1, body.read)
			}
		})
	}
}
