package assets

import (
	"context"
	"errors"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// countingReader counts the full reads that reach the API server and can fail them.
type countingReader struct {
	client.Reader
	reads int
	fail  error
}

func (c *countingReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	c.reads++
	if c.fail != nil {
		return c.fail
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return c.Reader.Get(ctx, key, obj, opts...)
}

// failingMeta fails every metadata read, as a cache that is not synced or an API error.
type failingMeta struct{ client.Reader }

func (failingMeta) Get(context.Context, client.ObjectKey, client.Object, ...client.GetOption) error {
	return errors.New("the cache is not synced")
}

func newStore(t *testing.T, objs ...client.Object) (*APIStore, client.Client, *countingReader) {
	t.Helper()
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	c := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).Build()
	r := &countingReader{Reader: c}
	return NewAPIStore(c, r), c, r
}

func ref(kind promcfg.AssetKind, name, key string) promcfg.AssetRef {
	return promcfg.AssetRef{Kind: kind, Namespace: "app", Name: name, Key: key}
}

func TestAPIStoreReadsOnceUntilChanged(t *testing.T) {
	ctx := context.Background()
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "creds"}, Data: map[string][]byte{"token": []byte("one")}}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "ca"}, Data: map[string]string{"ca.crt": "pem"}, BinaryData: map[string][]byte{"bin": {1}}}
	s, c, r := newStore(t, sec, cm)
	a := s.For(ctx)
	for i := 0; i < 3; i++ {
		v, err := a.Get(ref(promcfg.SecretAsset, "creds", "token"))
		if err != nil || string(v) != "one" {
			t.Fatalf("get %d: %q %v", i, v, err)
		}
	}
	if r.reads != 1 {
		t.Fatalf("%d API reads for an unchanged Secret, want 1", r.reads)
	}
	if v, err := a.Get(ref(promcfg.ConfigMapAsset, "ca", "bin")); err != nil || len(v) != 1 {
		t.Fatalf("configmap binary key: %v %v", v, err)
	}
	sec.Data["token"] = []byte("two")
	if err := c.Update(ctx, sec); err != nil {
		t.Fatal(err)
	}
	if v, err := a.Get(ref(promcfg.SecretAsset, "creds", "token")); err != nil || string(v) != "two" {
		t.Fatalf("after an update: %q %v", v, err)
	}
	if s.Len() != 2 {
		t.Fatalf("store holds %d objects, want 2", s.Len())
	}
}

func TestAPIStoreMissingIsNotFound(t *testing.T) {
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "creds"}, Data: map[string][]byte{"token": []byte("x")}}
	s, _, _ := newStore(t, sec)
	a := s.For(context.Background())
	for _, rf := range []promcfg.AssetRef{ref(promcfg.SecretAsset, "absent", "token"), ref(promcfg.SecretAsset, "creds", "nokey")} {
		if _, err := a.Get(rf); !errors.Is(err, promcfg.ErrNotFound) || errors.Is(err, promcfg.ErrUnavailable) {
			t.Errorf("%+v: want ErrNotFound, got %v", rf, err)
		}
	}
	if v := a.Version(promcfg.SecretAsset, "app", "absent"); v != "" {
		t.Errorf("version of a missing Secret %q", v)
	}
}

// A failure to read is never taken for a missing object: that would reject a monitor
// for a timeout.
func TestAPIStoreFailureIsUnavailable(t *testing.T) {
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "creds"}, Data: map[string][]byte{"token": []byte("x")}}
	s, c, r := newStore(t, sec)
	r.fail = errors.New("etcdserver: request timed out")
	if _, err := s.For(context.Background()).Get(ref(promcfg.SecretAsset, "creds", "token")); !errors.Is(err, promcfg.ErrUnavailable) || errors.Is(err, promcfg.ErrNotFound) {
		t.Fatalf("API failure: want ErrUnavailable, got %v", err)
	}
	broken := NewAPIStore(failingMeta{c}, c)
	if _, err := broken.For(context.Background()).Get(ref(promcfg.SecretAsset, "creds", "token")); !errors.Is(err, promcfg.ErrUnavailable) {
		t.Fatalf("cache failure: want ErrUnavailable, got %v", err)
	}
	// The reconcile's context reaches the reads.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r.fail = nil
	if _, err := s.For(ctx).Get(ref(promcfg.SecretAsset, "creds", "token")); !errors.Is(err, promcfg.ErrUnavailable) || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: want ErrUnavailable wrapping context.Canceled, got %v", err)
	}
}
