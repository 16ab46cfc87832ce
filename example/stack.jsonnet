// The example stack: every object of jsonnet/lookout with its default values, one file per
// object. example/stack/ holds it rendered; regenerate it with
//   go run ./test/jsonnet/cmd/render-stack
// and install it with
//   kubectl apply --server-side -f example/stack/setup
//   kubectl apply --server-side -f example/stack
local lookout = (import 'lookout/main.libsonnet') + {
  values+:: {
    common+: { namespace: 'lookout' },
  },
};

{ ['setup/' + name]: lookout.setup[name] for name in std.objectFields(lookout.setup) } +
{
  [lookout.components[component] + '-' + name]: lookout[component][name]
  for component in std.objectFields(lookout.components)
  for name in std.objectFields(lookout[component])
}
