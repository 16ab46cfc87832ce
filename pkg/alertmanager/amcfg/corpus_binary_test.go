package amcfg_test

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
)

// TestAMCorpusRealAlertmanager groups the tenant cases of the corpus by the
// administrator's configuration they run against (a base, or an Alertmanager spec with the
// AlertmanagerConfig it names) and, for every group of more than one case, puts all of
// its objects into one Generate, checks each object gets the verdict it got alone, and
// starts the real bin/alertmanager on the result: the file Lookout writes, with the TLS
// assets and the administrator's files in place and $(POD_NAME) expanded as the
// config-reloader does. Alertmanager builds every integration (reading the CA and
// certificate files) before it listens, and exits when it cannot.
func TestAMCorpusRealAlertmanager(t *testing.T) {
	bin, err := filepath.Abs(filepath.Join("..", "..", "..", "bin", "alertmanager"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("no bin/alertmanager (make tools): %v", err)
	}
	certPEM, keyPEM := selfSigned(t)
	assets := corpusAssets()
	for k, v := range assets {
		switch {
		case strings.HasPrefix(v, "-----BEGIN CERTIFICATE-----"):
			assets[k] = certPEM
		case strings.HasPrefix(v, "-----BEGIN PRIVATE KEY-----"):
			assets[k] = keyPEM
		}
	}

	type group struct {
		first amcfg.Input
		base  string
		alone map[types.NamespacedName]bool
		objs  []*monitoringv1alpha1.AlertmanagerConfig
	}
	groups := map[string]*group{}
	var order []string
	for i, c := range corpusCases() {
		if c.spec == "" {
			continue
		}
		in, ok := c.input(t, i)
		if !ok {
			continue
		}
		in.Assets = assets
		res, err := amcfg.Generate(in)
		if err != nil {
			continue // the administrator's part is refused: nothing is written
		}
		id := c.base + "\x00" + c.amSpec + "\x00" + c.global
		g := groups[id]
		if g == nil {
			g = &group{first: in, base: c.base, alone: map[types.NamespacedName]bool{}}
			if g.base == "" {
				g.base = corpusBase
			}
			groups[id] = g
			order = append(order, id)
		}
		key := types.NamespacedName{Namespace: tenantNS, Name: objName(i)}
		g.alone[key] = res.Verdicts[key].Accepted
		g.objs = append(g.objs, in.Configs...)
	}
	runs, objects, accepted := 0, 0, 0
	for _, id := range order {
		g := groups[id]
		if len(g.objs) < 2 {
			continue
		}
		in := g.first
		in.Configs = g.objs
		res, err := amcfg.Generate(in)
		if err != nil {
			t.Fatal(err)
		}
		for key, ok := range g.alone {
			if got := res.Verdicts[key].Accepted; got != ok {
				t.Errorf("%s: accepted %v together, %v alone: %+v", key, got, ok, res.Verdicts[key])
			}
			if ok {
				accepted++
			}
		}
		checkNoLeak(t, "combined", res.Config, tenantNS+"/", !strings.Contains(id, "$("))
		runAlertmanager(t, bin, res, g.base, certPEM, keyPEM)
		runs++
		objects += len(g.objs)
	}
	t.Logf("bin/alertmanager loaded %d combined configurations: %d tenant objects, %d accepted, %d refused", runs, objects, accepted, objects-accepted)
}

// runAlertmanager starts bin/alertmanager on res (base is the administrator's
// configuration, for its files) and waits until it listens and is ready.
func runAlertmanager(t *testing.T, bin string, res *amcfg.Result, base, certPEM, keyPEM string) {
	t.Helper()
	dir := t.TempDir()
	certs, admin := filepath.Join(dir, "certs"), filepath.Join(dir, "admin")
	for _, d := range []string{certs, admin} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for name, v := range res.TLSAssets {
		if err := os.WriteFile(filepath.Join(certs, name), v, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range regexp.MustCompile(`/etc/admin/[^\s"'},]+`).FindAllString(base, -1) {
		v := certPEM
		if strings.HasSuffix(f, ".key") {
			v = keyPEM
		}
		if err := os.WriteFile(filepath.Join(admin, filepath.Base(f)), []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	text := strings.NewReplacer(amcfg.TLSAssetsDir+"/", certs+"/", "/etc/admin/", admin+"/", "$(POD_NAME)", "alertmanager-main-0").Replace(string(res.Config))
	cfgFile := filepath.Join(dir, "alertmanager.yaml")
	if err := os.WriteFile(cfgFile, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--config.file="+cfgFile, "--storage.path="+filepath.Join(dir, "data"),
		"--web.listen-address=127.0.0.1:0", "--cluster.listen-address=", "--log.level=info")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	listening := regexp.MustCompile(`msg="Listening on" address=(\S+)`)
	var log []string
	addr := ""
	s := bufio.NewScanner(stderr)
	s.Buffer(make([]byte, 1<<20), 16<<20)
	for addr == "" && s.Scan() {
		log = append(log, s.Text())
		if m := listening.FindStringSubmatch(s.Text()); m != nil {
			addr = m[1]
		}
	}
	if addr == "" {
		t.Fatalf("bin/alertmanager did not start with a combined corpus configuration (%d bytes):\n%s", len(text), strings.Join(log, "\n"))
	}
	go func() {
		for s.Scan() {
		}
	}()
	resp, err := http.Get(fmt.Sprintf("http://%s/-/ready", addr))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/-/ready: %s", resp.Status)
	}
}

// selfSigned returns a certificate and its key in PEM.
func selfSigned(t *testing.T) (string, string) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "corpus"}, NotBefore: time.Now().Add(-time.Hour),
		NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}))
}
