# Lookout — the two commands that matter:
#   make run    build everything and run the operator (on a local control plane unless
#               KUBECONFIG is set)
#   make test   unit and integration tests against a real kube-apiserver and etcd
SHELL := /usr/bin/env bash
GO ?= go
BIN := $(CURDIR)/bin
# The release version without "v": the tag on HEAD (v0.1.0 gives 0.1.0), or what git
# describe says after the last tag (0.1.0-3-gabc1234, not a release: the default reloader
# image is then :latest), or "dev" before the first tag. COMMIT and DATE are stamped too.
VERSION ?= $(shell v=$$(git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null) && echo $${v#v} || echo dev)
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
DATE ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
VERSION_PKG := github.com/lookout-operator/lookout/pkg/buildinfo
LDFLAGS := -s -w -X $(VERSION_PKG).Version=$(VERSION) -X $(VERSION_PKG).Commit=$(COMMIT) -X $(VERSION_PKG).Date=$(DATE)
TOOLS := kube-apiserver etcd controller-gen prometheus promtool alertmanager prometheus-operator prometheus-config-reloader staticcheck kustomize helm thanos kube-prometheus-stack
export KUBEBUILDER_ASSETS := $(BIN)

.PHONY: all build images image-cli plugin-archives tools run test test-unit test-integration test-e2e bench bench-upstream bench-alertmanager bench-agent bench-status-poll generate crds chart-crds stack fmt vet check clean

all: build

## build: the operator, the config-reloader and the local control plane launcher (built with
## the same settings as the tests, so they share the build cache; the Dockerfile builds the
## static release binaries)
build:
	@mkdir -p $(BIN)
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN)/lookout-operator ./cmd/operator
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN)/config-reloader ./cmd/config-reloader
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN)/lookout-local ./cmd/lookout-local

