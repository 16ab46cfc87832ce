package integration

import (
	"fmt"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
)

// TestDefaultImagesAsUpstream runs the real prometheus-operator and Lookout (default
// flags), each on a Prometheus with a Thanos sidecar and a ThanosRuler that give no
// version, in a namespace of its own, and compares the images of their StatefulSets: a
// bare object keeps its image, so its pods, when Lookout replaces prometheus-operator
// (issue 33).
func TestDefaultImagesAsUpstream(t *testing.T) {
	t.Parallel()
	run := func(upstream bool) map[string]string {
		ns := newNamespace(t, nil)
		dedicated := map[string]string{dedicatedLabel: ns}
		p := newPrometheus(ns, "bare", func(p *monitoringv1.Prometheus) {
			p.Labels = dedicated
			p.Spec.Thanos = &monitoringv1.ThanosSpec{}
		})
		tr := newThanosRuler(ns, "bare", func(t *monitoringv1.ThanosRuler) { t.Labels = dedicated })
		create(t, p, tr)
		if upstream {
			defer startPrometheusOperator(t, ns)()
		} else {
			stop, err := startOperator(ctx, labels.SelectorFromSet(dedicated))
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
		}
		images := map[string]string{}
		eventually(t, 60*time.Second, fmt.Sprintf("the StatefulSets (upstream %v)", upstream), func() error {
			for _, name := range []string{"prometheus-bare", "thanos-ruler-bare"} {
				sts := &appsv1.StatefulSet{}
				if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, sts); err != nil {
					return err
				}
				for _, c := range sts.Spec.Template.Spec.Containers {
					if c.Name == "prometheus" || c.Name == "thanos-sidecar" || c.Name == "thanos-ruler" {
						images[c.Name] = c.Image
					}
				}
			}
			if len(images) != 3 {
				return fmt.Errorf("images %v", images)
			}
			return nil
		})
		return images
	}
	want := run(true)
	got := run(false)
	for name, image := range want {
		if got[name] != image {
			t.Errorf("%s: Lookout runs %s, prometheus-operator %s", name, got[name], image)
		}
	}
}
