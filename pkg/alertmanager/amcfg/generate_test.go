package amcfg_test

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"github.com/prometheus/alertmanager/config"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
	"github.com/lookout-operator/lookout/test/goldentest"
)

func TestInvalidBaseIsAnError(t *testing.T) {
	for name, c := range map[string]tcase{
		"base does not parse":          {base: "route: ["},
		"base refers to no receiver":   {base: "route:\n  receiver: nope\nreceivers:\n- name: x\n"},
		"global without route":         {global: amc("monitoring", "g", "  receivers:\n  - name: r")},
		"global with unknown receiver": {global: amc("monitoring", "g", "  route:\n    receiver: nope\n  receivers:\n  - name: r")},
		"global with root matchers":    {global: amc("monitoring", "g", "  route:\n    receiver: r\n    matchers: [{name: a, value: b}]\n  receivers:\n  - name: r")},
		"global missing secret":        {global: amc("monitoring", "g", "  route:\n    receiver: r\n  receivers:\n  - name: r\n    slackConfigs:\n    - apiURL: {name: nope, key: x}")},
		"global jira too old": {version: "v0.27.0", amConfiguration: "name: g\nglobal:\n  jira: {apiURL: \"https://jira.example.com\"}",
			global: amc("monitoring", "g", "  route:\n    receiver: r\n  receivers:\n  - name: r")},
		"bad version": {version: "banana"},
	} {
		t.Run(name, func(t *testing.T) {
			c.configs = []string{good}
			if _, err := amcfg.Generate(c.input(t)); err == nil {
				t.Fatal("Generate accepted an invalid base")
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	var objs []string
	for i := 0; i < 30; i++ {
		objs = append(objs, amc(fmt.Sprintf("ns%d", i%4), fmt.Sprintf("o%d", i), "  route:\n    receiver: r\n  receivers:\n  - name: r\n    webhookConfigs:\n    - url: https://example.com/x"))
	}
	first, err := amcfg.Generate(tcase{configs: objs}.input(t))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 5; i++ {
		r.Shuffle(len(objs), func(a, b int) { objs[a], objs[b] = objs[b], objs[a] })
		res, err := amcfg.Generate(tcase{configs: objs}.input(t))
		if err != nil {
			t.Fatal(err)
		}
		if string(res.Config) != string(first.Config) {
			t.Fatalf("output depends on input order:\n%s", goldentest.FirstDiff(string(first.Config), string(res.Config)))
		}
	}
}

func TestSecretsOnlyInConfig(t *testing.T) {
	// Verdict messages must not carry Secret values.
	assets := mergedAssets(amcfgAssets{"secret/ns1/s/leak": "http://sec ret\x7f/"})
	res, err := amcfg.Generate(tcase{assets: assets, configs: []string{
		badRecv("slackConfigs", "    - apiURL: {name: s, key: bad-url}"),
		amc("ns1", "leak", "  receivers:\n  - name: r\n    slackConfigs:\n    - apiURL: {name: s, key: leak}"),
	}}.input(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range res.Verdicts {
		if v.Accepted {
			t.Errorf("accepted a bad URL")
		}
		if strings.Contains(v.Message, "not a url") || strings.Contains(v.Message, "sec ret") {
			t.Errorf("the verdict leaks the Secret value: %s", v.Message)
		}
	}
}

// unavailable answers every lookup with ErrUnavailable, like a webhook without RBAC.
type unavailable struct{}

func (unavailable) Secret(string, corev1.SecretKeySelector) (string, error) {
	return "", fmt.Errorf("forbidden: %w", amcfg.ErrUnavailable)
}
func (unavailable) ConfigMap(string, corev1.ConfigMapKeySelector) (string, error) {
	return "", fmt.Errorf("forbidden: %w", amcfg.ErrUnavailable)
}

func TestCheck(t *testing.T) {
	ok := mustAMC(t, recv("slackConfigs", "    - apiURL: {name: s, key: url}"))
	if v := amcfg.Check(nil, ok, unavailable{}); !v.Accepted {
		t.Errorf("unavailable Secrets made Check reject: %#v", v)
	}
	if v := amcfg.Check(nil, ok, nil); !v.Accepted {
		t.Errorf("nil Assets made Check reject: %#v", v)
	}
	if v := amcfg.Check(nil, ok, amcfg.MapAssets{}); v.Accepted || v.Reason != amcfg.ReasonNotFound {
		t.Errorf("a missing Secret was not reported: %#v", v)
	}
	broken := mustAMC(t, bad("  route:\n    receiver: nope\n  receivers:\n  - name: r"))
	v := amcfg.Check(nil, broken, unavailable{})
	want := amcfg.Verdict{Reason: amcfg.ReasonInvalid, Field: "spec.route.receiver", Message: `receiver "nope" not found in spec.receivers`}
	if v != want {
		t.Errorf("got %#v, want %#v", v, want)
	}
}

func TestUnavailableInGenerateRejects(t *testing.T) {
	in := tcase{configs: []string{recv("slackConfigs", "    - apiURL: {name: s, key: url}")}}.input(t)
	in.Assets = unavailable{}
	res, err := amcfg.Generate(in)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Verdicts[types.NamespacedName{Namespace: "ns1", Name: "team"}]
	if v.Accepted || !strings.Contains(v.Message, "forbidden") {
		t.Errorf("got %#v", v)
	}
}

func TestMapAssetsErrors(t *testing.T) {
	_, err := amcfg.MapAssets{}.Secret("a", corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "b"}, Key: "c"})
	if !errors.Is(err, amcfg.ErrNotFound) {
		t.Errorf("got %v", err)
	}
	_, err = amcfg.MapAssets{}.ConfigMap("a", corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "b"}, Key: "c"})
	if !errors.Is(err, amcfg.ErrNotFound) {
		t.Errorf("got %v", err)
	}
}

func TestDuplicateAndNilInputs(t *testing.T) {
	in := tcase{configs: []string{good, good}}.input(t)
	in.Configs = append(in.Configs, (*monitoringv1alpha1.AlertmanagerConfig)(nil))
	res, err := amcfg.Generate(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Verdicts) != 1 || strings.Count(string(res.Config), "name: ns2/good/r") != 1 {
		t.Errorf("duplicates not collapsed: %v\n%s", res.Verdicts, res.Config)
	}
}

// Two objects that load on their own but not together (here through a name clash only
// possible with an object name no API server would store): one is left out with a
// verdict, the file still loads and the other objects stay.
func TestCombinedFailureLeavesOneOut(t *testing.T) {
	in := tcase{configs: []string{
		amc("ns1", "x", "  route:\n    receiver: y/z\n  receivers:\n  - name: y/z"),
		good,
	}}.input(t)
	clash := mustAMC(t, amc("ns1", "x", "  route:\n    receiver: z\n  receivers:\n  - name: z"))
	clash.Name = "x/y"
	in.Configs = append(in.Configs, clash)
	res, err := amcfg.Generate(in)
	if err != nil {
		t.Fatal(err)
	}
	rejected := 0
	for k, v := range res.Verdicts {
		if !v.Accepted {
			rejected++
			if !strings.HasPrefix(v.Message, "left out: the combined configuration does not load: ") || !strings.Contains(v.Message, "ns1/x/y/z") {
				t.Errorf("%s: %+v", k, v)
			}
		}
	}
	if rejected != 1 || !res.Verdicts[types.NamespacedName{Namespace: "ns2", Name: "good"}].Accepted {
		t.Fatalf("verdicts %+v", res.Verdicts)
	}
	if _, err := config.Load(string(res.Config)); err != nil {
		t.Fatal(err)
	}
}
