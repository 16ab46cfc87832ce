// Package amcfg generates alertmanager.yaml from an Alertmanager object, the user's base
// configuration (the config Secret, or the AlertmanagerConfig named by
// spec.alertmanagerConfiguration) and the AlertmanagerConfigs selected for it. It is pure:
// Secret and ConfigMap values come through the Assets interface, nothing calls the API
// server.
//
// Every AlertmanagerConfig is first checked on its own (check.go): its references are
// resolved, it is converted (route.go, receiver*.go, http.go, tls.go), gated by the
// Alertmanager version (version.go) and a configuration holding only it is loaded with
// Alertmanager's own loader. One that fails is left out with a Verdict naming the field
// and the reason; the rest is still generated. The assembled file is loaded again before
// it is returned, so the caller never receives a configuration Alertmanager would refuse.
package amcfg
