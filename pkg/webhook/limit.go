package webhook

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
)

// MaxRequestBytes bounds the body of a webhook request: controller-runtime's admission
// webhooks stop reading at 7 MiB, and a conversion review of the largest object the API
// server stores (its request limit is 3 MiB) fits with room to spare.
const MaxRequestBytes = 7 << 20

// Limit refuses, with 413 Request Entity Too Large, a request whose body is longer than
// MaxRequestBytes, before h sees it; memory stays bounded by the limit whatever the
// client sends. controller-runtime's conversion handler reads its body unbounded.
func Limit(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > MaxRequestBytes {
			tooLarge(w)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxRequestBytes+1))
		_ = r.Body.Close()
		switch {
		case err != nil:
			http.Error(w, fmt.Sprintf("reading the request: %v", err), http.StatusBadRequest)
			return
		case len(body) > MaxRequestBytes:
			tooLarge(w)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		h.ServeHTTP(w, r)
	})
}

func tooLarge(w http.ResponseWriter) {
	http.Error(w, fmt.Sprintf("request body too large: the limit is %d bytes", MaxRequestBytes), http.StatusRequestEntityTooLarge)
}
