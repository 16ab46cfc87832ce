// Package apiwatch mirrors named Secrets and ConfigMaps from the Kubernetes API into
// directories, kubelet-style (see package atomicdir), so the reloader's file pipeline
// sees a change within moments of the API write instead of after the kubelet's next
// volume sync. Each object is watched alone (one namespace, field selector on its name),
// which lets RBAC limit the sidecar to those resource names. It only reads the API.
package apiwatch
