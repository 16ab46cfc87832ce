//lint:file-ignore SA1019 tests set deprecated API fields that Lookout still honours

package promcfg_test

import (
	"reflect"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/test/goldentest"
)

// keyMonitors is a representative set of monitors: between them they read every setting
// a Prometheus can impose on monitors (honor overrides, enforced limits and labels,
// sharding, namespace confinement, file access, scrape classes, version-gated fields).
func keyMonitors() promcfg.Input {
	return promcfg.Input{
		Monitors: monitorkind.Set{ServiceMonitors: []*SM{
			sm("full", func(s *SM) {
				s.Spec.SampleLimit = ptr(int64(5000))
				s.Spec.BodySizeLimit = ptr(monitoringv1.ByteSize("50MB"))
				s.Spec.KeepDroppedTargets = ptr(int64(7))
				s.Spec.NamespaceSelector = monitoringv1.NamespaceSelector{MatchNames: []string{"other"}}
				s.Spec.TargetLabels = []string{"team"}
				s.Spec.ScrapeProtocols = []monitoringv1.ScrapeProtocol{monitoringv1.PrometheusText1_0_0}
			}, ep(func(e *EP) {
				e.HonorLabels = true
				e.HonorTimestamps = ptr(true)
				e.TrackTimestampsStaleness = ptr(true)
				e.BearerTokenFile = "/var/run/secrets/token"
				e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", nil, "", "team.name", "a")}
			})),
			sm("timeout", ep(func(e *EP) { e.ScrapeTimeout = "45s" })),
		}, PodMonitors: []*PM{pm("pods", func(p *PM) { p.Spec.NamespaceSelector = monitoringv1.NamespaceSelector{Any: true} })}, Probes: []*monitoringv1.Probe{probe("static"), probe("ingress", func(p *monitoringv1.Probe) {
			p.Spec.Targets = monitoringv1.ProbeTargets{Ingress: &monitoringv1.ProbeTargetIngress{Selector: metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}}}}
		})}, ScrapeConfigs: []*monitoringv1alpha1.ScrapeConfig{scrapeConfig("sd", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.KubernetesSDConfigs = []monitoringv1alpha1.KubernetesSDConfig{{Role: monitoringv1alpha1.KubernetesRolePod}}
			s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"a:1"}}}
		})}},
		Assets: testAssets(),
	}
}

// samplesByType are valid non-zero values for types whose generic sample ("sample", 2,
// true...) Lookout would refuse, so that every field is tried with a value that renders.
var samplesByType = map[reflect.Type]any{
	reflect.TypeOf(monitoringv1.Duration("")):                        monitoringv1.Duration("1m"),
	reflect.TypeOf(monitoringv1.GoDuration("")):                      monitoringv1.GoDuration("1m"),
	reflect.TypeOf(monitoringv1.ByteSize("")):                        monitoringv1.ByteSize("1MB"),
	reflect.TypeOf(monitoringv1.ServiceDiscoveryRole("")):            monitoringv1.EndpointSliceRole,
	reflect.TypeOf(monitoringv1.NameValidationSchemeOptions("")):     monitoringv1.LegacyNameValidationScheme,
	reflect.TypeOf(monitoringv1.RelabelConfig{}):                     rl("replace", nil, "", "sample", "value"),
	reflect.TypeOf(monitoringv1.ScrapeClass{}):                       sampleScrapeClass(),
	reflect.TypeOf(monitoringv1.ScrapeProtocol("")):                  monitoringv1.PrometheusText0_0_4,
	reflect.TypeOf(monitoringv1.NameEscapingSchemeOptions("")):       monitoringv1.UnderscoresNameEscapingScheme,
	reflect.TypeOf(monitoringv1.ShardingStrategyMode("")):            monitoringv1.ShardingStrategyMode("Address"),
	reflect.TypeOf(monitoringv1.PrometheusRuleExcludeConfig{}):       monitoringv1.PrometheusRuleExcludeConfig{RuleNamespace: "default", RuleName: "x"},
	reflect.TypeOf(monitoringv1.ObjectReference{}):                   monitoringv1.ObjectReference{Resource: monitoringv1.ServiceMonitorName, Namespace: "default", Name: "full"},
	reflect.TypeOf(monitoringv1.ArbitraryFSAccessThroughSMsConfig{}): monitoringv1.ArbitraryFSAccessThroughSMsConfig{Deny: true},
	reflect.TypeOf(monitoringv1.ShardRetentionPolicy{}): monitoringv1.ShardRetentionPolicy{WhenScaled: ptr(monitoringv1.RetainWhenScaledRetentionType),
		Retain: &monitoringv1.RetainConfig{RetentionPeriod: "1d"}},
	reflect.TypeOf(monitoringv1.ShardingStrategy{}): monitoringv1.ShardingStrategy{Mode: ptr(monitoringv1.TopologyShardingStrategyMode),
		Topology: &monitoringv1.TopologyShardingStrategy{Values: []string{"eu-1a"}}},
	reflect.TypeOf(monitoringv1.APIServerConfig{}): monitoringv1.APIServerConfig{Host: "https://kubernetes.example.com",
		Authorization: &monitoringv1.Authorization{SafeAuthorization: monitoringv1.SafeAuthorization{Credentials: ptr(secretKey("auth", "token"))}}},
}

// samplesByField are valid values, different from keyPrometheus's, for string fields
// whose type is too general.
var samplesByField = map[string]string{
	"Version":                "v2.50.0",
	"EnforcedNamespaceLabel": "team_namespace",
}

// keyPrometheus is the Prometheus each field is changed from: namespace enforcement is on,
// so that the exclusions from it matter.
func keyPrometheus() *monitoringv1.Prometheus {
	return prom(func(p *P) { p.Spec.EnforcedNamespaceLabel = "namespace" })
}

