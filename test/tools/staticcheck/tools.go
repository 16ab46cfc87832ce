//go:build tools

// Package tools pins staticcheck, the linter `make check` runs next to gofmt and go vet.
package tools

import _ "honnef.co/go/tools/cmd/staticcheck"
