// Command crdsplit makes the AlertmanagerConfig CRD serve what prometheus-operator's
// default CRDs serve, v1alpha1 only, and moves the v1beta1 version into the patch that
// enables it together with the conversion webhook (make crds runs it after crdextend):
//
//	go run ./hack/crdsplit example/crds example/webhook/alertmanagerconfig-v1beta1.yaml
//
// Without conversion a served v1beta1 is stored as v1alpha1 unconverted, and the fields
// that differ between the versions are lost or refused; upstream serves it only from its
// full CRDs with its conversion patch. Running it again changes nothing: once the CRD
// serves v1alpha1 alone, the patch is left as it is.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

const crdFile = "monitoring.coreos.com_alertmanagerconfigs.yaml"

// versionStart starts the v1beta1 entry of spec.versions in controller-gen's layout; it is
// the last entry, so the CRD ends with it.
const versionStart = "\n  - name: v1beta1\n"

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: crdsplit <directory of CRD files> <patch file to write>")
		os.Exit(2)
	}
	if err := run(filepath.Join(os.Args[1], crdFile), os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "crdsplit:", err)
		os.Exit(1)
	}
}

func run(crdPath, patchPath string) error {
	in, err := os.ReadFile(crdPath)
	if err != nil {
		return err
	}
	i := bytes.Index(in, []byte(versionStart))
	if i < 0 {
		return nil // already split
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(in, &crd); err != nil {
		return fmt.Errorf("%s: %w", crdPath, err)
	}
	if n := len(crd.Spec.Versions); n != 2 || crd.Spec.Versions[1].Name != "v1beta1" || !crd.Spec.Versions[0].Storage {
		return fmt.Errorf("%s: want versions v1alpha1 (stored) and v1beta1, in that order", crdPath)
	}
	patch, err := Patch(crd.Spec.Versions[1])
	if err != nil {
		return err
	}
	out := in[:i+1]
	var check apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(out, &check); err != nil || len(check.Spec.Versions) != 1 {
		return fmt.Errorf("%s without v1beta1 is not a CRD of one version: %v", crdPath, err)
	}
	if err := os.WriteFile(patchPath, patch, 0o644); err != nil {
		return err
	}
	return os.WriteFile(crdPath, out, 0o644)
}
