// Package faults injects faults into a running Lookout and measures how it recovers: a
// real kube-apiserver and etcd (envtest, test/testenv), the real lookout-operator binary
// as child processes (built from this checkout, or $LOOKOUT_FAULTS_OPERATOR), and the
// test playing the fault: SIGKILL of the leader or of an operator between two writes, an
// API server and etcd restart, edits of generated objects, an oversized configuration, an
// admission webhook that is down. Faults that need a running Prometheus live in the
// end-to-end suite (test/e2e). Documentation/reliability.md lists every fault and the
// figures these tests log.
package faults
