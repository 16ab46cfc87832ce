package promplan

import (
	"strings"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

func TestDecideSurplusShard(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	retain := func(period string) func(*monitoringv1.Prometheus) {
		return func(p *monitoringv1.Prometheus) {
			p.Spec.ShardRetentionPolicy = &monitoringv1.ShardRetentionPolicy{WhenScaled: ptr.To(monitoringv1.RetainWhenScaledRetentionType)}
			if period != "" {
				p.Spec.ShardRetentionPolicy.Retain = &monitoringv1.RetainConfig{RetentionPeriod: monitoringv1.Duration(period)}
			}
		}
	}
	sts := func(deadline string) *appsv1.StatefulSet {
		s := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: "monitoring", Name: "prometheus-k8s-shard-2"}}
		if deadline != "" {
			s.Annotations = map[string]string{DeletionDeadlineAnnotation: deadline}
		}
		return s
	}
	for _, c := range []struct {
		name string
		p    *monitoringv1.Prometheus
		sts  *appsv1.StatefulSet
		want SurplusShard
	}{
		{"no policy: delete", prom(), sts(""), SurplusShard{Delete: true}},
		{"Delete: delete", prom(func(p *monitoringv1.Prometheus) {
			p.Spec.ShardRetentionPolicy = &monitoringv1.ShardRetentionPolicy{WhenScaled: ptr.To(monitoringv1.DeleteWhenScaledRetentionType)}
		}), sts(""), SurplusShard{Delete: true}},
		{"Delete deletes a shard retained before", prom(func(p *monitoringv1.Prometheus) {
			p.Spec.ShardRetentionPolicy = &monitoringv1.ShardRetentionPolicy{}
		}), sts("2026-03-05T00:00:00Z"), SurplusShard{Delete: true}},
		{"Retain with a period: annotate with now plus the period", prom(retain("48h")), sts(""),
			SurplusShard{Annotate: "2026-03-03T12:00:00Z", RecheckAfter: 48 * time.Hour}},
		{"Retain without a period: spec.retention", prom(retain(""), func(p *monitoringv1.Prometheus) { p.Spec.Retention = "7d" }), sts(""),
			SurplusShard{Annotate: "2026-03-08T12:00:00Z", RecheckAfter: 7 * 24 * time.Hour}},
		{"Retain without any retention: 24h", prom(retain("")), sts(""),
			SurplusShard{Annotate: "2026-03-02T12:00:00Z", RecheckAfter: 24 * time.Hour}},
		{"Retain by size only: never", prom(retain(""), func(p *monitoringv1.Prometheus) { p.Spec.RetentionSize = "10GiB" }), sts(""),
			SurplusShard{Annotate: "0001-01-01T00:00:00Z"}},
		{"Retain by percentage only: never", prom(retain(""), func(p *monitoringv1.Prometheus) { p.Spec.RetentionPercentage = ptr.To(resource.MustParse("80")) }), sts(""),
			SurplusShard{Annotate: "0001-01-01T00:00:00Z"}},
		{"deadline not reached: recheck then", prom(retain("48h")), sts("2026-03-01T13:30:00Z"), SurplusShard{RecheckAfter: 90 * time.Minute}},
		{"deadline passed: delete", prom(retain("48h")), sts("2026-03-01T11:59:59Z"), SurplusShard{Delete: true}},
		{"never: keep", prom(retain("48h")), sts("0001-01-01T00:00:00Z"), SurplusShard{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := DecideSurplusShard(promserver.Of(c.p), c.sts, now)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestShardRetentionErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		mut  func(*monitoringv1.Prometheus)
		sts  string
		want string
	}{
		{"unknown whenScaled", func(p *monitoringv1.Prometheus) {
			p.Spec.ShardRetentionPolicy = &monitoringv1.ShardRetentionPolicy{WhenScaled: ptr.To(monitoringv1.WhenScaledRetentionType("Keep"))}
		}, "", `spec.shardRetentionPolicy.whenScaled "Keep": must be Retain or Delete`},
		{"bad retention period", func(p *monitoringv1.Prometheus) {
			p.Spec.ShardRetentionPolicy = &monitoringv1.ShardRetentionPolicy{WhenScaled: ptr.To(monitoringv1.RetainWhenScaledRetentionType),
				Retain: &monitoringv1.RetainConfig{RetentionPeriod: "a while"}}
		}, "", `spec.shardRetentionPolicy.retain.retentionPeriod "a while"`},
		{"bad annotation", func(p *monitoringv1.Prometheus) {
			p.Spec.ShardRetentionPolicy = &monitoringv1.ShardRetentionPolicy{WhenScaled: ptr.To(monitoringv1.RetainWhenScaledRetentionType)}
		}, "tomorrow", `annotation operator.prometheus.io/deletion-deadline "tomorrow" is not an RFC 3339 time`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "prometheus-k8s-shard-1"}}
			if c.sts != "" {
				s.Annotations = map[string]string{DeletionDeadlineAnnotation: c.sts}
			}
			_, err := DecideSurplusShard(promserver.Of(prom(c.mut)), s, time.Now())
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
			if c.sts == "" {
				if _, err := StatefulSet(Input{Prometheus: promserver.Of(prom(c.mut))}, workload.DefaultOptions(), 0); err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("StatefulSet: error %v, want one containing %q", err, c.want)
				}
			}
		})
	}
	live := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{DeletionDeadlineAnnotation: "0001-01-01T00:00:00Z"}}}
	if !ShardReactivated(live) {
		t.Error("a StatefulSet with a deletion deadline is not reported as reactivated")
	}
	if ShardReactivated(&appsv1.StatefulSet{}) {
		t.Error("a StatefulSet without a deletion deadline is reported as reactivated")
	}
}
