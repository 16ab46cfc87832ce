package resourcestatus

import (
	"errors"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

func TestStateOf(t *testing.T) {
	o := Owner{Resource: "prometheuses", Namespace: "mon", Name: "k8s"}
	read := func(managed bool, err error) func(types.NamespacedName) (bool, error) {
		return func(nn types.NamespacedName) (bool, error) {
			if nn.Namespace != "mon" || nn.Name != "k8s" {
				t.Fatalf("read %v", nn)
			}
			return managed, err
		}
	}
	notFound := apierrors.NewNotFound(schema.GroupResource{Resource: "prometheuses"}, "k8s")
	for _, c := range []struct {
		resource string
		managed  bool
		err      error
		want     OwnerState
		wantErr  string
	}{
		{"alertmanagers", true, nil, OwnerForeign, ""},
		{"prometheuses", true, nil, OwnerManaged, ""},
		{"prometheuses", false, nil, OwnerForeign, ""},
		{"prometheuses", false, notFound, OwnerGone, ""},
		{"prometheuses", false, errors.New("boom"), OwnerForeign, "reading prometheuses mon/k8s: boom"},
	} {
		got, err := StateOf(o, c.resource, read(c.managed, c.err))
		if got != c.want || (c.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.wantErr)) {
			t.Errorf("%+v: got %v, %v", c, got, err)
		}
	}
}
