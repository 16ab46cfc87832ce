package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lookout-operator/lookout/pkg/localpods"
	"github.com/lookout-operator/lookout/test/testenv"
)

// imageStore maps the images the operator puts in pod specs to local binaries: any tag
// of Prometheus's image to the prometheus binary, and any image of a repository named
// config-reloader (Lookout's reloader, the operator's default) to the config-reloader
// binary built from ./cmd/config-reloader, and Alertmanager's image to the alertmanager
// binary next to prometheus when there is one.
type imageStore struct {
	prometheus, reloader string
	// alertmanager is the alertmanager binary next to prometheus, "" when not built.
	alertmanager string
}

func newImageStore(prometheus, reloader string) (*imageStore, error) {
	if prometheus == "" {
		assets, err := testenv.AssetsDir()
		if err != nil {
			return nil, err
		}
		prometheus = filepath.Join(assets, "prometheus")
	}
	if reloader == "" {
		self, err := os.Executable()
		if err != nil {
			return nil, err
		}
		reloader = filepath.Join(filepath.Dir(self), "config-reloader")
	}
	var errs []error
	for _, b := range []string{prometheus, reloader} {
		if _, err := os.Stat(b); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	s := &imageStore{prometheus: prometheus, reloader: reloader}
	if am := filepath.Join(filepath.Dir(prometheus), "alertmanager"); fileExists(am) {
		s.alertmanager = am
	}
	return s, nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func (s *imageStore) lookup(image string) (localpods.Image, error) {
	repo := image
	if i := strings.LastIndex(repo, "@"); i >= 0 {
		repo = repo[:i]
	}
	if i := strings.LastIndex(repo, ":"); i > strings.LastIndex(repo, "/") {
		repo = repo[:i]
	}
	switch {
	case repo == "quay.io/prometheus/prometheus" || strings.HasSuffix(repo, "/prometheus/prometheus"):
		return localpods.Image{Binary: s.prometheus, ListenFlag: "--web.listen-address"}, nil
	case s.alertmanager != "" && (repo == "quay.io/prometheus/alertmanager" || strings.HasSuffix(repo, "/prometheus/alertmanager")):
		return localpods.Image{Binary: s.alertmanager, ListenFlag: "--web.listen-address"}, nil
	case strings.HasSuffix(repo, "/config-reloader"):
		return localpods.Image{Binary: s.reloader}, nil
	}
	return localpods.Image{}, fmt.Errorf("image %s has no local binary (lookout-local runs Prometheus, Alertmanager and Lookout's config-reloader)", image)
}
