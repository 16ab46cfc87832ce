#!/usr/bin/env bash
# build-tool.sh NAME — builds one test tool into bin/ from its pinned module under
# test/tools/, once. The build is skipped when bin/NAME exists and was built from the
# same go.mod, go.sum, flags and Go version (bin/.NAME.stamp records that).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
name=$1
mkdir -p bin
ldflags="-s"
tags=""

case "$name" in
  kube-apiserver) dir=test/tools/kube; pkg=k8s.io/kubernetes/cmd/kube-apiserver
                  v=$(awk '$1=="require" && $2=="k8s.io/kubernetes" {print $3}' "$dir/go.mod")
                  minor=$(echo "$v" | cut -d. -f2)
                  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
                    ldflags+=" -X $p.gitVersion=$v -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean"
                  done ;;
  etcd)           dir=test/tools/etcd; pkg=. ;;
  controller-gen) dir=test/tools/controller-gen; pkg=sigs.k8s.io/controller-tools/cmd/controller-gen ;;
  staticcheck)    dir=test/tools/staticcheck; pkg=honnef.co/go/tools/cmd/staticcheck ;;
  # The packaging tools: the chart and kustomize tests (test/packaging) run them.
  kustomize)      dir=test/tools/kustomize; pkg=sigs.k8s.io/kustomize/kustomize/v5 ;;
  helm)           dir=test/tools/helm; pkg=helm.sh/helm/v3/cmd/helm
                  v=$(awk '$1=="require" && $2=="helm.sh/helm/v3" {print $3}' "$dir/go.mod")
                  ldflags+=" -X helm.sh/helm/v3/internal/version.version=$v"
                  # The Kubernetes version helm template and lint assume, from client-go
                  # (v0.37.x is 1.37), as helm's own Makefile sets it.
                  kminor=$(awk '$1=="k8s.io/client-go" {print $2}' "$dir/go.mod" | cut -d. -f2)
                  for p in helm.sh/helm/v3/pkg/chartutil helm.sh/helm/v3/pkg/lint/rules; do
                    ldflags+=" -X $p.k8sVersionMajor=1 -X $p.k8sVersionMinor=$kminor"
                  done ;;
  # prometheus-operator itself, for the take-over and roll-back tests.
  prometheus-operator)
                  dir=test/tools/prometheus-operator; pkg=github.com/prometheus-operator/prometheus-operator/cmd/operator
                  v=$(awk '$1=="require" && $2=="github.com/prometheus-operator/prometheus-operator" {print $3}' "$dir/go.mod")
                  ldflags+=" -X github.com/prometheus/common/version.Version=${v#v}" ;;
  # Only the Kubernetes service discovery: the cloud SDKs would double the build time.
  prometheus|promtool)
                  dir=test/tools/prometheus; pkg=github.com/prometheus/prometheus/cmd/$name; tags=remove_all_sd,enable_kubernetes_sd
                  v=$(awk '$1=="require" && $2=="github.com/prometheus/prometheus" {print $3}' "$dir/go.mod")
                  # Module v0.316.0 is Prometheus 3.16.0.
                  v=$(echo "$v" | sed -E 's/^v0\.3([0-9][0-9])\.([0-9]+)$/3.\1.\2/; s/^v0\.3([0-9])\.([0-9]+)$/3.0\1.\2/')
                  ldflags+=" -X github.com/prometheus/common/version.Version=$v" ;;
  alertmanager)   dir=test/tools/alertmanager; pkg=./cmd/alertmanager
                  v=$(awk '$1=="require" && $2=="github.com/prometheus/alertmanager" {print $3}' "$dir/go.mod")
                  ldflags+=" -X github.com/prometheus/common/version.Version=${v#v}" ;;
  # Upstream's sidecar: the compatibility tests run it with the arguments Lookout generates.
  prometheus-config-reloader)
                  dir=test/tools/prometheus-config-reloader; pkg=github.com/prometheus-operator/prometheus-operator/cmd/$name
                  v=$(awk '$1=="require" && $2=="github.com/prometheus-operator/prometheus-operator" {print $3}' "$dir/go.mod")
                  ldflags+=" -X github.com/prometheus/common/version.Version=${v#v}" ;;
  # Thanos, for the sidecar Lookout generates: the end-to-end suite runs the real sidecar
  # and a real `thanos query` against it. Tags as in Thanos's own release build.
  thanos)         dir=test/tools/thanos; pkg=github.com/thanos-io/thanos/cmd/thanos; tags=netgo,slicelabels
                  v=$(awk '$1=="require" && $2=="github.com/thanos-io/thanos" {print $3}' "$dir/go.mod")
                  ldflags+=" -X github.com/prometheus/common/version.Version=${v#v}" ;;
  # Not a binary: the community kube-prometheus-stack chart, for the chart compatibility
  # test (test/chartcompare), copied from its Go module into bin/charts/ below.
  kube-prometheus-stack) dir=test/tools/kube-prometheus-stack; pkg=charts ;;
  *) echo "build-tool.sh: unknown tool $name" >&2; exit 2 ;;
