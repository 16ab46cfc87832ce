package jsonnet

import (
	"fmt"
	"maps"
	"path/filepath"
	"sort"
	"testing"

	"github.com/lookout-operator/lookout/pkg/manifest"
)

// stackOnlyPermissions are what the stack's RBAC grants beyond example/install, and why.
var stackOnlyPermissions = map[string]string{
	"monitoring.coreos.com/prometheuses/finalizers:update": "owner references that block deletion, under OwnerReferencesPermissionEnforcement",
}

// TestStackMatchesInstall keeps the stack's operator objects equivalent to the plain
// manifests of example/install: the same objects, RBAC, Deployment, Service and scrape
// endpoint.
func TestStackMatchesInstall(t *testing.T) {
	root := repoRoot(t)
	install, err := manifest.ReadPaths(filepath.Join(root, "example", "install"))
	if err != nil {
		t.Fatal(err)
	}
	if len(install) == 0 {
		t.Fatal("example/install holds no objects")
	}
	// The stack's operator runs --kubelet-service (for its kubelet ServiceMonitor): its
	// ClusterRole adds that flag's file of example/rbac-optional.
	kubelet, err := manifest.ReadPaths(filepath.Join(root, "example", "rbac-optional", "kubelet-service.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	kubeletPerms := map[string]bool{}
	for _, o := range kubelet {
		if o.GetKind() == "ClusterRole" {
			maps.Copy(kubeletPerms, permissions(object(o.Object)))
		}
	}
	if len(kubeletPerms) == 0 {
		t.Fatal("no rules read from example/rbac-optional/kubelet-service.yaml")
	}
	s := evaluateStack(t, "{}")
	byKey := map[string]object{}
	for _, objs := range s {
		for _, o := range objs {
			byKey[o.str("kind")+" "+o.str("metadata", "namespace")+"/"+o.str("metadata", "name")] = o
		}
	}
	compared := 0
	defer func() {
		if compared < 9 {
			t.Errorf("compared %d objects of example/install, want at least 9", compared)
		}
	}()
	for _, in := range install {
		key := in.GetKind() + " " + in.GetNamespace() + "/" + in.GetName()
		st, ok := byKey[key]
		if !ok {
			t.Errorf("%s (%s) has no counterpart in the stack", key, in.Source)
			continue
		}
		want := object(in.Object)
		compared++
		switch in.GetKind() {
		case "ClusterRole", "Role":
			w, g := permissions(want), permissions(st)
			if len(w) == 0 {
				t.Fatalf("%s: no rules read from example/install", key)
			}
			if in.GetKind() == "ClusterRole" {
				maps.Copy(w, kubeletPerms)
			}
			for p := range w {
				if !g[p] {
					t.Errorf("%s: the stack lacks %s", key, p)
				}
			}
			for p := range g {
				if _, ok := stackOnlyPermissions[p]; !w[p] && !ok {
					t.Errorf("%s: the stack grants %s, example/install (with the rules of the optional features it runs) does not", key, p)
				}
			}
		case "ClusterRoleBinding", "RoleBinding":
			same(t, key, "roleRef", want.get("roleRef"), st.get("roleRef"))
			same(t, key, "subjects", want.get("subjects"), st.get("subjects"))
		case "Deployment":
			same(t, key, "replicas", want.get("spec", "replicas"), st.get("spec", "replicas"))
			same(t, key, "selector", want.get("spec", "selector"), st.get("spec", "selector"))
			wc := object(want.get("spec", "template", "spec", "containers", 0).(map[string]any))
			gc := object(st.get("spec", "template", "spec", "containers", 0).(map[string]any))
			for _, f := range []string{"name", "image", "env", "ports", "resources", "securityContext", "volumeMounts"} {
				same(t, key, "container "+f, wc.get(f), gc.get(f))
			}
			for _, f := range []string{"livenessProbe", "readinessProbe"} {
				same(t, key, f+" path", wc.get(f, "httpGet", "path"), gc.get(f, "httpGet", "path"))
			}
			// The stack adds --log-level from its values, and --kubelet-service for its
			// kubelet ServiceMonitor.
			var stackArgs []any
			for _, a := range gc.get("args").([]any) {
				if a != "--log-level=info" && a != "--kubelet-service=kube-system/kubelet" {
					stackArgs = append(stackArgs, a)
				}
			}
			same(t, key, "args", sortedStrings(wc.get("args")), sortedStrings(stackArgs))
			same(t, key, "serviceAccountName", want.get("spec", "template", "spec", "serviceAccountName"), st.get("spec", "template", "spec", "serviceAccountName"))
		case "Service":
			same(t, key, "selector", want.get("spec", "selector"), st.get("spec", "selector"))
			same(t, key, "port", want.get("spec", "ports", 0, "port"), st.get("spec", "ports", 0, "port"))
			same(t, key, "port name", want.get("spec", "ports", 0, "name"), st.get("spec", "ports", 0, "name"))
		case "ServiceMonitor":
			same(t, key, "selector", want.get("spec", "selector"), st.get("spec", "selector"))
			same(t, key, "endpoint port", want.get("spec", "endpoints", 0, "port"), st.get("spec", "endpoints", 0, "port"))
		}
	}
}

// permissions flattens RBAC rules into "group/resource:verb" entries.
func permissions(o object) map[string]bool {
	out := map[string]bool{}
	rules, _ := o.get("rules").([]any)
	for _, r := range rules {
		rule := object(r.(map[string]any))
		groups, _ := rule.get("apiGroups").([]any)
		resources, _ := rule.get("resources").([]any)
		verbs, _ := rule.get("verbs").([]any)
		for _, g := range groups {
			for _, res := range resources {
				for _, v := range verbs {
					out[fmt.Sprintf("%s/%s:%s", g, res, v)] = true
				}
			}
		}
	}
	return out
}

func sortedStrings(v any) []string {
	var out []string
	a, _ := v.([]any)
	for _, x := range a {
		out = append(out, fmt.Sprint(x))
	}
	sort.Strings(out)
	return out
}

func same(t *testing.T, key, what string, want, got any) {
	t.Helper()
	w, g := fmt.Sprintf("%v", want), fmt.Sprintf("%v", got)
	if w != g {
		t.Errorf("%s: %s differs from example/install:\n install: %s\n stack:   %s", key, what, w, g)
	}
}
