package apiwatch_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/reloader/apiwatch"
	"github.com/lookout-operator/lookout/test/testenv"
)

// env is one real kube-apiserver shared by the tests of this package; each test works in
// a namespace of its own.
var env *testenv.Env

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	e, err := testenv.Start(context.Background(), testenv.Options{SkipCRDs: true})
	if err != nil {
		fmt.Fprintf(os.Stderr, "starting the control plane: %v\n", err)
		return 1
	}
	env = e
	defer func() { _ = e.Stop() }()
	return m.Run()
}

func namespace(t *testing.T) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "apiwatch-"}}
	if err := env.Client.Create(context.Background(), ns); err != nil {
		t.Fatal(err)
	}
	return ns.Name
}

func create(t *testing.T, obj client.Object) {
	t.Helper()
	if err := env.Client.Create(context.Background(), obj); err != nil {
		t.Fatal(err)
	}
}

// dirState renders a mirrored directory as "key=content" lines, following the links.
func dirState(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "error: " + err.Error()
	}
	var lines []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "..") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return "error: " + err.Error()
		}
		lines = append(lines, e.Name()+"="+string(b))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// awaitDir waits, on file events, until dir's state is want.
func awaitDir(t *testing.T, dir, want string) {
	t.Helper()
	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	timeout := time.After(30 * time.Second)
	for {
		if got := dirState(dir); got == want {
			return
		}
		select {
		case <-w.Events:
		case err := <-w.Errors:
			t.Fatal(err)
		case <-timeout:
			t.Fatalf("directory %s is\n%s\nwant\n%s", dir, dirState(dir), want)
		}
	}
}

// run starts a mirror in the background until the test ends and waits for its sync.
func run(t *testing.T, cfg *rest.Config, targets ...apiwatch.Target) *apiwatch.Mirror {
	t.Helper()
	m, err := apiwatch.New(cfg, targets, apiwatch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	select {
	case <-m.Synced():
	case <-time.After(30 * time.Second):
		t.Fatal("mirror did not sync")
	}
	return m
}

func TestMirrorSecret(t *testing.T) {
	t.Parallel()
	ns := namespace(t)
	sec := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "prometheus-k8s"},
		Data:       map[string][]byte{"prometheus.yaml.gz": {0x1f, 0x8b, 1}, "other": []byte("x")},
	}
	create(t, sec)
	// A neighbour in the same namespace must never reach the directory.
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "neighbour"},
		Data: map[string][]byte{"intruder": []byte("!")}})
	dir := filepath.Join(t.TempDir(), "config")
	run(t, env.Config, apiwatch.Target{Kind: apiwatch.KindSecret, Namespace: ns, Name: sec.Name, Dir: dir})
	if got, want := dirState(dir), "other=x\nprometheus.yaml.gz=\x1f\x8b\x01"; got != want {
		t.Fatalf("after sync: %q, want %q", got, want)
	}
	if target, err := os.Readlink(filepath.Join(dir, "other")); err != nil || target != "..data/other" {
		t.Fatalf("not a kubelet-style projection: %q, %v", target, err)
	}

	sec.Data = map[string][]byte{"prometheus.yaml.gz": []byte("v2")}
	if err := env.Client.Update(context.Background(), sec); err != nil {
		t.Fatal(err)
	}
	awaitDir(t, dir, "prometheus.yaml.gz=v2")

	// Deleting the Secret keeps the last files.
	if err := env.Client.Delete(context.Background(), sec); err != nil {
		t.Fatal(err)
	}
	sec2 := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: sec.Name},
		Data: map[string][]byte{"prometheus.yaml.gz": []byte("v3")}}
	create(t, sec2)
	awaitDir(t, dir, "prometheus.yaml.gz=v3")
}

func TestMirrorConfigMapAppearsLater(t *testing.T) {
	t.Parallel()
	ns := namespace(t)
	dir := filepath.Join(t.TempDir(), "rules-0")
	run(t, env.Config, apiwatch.Target{Kind: apiwatch.KindConfigMap, Namespace: ns, Name: "rules-0", Dir: dir})
	if got := dirState(dir); got != "" {
		t.Fatalf("missing ConfigMap: directory holds %q", got)
	}
	if _, err := os.Readlink(filepath.Join(dir, "..data")); err != nil {
		t.Fatalf("empty projection not prepared: %v", err)
	}
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "rules-0"},
		Data:       map[string]string{"a.yaml": "groups: []"},
		BinaryData: map[string][]byte{"b.bin": {0, 1}},
	}
	create(t, cm)
	awaitDir(t, dir, "a.yaml=groups: []\nb.bin=\x00\x01")
	if err := env.Client.Delete(context.Background(), cm); err != nil {
		t.Fatal(err)
	}
	awaitDir(t, dir, "")
}

// TestRBACResourceNames: a user allowed only the named objects can mirror them, and
// nothing else.
func TestRBACResourceNames(t *testing.T) {
	t.Parallel()
	ns := namespace(t)
	allowed := []apiwatch.Target{
		{Kind: apiwatch.KindSecret, Namespace: ns, Name: "prometheus-k8s", Dir: filepath.Join(t.TempDir(), "cfg")},
		{Kind: apiwatch.KindConfigMap, Namespace: ns, Name: "prometheus-k8s-rulefiles-0", Dir: filepath.Join(t.TempDir(), "rules")},
	}
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "prometheus-k8s"},
		Data: map[string][]byte{"prometheus.yaml.gz": []byte("cfg")}})
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "private"},
		Data: map[string][]byte{"password": []byte("secret")}})
	user := "system:serviceaccount:" + ns + ":prometheus-k8s"
	create(t, &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "reloader"}, Rules: apiwatch.PolicyRules(allowed)})
	create(t, &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "reloader"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "reloader"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: user}},
	})
	cfg := rest.CopyConfig(env.Config)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: user}

	// The RoleBinding takes effect asynchronously in the authorizer's cache: the
	// informer-backed mirror retries until it may list, so Run's sync is the signal.
	run(t, cfg, allowed...)
	if got := dirState(allowed[0].Dir); got != "prometheus.yaml.gz=cfg" {
		t.Fatalf("allowed secret: %q", got)
	}
	if got := dirState(allowed[1].Dir); got != "" {
		t.Fatalf("absent configmap: %q", got)
	}
	create(t, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "prometheus-k8s-rulefiles-0"},
		Data: map[string]string{"r.yaml": "groups: []"}})
	awaitDir(t, allowed[1].Dir, "r.yaml=groups: []")

	// Another Secret, or a list without the name selector, is refused.
	c, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var private corev1.Secret
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: "private"}, &private); !apierrors.IsForbidden(err) {
		t.Fatalf("reading another secret: %v", err)
	}
	var all corev1.SecretList
	if err := c.List(context.Background(), &all, client.InNamespace(ns)); !apierrors.IsForbidden(err) {
		t.Fatalf("unrestricted list: %v (%d secrets)", err, len(all.Items))
	}
	var named corev1.SecretList
	if err := c.List(context.Background(), &named, client.InNamespace(ns),
		client.MatchingFields{"metadata.name": "prometheus-k8s"}); err != nil || len(named.Items) != 1 {
		t.Fatalf("list by the allowed name: %v (%d secrets)", err, len(named.Items))
	}
}
