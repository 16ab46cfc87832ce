package amcfg

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"github.com/prometheus/alertmanager/config"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Generator remembers its last run: which configurations Alertmanager's loader accepted
// or refused, keyed by a hash of the exact bytes (resolved Secret values included), and
// each object's conversion, reused only when its spec, the Alertmanager's settings, the
// base and every Secret/ConfigMap value it read are unchanged. So a change to one object
// re-checks only that object. Safe for concurrent use; one per Alertmanager.
type Generator struct {
	mu        sync.Mutex
	prev, cur map[[sha256.Size]byte]string // "" = loaded fine, else the error
	// prevParts and curParts remember converted objects.
	prevParts, curParts map[types.NamespacedName]*partEntry
}

// NewGenerator returns a Generator with an empty cache.
func NewGenerator() *Generator {
	g := &Generator{}
	g.rotate()
	g.rotate()
	return g
}

func loadConfig(b []byte) error {
	_, err := config.Load(string(b))
	return err
}

// load is loadConfig through the cache.
func (g *Generator) load(b []byte) error {
	k := sha256.Sum256(b)
	msg, ok := g.cur[k]
	if !ok {
		msg, ok = g.prev[k]
	}
	if !ok {
		if err := loadConfig(b); err != nil {
			msg = err.Error()
		}
	}
	g.cur[k] = msg
	if msg != "" {
		return errors.New(msg)
	}
	return nil
}

// rotate keeps only what the run just finished used, so the cache does not grow.
func (g *Generator) rotate() {
	g.prev, g.cur = g.cur, make(map[[sha256.Size]byte]string, len(g.cur))
	g.prevParts, g.curParts = g.curParts, make(map[types.NamespacedName]*partEntry, len(g.curParts))
}

// partEntry is a converted object remembered by a Generator: reused when the object's
// spec, the options, the base and every Secret/ConfigMap value it read are unchanged.
type partEntry struct {
	fingerprint [sha256.Size]byte
	refs        []assetRead
	part        *part
	prob        *problem
}

// assetRead is one Assets lookup and its answer.
type assetRead struct {
	configMap       bool
	ns, name, key   string
	value, errorMsg string
}

// recorder is an Assets that remembers what was read.
type recorder struct {
	a     Assets
	reads []assetRead
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func (r *recorder) Secret(ns string, sel corev1.SecretKeySelector) (string, error) {
	v, err := r.a.Secret(ns, sel)
	r.reads = append(r.reads, assetRead{ns: ns, name: sel.Name, key: sel.Key, value: v, errorMsg: errString(err)})
	return v, err
}

func (r *recorder) ConfigMap(ns string, sel corev1.ConfigMapKeySelector) (string, error) {
	v, err := r.a.ConfigMap(ns, sel)
	r.reads = append(r.reads, assetRead{configMap: true, ns: ns, name: sel.Name, key: sel.Key, value: v, errorMsg: errString(err)})
	return v, err
}

// unchanged reads every remembered reference again and compares the answers.
func unchanged(a Assets, reads []assetRead) bool {
	for _, r := range reads {
		var v string
		var err error
		if r.configMap {
			v, err = a.ConfigMap(r.ns, corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: r.name}, Key: r.key})
		} else {
			v, err = a.Secret(r.ns, corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: r.name}, Key: r.key})
		}
		if v != r.value || errString(err) != r.errorMsg {
			return false
		}
	}
	return true
}

// fingerprint identifies an object's spec with the options and base it is checked with.
func fingerprint(amc *monitoringv1alpha1.AlertmanagerConfig, o options, baseSum [sha256.Size]byte) ([sha256.Size]byte, error) {
	spec, err := json.Marshal(amc.Spec)
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00", amc.Namespace, amc.Name, o.version, o.strategy, o.namespace, o.fsMode)
	h.Write(baseSum[:])
	h.Write(spec)
	var sum [sha256.Size]byte
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// checkCached is checkPart through the Generator's object cache.
func (g *Generator) checkCached(amc *monitoringv1alpha1.AlertmanagerConfig, o options, assets Assets, b *base, baseSum [sha256.Size]byte) (*part, *problem) {
	key := types.NamespacedName{Namespace: amc.Namespace, Name: amc.Name}
	fp, err := fingerprint(amc, o, baseSum)
	if err != nil || assets == nil {
		return checkPart(amc, o, assets, b, g.load)
	}
	if e, ok := g.prevParts[key]; ok && e.fingerprint == fp && unchanged(assets, e.refs) {
		g.curParts[key] = e
		return e.part, e.prob
	}
	rec := &recorder{a: assets}
	pt, p := checkPart(amc, o, rec, b, g.load)
	g.curParts[key] = &partEntry{fingerprint: fp, refs: rec.reads, part: pt, prob: p}
	return pt, p
}
