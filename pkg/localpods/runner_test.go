package localpods

import (
	"context"
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestRunnerPodLifecycle runs a StatefulSet whose "image" is the shell: the pod sees its
// ConfigMap at a rewritten mount path, its name through a field reference, follows a
// ConfigMap change, is reported ready, is recreated on a template change and leaves
// nothing behind when the runner stops.
func TestRunnerPodLifecycle(t *testing.T) {
	sh, err := osexec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cfg"}, Data: map[string]string{"greeting": "hello"}}
	// Paths are rewritten in whole arguments and flag values, not inside a script.
	script := `while true; do cat "$1" > "$2/seen"; echo "$(POD_NAME)" > "$2/name"; sleep 0.1; done`
	sts := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "app", Generation: 1},
		Spec: appsv1.StatefulSetSpec{
			Replicas: ptr.To[int32](1),
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				Containers: []corev1.Container{{
					Name: "main", Image: "local/shell:1", Command: []string{"sh", "-c", script, "sh", "/etc/app/greeting", "/data"},
					Env:          []corev1.EnvVar{{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}},
					VolumeMounts: []corev1.VolumeMount{{Name: "cfg", MountPath: "/etc/app"}, {Name: "data", MountPath: "/data"}},
				}},
				Volumes: []corev1.Volume{
					{Name: "cfg", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cfg"}}}},
					{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
					{Name: "opt", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "absent", Optional: ptr.To(true)}}},
				},
			}},
		},
	}
	c := fakeCluster(cm, sts).Build()
	dir := t.TempDir()
	r := New(Options{
		Client: c, Dir: filepath.Join(dir, "pods"), SyncPeriod: 50 * time.Millisecond, Logf: t.Logf,
		Images: func(image string) (Image, error) {
			if image == "local/shell:1" {
				return Image{Binary: sh}, nil
			}
			return Image{}, errors.New("no such image")
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	podDir := filepath.Join(dir, "pods", "ns", "app-0")
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(podDir, "volumes", "data", name))
		return strings.TrimSpace(string(b))
	}
	eventually(t, "the pod reads its ConfigMap", func() bool { return read("seen") == "hello" && read("name") == "app-0" })
	eventually(t, "the StatefulSet reports the ready replica", func() bool {
		var got appsv1.StatefulSet
		_ = c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "app"}, &got)
		return got.Status.ReadyReplicas == 1
	})
	pid := r.Pods()[0].PIDs["main"]

	cm.Data["greeting"] = "bonjour"
	if err := c.Update(ctx, cm); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the ConfigMap change reaches the pod", func() bool { return read("seen") == "bonjour" })
	if got := r.Pods()[0].PIDs["main"]; got != pid {
		t.Fatalf("a ConfigMap change restarted the container (pid %d -> %d)", pid, got)
	}

	var live appsv1.StatefulSet
	if err := c.Get(ctx, client.ObjectKeyFromObject(sts), &live); err != nil {
		t.Fatal(err)
	}
	live.Spec.Template.Labels = map[string]string{"rev": "2"}
	if err := c.Update(ctx, &live); err != nil {
		t.Fatal(err)
	}
	eventually(t, "a template change recreates the pod", func() bool {
		ps := r.Pods()
		return len(ps) == 1 && ps[0].PIDs["main"] != 0 && ps[0].PIDs["main"] != pid
	})

	// A container that exits is restarted.
	pid = r.Pods()[0].PIDs["main"]
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the killed container restarted", func() bool {
		got := r.Pods()[0].PIDs["main"]
		return got != 0 && got != pid
	})

	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	done <- nil
	if _, err := os.Stat(filepath.Join(dir, "pods")); !os.IsNotExist(err) {
		t.Fatalf("pod directory left behind: %v", err)
	}
}

