# Two images from one build:
#   docker build --target operator -t ghcr.io/lookout-operator/lookout-operator .
#   docker build --target config-reloader -t ghcr.io/lookout-operator/config-reloader .
# Static binaries on a distroless base, running as a non-root user.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X main.version=${VERSION}" -o /out/lookout-operator ./cmd/operator \
 && CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X main.version=${VERSION}" -o /out/config-reloader ./cmd/config-reloader

FROM gcr.io/distroless/static-debian12:nonroot AS operator
COPY --from=build /out/lookout-operator /usr/bin/lookout-operator
USER 65532:65532
ENTRYPOINT ["/usr/bin/lookout-operator"]
CMD ["run"]

FROM gcr.io/distroless/static-debian12:nonroot AS config-reloader
COPY --from=build /out/config-reloader /usr/bin/config-reloader
USER 65532:65532
ENTRYPOINT ["/usr/bin/config-reloader"]
