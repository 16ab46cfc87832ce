package workload

// ProbeTimeoutSeconds is the timeout of every probe the operator generates.
const ProbeTimeoutSeconds = 3
