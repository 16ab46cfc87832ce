package localpods

import (
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// paths maps the mount paths a container sees to the host directories holding them.
type paths map[string]string

// rewrite returns s with a leading mount path replaced by its host directory; the longest
// mount path that is a prefix (on a path-element boundary) wins. Other strings are
// returned unchanged.
func (m paths) rewrite(s string) string {
	if !strings.HasPrefix(s, "/") {
		return s
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	for _, mp := range keys {
		clean := strings.TrimSuffix(mp, "/")
		if s == clean || strings.HasPrefix(s, clean+"/") {
			return filepath.Join(m[mp], strings.TrimPrefix(s, clean))
		}
	}
	return s
}

// rewriteArg rewrites the path in an argument: the whole argument, the value of a
// --flag=value, or the path after the last "=" of a value mapping something to a
// directory (the API-watch reloader's --watch-secret=namespace/name=/etc/prometheus/config).
func (m paths) rewriteArg(a string) string {
	if strings.HasPrefix(a, "-") {
		if name, value, ok := strings.Cut(a, "="); ok {
			if i := strings.LastIndexByte(value, '='); !strings.HasPrefix(value, "/") && i >= 0 {
				return name + "=" + value[:i+1] + m.rewrite(value[i+1:])
			}
			return name + "=" + m.rewrite(value)
		}
		return a
	}
	return m.rewrite(a)
}

// ports maps container ports to the host ports standing for them on 127.0.0.1.
type ports map[int32]int

// localAddr matches a listen or connect address of a container port: ":9090",
// "0.0.0.0:9090", "127.0.0.1:9090", "localhost:9090" or "[::]:9090", at the start of the
// string, after "=" or after "//", and followed by the end, "/" or nothing else.
var localAddr = regexp.MustCompile(`(^|=|//)(?:127\.0\.0\.1|localhost|0\.0\.0\.0|\[::\]|\[::1\])?:(\d+)(/|$)`)

// rewriteArg replaces local addresses of the pod's container ports with 127.0.0.1:<host
// port>. Ports the pod does not declare are left alone.
func (p ports) rewriteArg(a string) string {
	return localAddr.ReplaceAllStringFunc(a, func(match string) string {
		sm := localAddr.FindStringSubmatch(match)
		n, err := strconv.Atoi(sm[2])
		if err != nil {
			return match
		}
		host, ok := p[int32(n)]
		if !ok {
			return match
		}
		return sm[1] + "127.0.0.1:" + strconv.Itoa(host) + sm[3]
	})
}
