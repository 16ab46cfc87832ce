//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// TestReloaderAPIModeIsFaster: two Prometheus objects select the same PrometheusRule; one
// is managed by the main operator (the reloader reads kubelet-projected volumes), the
// other by a second operator started with --reloader-watch-api (the reloader watches the
// config Secret and rule ConfigMaps through the API with the service account token the
// operator projects for it alone, automountServiceAccountToken being false, and the Role
// the operator created). Each edit of the rule is timed until each Prometheus serves
// it: API mode does not wait for the kubelet's volume sync, so it is faster.
func TestReloaderAPIModeIsFaster(t *testing.T) {
	sc := newScenario(t, 4*time.Minute)
	defer sc.done()
	ctx := context.Background()

	sc.startOperator("api", "--reloader-watch-api")

	// Separate namespaces: two operators in one namespace fight over its governing Service
	// (TestTwoOperatorsShareGoverningService).
	apiNS := sc.ns + "-api"
	if err := createNamespace(ctx, apiNS, nil); err != nil {
		t.Fatal(err)
	}
	allNamespaces := func(p *monitoringv1.Prometheus) { p.Spec.RuleNamespaceSelector = &metav1.LabelSelector{} }
	mustCreate(t,
		sc.prometheus(sc.ns, "files", allNamespaces),
		sc.prometheus(apiNS, "api", allNamespaces, func(p *monitoringv1.Prometheus) {
			p.Labels = map[string]string{operatorLabel: "api"}
			// Without the pod's token, the reloader gets its own projected one
			// (the operator's reloader-api-access volume).
			p.Spec.AutomountServiceAccountToken = ptr.To(false)
		}),
	)
	var sts appsv1.StatefulSet
	sc.step("API-mode StatefulSet generated", 30*time.Second, func() error {
		return s.k8s.Get(ctx, types.NamespacedName{Namespace: apiNS, Name: statefulSetName("api", 0)}, &sts)
	})
	args := strings.Join(sts.Spec.Template.Spec.Containers[1].Args, " ")
	if !strings.Contains(args, "--watch-secret=") || !strings.Contains(args, "--watch-configmap=") {
		t.Fatalf("the API-mode reloader does not watch the API: %s", args)
	}
	apiAccess := false
	for _, v := range sts.Spec.Template.Spec.Volumes {
		apiAccess = apiAccess || (v.Projected != nil && len(v.Projected.Sources) > 0 && v.Projected.Sources[0].ServiceAccountToken != nil)
	}
	if !apiAccess {
		t.Fatalf("the API-mode pod without an automounted token has no projected token for the reloader")
	}
	files := promAPI{base: sc.runPods(sc.ns, statefulSetName("files", 0))[0].url("web")}
	api := promAPI{base: sc.runPods(apiNS, statefulSetName("api", 0))[0].url("web")}

	rule := recordingRule(sc, "shared", "e2e:shared", "vector(0)")
	mustCreate(t, rule)
	sc.step("rule served by both", 60*time.Second, func() error {
		if err := servesRule(files, "e2e:shared", "vector(0)"); err != nil {
			return err
		}
		return servesRule(api, "e2e:shared", "vector(0)")
	})

	const rounds = 5
	var fileTimes, apiTimes []time.Duration
	for i := 1; i <= rounds; i++ {
		// Each round starts right after the file-mode pod got the previous edit, that is
		// right after a kubelet sync: without this pause every edit would wait a full sync
		// period. A random share of the period samples the phase as a real edit would.
		pause := rand.N(s.kubeSync)
		time.Sleep(pause)
		expr := fmt.Sprintf("vector(%d)", i)
		setExpr(t, rule, expr)
		t0 := time.Now()
		var fileTook, apiTook time.Duration
		sc.step(fmt.Sprintf("edit %d served by both", i), s.kubeSync+60*time.Second, func() error {
			if apiTook == 0 && servesRule(api, "e2e:shared", expr) == nil {
				apiTook = time.Since(t0)
			}
			if fileTook == 0 && servesRule(files, "e2e:shared", expr) == nil {
				fileTook = time.Since(t0)
			}
			if apiTook == 0 || fileTook == 0 {
				return fmt.Errorf("not served yet (API mode: %v, file mode: %v)", apiTook != 0, fileTook != 0)
			}
			return nil
		})
		t.Logf("edit %d (made %s after the previous one was served): API mode %s, file mode %s", i, pause.Round(time.Millisecond), apiTook.Round(time.Millisecond), fileTook.Round(time.Millisecond))
		apiTimes, fileTimes = append(apiTimes, apiTook), append(fileTimes, fileTook)
	}
	apiMedian, fileMedian := median(apiTimes), median(fileTimes)
	t.Logf("median time to serve an edit over %d edits: API mode %s, file mode %s (kubelet sync every %s)",
		rounds, apiMedian.Round(time.Millisecond), fileMedian.Round(time.Millisecond), s.kubeSync)
	if apiMedian >= fileMedian {
		t.Errorf("API mode (median %s) is not faster than file mode (median %s)", apiMedian, fileMedian)
	}
	if worst := slices.Max(apiTimes); worst > 5*time.Second {
		t.Errorf("API mode took up to %s to serve an edit, want under 5s whatever the kubelet does", worst)
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