## images: print the docker buildx commands of both multi-architecture images, stamped
## with VERSION, COMMIT and DATE (docker is not needed for anything else)
IMAGE_REPO ?= ghcr.io/lookout-operator
PLATFORMS ?= linux/amd64,linux/arm64
IMAGE_TAG ?= $(if $(filter dev,$(VERSION)),latest,v$(VERSION))
images:
	@for t in operator:lookout-operator config-reloader:config-reloader; do \
	  echo docker buildx build --platform $(PLATFORMS) --target $${t%%:*} \
	    --build-arg VERSION=$(VERSION) --build-arg COMMIT=$(COMMIT) --build-arg DATE=$(DATE) \
	    -t $(IMAGE_REPO)/$${t#*:}:$(IMAGE_TAG) . ; \
	done

## image-cli: print the docker buildx command of the command-line tools' image (render,
## explain, lint, test, diff; the Dockerfile's cli stage), stamped like the others
image-cli:
	@echo docker buildx build --platform $(PLATFORMS) --target cli \
	    --build-arg VERSION=$(VERSION) --build-arg COMMIT=$(COMMIT) --build-arg DATE=$(DATE) \
	    -t $(IMAGE_REPO)/lookout-cli:$(IMAGE_TAG) .

## plugin-archives: the kubectl plugin's release archives (the static binary as
## kubectl-lookout, one tar.gz per platform of example/krew/lookout.yaml) into
## dist/plugin/, and their sha256 for the krew manifest
PLUGIN_PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64
plugin-archives:
	@mkdir -p $(CURDIR)/dist/plugin
	@set -e; for p in $(PLUGIN_PLATFORMS); do \
	  os=$${p%/*}; arch=$${p#*/}; exe=kubectl-lookout; [ $$os = windows ] && exe=$$exe.exe; \
	  dir=$$(mktemp -d); \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $$dir/$$exe ./cmd/operator; \
	  tar -C $$dir -czf $(CURDIR)/dist/plugin/kubectl-lookout_v$(VERSION)_$${os}_$${arch}.tar.gz $$exe; rm -rf $$dir; \
	done; cd $(CURDIR)/dist/plugin && sha256sum *.tar.gz

## tools: kube-apiserver, etcd, controller-gen, prometheus, promtool, alertmanager,
## prometheus-operator and prometheus-config-reloader (upstream's, for the take-over,
## roll-back and reloader compatibility tests), staticcheck, kustomize and helm (the
## packaging tests), and thanos (the sidecar end-to-end test) into bin/ (once), and the
## community kube-prometheus-stack chart into bin/charts/ (test/chartcompare)
tools: $(addprefix tool-,$(TOOLS))
tool-%:
	@hack/build-tool.sh $*

## run: with KUBECONFIG set, run the operator against that cluster; otherwise start a
## local control plane, install the CRDs, apply example/demo, run the operator on it and
## the pods it generates as local processes (real Prometheus, Alertmanager and
## config-reloader; the demo's sample app is served by lookout-local). ARGS=--no-pods runs no pods; other ARGS
## go to the operator.
run: build
ifdef KUBECONFIG
	$(BIN)/lookout-operator run --install-crds --log-format=logfmt $(ARGS)
else
	@$(MAKE) --no-print-directory tool-kube-apiserver tool-etcd $(if $(filter --no-pods,$(ARGS)),,tool-prometheus tool-alertmanager)
	$(BIN)/lookout-local $(if $(filter --no-pods,$(ARGS)),-no-pods) -- $(BIN)/lookout-operator run --log-format=logfmt --target-health-interval=0 $(filter-out --no-pods,$(ARGS))
endif

## test: unit tests and envtest integration tests (builds the tools on first use)
test: tools
	$(GO) test -count=1 ./...

## test-e2e: the end-to-end suite with real Prometheus, Alertmanager and reloader processes
test-e2e: tools build
	@test "$$(id -u)" = 0 || { echo "test-e2e needs root: the suite runs in its own network and mount namespaces (see Documentation/e2e.md)"; exit 1; }
	$(GO) test -c -tags e2e -o $(BIN)/e2e.test ./test/e2e
	cd test/e2e && $(BIN)/e2e.test -test.v -test.count=1 -test.timeout=20m $(if $(E2E_RUN),-test.run='$(E2E_RUN)')

## bench: benchmarks of the pure packages and the scale harness (ServiceMonitors at 5,000,
## 20,000 and 100,000, each size run by Lookout and then by prometheus-operator on a fresh
## control plane, side by side; then AlertmanagerConfigs: make bench-alertmanager, then the
## status poll: make bench-status-poll). Root runs prometheus-operator in a 12 GiB memory cgroup.
bench: tools build
	$(GO) test -run '^$$' -bench . -benchmem ./pkg/... ./cmd/...
	$(GO) run ./test/bench -n 5000,20000,100000 -changes 30 -burst 20 -idle 30s -complete-timeout 20m -out Documentation/benchmarks.md \
		-operator "bin/lookout-operator run --leader-elect=false --metrics-bind-address=0 --health-probe-bind-address=0 --target-health-interval=0" \
		-compare "$(UPSTREAM_CMD) --web.listen-address=127.0.0.1:18080 --log-level=info" -compare-name "prometheus-operator $(UPSTREAM_VERSION)" \
		-compare-changes 5 -compare-startup-changes 2 -compare-burst 5 $(BENCH_ARGS)
	$(MAKE) bench-alertmanager
	$(MAKE) bench-status-poll

## UPSTREAM_CMD: prometheus-operator, in a memory cgroup of 12 GiB when root can make one
## (cgroup v1 or v2), so that its memory at 100,000 monitors cannot take the machine down.
UPSTREAM_CMD = $(shell hack/capped.sh --print 12G $(BIN)/prometheus-operator)

## bench-upstream: prometheus-operator (bin/prometheus-operator, built by make tools)
## through the same harness, in a section of its own; its changes take seconds, hence fewer
UPSTREAM_VERSION = $(shell awk '$$1=="require" && $$2=="github.com/prometheus-operator/prometheus-operator" {print $$3}' test/tools/prometheus-operator/go.mod)
bench-upstream: tools
	$(GO) run ./test/bench -n 5000,20000 -changes 10 -startup-changes 3 -idle 30s -out Documentation/benchmarks.md \
		-section "prometheus-operator $(UPSTREAM_VERSION)" -append "" \
		-operator "bin/prometheus-operator --web.listen-address=127.0.0.1:18080 --log-level=info" $(BENCH_ARGS)

## bench-alertmanager: the scale harness with N AlertmanagerConfigs selected by one
## Alertmanager (its own section of Documentation/benchmarks.md)
bench-alertmanager: tools build
	$(GO) run ./test/bench -kind=alertmanagerconfigs -n 100,1000 -out Documentation/benchmarks.md \
		-operator "bin/lookout-operator run --leader-elect=false --metrics-bind-address=0 --health-probe-bind-address=0 --target-health-interval=0" $(BENCH_ARGS)

## bench-agent: the scale harness with one PrometheusAgent selecting the ServiceMonitors
bench-agent: tools build
	$(GO) run ./test/bench -kind=agent -n 100,1000,5000 -out Documentation/benchmarks.md \
		-operator "bin/lookout-operator run --leader-elect=false --metrics-bind-address=0 --health-probe-bind-address=0 --target-health-interval=0" $(BENCH_ARGS)

## bench-status-poll: the status poll's cost (issue 35): 5,000 ServiceMonitors and 1,000
## rules behind a fake Prometheus API polled every 10 s; requests, bytes and CPU per poll,
## the conditions written and the idle writes (its own section of Documentation/benchmarks.md)
bench-status-poll: tools build
	$(GO) run ./test/bench -n 5000 -rules 1000 -fake-prometheus-api -health-interval 10s -changes 10 -idle 60s \
		-restart-wait 0 -ceiling 0 -section "status poll" -made-by "\`make bench-status-poll\` runs it" -out Documentation/benchmarks.md \
		-operator "bin/lookout-operator run --leader-elect=false --metrics-bind-address=0 --health-probe-bind-address=0 --target-health-interval=0" $(BENCH_ARGS)

## stack: regenerate example/stack/ from example/stack.jsonnet (jsonnet/lookout and the mixin)
stack:
	$(GO) run ./test/jsonnet/cmd/render-stack

## generate: regenerate the CRDs from the upstream API types, then add Lookout's extensions
## (hack/crdextend: enum values and printer columns upstream's markers do not have) and
## serve AlertmanagerConfig v1alpha1 only, as upstream's default CRDs (hack/crdsplit: v1beta1
## moves into example/webhook/alertmanagerconfig-v1beta1.yaml with the conversion webhook)
generate crds: tool-controller-gen
	rm -f example/crds/*.yaml
	$(BIN)/controller-gen crd:crdVersions=v1 \
		paths=github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/... \
		output:crd:dir=example/crds
	$(GO) run ./hack/crdextend example/crds
	$(GO) run ./hack/crdsplit example/crds example/webhook/alertmanagerconfig-v1beta1.yaml
	@$(MAKE) --no-print-directory chart-crds

## chart-crds: copy example/crds into the Helm chart's crds/ (test/packaging checks they match)
chart-crds:
	rm -f charts/lookout/crds/*.yaml
	cp example/crds/*.yaml charts/lookout/crds/

fmt:
	gofmt -w $$(git ls-files '*.go')

vet:
	$(GO) vet ./...

## check: formatting, vet and staticcheck, as CI runs them
check: tool-staticcheck
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "run make fmt"; exit 1; }
	$(GO) vet ./...
	$(BIN)/staticcheck ./...

clean:
	rm -rf $(BIN)/lookout-operator $(BIN)/config-reloader $(BIN)/lookout-local
