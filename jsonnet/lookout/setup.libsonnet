// setup.libsonnet: what has to exist before the rest: the namespace and the CRDs.
local crds = import 'crds.libsonnet';
local k = import 'k.libsonnet';

{
  setup: {
    namespace: k.object('v1', 'Namespace', $.values.common.namespace, null, $.values.common.labels),
  } + {
    ['crd-' + name]: crds[name]
    for name in std.objectFields(crds)
  },
}