esac

if [[ "$name" == kube-prometheus-stack ]]; then
  # The prometheus-community/helm-charts module holds the chart and the two subcharts it
  # takes from the same repository (kube-state-metrics, prometheus-node-exporter); grafana
  # and prometheus-windows-exporter are dropped from the copy's dependencies (the test
  # disables them), so helm template needs nothing from a chart repository.
  stamp="bin/.$name.stamp"
  want=$( (cat "$dir/go.mod" "$dir/go.sum"; echo "$pkg v1") | sha256sum | cut -d' ' -f1)
  out=bin/charts/kube-prometheus-stack
  if [[ -f "$out/Chart.yaml" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    exit 0
  fi
  version=$(awk '$1=="require" && $2=="github.com/prometheus-community/helm-charts" {print $3}' "$dir/go.mod")
  src=$(cd "$dir" && go mod download -json "github.com/prometheus-community/helm-charts@$version" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
  [[ -d "$src/charts/kube-prometheus-stack" ]] || { echo "build-tool.sh: no kube-prometheus-stack chart in $src" >&2; exit 1; }
  rm -rf "$out"; mkdir -p bin/charts
  cp -r "$src/charts/kube-prometheus-stack" "$out"
  cp -r "$src/charts/kube-state-metrics" "$src/charts/prometheus-node-exporter" "$out/charts/"
  chmod -R u+w "$out"
  # Drop the dependency entries (from "  - name: X" to the next entry or key) of the two
  # charts from other repositories.
  awk '/^  - name: / { skip = ($3 == "grafana" || $3 == "prometheus-windows-exporter") }
       /^[^ ]/ { skip = 0 }
       !skip' "$src/charts/kube-prometheus-stack/Chart.yaml" > "$out/Chart.yaml"
  echo "$want" > "$stamp"
  echo ">> copied the kube-prometheus-stack chart ($version) into $out" >&2
  exit 0
fi

stamp="bin/.$name.stamp"
want=$( (cat "$dir/go.mod" "$dir/go.sum" 2>/dev/null; echo "$pkg $tags $ldflags"; go env GOVERSION) | sha256sum | cut -d' ' -f1)
if [[ -x "bin/$name" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  exit 0
fi

echo ">> building $name (the first build takes minutes; it is cached in bin/)" >&2
start=$(date +%s)
flags=(-trimpath "-ldflags=$ldflags")
[[ -n "$tags" ]] && flags+=("-tags=$tags")
if [[ "$name" == alertmanager ]]; then
  # Alertmanager's module zip lacks the UI bundle that ui/web.go embeds, so build from a
  # copy of the module with a placeholder ui/app/dist. The API does not need the UI.
  version=$(awk '$1=="require" && $2=="github.com/prometheus/alertmanager" {print $3}' "$dir/go.mod")
  src=$(cd "$dir" && go mod download -json "github.com/prometheus/alertmanager@$version" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
  work="$root/bin/.src/alertmanager-$version"
  rm -rf "$work"; mkdir -p "$(dirname "$work")"
  cp -r "$src" "$work"; chmod -R u+w "$work"
  mkdir -p "$work/ui/app/dist"
  echo '<!doctype html><title>Alertmanager</title><p>The UI is not built into this binary.</p>' > "$work/ui/app/dist/index.html"
  (cd "$work" && go build "${flags[@]}" -o "$root/bin/alertmanager" "$pkg")
  rm -rf "$work"
else
  (cd "$dir" && go build "${flags[@]}" -o "$root/bin/$name" "$pkg")
fi
echo "$want" > "$stamp"
echo ">> built $name in $(( $(date +%s) - start ))s" >&2