func eventually(t *testing.T, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out: %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestRunnerVerbatimConfigsAndEnv: with VerbatimConfigs a projected Prometheus
// configuration is the Secret's bytes (its mount paths and Kubernetes discovery are not
// rewritten), and Options.Env reaches the container's environment.
func TestRunnerVerbatimConfigsAndEnv(t *testing.T) {
	sh, err := osexec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	cfg := "rule_files:\n- /etc/prometheus/config/rules.yaml\nscrape_configs:\n- job_name: a\n  kubernetes_sd_configs:\n  - role: endpointslice\n"
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cfg"}, Data: map[string][]byte{"prometheus.yaml": []byte(cfg)}}
	sts := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "app", Generation: 1},
		Spec: appsv1.StatefulSetSpec{
			Replicas: ptr.To[int32](1),
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				Containers: []corev1.Container{{
					Name: "main", Image: "local/shell:1", Command: []string{"sh", "-c", `echo "$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT" > "$1/env"; sleep 60`, "sh", "/data"},
					// A subPath naming a file of the volume (prometheus-operator mounts its web
					// config so) is that file.
					VolumeMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/etc/prometheus/config"}, {Name: "data", MountPath: "/data"},
						{Name: "config", MountPath: "/etc/one/prometheus.yaml", SubPath: "prometheus.yaml"}},
				}},
				Volumes: []corev1.Volume{
					{Name: "config", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "cfg"}}},
					{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
				},
			}},
		},
	}
	c := fakeCluster(sec, sts).Build()
	dir := t.TempDir()
	r := New(Options{
		Client: c, Dir: filepath.Join(dir, "pods"), SyncPeriod: 50 * time.Millisecond, Logf: t.Logf,
		Kubeconfig: "/some/kubeconfig", VerbatimConfigs: true,
		Env: []EnvVar{{"KUBERNETES_SERVICE_HOST", "127.0.0.1"}, {"KUBERNETES_SERVICE_PORT", "6443"}},
		Images: func(image string) (Image, error) {
			if image == "local/shell:1" {
				return Image{Binary: sh}, nil
			}
			return Image{}, errors.New("no such image")
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	podDir := filepath.Join(dir, "pods", "ns", "app-0", "volumes")
	read := func(path string) string {
		b, _ := os.ReadFile(filepath.Join(podDir, path))
		return string(b)
	}
	eventually(t, "the container sees the environment", func() bool { return strings.TrimSpace(read("data/env")) == "127.0.0.1:6443" })
	if got := read("config/prometheus.yaml"); got != cfg {
		t.Fatalf("projected configuration was changed:\n%s\nwant:\n%s", got, cfg)
	}
}

// TestRunnerKeepLogs: with KeepLogs a stopped pod leaves its container logs behind and
// only its volumes go.
func TestRunnerKeepLogs(t *testing.T) {
	sh, err := osexec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	sts := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "app", Generation: 1},
		Spec: appsv1.StatefulSetSpec{
			Replicas: ptr.To[int32](1),
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				Containers: []corev1.Container{{
					Name: "main", Image: "local/shell:1", Command: []string{"sh", "-c", `echo started; touch "$1/mark"; sleep 60`, "sh", "/data"},
					VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/data"}},
				}},
				Volumes: []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
			}},
		},
	}
	dir := t.TempDir()
	r := New(Options{
		Client: fakeCluster(sts).Build(), Dir: filepath.Join(dir, "pods"), KeepLogs: true, SyncPeriod: 50 * time.Millisecond, Logf: t.Logf,
		Images: func(string) (Image, error) { return Image{Binary: sh}, nil },
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	podDir := filepath.Join(dir, "pods", "ns", "app-0")
	eventually(t, "the container ran", func() bool {
		_, err := os.Stat(filepath.Join(podDir, "volumes", "data", "mark"))
		return err == nil
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(podDir, "main.log"))
	if err != nil || !strings.Contains(string(b), "started") {
		t.Fatalf("container log after the pod stopped: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(podDir, "volumes")); !os.IsNotExist(err) {
		t.Fatalf("volumes left behind: %v", err)
	}
}
