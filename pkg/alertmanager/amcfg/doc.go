// Package amcfg generates alertmanager.yaml from an Alertmanager object, the user's base
// configuration (the config Secret, or the AlertmanagerConfig named by
// spec.alertmanagerConfiguration with its global section) and the AlertmanagerConfigs
// selected for it. It is pure: Secret and ConfigMap values come through the Assets
// interface, nothing calls the API server, nothing is logged.
//
// Every AlertmanagerConfig is first checked on its own (generate.go, checkPart): its
// references are resolved, it is converted (route.go, matchers.go, inhibit.go,
// timeinterval.go, receiver*.go, http.go, tls.go), gated by the Alertmanager version
// (version.go) and the base with only that object added is loaded with Alertmanager's own
// loader. One that fails is left out with a Verdict naming the field and the reason; the
// rest is still generated. The assembled file (render.go splices pieces marshalled once
// per object) is loaded again before it is returned, so the caller never receives a
// configuration Alertmanager would refuse. Check is the per-object check alone, for the
// admission webhook. A Generator (cache.go) remembers its last run so that one changed
// object re-checks only that object.
package amcfg
