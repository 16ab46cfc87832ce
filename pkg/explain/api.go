package explain

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"

	"k8s.io/client-go/rest"
)

// apiObserver sits in front of the API discovery reads (the stand-in or the proxy to the
// cluster) and records what each list returned, so that a discovery run knows when every
// initial list has arrived, and which list the API server refused.
type apiObserver struct {
	next http.Handler

	mu sync.Mutex
	// lists counts the complete lists (last page) per resource.
	lists map[string]int
	// served are "namespace/name" (a node: "name") of every object listed, per resource.
	served map[string][]string
	// refused is the first list the API server refused, with its message.
	refused error
}

func newObserver(next http.Handler) *apiObserver {
	return &apiObserver{next: next, lists: map[string]int{}, served: map[string][]string{}}
}

// resourceOf returns the resource and namespace of an API path:
// /api/v1/[namespaces/NS/]RESOURCE or /apis/GROUP/VERSION/[namespaces/NS/]RESOURCE.
func resourceOf(path string) (resource, namespace string, ok bool) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case len(parts) >= 2 && parts[0] == "api":
		parts = parts[2:]
	case len(parts) >= 3 && parts[0] == "apis":
		parts = parts[3:]
	default:
		return "", "", false
	}
	if len(parts) == 3 && parts[0] == "namespaces" {
		return parts[2], parts[1], true
	}
	if len(parts) == 1 {
		return parts[0], "", true
	}
	return "", "", false
}

// listBody is what the observer reads of a list response.
type listBody struct {
	Kind     string `json:"kind"`
	Message  string `json:"message"`
	Metadata struct {
		Continue string `json:"continue"`
	} `json:"metadata"`
	Items []struct {
		Metadata struct {
			Namespace string `json:"namespace"`
			Name      string `json:"name"`
		} `json:"metadata"`
	} `json:"items"`
}

func (o *apiObserver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	resource, _, ok := resourceOf(r.URL.Path)
	q := r.URL.Query()
	watch := q.Get("watch") == "true" || q.Get("watch") == "1"
	if watch && q.Get("sendInitialEvents") == "true" {
		// No streaming lists: the reflector falls back to a list and a watch, which the
		// observer can follow.
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"explain serves no streaming lists","reason":"BadRequest","code":400}`))
		return
	}
	// The observer reads JSON; client-go asks for protobuf first and accepts JSON.
	r.Header.Set("Accept", "application/json")
	if watch || !ok || r.Method != http.MethodGet {
		o.next.ServeHTTP(w, r)
		return
	}
	rec := &recorder{header: http.Header{}, code: http.StatusOK}
	o.next.ServeHTTP(rec, r)
	var body listBody
	_ = json.Unmarshal(rec.body.Bytes(), &body)
	o.mu.Lock()
	switch {
	case rec.code >= 400:
		if o.refused == nil {
			msg := body.Message
			if msg == "" {
				msg = strings.TrimSpace(rec.body.String())
			}
			o.refused = fmt.Errorf("the API server refused to list %s (HTTP %d): %s", resource, rec.code, msg)
		}
	default:
		for _, it := range body.Items {
			name := it.Metadata.Namespace + "/" + it.Metadata.Name
			if resource == "nodes" { // cluster-scoped: a node's group is named by its name alone
				name = it.Metadata.Name
			}
			o.served[resource] = append(o.served[resource], name)
		}
		if body.Metadata.Continue == "" {
			o.lists[resource]++
		}
	}
	o.mu.Unlock()
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.code)
	_, _ = w.Write(rec.body.Bytes())
}

// recorder buffers one non-streaming response.
type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(code int)        { r.code = code }

// NewClusterAPI returns a handler forwarding the reads of Prometheus's discovery to the
// API server of cfg, with cfg's credentials: discovery sees what the user may see.
func NewClusterAPI(cfg *rest.Config) (http.Handler, error) {
	u, err := url.Parse(cfg.Host)
	if err != nil {
		return nil, fmt.Errorf("API server URL %q: %w", cfg.Host, err)
	}
	if u.Scheme == "" {
		u, err = url.Parse("https://" + cfg.Host)
		if err != nil {
			return nil, err
		}
	}
	base := strings.TrimSuffix(u.Path, "/")
	if cfg.APIPath != "" && cfg.APIPath != "/api" {
		return nil, fmt.Errorf("API path %q is not supported", cfg.APIPath)
	}
	rt, err := rest.TransportFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("API server transport: %w", err)
	}
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL.Scheme, pr.Out.URL.Host = u.Scheme, u.Host
			pr.Out.URL.Path = base + pr.In.URL.Path
			pr.Out.URL.RawPath = ""
			pr.Out.Host = u.Host
			pr.Out.Header.Del("Authorization")
		},
		Transport:     rt,
		FlushInterval: -1,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadGateway)
			b, _ := json.Marshal(map[string]any{"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": err.Error(), "code": http.StatusBadGateway})
			_, _ = w.Write(b)
		},
	}, nil
}

// serve serves the handler handler(host) makes on a loopback port (host is the port's
// address) until ctx ends; it returns the base URL.
func serve(ctx context.Context, handler func(host string) http.Handler) (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	srv := &http.Server{Handler: handler(l.Addr().String()), BaseContext: func(net.Listener) context.Context { return ctx }}
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = err
		}
	}()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	return "http://" + l.Addr().String(), nil
}
