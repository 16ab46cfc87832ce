package localpods

import (
	"context"
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// NodeName is the node the runner's Pod objects are bound to.
const NodeName = "localpods"

// podLabels are the labels the StatefulSet controller gives a pod.
func (p *pod) podLabels(tmpl *corev1.PodTemplateSpec) map[string]string {
	l := map[string]string{
		appsv1.StatefulSetPodNameLabel: p.name,
		appsv1.PodIndexLabel:           strconv.Itoa(p.ordinal),
	}
	for k, v := range tmpl.Labels {
		l[k] = v
	}
	return l
}

// syncPodObject keeps the pod's Pod object (with a pod subnet) in line with the
// processes, as the StatefulSet controller and the kubelet would: created when missing,
// its status saying ready, restarts and the pod address. It reports gone when the object
// was deleted while the pod ran (kubectl delete pod): the caller stops the processes and
// the next sync creates the pod again, like a StatefulSet does.
func (p *pod) syncPodObject(ctx context.Context, sts *appsv1.StatefulSet, tmpl *corev1.PodTemplateSpec) (gone bool, err error) {
	c := p.r.o.Client
	var live corev1.Pod
	err = c.Get(ctx, client.ObjectKey{Namespace: p.namespace, Name: p.name}, &live)
	switch {
	case apierrors.IsNotFound(err):
		p.mu.Lock()
		had := p.podObject
		p.mu.Unlock()
		if had {
			return true, nil
		}
		obj := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{
				Namespace: p.namespace, Name: p.name,
				Labels: p.podLabels(tmpl), Annotations: tmpl.Annotations,
				OwnerReferences: []metav1.OwnerReference{{
					APIVersion: "apps/v1", Kind: "StatefulSet", Name: sts.Name, UID: sts.UID,
					Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
				}},
			},
			Spec: *tmpl.Spec.DeepCopy(),
		}
		obj.Spec.NodeName = NodeName
		obj.Spec.Hostname = p.name
		if err := c.Create(ctx, obj); err != nil {
			return false, err
		}
		live = *obj
	case err != nil:
		return false, err
	case live.DeletionTimestamp != nil:
		// Deleted gracefully: the kubelet stops the containers, then removes the object.
		_ = c.Delete(ctx, &live, client.GracePeriodSeconds(0))
		return true, nil
	}
	p.mu.Lock()
	if p.podObject && p.podUID != string(live.UID) {
		p.mu.Unlock()
		return true, nil // deleted and created again by someone else
	}
	p.podObject, p.podUID = true, string(live.UID)
	want := p.podStatus(tmpl, live.Status)
	p.mu.Unlock()
	if equality.Semantic.DeepEqual(want, live.Status) {
		return false, nil
	}
	live.Status = want
	return false, c.Status().Update(ctx, &live)
}

// podStatus is the status the kubelet would report; p.mu is held.
func (p *pod) podStatus(tmpl *corev1.PodTemplateSpec, old corev1.PodStatus) corev1.PodStatus {
	cond := func(t corev1.PodConditionType, ok bool) corev1.PodCondition {
		s := corev1.ConditionFalse
		if ok {
			s = corev1.ConditionTrue
		}
		c := corev1.PodCondition{Type: t, Status: s, LastTransitionTime: metav1.NewTime(time.Now().Truncate(time.Second))}
		for _, o := range old.Conditions {
			if o.Type == t && o.Status == s {
				c.LastTransitionTime = o.LastTransitionTime
			}
		}
		return c
	}
	st := corev1.PodStatus{
		Phase:     corev1.PodRunning,
		HostIP:    "127.0.0.1",
		HostIPs:   []corev1.HostIP{{IP: "127.0.0.1"}},
		PodIP:     p.ip,
		PodIPs:    []corev1.PodIP{{IP: p.ip}},
		StartTime: old.StartTime,
		Conditions: []corev1.PodCondition{
			cond(corev1.PodScheduled, true),
			cond(corev1.PodInitialized, true),
			cond(corev1.ContainersReady, p.ready),
			cond(corev1.PodReady, p.ready),
		},
	}
	// Conditions others own (a readiness gate's, the config-reloader's report) stay, as
	// the kubelet keeps them.
	for _, o := range old.Conditions {
		switch o.Type {
		case corev1.PodScheduled, corev1.PodInitialized, corev1.ContainersReady, corev1.PodReady:
		default:
			st.Conditions = append(st.Conditions, o)
		}
	}
	if st.StartTime == nil {
		st.StartTime = ptr.To(metav1.NewTime(time.Now().Truncate(time.Second)))
	}
	for _, c := range tmpl.Spec.Containers {
		cs := corev1.ContainerStatus{Name: c.Name, Image: c.Image, Ready: p.ready, Started: ptr.To(true), RestartCount: int32(p.restarts[c.Name])}
		cs.State.Running = &corev1.ContainerStateRunning{StartedAt: *st.StartTime}
		for _, o := range old.ContainerStatuses {
			if o.Name == c.Name && o.State.Running != nil {
				cs.State.Running.StartedAt = o.State.Running.StartedAt
			}
		}
		st.ContainerStatuses = append(st.ContainerStatuses, cs)
	}
	return st
}

// deletePodObject removes the Pod object when the runner stops the pod.
func (p *pod) deletePodObject() {
	p.mu.Lock()
	had := p.podObject
	p.podObject, p.podUID = false, ""
	p.mu.Unlock()
	if !had {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	obj := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: p.namespace, Name: p.name}}
	if err := p.r.o.Client.Delete(ctx, obj, client.GracePeriodSeconds(0)); err != nil && !apierrors.IsNotFound(err) {
		p.logf("deleting the Pod object: %v", err)
	}
}
