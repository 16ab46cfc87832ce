package main

import (
	"context"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/clusterread"
	"github.com/lookout-operator/lookout/pkg/render"
)

// liveClient is a read-only client of the cluster of cfg, with cfg's credentials.
func liveClient(cfg *rest.Config) (client.Reader, error) {
	return client.New(cfg, client.Options{})
}

// loadLive reads the objects render works from out of the cluster c reads
// (pkg/clusterread, with lists only: every Secret and ConfigMap of the namespaces the
// objects live in).
func loadLive(ctx context.Context, c client.Reader) (*render.Objects, error) {
	res, err := clusterread.Read(ctx, c, clusterread.Options{Assets: clusterread.ListAssets})
	if err != nil {
		return nil, err
	}
	return render.FromDocuments("default", res.Docs)
}
