// Package crds loads the monitoring.coreos.com CustomResourceDefinitions embedded in the
// binary and installs or upgrades them with server-side apply (they are too large for the
// last-applied annotation of client-side apply).
package crds
