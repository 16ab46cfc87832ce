package kubelet

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// setHash stores the hash of obj's content (its JSON encoding without the hash) in the
// layout.InputHashAnnotation annotation, for the Applier.
func setHash(obj metav1.Object) {
	ann := obj.GetAnnotations()
	delete(ann, layout.InputHashAnnotation)
	b, err := json.Marshal(obj)
	if err != nil {
		// The objects are built here from strings and integers only.
		panic(fmt.Sprintf("encoding %s: %v", obj.GetName(), err))
	}
	sum := sha256.Sum256(b)
	if ann == nil {
		ann = map[string]string{}
	}
	ann[layout.InputHashAnnotation] = hex.EncodeToString(sum[:])
	obj.SetAnnotations(ann)
}
