package trplan_test

import (
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/thanosruler/trplan"
	"github.com/lookout-operator/lookout/test/workloadtest"
)

// TestAPIServerAcceptsGeneratedObjects sends every ThanosRuler golden StatefulSet and the
// governing Service to a real kube-apiserver as a server-side dry-run create.
func TestAPIServerAcceptsGeneratedObjects(t *testing.T) {
	ctx, c := workloadtest.APIServer(t)

	objects := map[string]client.Object{}
	for _, tc := range trplan.ThanosRulerCasesForTest() {
		sts, err := trplan.ThanosRulerStatefulSet(tc.Input, tc.Options)
		if err != nil {
			t.Fatalf("thanosruler %s: %v", tc.Name, err)
		}
		objects["thanosruler statefulset "+tc.Name] = sts
	}
	objects["thanosruler service"] = trplan.ThanosRulerGoverningService(trplan.ThanosRulerCasesForTest()[0].Input.ThanosRuler)
	workloadtest.DryRunCreate(ctx, t, c, objects)
}
