package amplan_test

import (
	"testing"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amplan"
	"github.com/lookout-operator/lookout/test/workloadtest"
)

// TestReloaderArgsUpstreamCompatible: the reloader containers of every Alertmanager
// golden case get only flags upstream's reloader defines
// (workloadtest.CheckReloaderArgsUpstreamCompatible).
func TestReloaderArgsUpstreamCompatible(t *testing.T) {
	t.Parallel()
	var cases []workloadtest.ReloaderCase
	for _, c := range amplan.AlertmanagerCasesForTest() {
		sts, err := amplan.AlertmanagerStatefulSet(c.Input, c.Options)
		if err != nil {
			t.Fatalf("alertmanager %s: %v", c.Name, err)
		}
		rc := workloadtest.ReloaderCase{Name: "alertmanager-" + c.Name, API: c.Options.ReloaderWatchAPI, Report: c.Options.ReloaderReportConfig, PodName: sts.Name + "-0"}
		rc.InitC, rc.Sidecar = workloadtest.ReloaderContainers(t, "alertmanager "+c.Name, sts)
		cases = append(cases, rc)
	}
	workloadtest.CheckReloaderArgsUpstreamCompatible(t, cases)
}
