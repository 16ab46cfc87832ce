package targethealth

import (
	"regexp"
	"strings"
)

// maxClassLen bounds an error class that no rule below recognises.
const maxClassLen = 80

// classRule maps errors containing match to class (class "" keeps what matched, or calls
// fn).
type classRule struct {
	match string
	class string
	fn    func(err string, at int) string
}

// classRules are checked in order, the first match wins. The classes never contain an
// address, a port or a URL, so a target that moves keeps its class and causes no status
// write.
var classRules = []classRule{
	{match: "server returned HTTP status ", fn: httpStatusClass},
	{match: "connection refused", class: "connection refused"},
	{match: "connection reset by peer", class: "connection reset by peer"},
	{match: "no route to host", class: "no route to host"},
	{match: "network is unreachable", class: "network is unreachable"},
	{match: "no such host", class: "no such host"},
	{match: "i/o timeout", class: "i/o timeout"},
	{match: "context deadline exceeded", class: "context deadline exceeded"},
	{match: "x509: certificate signed by unknown authority", class: "x509: certificate signed by unknown authority"},
	{match: "x509: certificate has expired", class: "x509: certificate has expired or is not yet valid"},
	{match: "x509: certificate is valid for", class: "x509: certificate is not valid for the target's name"},
	{match: "x509: ", class: "x509 certificate error"},
	{match: "tls: ", class: "TLS handshake error"},
	{match: "sample limit exceeded", class: "sample limit exceeded"},
	{match: "label_limit exceeded", class: "label_limit exceeded"},
	{match: "label_name_length_limit exceeded", class: "label_name_length_limit exceeded"},
	{match: "label_value_length_limit exceeded", class: "label_value_length_limit exceeded"},
	{match: "body size limit exceeded", class: "body size limit exceeded"},
	{match: "unsupported Content-Type", class: "unsupported Content-Type"},
	{match: "EOF", class: "EOF"},
}

// httpStatusClass keeps "server returned HTTP status" and the three-digit code, not the
// reason phrase after it.
func httpStatusClass(err string, at int) string {
	const prefix = "server returned HTTP status "
	rest := err[at+len(prefix):]
	n := 0
	for n < len(rest) && n < 3 && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 {
		return strings.TrimSpace(prefix)
	}
	return prefix + rest[:n]
}

var (
	quoted  = regexp.MustCompile(`"[^"]*"`)
	address = regexp.MustCompile(`\[?[0-9a-fA-F:.]*[0-9][0-9a-fA-F:.]*\]?:[0-9]+|\b[0-9]{1,3}(\.[0-9]{1,3}){3}\b`)
)

// Classify returns the class of a scrape error (a target's lastError): a short text
// without addresses that stays the same while the cause does. An empty error has the
// class "".
func Classify(err string) string {
	err = strings.TrimSpace(err)
	if err == "" {
		return ""
	}
	for _, r := range classRules {
		at := strings.Index(err, r.match)
		if at < 0 {
			continue
		}
		if r.fn != nil {
			return r.fn(err, at)
		}
		return r.class
	}
	// Go wraps errors as "context: cause": the last part is the cause.
	if i := strings.LastIndex(err, ": "); i >= 0 && i+2 < len(err) {
		err = err[i+2:]
	}
	err = quoted.ReplaceAllString(err, `"…"`)
	err = address.ReplaceAllString(err, "<address>")
	if len(err) > maxClassLen {
		cut := maxClassLen
		for cut > 0 && (err[cut]&0xC0) == 0x80 {
			cut--
		}
		err = err[:cut] + "…"
	}
	return err
}
