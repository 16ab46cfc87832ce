package write

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/plan"
)

// MaxSecretData is what one Secret may hold (plan.MaxSecretData).
const MaxSecretData = plan.MaxSecretData

// Writer writes generated objects through the shared Applier.
type Writer struct {
	// Applier is the write path of every generated object.
	Applier *apply.Applier
	// APIReader, when set, lets the Applier read an object from the API server to tell
	// an edit of a Secret's or ConfigMap's data from its cache's lag.
	APIReader client.Reader
	// Labels and Annotations are added to every object (--labels, --annotations); the
	// object's own win on a clash.
	Labels, Annotations map[string]string
}

// Decorate adds the operator-wide labels and annotations to a generated object, without
// overriding its own, and folds them into its input hash so a change of the flags
// rewrites the object.
func (w *Writer) Decorate(obj client.Object) {
	if len(w.Labels) == 0 && len(w.Annotations) == 0 {
		return
	}
	lbls, ann := obj.GetLabels(), obj.GetAnnotations()
	if lbls == nil {
		lbls = map[string]string{}
	}
	if ann == nil {
		ann = map[string]string{}
	}
	for k, v := range w.Labels {
		if _, own := lbls[k]; !own {
			lbls[k] = v
		}
	}
	for k, v := range w.Annotations {
		if _, own := ann[k]; !own {
			ann[k] = v
		}
	}
	if h, err := HashJSON([]any{ann[layout.InputHashAnnotation], w.Labels, w.Annotations}); err == nil {
		ann[layout.InputHashAnnotation] = h
	}
	obj.SetLabels(lbls)
	obj.SetAnnotations(ann)
}

// Ensure decorates obj, which carries its content hash, and hands it to the Applier. The
// error is an outcome.ApplyFailed.
func (w *Writer) Ensure(ctx context.Context, gvk schema.GroupVersionKind, obj client.Object, opts ...apply.Option) error {
	w.Decorate(obj)
	if w.APIReader != nil {
		opts = append(opts, apply.LiveReader(w.APIReader))
	}
	_, err := w.Applier.Ensure(ctx, gvk, obj, opts...)
	return outcome.ApplyFailed(err)
}

// EnsureHashed sets the hash of content on obj and ensures it.
func (w *Writer) EnsureHashed(ctx context.Context, gvk schema.GroupVersionKind, obj client.Object, content any, opts ...apply.Option) error {
	h, err := HashJSON(content)
	if err != nil {
		return outcome.ApplyFailed(err)
	}
	ann := obj.GetAnnotations()
	if ann == nil {
		ann = map[string]string{}
	}
	ann[layout.InputHashAnnotation] = h
	obj.SetAnnotations(ann)
	return w.Ensure(ctx, gvk, obj, opts...)
}
