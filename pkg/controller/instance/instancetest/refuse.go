package instancetest

import (
	"context"
	"errors"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// RefuseTLSAssets makes every write of a tls-assets Secret fail, as the API server
// refused a key too long (issue 32, item 3), for fake clients
// (fake.ClientBuilder.WithInterceptorFuncs).
var RefuseTLSAssets = interceptor.Funcs{
	Create: func(ctx context.Context, c client.WithWatch, o client.Object, opts ...client.CreateOption) error {
		if isTLSAssets(o) {
			return errRefused
		}
		return c.Create(ctx, o, opts...)
	},
	Update: func(ctx context.Context, c client.WithWatch, o client.Object, opts ...client.UpdateOption) error {
		if isTLSAssets(o) {
			return errRefused
		}
		return c.Update(ctx, o, opts...)
	},
	Patch: func(ctx context.Context, c client.WithWatch, o client.Object, p client.Patch, opts ...client.PatchOption) error {
		if isTLSAssets(o) {
			return errRefused
		}
		return c.Patch(ctx, o, p, opts...)
	},
}

var errRefused = errors.New("refused by the test: tls-assets Secret")

func isTLSAssets(o client.Object) bool { return strings.Contains(o.GetName(), "-tls-assets-") }
