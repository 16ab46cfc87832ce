package localpods

import "strings"

// Expand resolves $(VAR) references the way the kubelet does in container args and env
// values: a defined VAR is replaced, an undefined one is left as written, $$ is a literal $.
func Expand(in string, vars map[string]string) string {
	var out strings.Builder
	for i := 0; i < len(in); i++ {
		if in[i] != '$' || i+1 >= len(in) {
			out.WriteByte(in[i])
			continue
		}
		switch next := in[i+1]; next {
		case '$':
			out.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(in[i+2:], ')')
			if end < 0 {
				out.WriteString("$(")
				i++
				continue
			}
			name := in[i+2 : i+2+end]
			if v, ok := vars[name]; ok {
				out.WriteString(v)
			} else {
				out.WriteString("$(" + name + ")")
			}
			i += 2 + end
		default:
			out.WriteByte('$')
			out.WriteByte(next)
			i++
		}
	}
	return out.String()
}
