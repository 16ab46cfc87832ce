// Package reloader keeps a Prometheus process in step with its mounted configuration: it
// watches the config file's directory and the rule directories (fsnotify, which sees the
// kubelet's "..data" symlink swap, plus a periodic full check), renders the config
// (gunzip, $(VAR) expansion, atomic write), and asks Prometheus to reload only when the
// content hash changed, confirming every reload through the runtimeinfo endpoint and
// retrying with backoff until a reload succeeds. It never writes to the Kubernetes API.
package reloader
