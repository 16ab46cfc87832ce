package amplan_test

import (
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amplan"
	"github.com/lookout-operator/lookout/test/workloadtest"
)

// TestAPIServerAcceptsGeneratedObjects sends every Alertmanager golden StatefulSet, the
// governing Service and the reloader's Role and RoleBinding to a real kube-apiserver as a
// server-side dry-run create.
func TestAPIServerAcceptsGeneratedObjects(t *testing.T) {
	ctx, c := workloadtest.APIServer(t)

	objects := map[string]client.Object{}
	for _, ac := range amplan.AlertmanagerCasesForTest() {
		sts, err := amplan.AlertmanagerStatefulSet(ac.Input, ac.Options)
		if err != nil {
			t.Fatalf("alertmanager %s: %v", ac.Name, err)
		}
		objects["alertmanager statefulset "+ac.Name] = sts
	}
	objects["alertmanager service"] = amplan.AlertmanagerGoverningService(amplan.AlertmanagerCasesForTest()[0].Input.Alertmanager)
	amWithSA := amplan.AlertmanagerCasesForTest()[0].Input.Alertmanager.DeepCopy()
	amWithSA.Spec.ServiceAccountName = "alertmanager-main"
	objects["alertmanager role"] = amplan.AlertmanagerReloaderRole(amWithSA)
	objects["alertmanager rolebinding"] = amplan.AlertmanagerReloaderRoleBinding(amWithSA)
	workloadtest.DryRunCreate(ctx, t, c, objects)
}
