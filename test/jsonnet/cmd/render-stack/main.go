// Command render-stack renders example/stack.jsonnet into example/stack/, one YAML file per
// object, and removes files of objects that no longer exist. With -check it changes
// nothing and exits 1 when example/stack/ is out of date.
//
//	go run ./test/jsonnet/cmd/render-stack [-check]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/lookout-operator/lookout/test/jsonnet/render"
)

func main() {
	check := flag.Bool("check", false, "only report whether "+render.StackDir+" is up to date")
	flag.Parse()
	if err := run(*check); err != nil {
		fmt.Fprintln(os.Stderr, "render-stack:", err)
		os.Exit(1)
	}
}

func run(check bool) error {
	root, err := render.RepoRoot()
	if err != nil {
		return err
	}
	files, err := render.Stack(root)
	if err != nil {
		return err
	}
	if check {
		have, err := render.OnDisk(root)
		if err != nil {
			return err
		}
		if diff := render.Diff(files, have); len(diff) > 0 {
			for _, d := range diff {
				fmt.Fprintln(os.Stderr, d)
			}
			return fmt.Errorf("%s is out of date: run %s", render.StackDir, render.Command)
		}
		return nil
	}
	if err := render.Write(root, files); err != nil {
		return err
	}
	fmt.Printf("wrote %d files to %s\n", len(files), render.StackDir)
	return nil
}
