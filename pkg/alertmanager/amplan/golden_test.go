package amplan

import (
	"os"
	"testing"

	"github.com/lookout-operator/lookout/test/goldentest"
)

// goldensUsed records the golden files the tests compared against; TestMain fails a
// complete run when testdata/ holds a golden file no test used.
var goldensUsed = goldentest.NewRegistry()

func TestMain(m *testing.M) { os.Exit(goldentest.Main(m, goldensUsed, "testdata")) }
