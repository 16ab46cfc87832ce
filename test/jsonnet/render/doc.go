// Package render evaluates the project's jsonnet (jsonnet/ and example/stack.jsonnet)
// with go-jsonnet and turns the example stack into the YAML files of example/stack/. The
// render-stack command and the tests under test/jsonnet share it, so the files on disk and
// the ones the tests expect are produced the same way.
package render