func sampleScrapeClass() monitoringv1.ScrapeClass {
	return monitoringv1.ScrapeClass{
		Name:                   "sample",
		Default:                ptr(true),
		Relabelings:            []monitoringv1.RelabelConfig{rl("replace", nil, "", "class", "sample")},
		MetricRelabelings:      []monitoringv1.RelabelConfig{rl("drop", []string{"__name__"}, "sample_.*", "", "")},
		TLSConfig:              &monitoringv1.TLSConfig{TLSFilesConfig: monitoringv1.TLSFilesConfig{CAFile: "/etc/ca.crt"}},
		AttachMetadata:         &monitoringv1.AttachMetadata{Node: ptr(true)},
		FallbackScrapeProtocol: ptr(monitoringv1.PrometheusText0_0_4),
	}
}

// sample returns a non-zero value of type t: a known valid one, or else true, 2, 0.5,
// "sample", one element, or every exported field filled, up to depth levels down.
func sample(t reflect.Type, depth int) reflect.Value {
	if s, ok := samplesByType[t]; ok {
		return reflect.ValueOf(s)
	}
	v := reflect.New(t).Elem()
	if depth <= 0 {
		return v
	}
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(2)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(2)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(0.5)
	case reflect.String:
		v.SetString("sample")
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		p.Elem().Set(sample(t.Elem(), depth-1))
		v.Set(p)
	case reflect.Slice:
		v = reflect.Append(v, sample(t.Elem(), depth-1))
	case reflect.Map:
		v = reflect.MakeMap(t)
		v.SetMapIndex(sample(t.Key(), depth-1), sample(t.Elem(), depth-1))
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if t.Field(i).IsExported() {
				v.Field(i).Set(sample(t.Field(i).Type, depth-1))
			}
		}
	}
	return v
}

// specFields lists the fields of PrometheusSpec, those of embedded structs
// (CommonPrometheusFields) included, by name and index.
func specFields(t reflect.Type, prefix []int) map[string][]int {
	out := map[string][]int{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		idx := append(append([]int(nil), prefix...), i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			for n, sub := range specFields(f.Type, idx) {
				out[n] = sub
			}
			continue
		}
		if f.IsExported() {
			out[f.Name] = idx
		}
	}
	return out
}

// TestSettingsKeyCoversRendering sets each PrometheusSpec field, one at a time, to a
// non-zero value and renders a representative set of monitors: whenever their jobs change,
// the settings key (part of every cached rendering's key) must change too, or the
// generator would keep serving the jobs rendered for the old settings.
func TestSettingsKeyCoversRendering(t *testing.T) {
	in := keyMonitors()
	in.Prometheus = serverOf(keyPrometheus())
	base, baseKey, err := promcfg.RenderMonitorsForTest(in)
	if err != nil {
		t.Fatal(err)
	}
	changed := map[string]bool{}
	fields := specFields(reflect.TypeOf(monitoringv1.PrometheusSpec{}), nil)
	if len(fields) < 100 {
		t.Fatalf("found only %d PrometheusSpec fields", len(fields))
	}
	for name, idx := range fields {
		p := keyPrometheus()
		f := reflect.ValueOf(&p.Spec).Elem().FieldByIndex(idx)
		if s, ok := samplesByField[name]; ok {
			f.SetString(s)
		} else {
			f.Set(sample(f.Type(), 5))
		}
		in.Prometheus = serverOf(p)
		out, key, err := promcfg.RenderMonitorsForTest(in)
		if err != nil {
			t.Errorf("spec.%s: the sample value is refused (%v); give it a valid one in samplesByType or samplesByField", name, err)
			continue
		}
		if out == base {
			continue
		}
		changed[name] = true
		if key == baseKey {
			t.Errorf("spec.%s changes the rendered jobs but not the settings key:\n%s", name, goldentest.FirstDiff(base, out))
		}
	}
	// The sampler must reach the settings monitors do depend on, or the test proves nothing.
	for _, name := range []string{
		"Version", "Shards", "ServiceDiscoveryRole", "ScrapeClasses", "NameValidationScheme", "ScrapeInterval",
		"OverrideHonorLabels", "OverrideHonorTimestamps", "ArbitraryFSAccessThroughSMs", "IgnoreNamespaceSelectors",
		"EnforcedNamespaceLabel", "ExcludedFromEnforcement", "PodTargetLabels", "EnforcedSampleLimit", "EnforcedTargetLimit",
		"EnforcedLabelLimit", "EnforcedLabelNameLengthLimit", "EnforcedLabelValueLengthLimit", "EnforcedKeepDroppedTargets",
		"EnforcedBodySizeLimit", "APIServerConfig", "ShardRetentionPolicy", "ShardingStrategy",
	} {
		if !changed[name] {
			t.Errorf("the sample value of spec.%s changed no rendered job: the sampler or keyMonitors no longer exercise it", name)
		}
	}
}

// TestPromSettingsFieldsHashed: the settings key is the hash of the settings' JSON, which
// leaves out unexported fields and fields tagged "-".
func TestPromSettingsFieldsHashed(t *testing.T) {
	var check func(t *testing.T, typ reflect.Type, path string)
	check = func(t *testing.T, typ reflect.Type, path string) {
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			if !f.IsExported() || strings.HasPrefix(f.Tag.Get("json"), "-") {
				t.Errorf("%s.%s is not part of the JSON the settings key is computed from", path, f.Name)
			}
			if f.Type.Kind() == reflect.Struct && f.Type.PkgPath() == typ.PkgPath() {
				check(t, f.Type, path+"."+f.Name)
			}
		}
	}
	check(t, promcfg.PromSettingsType, "promSettings")
}
