package main

// The Host check: a sandbox that no key list gates answers only requests
// that name it, so that a web page cannot reach it through DNS rebinding
// (a name of the attacker's that first resolves to the attacker, then to
// 127.0.0.1: the browser then sends the sandbox requests of the attacker's
// origin, with Host naming the attacker's domain).

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// hostNames is the repeatable, comma-separated -allowed-hosts flag.
type hostNames []string

func (h *hostNames) String() string { return strings.Join(*h, ",") }

func (h *hostNames) Set(v string) error {
	for e := range strings.SplitSeq(v, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		if _, err := netip.ParseAddr(e); err != nil && e != "*" {
			name := normalHost(strings.TrimPrefix(e, "."))
			if name == "" || strings.ContainsAny(name, ":/[]@ ") {
				return fmt.Errorf("-allowed-hosts entry %q is not a host name; give names such as sandbox.internal, .example.test (the domain and every name under it) or *, without scheme or port", e)
			}
		}
		*h = append(*h, e)
	}
	return nil
}

// hostPolicy is the set of Host values a sandbox answers.
type hostPolicy struct {
	any     bool
	names   map[string]bool // normalHost form
	domains []string        // ".example.test": every name under it, and itself
}

// newHostPolicy admits the listening host (as -addr named it), localhost,
// 127.0.0.1 and ::1, and the -allowed-hosts names; nothing else, so that
// what a keyless sandbox answers is exactly the list its docs give.
func newHostPolicy(listenHost string, allowed []string) *hostPolicy {
	p := &hostPolicy{names: map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true}}
	if h := hostName(listenHost); h != "" {
		p.names[h] = true
	}
	for _, e := range allowed {
		switch {
		case e == "*":
			p.any = true
		case strings.HasPrefix(e, "."):
			d := normalHost(e[1:])
			p.names[d] = true
			p.domains = append(p.domains, "."+d)
		default:
			p.names[hostName(e)] = true
		}
	}
	return p
}

// hostName is a host as compared: an IP address in its canonical form
// (so that 0:0::1 is ::1), else normalHost's form.
func hostName(h string) string {
	if a, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
		return a.Unmap().String()
	}
	return normalHost(h)
}

// normalHost is a host name as compared: lower case, without one
// trailing dot.
func normalHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

// allows reports whether a request's Host header (with or without a port)
// names this sandbox. An empty Host (HTTP/1.0) is allowed: a browser
// always sends one, and rebinding needs a browser.
func (p *hostPolicy) allows(host string) bool {
	if p.any || host == "" {
		return true
	}
	name := host
	if strings.HasPrefix(host, "[") {
		end := strings.IndexByte(host, ']')
		if end < 0 || (end+1 < len(host) && !validPort(host[end+1:])) {
			return false
		}
		a, err := netip.ParseAddr(host[1:end])
		return err == nil && a.Zone() == "" && p.names[a.Unmap().String()]
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 {
		if !validPort(host[i:]) {
			return false
		}
		name = host[:i]
	}
	name = normalHost(name)
	if name == "" {
		return false
	}
	if p.names[hostName(name)] {
		return true
	}
	for _, d := range p.domains {
		if strings.HasSuffix(name, d) {
			return true
		}
	}
	return false
}

// validPort is ":" and up to five digits, or ":" alone (which RFC 3986
// allows for an empty port).
func validPort(s string) bool {
	if s == "" || s[0] != ':' || len(s) > 6 {
		return false
	}
	for _, c := range []byte(s[1:]) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// hostCheck answers 421 host_not_allowed, before anything else runs, to a
// request whose Host the policy does not allow.
func hostCheck(p *hostPolicy, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.allows(r.Host) {
			h.ServeHTTP(w, r)
			return
		}
		body, _ := json.Marshal(wire.ErrorBody{Error: &wire.ErrorDetail{
			Type: wire.ErrorTypeInvalidRequest, Code: wire.ErrorCodeHostNotAllowed,
			Message: fmt.Sprintf("This sandbox answers no request for host %q: without keys it answers only its own names (its -addr host, localhost, 127.0.0.1 and [::1]), "+
				"so that no web page can reach it through DNS rebinding. If you reach it by that name, start it with -allowed-hosts %s.",
				wire.Clip(wire.MaskKeys(r.Host), 64), wire.Clip(wire.MaskKeys(hostOnly(r.Host)), 64)),
		}})
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusMisdirectedRequest)
		_, _ = w.Write(body)
	})
}

// hostOnly is a Host header's name without its port.
func hostOnly(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return host
}
