package monitorcost

import (
	"reflect"
	"testing"
)

func TestTop(t *testing.T) {
	s := NewSnapshot(Limits{})
	add := func(kind, ns, name string, samples int64) {
		s.Monitors[key(kind, ns, name)] = &Cost{Samples: samples, SeriesAdded: samples / 10, MaxTargetSamples: samples, Targets: 1, Scraped: 1}
	}
	add("ServiceMonitor", "a", "big", 123456)
	add("PodMonitor", "b", "mid", 5000)
	add("ServiceMonitor", "a", "mid", 5000)
	add("Probe", "c", "p", 10)
	add("ScrapeConfig", "c", "sc", 4999)
	add("ServiceMonitor", "d", "small", 1)
	add("ServiceMonitor", "d", "zero", 0)
	top := s.Top(3)
	var names []string
	for _, e := range top {
		names = append(names, e.Kind+" "+e.Namespace+"/"+e.Name)
	}
	if want := []string{"ServiceMonitor a/big", "PodMonitor b/mid", "ServiceMonitor a/mid"}; !reflect.DeepEqual(names, want) {
		t.Errorf("top 3: %v, want %v", names, want)
	}
	if len(s.Top(0)) != 7 {
		t.Errorf("Top(0) returned %d", len(s.Top(0)))
	}
	ns := s.Namespaces()
	if len(ns) != 4 || ns[0].Namespace != "a" || ns[0].Samples != 128456 || ns[0].Targets != 2 || ns[1].Namespace != "c" || ns[1].Samples != 5009 || ns[2].Namespace != "b" {
		t.Errorf("namespaces %+v", ns)
	}
	// Rounded: 4,999 and 5,000 are equal (5,000), then ordered by kind and name.
	want := "140,000 samples, 14,000 series added per scrape from 7 monitors; most samples: ServiceMonitor a/big 120,000, PodMonitor b/mid 5,000, ScrapeConfig c/sc 5,000, ServiceMonitor a/mid 5,000, Probe c/p 10"
	if got := s.TopMessage(); got != want {
		t.Errorf("TopMessage:\n%s\nwant\n%s", got, want)
	}
	// A scrape-to-scrape wobble does not change the message.
	s.Monitors[key("ServiceMonitor", "a", "big")].Samples = 123999
	if got := s.TopMessage(); got != want {
		t.Errorf("after a wobble:\n%s", got)
	}
	if got := NewSnapshot(Limits{}).TopMessage(); got != "no monitor has active targets" {
		t.Errorf("empty: %q", got)
	}
}
