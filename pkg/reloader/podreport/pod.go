package podreport

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"

	"github.com/lookout-operator/lookout/pkg/reloader/coreclient"
)

// PodWriter writes the condition onto one pod through its status subresource: a
// strategic merge patch of that one condition (pod conditions merge by type), so the
// kubelet's conditions are left alone. It needs patch on pods/status for that pod.
type PodWriter struct {
	client          rest.Interface
	namespace, name string
	now             func() time.Time
}

// NewPodWriter returns a PodWriter for the pod namespace/name.
func NewPodWriter(cfg *rest.Config, namespace, name, userAgent string) (*PodWriter, error) {
	rc, err := coreclient.New(cfg, userAgent)
	if err != nil {
		return nil, err
	}
	return &PodWriter{client: rc, namespace: namespace, name: name, now: time.Now}, nil
}

// Patch is the body of the status patch that records hash.
func Patch(hash string, now time.Time) ([]byte, error) {
	cond := map[string]string{
		"type":               ConditionType,
		"status":             string(corev1.ConditionTrue),
		"reason":             Reason,
		"message":            Message(hash),
		"lastTransitionTime": now.UTC().Format(time.RFC3339),
	}
	return json.Marshal(map[string]any{"status": map[string]any{"conditions": []map[string]string{cond}}})
}

// WriteConfigLoaded implements Writer.
func (w *PodWriter) WriteConfigLoaded(ctx context.Context, hash string) error {
	body, err := Patch(hash, w.now())
	if err != nil {
		return err
	}
	err = w.client.Patch(types.StrategicMergePatchType).Namespace(w.namespace).Resource("pods").
		Name(w.name).SubResource("status").Body(body).Do(ctx).Error()
	if err != nil {
		return fmt.Errorf("patching the status of pod %s/%s: %w", w.namespace, w.name, err)
	}
	return nil
}
