package kubelet

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
)

// TrimNode keeps what Build reads of a node: name, UID, labels (for the selector),
// addresses and the status of the Ready condition. It is the transform of the
// controller's node cache: a Node's images, capacity, conditions' heartbeats and
// managed fields are most of its size, and none of it matters here. Other objects are
// returned as they are.
func TrimNode(obj any) (any, error) {
	n, ok := obj.(*corev1.Node)
	if !ok {
		return obj, nil
	}
	out := &corev1.Node{TypeMeta: n.TypeMeta}
	out.Name = n.Name
	out.UID = n.UID
	out.ResourceVersion = n.ResourceVersion
	out.Labels = n.Labels
	out.DeletionTimestamp = n.DeletionTimestamp
	out.Status.Addresses = n.Status.Addresses
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			out.Status.Conditions = []corev1.NodeCondition{{Type: c.Type, Status: c.Status}}
			break
		}
	}
	return out, nil
}

// NodeChanged reports whether the difference between two versions of a node can change
// what Build makes of it: its UID, addresses, or whether its readiness is known. Status
// heartbeats, label edits (the selector is applied by the API server) and the rest do
// not, so they cause no reconcile.
func NodeChanged(old, cur *corev1.Node) bool {
	return old.UID != cur.UID ||
		!equality.Semantic.DeepEqual(old.Status.Addresses, cur.Status.Addresses) ||
		readyKnown(old) != readyKnown(cur)
}
