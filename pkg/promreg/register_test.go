package promreg

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

func TestRegister(t *testing.T) {
	a := prometheus.NewCounter(prometheus.CounterOpts{Name: "a_total", Help: "a"})
	b := prometheus.NewCounter(prometheus.CounterOpts{Name: "b_total", Help: "b"})
	if err := Register(nil, "nothing", a, b); err != nil {
		t.Fatalf("nil registerer: %v", err)
	}
	reg := prometheus.NewRegistry()
	if err := Register(reg, "test metrics", a, b); err != nil {
		t.Fatal(err)
	}
	err := Register(reg, "test metrics", a)
	if err == nil || !strings.HasPrefix(err.Error(), "registering test metrics: ") {
		t.Fatalf("registering twice: %v, want an error naming the metrics", err)
	}
	if _, dup := err.(interface{ Unwrap() error }); !dup {
		t.Errorf("the registry's error is not wrapped: %v", err)
	}
}

func TestRegistered(t *testing.T) {
	type metrics struct{ c *prometheus.CounterVec }
	m := &metrics{CounterVec("c_total", "c", "kind")}
	reg := prometheus.NewRegistry()
	if got, err := Registered(m, reg, "test metrics", m.c); err != nil || got != m {
		t.Fatalf("Registered = %v, %v; want the metrics", got, err)
	}
	if got, err := Registered(m, reg, "test metrics", m.c); err == nil || got != nil {
		t.Fatalf("registering twice = %v, %v; want nil and an error", got, err)
	}
}
