// Package parallel runs independent pieces of work on every core: the configuration
// parts and gzip members a large change compresses, each on its own.
package parallel
