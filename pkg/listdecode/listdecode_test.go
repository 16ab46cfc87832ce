package listdecode

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
)

func newServiceMonitor() k8sruntime.Object { return &monitoringv1.ServiceMonitor{} }

// listBody is a ServiceMonitorList as the API server writes it, with n varied items.
func listBody(t *testing.T, n int) []byte {
	list := monitoringv1.ServiceMonitorList{
		TypeMeta: metav1.TypeMeta{APIVersion: "monitoring.coreos.com/v1", Kind: "ServiceMonitorList"},
		ListMeta: metav1.ListMeta{ResourceVersion: "4711", Continue: "next-page"},
	}
	for i := range n {
		sm := monitoringv1.ServiceMonitor{
			TypeMeta: metav1.TypeMeta{APIVersion: "monitoring.coreos.com/v1", Kind: "ServiceMonitor"},
			ObjectMeta: metav1.ObjectMeta{Namespace: fmt.Sprintf("ns-%d", i%7), Name: fmt.Sprintf("sm-%05d", i),
				ResourceVersion: fmt.Sprint(1000 + i), Generation: int64(i%3 + 1), Labels: map[string]string{"team": fmt.Sprint(i % 5), "é\"x": "ü"}},
			Spec: monitoringv1.ServiceMonitorSpec{
				Selector:  metav1.LabelSelector{MatchLabels: map[string]string{"app": fmt.Sprintf("app-%d", i)}},
				Endpoints: []monitoringv1.Endpoint{{Port: "web", Interval: monitoringv1.Duration(fmt.Sprintf("%ds", 10+i%50))}},
			},
		}
		if i%4 == 0 {
			sm.Spec.SampleLimit = ptr.To(int64(1 << 40))
			sm.Spec.Endpoints = append(sm.Spec.Endpoints, monitoringv1.Endpoint{Port: "metrics", HonorLabels: true,
				RelabelConfigs: []monitoringv1.RelabelConfig{{TargetLabel: "x", Replacement: ptr.To("a\nb\\c")}}})
		}
		list.Items = append(list.Items, sm)
	}
	b, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func restClient(t *testing.T, url string, wrap bool) *rest.RESTClient {
	scheme := k8sruntime.NewScheme()
	if err := monitoringv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	cfg := &rest.Config{Host: url, ContentConfig: rest.ContentConfig{
		GroupVersion:         &schema.GroupVersion{Group: "monitoring.coreos.com", Version: "v1"},
		NegotiatedSerializer: serializer.WithoutConversionCodecFactory{CodecFactory: serializer.NewCodecFactory(scheme)},
	}}
	if wrap {
		cfg.Wrap(Wrap)
	}
	c, err := rest.RESTClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// list lists through client-go's REST client, marked for listdecode when mark is set, and
// puts the decoded items into the list as the operator's informers do.
func list(t *testing.T, c *rest.RESTClient, mark bool) (*monitoringv1.ServiceMonitorList, bool, error) {
	ctx := context.Background()
	var req *Request
	if mark {
		ctx, req = Mark(ctx, newServiceMonitor)
	}
	var out monitoringv1.ServiceMonitorList
	if err := c.Get().AbsPath("/apis/monitoring.coreos.com/v1/servicemonitors").Do(ctx).Into(&out); err != nil {
		return nil, false, err
	}
	if req == nil {
		return &out, false, nil
	}
	items, ok := req.Items()
	if ok && len(items) > 0 {
		if err := meta.SetList(&out, items); err != nil {
			t.Fatal(err)
		}
	}
	return &out, ok, nil
}

// TestDecodedAsClientGo: the list the transport decodes item by item equals the one
// client-go decodes from the same body, for lists of 0 to 3,000 items and with the keys
// in another order.
func TestDecodedAsClientGo(t *testing.T) {
	for _, n := range []int{0, 1, 7, 3000} {
		body := listBody(t, n)
		bodies := map[string][]byte{"as written": body}
		var generic map[string]json.RawMessage
		if err := json.Unmarshal(body, &generic); err != nil {
			t.Fatal(err)
		}
		// Items first, then the list's metadata.
		reordered := fmt.Sprintf(`{"items":%s,"kind":%s,"apiVersion":%s,"metadata":%s}`, generic["items"], generic["kind"], generic["apiVersion"], generic["metadata"])
		bodies["items first"] = []byte(reordered)
		for name, b := range bodies {
			t.Run(fmt.Sprintf("%d items, %s", n, name), func(t *testing.T) {
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
					w.Header().Set("Content-Type", "application/json")
					w.Write(b)
				}))
				defer srv.Close()
				want, _, err := list(t, restClient(t, srv.URL, false), false)
				if err != nil {
					t.Fatal(err)
				}
				got, decoded, err := list(t, restClient(t, srv.URL, true), true)
				if err != nil {
					t.Fatal(err)
				}
				if !decoded {
					t.Fatal("the transport did not decode the items")
				}
				if len(want.Items) != n || !reflect.DeepEqual(got, want) {
					t.Errorf("decoded item by item differs from client-go's decoding (%d and %d items)", len(got.Items), len(want.Items))
				}
			})
		}
	}
}

// TestLeavesOtherResponsesAlone: an error status, another content type and unmarked
// requests reach client-go as they came; a broken body is an error.
func TestLeavesOtherResponsesAlone(t *testing.T) {
	status := `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"too old resource version","reason":"Expired","code":410}`
	for _, c := range []struct {
		name, contentType, body string
		code                    int
		wantErr                 string
		wantDecoded             bool
	}{
		{"expired", "application/json", status, http.StatusGone, "too old resource version", false},
		{"not JSON", "application/yaml", "kind: ServiceMonitorList\napiVersion: monitoring.coreos.com/v1\nitems: []\n", http.StatusOK, "", false},
		{"items null", "application/json", `{"kind":"ServiceMonitorList","apiVersion":"monitoring.coreos.com/v1","metadata":{},"items":null}`, http.StatusOK, "", true},
		{"broken item", "application/json", `{"kind":"ServiceMonitorList","apiVersion":"monitoring.coreos.com/v1","items":[{"metadata":{"name":3}}]}`, http.StatusOK, "item 0", false},
		{"truncated", "application/json", `{"kind":"ServiceMonitorList","items":[{"metadata":{}},`, http.StatusOK, "decoding the list response", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", c.contentType)
				w.WriteHeader(c.code)
				w.Write([]byte(c.body))
			}))
			defer srv.Close()
			_, decoded, err := list(t, restClient(t, srv.URL, true), true)
			switch {
			case c.wantErr == "" && err != nil:
				t.Fatalf("error %v", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, c.wantErr)
			}
			if decoded != c.wantDecoded {
				t.Errorf("decoded by the transport: %v, want %v", decoded, c.wantDecoded)
			}
		})
	}
	// Unmarked: the transport passes the response through.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(listBody(t, 3))
	}))
	defer srv.Close()
	got, _, err := list(t, restClient(t, srv.URL, true), false)
	if err != nil || len(got.Items) != 3 {
		t.Fatalf("unmarked list: %d items, %v", len(got.Items), err)
	}
}

func BenchmarkDecode(b *testing.B) {
	t := &testing.T{}
	body := listBody(t, 20000)
	b.SetBytes(int64(len(body)))
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := decode(strings.NewReader(string(body)), newServiceMonitor, workers); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
