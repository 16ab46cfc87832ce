package main

import "testing"

func TestLocalClientSkipsVerificationOnlyOnLoopback(t *testing.T) {
	for url, insecure := range map[string]bool{
		"https://localhost:9090/-/reload":      true,
		"https://127.0.0.1:9090/-/reload":      true,
		"https://[::1]:9090/-/reload":          true,
		"http://127.0.0.1:9090/-/reload":       false,
		"https://prometheus.svc:9090/-/reload": false,
		"https://10.0.0.1:9090/-/reload":       false,
	} {
		c := localClient(url)
		if (c != nil) != insecure {
			t.Errorf("%s: custom client %v, want %v", url, c != nil, insecure)
		}
	}
}
