package amplan

import (
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

// The Alertmanager reloader's Role names exactly the generated config Secret it watches in
// API-watch mode, and the binding names the Alertmanager's service account.
func TestAlertmanagerReloaderRBAC(t *testing.T) {
	opts := workload.DefaultOptions()
	opts.ReloaderWatchAPI = true
	a := am(func(a *monitoringv1.Alertmanager) { a.Spec.ServiceAccountName = "alertmanager-main" })
	sts, err := AlertmanagerStatefulSet(AlertmanagerInput{Alertmanager: a, TLSAssetSecrets: 1}, opts)
	if err != nil {
		t.Fatal(err)
	}
	role := AlertmanagerReloaderRole(a)
	golden(t, "alertmanager-reloader-role", toYAML(t, role))
	rb := AlertmanagerReloaderRoleBinding(a)
	golden(t, "alertmanager-reloader-rolebinding", toYAML(t, rb))
	if rb.Subjects[0].Name != "alertmanager-main" || rb.RoleRef.Name != role.Name {
		t.Errorf("binding %+v does not bind %s to alertmanager-main", rb, role.Name)
	}
	watched := 0
	for _, c := range append(sts.Spec.Template.Spec.InitContainers, sts.Spec.Template.Spec.Containers...) {
		for _, arg := range c.Args {
			rest, ok := strings.CutPrefix(arg, "--watch-secret=")
			if !ok {
				if strings.HasPrefix(arg, "--watch-configmap=") {
					t.Errorf("%s: unexpected %s", c.Name, arg)
				}
				continue
			}
			ref, dir, _ := strings.Cut(rest, "=")
			if ref != "monitoring/alertmanager-main-generated" || dir != "/etc/alertmanager/config" {
				t.Errorf("%s: %s", c.Name, arg)
			}
			if got := role.Rules[0].ResourceNames; len(got) != 1 || "monitoring/"+got[0] != ref {
				t.Errorf("the Role allows %v, the reloader watches %s", got, ref)
			}
			watched++
		}
	}
	if watched != 2 {
		t.Errorf("%d containers watch the generated Secret, want 2 (init and sidecar)", watched)
	}
	for _, v := range sts.Spec.Template.Spec.Volumes {
		if v.Name == amConfigVolume && v.EmptyDir == nil {
			t.Errorf("the config volume is %+v, want an emptyDir the reloader fills", v.VolumeSource)
		}
	}
}
