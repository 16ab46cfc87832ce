package main

import "flag"

// parseInterspersed parses args with fs where flags may come before, between and after
// the positional arguments, and returns the positional ones in order. The error is
// flag.ErrHelp for -h, or what fs reported (it has printed it).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
