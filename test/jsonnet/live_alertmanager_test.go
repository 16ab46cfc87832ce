package jsonnet

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// The live system's Alertmanager: the real bin/alertmanager with gossip on a loopback port
// (so the cluster metrics exist), next to a config-reloader in file mode that reloads it
// the way the sidecar of an Alertmanager pod does. Its receivers are webhooks on a local
// HTTP server: "ok" accepts every notification, "failing" answers 500, so both the
// notification and the failure metrics have series.
const (
	alertmanagerPod     = "alertmanager-main-0"
	alertmanagerService = "alertmanager-main"
	// testAlertLabel marks the alert the test posts to Alertmanager's API; only it is
	// routed to the failing receiver.
	testAlertLabel = "lookout_test"
)

// alertmanagerConfig is the alertmanager.yaml the reloader renders: every alert goes to
// "ok", the test's alert to "failing" too.
func alertmanagerConfig(webhookPort int, generation string) []byte {
	return []byte(fmt.Sprintf(`# generation %s
route:
  receiver: ok
  group_by: [alertname]
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1m
  routes:
  - receiver: ok
    matchers: ['%[3]s="notify"']
    continue: true
  - receiver: failing
    matchers: ['%[3]s="notify"']
receivers:
- name: ok
  webhook_configs:
  - url: http://127.0.0.1:%[2]d/ok
- name: failing
  webhook_configs:
  - url: http://127.0.0.1:%[2]d/fail
`, generation, webhookPort, testAlertLabel))
}

// startAlertmanager starts the webhook receiver, Alertmanager and its config-reloader, and
// returns Alertmanager's port. It waits until the reloader has reloaded Alertmanager and a
// notification has reached each receiver.
func (s *liveSystem) startAlertmanager(ctx context.Context, reloaderBin string) (int, error) {
	var delivered atomic.Int64
	s.am = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/fail" {
			http.Error(w, "the test's failing receiver", http.StatusInternalServerError)
			return
		}
		delivered.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	webhookPort := s.am.Listener.Addr().(*net.TCPAddr).Port

	ports := make([]int, 3)
	for i := range ports {
		var err error
		if ports[i], err = freePort(); err != nil {
			return 0, err
		}
	}
	amPort, clusterPort, reloaderPort := ports[0], ports[1], ports[2]
	s.alertmanagerURL = fmt.Sprintf("http://127.0.0.1:%d", amPort)
	s.amReloaderURL = fmt.Sprintf("http://127.0.0.1:%d/metrics", reloaderPort)

	// As in the pod: the reloader reads the gzipped configuration from the generated
	// Secret's directory and renders it where Alertmanager reads it; the init container
	// has rendered it once before Alertmanager starts.
	inDir, outDir := filepath.Join(s.dir, "am-config"), filepath.Join(s.dir, "am-config-out")
	for _, d := range []string{inDir, outDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return 0, err
		}
	}
	config := alertmanagerConfig(webhookPort, "1")
	inFile, outFile := filepath.Join(inDir, "alertmanager.yaml.gz"), filepath.Join(outDir, "alertmanager.env.yaml")
	if err := os.WriteFile(inFile, gzipped(config), 0o644); err != nil {
		return 0, err
	}
	if err := os.WriteFile(outFile, config, 0o644); err != nil {
		return 0, err
	}

	am, err := startProcess(s.dir, "alertmanager", filepath.Join(s.root, "bin", "alertmanager"), []string{
		"--config.file=" + outFile,
		"--storage.path=" + filepath.Join(s.dir, "am-data"),
		fmt.Sprintf("--web.listen-address=127.0.0.1:%d", amPort),
		fmt.Sprintf("--cluster.listen-address=127.0.0.1:%d", clusterPort),
		fmt.Sprintf("--cluster.advertise-address=127.0.0.1:%d", clusterPort),
		"--log.level=warn",
	}, nil)
	if err != nil {
		return 0, err
	}
	s.procs = append(s.procs, am)
	if err := poll(ctx, time.Minute, 200*time.Millisecond, func() error {
		if done, err := am.exited(); done {
			return fmt.Errorf("alertmanager exited: %v", err)
		}
		_, err := get(ctx, s.alertmanagerURL+"/-/ready")
		return err
	}); err != nil {
		return 0, err
	}

	reloader, err := startProcess(s.dir, "alertmanager-config-reloader", reloaderBin, []string{
		"--config-file=" + inFile,
		"--config-envsubst-file=" + outFile,
		"--watched-dir=" + inDir,
		"--reload-url=" + s.alertmanagerURL + "/-/reload",
		"--reload-method=http",
		fmt.Sprintf("--listen-address=127.0.0.1:%d", reloaderPort),
		"--reload-timeout=5s",
		"--log-format=logfmt",
	}, []string{"POD_NAME=" + alertmanagerPod})
	if err != nil {
		return 0, err
	}
	s.procs = append(s.procs, reloader)
	if err := poll(ctx, time.Minute, 200*time.Millisecond, func() error {
		if done, err := reloader.exited(); done {
			return fmt.Errorf("Alertmanager's config-reloader exited: %v", err)
		}
		b, err := get(ctx, s.amReloaderURL)
		if err != nil {
			return err
		}
		if !bytes.Contains(b, []byte("reloader_last_reload_successful 1")) {
			return fmt.Errorf("Alertmanager's config-reloader has not reloaded it yet")
		}
		return nil
	}); err != nil {
		return 0, err
	}

	// One alert through the API v2, which both receivers get: the notification metrics of
	// the webhook integration, and its failures once the failing receiver's attempts time
	// out (Alertmanager gives up on a notification after at least 10 seconds).
	body := fmt.Sprintf(`[{"labels": {"alertname": "LookoutLiveTest", "%s": "notify"}, "annotations": {"summary": "posted by the live test"}}]`, testAlertLabel)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.alertmanagerURL+"/api/v2/alerts", strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("POST /api/v2/alerts: %s", resp.Status)
	}
	return amPort, poll(ctx, time.Minute, 500*time.Millisecond, func() error {
		b, err := get(ctx, s.alertmanagerURL+"/metrics")
		if err != nil {
			return err
		}
		if delivered.Load() == 0 {
			return fmt.Errorf("no notification has reached the webhook receiver")
		}
		for _, want := range []string{`alertmanager_notifications_total{integration="webhook"`, `alertmanager_notifications_failed_total{integration="webhook"`} {
			if !hasPositiveSample(b, want) {
				return fmt.Errorf("Alertmanager's /metrics has no sample %s...} above 0 yet", want)
			}
		}
		return nil
	})
}

// hasPositiveSample reports whether a text exposition has a sample whose line starts with
// prefix and whose value is above 0.
func hasPositiveSample(text []byte, prefix string) bool {
	for _, line := range strings.Split(string(text), "\n") {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		f := strings.Fields(line)
		if len(f) >= 2 && f[len(f)-1] != "0" {
			return true
		}
	}
	return false
}
