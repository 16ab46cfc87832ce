module github.com/lookout-operator/lookout/test/tools/alertmanager

go 1.26.0

// hack/build-tool.sh builds Alertmanager from a copy of this exact module version.
require github.com/prometheus/alertmanager v0.35.0
