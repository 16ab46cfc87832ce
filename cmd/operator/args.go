package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/lookout-operator/lookout/pkg/operator"
)

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

// opCommand is a command that also takes the operator's flags (explain, top, diff), so
// that a Deployment's selection flags can be pasted: its usage shows its text and only
// the flags named in shown.
type opCommand struct {
	fs     *flag.FlagSet
	finish func() (*operator.Parsed, error)
	stderr io.Writer
	text   string
	shown  []string
}

func newOpCommand(name, text string, stderr io.Writer, shown ...string) *opCommand {
	fs, finish := operator.NewFlagSet(name, stderr)
	return &opCommand{fs: fs, finish: finish, stderr: stderr, text: text, shown: shown}
}

// usage prints the command's text and the flags it shows.
func (c *opCommand) usage() {
	fmt.Fprint(c.stderr, c.text)
	for _, n := range c.shown {
		if f := c.fs.Lookup(n); f != nil {
			fmt.Fprintf(c.stderr, "  -%s\t%s\n", n, f.Usage)
		}
	}
}

// parse parses args (flags anywhere) and returns the positional arguments and the
// operator's options; exit >= 0 ends the command with that status (-h: the usage and 0;
// a bad flag: 2, reported).
func (c *opCommand) parse(args []string) (pos []string, parsed *operator.Parsed, exit int) {
	pos, err := parseInterspersed(c.fs, args)
	if err == flag.ErrHelp {
		c.usage()
		return nil, nil, 0
	} else if err != nil {
		return nil, nil, 2
	}
	if parsed, err = c.finish(); err != nil {
		fmt.Fprintln(c.stderr, "error:", err)
		return nil, nil, 2
	}
	return pos, parsed, -1
}
