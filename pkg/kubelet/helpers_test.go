package kubelet

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// node builds a Ready node with the given InternalIP addresses.
func node(name string, ips ...string) corev1.Node {
	n := corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("uid-" + name), Labels: map[string]string{"kubernetes.io/hostname": name}},
		Status: corev1.NodeStatus{
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
		},
	}
	for _, ip := range ips {
		n.Status.Addresses = append(n.Status.Addresses, corev1.NodeAddress{Type: corev1.NodeInternalIP, Address: ip})
	}
	return n
}

func withAddress(n corev1.Node, t corev1.NodeAddressType, addr string) corev1.Node {
	n.Status.Addresses = append(n.Status.Addresses, corev1.NodeAddress{Type: t, Address: addr})
	return n
}

func withReady(n corev1.Node, s corev1.ConditionStatus) corev1.Node {
	if s == "" {
		n.Status.Conditions = nil
		return n
	}
	n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: s}}
	return n
}

// nodes returns count ready nodes node-00000... with addresses 10.x.y.z.
func nodes(from, count int) []corev1.Node {
	out := make([]corev1.Node, 0, count)
	for i := from; i < from+count; i++ {
		out = append(out, node(fmt.Sprintf("node-%05d", i), ipv4(i)))
	}
	return out
}

func ipv4(i int) string { return fmt.Sprintf("10.%d.%d.%d", (i>>16)&255, (i>>8)&255, i&255) }

// liveSlices turns desired slices into what the API server would hold.
func liveSlices(desired []*discoveryv1.EndpointSlice) []discoveryv1.EndpointSlice {
	out := make([]discoveryv1.EndpointSlice, len(desired))
	for i, s := range desired {
		out[i] = *s.DeepCopy()
	}
	return out
}

// golden compares got with testdata/<name>.golden, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s (run go test ./pkg/kubelet -update to create it): %v", path, err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs from the output; run go test ./pkg/kubelet -update and review the diff\n--- got:\n%s", path, got)
	}
}

// render is the golden form of Build's result: the objects as YAML documents, then
// comments naming the slices to delete and the problems.
func render(t *testing.T, objs *Objects) []byte {
	t.Helper()
	var docs []string
	add := func(v any) {
		b, err := yaml.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(b))
	}
	add(objs.Service)
	if objs.Endpoints != nil {
		add(objs.Endpoints)
	}
	for _, s := range objs.EndpointSlices {
		add(s)
	}
	var b strings.Builder
	b.WriteString(strings.Join(docs, "---\n"))
	for _, s := range objs.StaleSlices {
		fmt.Fprintf(&b, "# delete EndpointSlice %s\n", s)
	}
	for _, p := range objs.Problems {
		fmt.Fprintf(&b, "# left out: %s\n", p)
	}
	return []byte(b.String())
}
