package client

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// BaseURLError says what is wrong with a base URL and how to fix it. It
// never holds the URL itself, which may carry credentials (user info, or a
// key in the query) that must not reach logs or diagnostics.
type BaseURLError struct {
	// Problem is a sentence naming what is wrong.
	Problem string
	// Fix is a sentence saying what to do instead.
	Fix string
}

func (e *BaseURLError) Error() string { return e.Problem + " " + e.Fix }

// baseURLExample is the shape every fix points at.
const baseURLExample = "an absolute http or https URL such as https://api.example.com or http://127.0.0.1:12111"

// ParseBaseURL checks a base URL and returns it without trailing slashes.
// It is the one check of a base URL: client.New uses it, and so does the
// provider's plan-time validator, so the two cannot disagree. Every error
// is a *BaseURLError.
func ParseBaseURL(raw string) (*url.URL, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, &BaseURLError{"The base URL is empty.", "Set it to " + baseURLExample + "."}
	}
	u, err := url.Parse(strings.TrimRight(raw, "/"))
	switch {
	case err != nil:
		return nil, &BaseURLError{"The base URL cannot be parsed.", "Use " + baseURLExample + "."}
	case u.User != nil:
		return nil, &BaseURLError{"The base URL must not contain credentials.",
			"Remove them from the URL and set the secret key instead."}
	case u.Scheme != "http" && u.Scheme != "https":
		problem := "The base URL has no scheme, or one other than http or https."
		if u.Scheme != "" && u.Opaque == "" {
			problem = fmt.Sprintf("The base URL's scheme is %q, not http or https.", u.Scheme)
		}
		return nil, &BaseURLError{problem, "Use " + baseURLExample + "."}
	case u.Host == "":
		return nil, &BaseURLError{"The base URL has no host.", "Use " + baseURLExample + "."}
	case u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return nil, &BaseURLError{"The base URL must not have a query or fragment.",
			"Remove everything from the first ? or #."}
	}
	// The prefix begins with a slash, so a match is a whole path segment.
	if p := strings.TrimRight(u.Path, "/"); len(p) >= len(wire.APIVersionPrefix) &&
		strings.EqualFold(p[len(p)-len(wire.APIVersionPrefix):], wire.APIVersionPrefix) {
		fixed := (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: p[:len(p)-len(wire.APIVersionPrefix)]}).String()
		return nil, &BaseURLError{
			fmt.Sprintf("The base URL's path ends in %s, but every request path already begins with it, so requests would go to %s%s/….",
				wire.APIVersionPrefix, wire.APIVersionPrefix, wire.APIVersionPrefix),
			fmt.Sprintf("Remove %s: the provider adds it. Use %s instead.", wire.APIVersionPrefix, fixed),
		}
	}
	return u, nil
}

// checkKeyTransport refuses to send a live key in clear text: over http it
// can be read on every hop to the service. A loopback host never leaves
// the machine, so a local sandbox or proxy may use http with any key.
func checkKeyTransport(base *url.URL, key string) error {
	if base.Scheme != "http" || wire.ClassifyKey(key) != wire.KeySecretLive || isLoopbackHost(base.Hostname()) {
		return nil
	}
	return &BaseURLError{
		Problem: fmt.Sprintf("The base URL is plain http and the secret key is a live key (%s…), which must not travel unencrypted.",
			wire.SecretKeyLivePrefix),
		Fix: "Use an https base URL, or a loopback host (127.0.0.1, ::1 or localhost) for a service on this machine.",
	}
}

// isLoopbackHost reports whether host is localhost or a loopback address
// (127.0.0.0/8, ::1).
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
