// Package periodic runs a function at a fixed interval until its context ends: the
// target-health poller and the reload of the web server's client CA.
package periodic
