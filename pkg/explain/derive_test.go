package explain

import (
	"reflect"
	"testing"
)

// TestOfflineDerivesWhatTheControllersWould: files holding only EndpointSlices, only
// Endpoints, only Pods or none of them (issue 35), through both roles.
func TestOfflineDerivesWhatTheControllersWould(t *testing.T) {
	const noPods = "the files hold no Endpoints, EndpointSlices or Pods for Service exported/nothing (selector app=nothing)"
	for _, c := range []struct {
		name, prometheus string
		subject          Subject
		ok, unknown      bool
		// kept maps each kept scrape URL to whether it is not ready.
		kept map[string]bool
		// pods maps kept URLs to the Pod the target names (targetRef).
		pods map[string]string
		msgs []string
	}{
		{name: "slices only, role endpoints", prometheus: "mon/k8s", subject: sm("exported", "sliced"), ok: true,
			// 10.0.2.12 has no ready condition (ready); 10.0.2.13 is terminating (left out).
			kept: map[string]bool{"http://10.0.2.10:8080/metrics": false, "http://10.0.2.11:8080/metrics": true, "http://10.0.2.12:8080/metrics": false},
			pods: map[string]string{"http://10.0.2.10:8080/metrics": "sliced-0", "http://10.0.2.12:8080/metrics": "sliced-2"}},
		{name: "endpoints only, role endpointslice", prometheus: "mon/slices", subject: sm("exported", "legacy"), ok: true,
			kept: map[string]bool{"http://10.0.3.10:9100/metrics": false, "http://10.0.3.11:9100/metrics": true}},
		{name: "endpoints only, role endpoints", prometheus: "mon/k8s", subject: sm("exported", "legacy"), ok: true,
			kept: map[string]bool{"http://10.0.3.10:9100/metrics": false, "http://10.0.3.11:9100/metrics": true}},
		{name: "pods only, role endpoints", prometheus: "mon/k8s", subject: sm("exported", "podsonly"), ok: true,
			kept: map[string]bool{"http://10.0.4.10:8080/metrics": false, "http://10.0.4.11:8080/metrics": true},
			pods: map[string]string{"http://10.0.4.10:8080/metrics": "podsonly-0", "http://10.0.4.11:8080/metrics": "podsonly-1"}},
		{name: "pods only, role endpointslice", prometheus: "mon/slices", subject: sm("exported", "podsonly"), ok: true,
			kept: map[string]bool{"http://10.0.4.10:8080/metrics": false, "http://10.0.4.11:8080/metrics": true}},
		{name: "no pods, role endpoints", prometheus: "mon/k8s", subject: sm("exported", "nothing"), unknown: true, msgs: []string{noPods}},
		{name: "no pods, role endpointslice", prometheus: "mon/slices", subject: sm("exported", "nothing"), unknown: true, msgs: []string{noPods}},
		{name: "no pods, Service subject", prometheus: "mon/k8s", subject: Subject{Kind: KindService, Namespace: "exported", Name: "nothing"}, unknown: true, msgs: []string{noPods}},
		{name: "no selector", prometheus: "mon/k8s", subject: sm("exported", "bare"), unknown: true,
			msgs: []string{"the files hold no Endpoints or EndpointSlices for Service exported/bare, which has no selector"}},
		{name: "finished pod: the files answer", prometheus: "mon/k8s", subject: sm("exported", "done")},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, c.subject, Options{Prometheus: c.prometheus}, "testdata/cluster.yaml", "testdata/endpointslice.yaml", "testdata/mirror.yaml")
			if r.OK != c.ok || r.Unknown != c.unknown {
				t.Errorf("ok %v unknown %v, want %v %v", r.OK, r.Unknown, c.ok, c.unknown)
			}
			ep := only(t, r).Endpoints[0]
			kept, pods := map[string]bool{}, map[string]string{}
			for _, tg := range ep.Targets {
				if tg.Kept {
					kept[tg.URL] = tg.NotReady
					if c.pods[tg.URL] != "" {
						pods[tg.URL] = tg.Pod
					}
				}
			}
			if len(kept) == 0 {
				kept = nil
			}
			if ep.Kept != len(c.kept) || !reflect.DeepEqual(kept, c.kept) {
				t.Errorf("kept %d %v, want %v", ep.Kept, kept, c.kept)
			}
			if len(c.pods) > 0 && !reflect.DeepEqual(pods, c.pods) {
				t.Errorf("pods %v, want %v", pods, c.pods)
			}
			if !reflect.DeepEqual(ep.Unknown, c.msgs) {
				t.Errorf("unknown %q, want %q", ep.Unknown, c.msgs)
			}
			if ep.Undetermined() != c.unknown {
				t.Errorf("undetermined %v", ep.Undetermined())
			}
		})
	}
}
