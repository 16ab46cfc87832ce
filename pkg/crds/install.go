package crds

import (
	"context"
	"fmt"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/example"
	"github.com/lookout-operator/lookout/pkg/manifest"
)

// FieldManager is the server-side apply field manager Lookout uses for CRDs.
const FieldManager = "lookout-operator"

// Load returns the embedded CRDs, sorted by file name.
func Load() ([]*apiextensionsv1.CustomResourceDefinition, error) {
	objs, err := manifest.ReadFS(example.CRDs)
	if err != nil {
		return nil, fmt.Errorf("reading embedded CRDs: %w", err)
	}
	out := make([]*apiextensionsv1.CustomResourceDefinition, 0, len(objs))
	for _, o := range objs {
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, crd); err != nil {
			return nil, fmt.Errorf("%s: %w", o.Source, err)
		}
		out = append(out, crd)
	}
	return out, nil
}

// Install creates or upgrades every embedded CRD with server-side apply and waits until
// each is Established.
func Install(ctx context.Context, c client.Client) error {
	objs, err := manifest.ReadFS(example.CRDs)
	if err != nil {
		return fmt.Errorf("reading embedded CRDs: %w", err)
	}
	for _, o := range objs {
		ac := client.ApplyConfigurationFromUnstructured(o.Unstructured)
		if err := c.Apply(ctx, ac, client.FieldOwner(FieldManager), client.ForceOwnership); err != nil {
			return fmt.Errorf("applying CRD %s: %w", o.GetName(), err)
		}
	}
	for _, o := range objs {
		if err := waitEstablished(ctx, c, o.GetName()); err != nil {
			return err
		}
	}
	return nil
}

func waitEstablished(ctx context.Context, c client.Client, name string) error {
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := c.Get(ctx, client.ObjectKey{Name: name}, crd); err != nil {
			return false, client.IgnoreNotFound(err)
		}
		for _, cond := range crd.Status.Conditions {
			if cond.Type == apiextensionsv1.Established && cond.Status == apiextensionsv1.ConditionTrue {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for CRD %s to be established: %w", name, err)
	}
	return nil
}
