package confdiff

import (
	"fmt"
	"io"
	"strings"
)

// WriteUnified writes r as a unified diff: for each instance a comment line naming it,
// then for each file "--- a/PATH" / "+++ b/PATH" (/dev/null for a file only on one side)
// and its hunks, each after a "# caused by:" line naming the objects that caused it.
func WriteUnified(w io.Writer, r *Result) error {
	ew := &errWriter{w: w}
	for _, in := range r.Instances {
		ew.printf("# %s %s/%s: %s\n", in.Kind, in.Namespace, in.Name, in.Status)
		for _, f := range in.Files {
			from, to := "a/"+f.Path, "b/"+f.Path
			switch f.Status {
			case Added:
				from = "/dev/null"
			case Removed:
				to = "/dev/null"
			}
			ew.printf("--- %s\n+++ %s\n", from, to)
			for _, h := range f.Hunks {
				if c := Causes(in, f, h); len(c) > 0 {
					ew.printf("# caused by: %s\n", strings.Join(c, ", "))
				}
				ew.printf("@@ -%s +%s @@\n", hunkRange(h.OldStart, h.OldLines), hunkRange(h.NewStart, h.NewLines))
				for _, l := range h.Lines {
					ew.printf("%c%s\n", l.Op, l.Text)
				}
			}
		}
	}
	return ew.err
}

// hunkRange writes a hunk's range as diff -u does: "start,count", or "start" for one line.
func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
