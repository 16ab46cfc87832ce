package testenv_test

import (
	"context"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/test/testenv"
)

func TestStart(t *testing.T) {
	start := time.Now()
	e, err := testenv.Start(context.Background(), testenv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("started in %s", time.Since(start))
	if err := e.Stop(); err != nil {
		t.Fatal(err)
	}
}
