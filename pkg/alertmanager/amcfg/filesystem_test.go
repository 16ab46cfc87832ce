package amcfg_test

import (
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
)

// TestContainerFiles: an AlertmanagerConfig naming a file of the Alertmanager container is
// accepted or refused as spec.alertmanagerConfigFileSystemMode says, for each matcher
// strategy, in the Alertmanager's namespace (monitoring) and another (ns1), and as the
// global object.
func TestContainerFiles(t *testing.T) {
	const (
		none   = monitoringv1.NoneConfigMatcherStrategyType
		onNS   = monitoringv1.OnNamespaceConfigMatcherStrategyType
		except = monitoringv1.OnNamespaceExceptForAlertmanagerNamespaceConfigMatcherStrategyType
		deny   = monitoringv1.DenyAllAlertmanagerConfigFileSystemMode
		allow  = monitoringv1.AllowAllAlertmanagerConfigFileSystemMode
		follow = monitoringv1.FromAlertmanagerConfigMatcherStrategyAlertmanagerConfigFileSystemMode
	)
	fileRecv := map[string]string{
		"telegram": "    telegramConfigs:\n    - botTokenFile: /etc/alertmanager/secrets/t/token\n      chatID: 42",
		"pushover": "    pushoverConfigs:\n    - userKeyFile: /etc/alertmanager/secrets/p/user\n      token: {name: s, key: token}",
	}
	wantField := map[string]string{
		"telegram": "spec.receivers[0].telegramConfigs[0].botTokenFile",
		"pushover": "spec.receivers[0].pushoverConfigs[0].userKeyFile",
	}
	cases := []struct {
		mode     monitoringv1.AlertmanagerConfigFileSystemMode
		strategy monitoringv1.AlertmanagerConfigMatcherStrategyType
		// what the object in monitoring, in ns1, and the global object get
		sameNS, otherNS, global bool
	}{
		{mode: "", strategy: "", sameNS: false, otherNS: false, global: true},
		{mode: "", strategy: onNS, sameNS: false, otherNS: false, global: true},
		{mode: follow, strategy: onNS, sameNS: false, otherNS: false, global: true},
		{mode: follow, strategy: except, sameNS: true, otherNS: false, global: true},
		{mode: follow, strategy: none, sameNS: true, otherNS: true, global: true},
		{mode: "", strategy: none, sameNS: true, otherNS: true, global: true},
		{mode: deny, strategy: none, sameNS: false, otherNS: false, global: false},
		{mode: deny, strategy: onNS, sameNS: false, otherNS: false, global: false},
		{mode: allow, strategy: onNS, sameNS: true, otherNS: true, global: true},
		{mode: allow, strategy: except, sameNS: true, otherNS: true, global: true},
	}
	for _, c := range cases {
		for kind, body := range fileRecv {
			name := string(c.mode) + "/" + string(c.strategy) + "/" + kind
			t.Run(name, func(t *testing.T) {
				obj := func(ns string) string {
					return amc(ns, "files", "  route:\n    receiver: r\n  receivers:\n  - name: r\n"+body)
				}
				assets := amcfg.MapAssets{"secret/ns1/s/token": "t", "secret/monitoring/s/token": "t"}
				res, err := amcfg.Generate(tcase{fsMode: c.mode, strategy: c.strategy, assets: assets,
					configs: []string{obj("monitoring"), obj("ns1")}}.input(t))
				if err != nil {
					t.Fatal(err)
				}
				for ns, want := range map[string]bool{"monitoring": c.sameNS, "ns1": c.otherNS} {
					v := res.Verdicts[types.NamespacedName{Namespace: ns, Name: "files"}]
					if v.Accepted != want {
						t.Errorf("object in %s: accepted %v, want %v (%+v)", ns, v.Accepted, want, v)
					}
					if !want && (v.Reason != amcfg.ReasonInvalid || v.Field != wantField[kind] ||
						!strings.Contains(v.Message, "alertmanagerConfigFileSystemMode")) {
						t.Errorf("object in %s: verdict %+v, want %s naming %s and the mode", ns, v, amcfg.ReasonInvalid, wantField[kind])
					}
					if in := strings.Contains(string(res.Config), ns+"/files/r"); in != want {
						t.Errorf("object in %s: in the configuration %v, want %v", ns, in, want)
					}
				}

				global := strings.Replace(obj("monitoring"), "receiver: r", "receiver: r\n    groupBy: [alertname]", 1)
				res, err = amcfg.Generate(tcase{fsMode: c.mode, strategy: c.strategy, assets: assets, global: global}.input(t))
				if c.global {
					if err != nil {
						t.Fatalf("global object refused: %v", err)
					}
					if !strings.Contains(string(res.Config), "_file") {
						t.Errorf("global object: the file is not in the configuration:\n%s", res.Config)
					}
				} else if err == nil || !strings.Contains(err.Error(), "alertmanagerConfigFileSystemMode") {
					t.Errorf("global object: got error %v, want a refusal naming the mode", err)
				}
			})
		}
	}
}
