// Package reloader keeps a Prometheus process in step with its mounted configuration: it
// watches the config file's directory and the rule directories (fsnotify, which sees the
// kubelet's "..data" symlink swap, plus a periodic full check), renders the config
// (gunzip, $(VAR) expansion, atomic write), and asks Prometheus to reload only when the
// content hash changed, taking Prometheus's answer (or, for a signal, its runtimeinfo) as
// the confirmation, awaiting a slow load rather than requesting another, and retrying
// with backoff until a reload succeeds. At start it takes Prometheus's own first load
// when that load read the current content. It never writes to the Kubernetes API.
package reloader
