package lint

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/clusterread"
	"github.com/lookout-operator/lookout/pkg/costtop"
	"github.com/lookout-operator/lookout/pkg/manifest"
)

// Live is lint's live mode: what it read from a cluster.
type Live struct {
	// Cluster are the cluster's objects (clusterread.Read); the documents linted replace
	// those of the same kind, namespace and name.
	Cluster []manifest.Object
	// Notes are what could not be read.
	Notes []string
	// Measure measures what the targets of each Prometheus expose now (costtop.Measure).
	// It is called once, and only when monitor-sample-limit-exceeded runs; nil: nothing
	// is measured.
	Measure func() (*costtop.Report, error)
}

// ReadLive reads, read-only, what live mode lints from the cluster c reads: the
// monitoring.coreos.com objects, Namespaces, Services, Endpoints, EndpointSlices, Pods
// and the Secrets and ConfigMaps the objects name; Measure asks each Prometheus's pods
// through get (costtop.ProxyGetter: the API server's pod proxy). c must know the
// monitoring.coreos.com/v1 types (costtop.Scheme).
func ReadLive(ctx context.Context, c client.Reader, get costtop.Getter) (*Live, error) {
	res, err := clusterread.Read(ctx, c, clusterread.Options{Workloads: true, Assets: clusterread.ReferencedAssets})
	if err != nil {
		return nil, err
	}
	return &Live{Cluster: res.Docs, Notes: res.Notes, Measure: func() (*costtop.Report, error) {
		return costtop.Measure(ctx, c, get, costtop.Options{})
	}}, nil
}

// goLive records in the inputs which objects are in the cluster and, when the sample
// limit check runs, the measurement; Prometheuses that could not be measured are notes.
func (in *Inputs) goLive(l *Live, checks []*Check, res *Result) error {
	in.live = true
	in.inCluster = map[string]bool{}
	for _, d := range l.Cluster {
		in.inCluster[key(d.GetKind(), d.GetNamespace(), d.GetName())] = true
	}
	if l.Measure == nil {
		return nil
	}
	for _, c := range checks {
		if c.Name != sampleLimitCheck {
			continue
		}
		rep, err := l.Measure()
		if err != nil {
			return err
		}
		in.measured = rep
		for _, p := range rep.Prometheuses {
			if p.Error != "" {
				res.Notes = append(res.Notes, "Prometheus "+p.Namespace+"/"+p.Name+" not measured ("+p.Error+"): "+sampleLimitCheck+" did not judge its monitors")
			}
		}
	}
	return nil
}
