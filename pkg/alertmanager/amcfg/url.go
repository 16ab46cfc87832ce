package amcfg

import (
	"errors"
	"fmt"
	"net/url"
)

var errNoAssets = fmt.Errorf("no Secret/ConfigMap source configured: %w", ErrUnavailable)

// checkURL accepts absolute http and https URLs with a host, as Alertmanager's URL fields
// need.
func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		// url.Error repeats the URL, which may be a Secret value: keep only the cause.
		var ue *url.Error
		if errors.As(err, &ue) {
			return ue.Err
		}
		return errors.New("unparsable URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("unsupported scheme %q for URL", u.Scheme)
	}
	if u.Host == "" {
		return errors.New("host is missing in URL")
	}
	return nil
}

// plainURL checks a URL given in the spec.
func plainURL(field string, s *string) (string, *problem) {
	if s == nil || *s == "" {
		return "", nil
	}
	if err := checkURL(*s); err != nil {
		return "", invalid(field, "invalid URL %q: %v", *s, err)
	}
	return *s, nil
}
