package lint

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
)

// DisableAnnotation names, on an object, the checks that do not apply to it
// ("check,check", or "all").
const DisableAnnotation = "lint.lookout.dev/disable"

// fileComment is a file's comment line switching checks off for every object in it:
// "# lookout-lint: disable=check,check" (or "disable=all").
var fileComment = regexp.MustCompile(`^\s*#\s*lookout-lint:\s*disable=([A-Za-z0-9_,\s-]+)$`)

// Disabled is a set of check names; "all" stands for every check.
type Disabled map[string]bool

// Has reports whether check is switched off.
func (d Disabled) Has(check string) bool { return d["all"] || d[check] }

// parseList adds the comma-separated names of list to d.
func (d Disabled) parseList(list string) {
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n != "" {
			d[n] = true
		}
	}
}

// FileDisabled returns the checks a file's comment lines switch off.
func FileDisabled(data []byte) Disabled {
	d := Disabled{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		if m := fileComment.FindSubmatch(sc.Bytes()); m != nil {
			d.parseList(string(m[1]))
		}
	}
	return d
}

// annotationDisabled returns the checks an object's annotation switches off.
func annotationDisabled(annotations map[string]string) Disabled {
	d := Disabled{}
	if v, ok := annotations[DisableAnnotation]; ok {
		d.parseList(v)
	}
	return d
}
