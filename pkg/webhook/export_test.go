package webhook

// SameJSON is sameJSON for the external tests (envtest_test.go).
var SameJSON = sameJSON
