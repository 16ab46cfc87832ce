package targethealth

import "testing"

func TestClassify(t *testing.T) {
	for _, tc := range []struct{ err, want string }{
		{``, ``},
		{`Get "http://10.0.0.7:8080/metrics": dial tcp 10.0.0.7:8080: connect: connection refused`, `connection refused`},
		{`Get "http://10.0.0.9:9100/metrics": dial tcp 10.0.0.9:9100: connect: connection refused`, `connection refused`},
		{`server returned HTTP status 401 Unauthorized`, `server returned HTTP status 401`},
		{`server returned HTTP status 503 Service Unavailable`, `server returned HTTP status 503`},
		{`Get "http://[fd00::1]:80/metrics": context deadline exceeded`, `context deadline exceeded`},
		{`Get "http://a.b:80/metrics": dial tcp: lookup a.b on 10.96.0.10:53: no such host`, `no such host`},
		{`Get "http://10.1.2.3:80/metrics": dial tcp 10.1.2.3:80: i/o timeout`, `i/o timeout`},
		{`read tcp 10.0.0.1:4711->10.0.0.7:8080: read: connection reset by peer`, `connection reset by peer`},
		{`dial tcp 10.0.0.7:8080: connect: no route to host`, `no route to host`},
		{`Get "https://10.0.0.7:8443/metrics": tls: failed to verify certificate: x509: certificate signed by unknown authority`, `x509: certificate signed by unknown authority`},
		{`Get "https://10.0.0.7:8443/metrics": tls: failed to verify certificate: x509: certificate is valid for a.example, not 10.0.0.7`, `x509: certificate is not valid for the target's name`},
		{`Get "https://10.0.0.7:8443/metrics": remote error: tls: bad certificate`, `TLS handshake error`},
		{`sample limit exceeded`, `sample limit exceeded`},
		{`label_limit exceeded (metric: up, number of labels: 31, limit: 30)`, `label_limit exceeded`},
		{`body size limit exceeded`, `body size limit exceeded`},
		{`Get "http://10.0.0.7:8080/metrics": EOF`, `EOF`},
		{`expected equal, got "INVALID"`, `expected equal, got "…"`},
		{`something odd at 10.0.0.7:8080 and [fd00::1]:80`, `something odd at <address> and <address>`},
		{`wrapped: cause at 192.168.1.1`, `cause at <address>`},
		{`x: ` + string(make([]byte, 0)) + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…"},
		{`server returned HTTP status `, `server returned HTTP status`},
	} {
		if got := Classify(tc.err); got != tc.want {
			t.Errorf("Classify(%q) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
