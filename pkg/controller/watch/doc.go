// Package watch holds the event handlers the controllers share.
package watch
