package promplan

import (
	"testing"
)

func TestStatefulSetGolden(t *testing.T) {
	for _, c := range buildCases() {
		t.Run(c.name, func(t *testing.T) {
			in, opts := c.input()
			sts, err := StatefulSet(in, opts, c.shard)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "statefulset-"+c.name, toYAML(t, sts))
		})
	}
}
