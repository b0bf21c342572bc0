package delivery

import (
	"cmp"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// Policy is where the sandbox may deliver (-webhook-allow and the
// listening addresses); the API assumptions guide states the rules for
// users. Every check is of an address, after name resolution, and one
// function makes it, at endpoint creation and again at each connection.
type Policy struct {
	rules []allowRule
	// self are the listening addresses; local, when one of them is a
	// wildcard, are the host's own addresses, which it also listens on.
	self  []netip.AddrPort
	local map[netip.Addr]bool
	// shared is set when the sandbox listens beyond loopback, and keyed
	// reports whether it admits a key list: either way others reach it
	// (directly, or through a proxy on the host), so loopback is no
	// longer theirs to call.
	shared bool
	keyed  func() bool
}

// allowRule is one -webhook-allow entry: a host name, an address or a
// network, the first two with an optional port (0: any).
type allowRule struct {
	name string // lower case, without a trailing dot
	addr netip.Addr
	net  netip.Prefix
	port uint16
}

// metadataV6 is the cloud metadata service's IPv6 address (AWS); its IPv4
// address, 169.254.169.254, is link-local.
var metadataV6 = netip.MustParseAddr("fd00:ec2::254")

// NewPolicy reads the -webhook-allow entries and the listening addresses
// into the rules every target is checked against; keyed, when not nil,
// reports whether the sandbox admits a key list (it may change while the
// sandbox serves).
func NewPolicy(entries []string, listen []netip.AddrPort, keyed func() bool) (*Policy, error) {
	p := &Policy{keyed: keyed}
	for _, e := range entries {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		r, err := parseAllowRule(e)
		if err != nil {
			return nil, err
		}
		p.rules = append(p.rules, r)
	}
	for _, ap := range listen {
		ap = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
		p.self = append(p.self, ap)
		if !ap.Addr().IsLoopback() {
			p.shared = true
		}
		if ap.Addr().IsUnspecified() && p.local == nil {
			p.local = make(map[netip.Addr]bool)
			addrs, err := net.InterfaceAddrs()
			if err != nil {
				return nil, fmt.Errorf("listing the host's addresses, which a wildcard listener listens on: %w", err)
			}
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok {
					if ip, ok := netip.AddrFromSlice(n.IP); ok {
						p.local[ip.Unmap()] = true
					}
				}
			}
		}
	}
	return p, nil
}

func parseAllowRule(e string) (allowRule, error) {
	if strings.Contains(e, "/") {
		pfx, err := netip.ParsePrefix(e)
		if err != nil {
			return allowRule{}, fmt.Errorf("webhook allow entry %q is not a CIDR network such as 10.0.0.0/8: %w", e, err)
		}
		return allowRule{net: pfx.Masked()}, nil
	}
	if ip, err := netip.ParseAddr(strings.Trim(e, "[]")); err == nil {
		return allowRule{addr: ip.Unmap()}, nil
	}
	host, port := e, uint16(0)
	if h, ps, err := net.SplitHostPort(e); err == nil {
		n, err := strconv.ParseUint(ps, 10, 16)
		if err != nil || n == 0 {
			return allowRule{}, fmt.Errorf("webhook allow entry %q has port %q; use a port from 1 to 65535", e, ps)
		}
		host, port = h, uint16(n)
		if ip, err := netip.ParseAddr(host); err == nil {
			return allowRule{addr: ip.Unmap(), port: port}, nil
		}
	}
	if host == "" || strings.ContainsAny(host, " :@?#[]") {
		return allowRule{}, fmt.Errorf("webhook allow entry %q is neither a host name, an IP address, either with :port, nor a CIDR network", e)
	}
	return allowRule{name: hostKey(host), port: port}, nil
}

func hostKey(host string) string { return strings.ToLower(strings.TrimSuffix(host, ".")) }

// named reports whether an entry names host (a name, as in the URL) on
// port: such a host is trusted whatever it resolves to.
func (p *Policy) named(host string, port uint16) bool {
	h := hostKey(host)
	for _, r := range p.rules {
		if r.name != "" && r.name == h && (r.port == 0 || r.port == port) {
			return true
		}
	}
	return false
}

// Refusal is a target the policy refuses; its text is the whole error an
// attempt records, and tells nothing the policy did not decide itself.
type Refusal struct {
	host string // as in the URL
	ap   netip.AddrPort
	why  string
}

func (r *Refusal) Error() string {
	if r.host == r.ap.Addr().String() {
		return fmt.Sprintf("target address not allowed: %s is %s", r.ap, r.why)
	}
	return fmt.Sprintf("target address not allowed: %s resolves to %s, %s", r.host, r.ap, r.why)
}

// Check is check as an error: nil when allowed, else the *Refusal an
// attempt records.
func (p *Policy) Check(host string, ip netip.Addr, port uint16) error {
	if r := p.check(host, ip, port); r != nil {
		return r
	}
	return nil
}

// check decides whether the sandbox may connect to ip:port for a URL
// naming host: never its own listening address; a host named by an entry
// (with its port, if the entry has one), or an address an entry is;
// never an unspecified, link-local or metadata address otherwise;
// loopback unless the sandbox is shared (it admits a key list, or listens
// beyond loopback); an allowed network.
func (p *Policy) check(host string, ip netip.Addr, port uint16) *Refusal {
	ip = ip.WithZone("").Unmap()
	ap := netip.AddrPortFrom(ip, port)
	if p.isSelf(ap) {
		return &Refusal{host, ap, "the sandbox's own listening address"}
	}
	if p.named(host, port) {
		return nil
	}
	for _, r := range p.rules {
		if r.addr.IsValid() && r.addr == ip && (r.port == 0 || r.port == port) {
			return nil
		}
	}
	switch {
	case ip.IsUnspecified() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip == metadataV6:
		return &Refusal{host, ap, "an unspecified, link-local or cloud metadata address, called only when -webhook-allow names it exactly"}
	case ip.IsLoopback() && p.isShared():
		return &Refusal{host, ap, "a loopback address, which a shared sandbox (one admitting a key list, or listening beyond loopback) calls only when -webhook-allow names it (host or host:port)"}
	case ip.IsLoopback():
		return nil
	}
	for _, r := range p.rules {
		if r.net.IsValid() && r.net.Contains(ip) {
			return nil
		}
	}
	return &Refusal{host, ap, "not a loopback address, and -webhook-allow does not allow it"}
}

// isShared reports whether others than the host's user reach the sandbox.
func (p *Policy) isShared() bool { return p.shared || (p.keyed != nil && p.keyed()) }

// isSelf reports whether ap reaches one of the sandbox's listeners.
func (p *Policy) isSelf(ap netip.AddrPort) bool {
	for _, s := range p.self {
		if s.Port() != ap.Port() {
			continue
		}
		if s.Addr() == ap.Addr() {
			return true
		}
		if s.Addr().IsUnspecified() && (ap.Addr().IsLoopback() || ap.Addr().IsUnspecified() || p.local[ap.Addr()]) {
			return true
		}
	}
	return false
}

// checkURLHost is the check at create and update, for the URL's host and
// port. An address is checked as at delivery; a name must be named by an
// entry or be localhost (checked as its loopback addresses); other names
// are refused, as they would be called only on loopback anyway.
func (p *Policy) checkURLHost(host string, port uint16) (refused *Refusal, known bool) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return p.check(host, ip, port), true
	}
	h := hostKey(host)
	localhost := h == "localhost" || strings.HasSuffix(h, ".localhost")
	if localhost {
		for _, ip := range []netip.Addr{netip.IPv6Loopback(), netip.AddrFrom4([4]byte{127, 0, 0, 1})} {
			if r := p.check(host, ip, port); r != nil {
				return r, true
			}
		}
		return nil, true
	}
	return nil, p.named(host, port)
}

// newHTTPClient is the client of every attempt: it dials through the
// target rules, never through a proxy, and follows no redirect.
func newHTTPClient(e *Engine, conns int) *http.Client {
	dialer := &net.Dialer{Timeout: e.timeout, KeepAlive: 30 * time.Second}
	return &http.Client{
		Transport: &http.Transport{
			Proxy: nil, // a proxy would dial for us, past the allow policy
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				return e.dial(ctx, dialer, network, addr)
			},
			MaxIdleConnsPerHost: conns,
			IdleConnTimeout:     30 * time.Second,
			TLSHandshakeTimeout: e.timeout,
		},
		// A redirect is not a delivery, and following one could leave
		// the allowed hosts.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// dial connects only to allowed addresses, checked after name resolution
// and dialled as checked, so that no name can be made to resolve into the
// sandbox itself, a metadata service or a network it may not call. An
// address refused is never connected to: its refusal says nothing of
// what listens there.
func (e *Engine) dial(ctx context.Context, dialer *net.Dialer, network, addr string) (net.Conn, error) {
	host, ps, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.ParseUint(ps, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("port %q is not a port", ps)
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else if ips, err = e.lookup(ctx, host); err != nil {
		return nil, err
	}
	var refused, lastErr error
	for _, ip := range ips {
		if r := e.allow.check(host, ip, uint16(port)); r != nil {
			refused = cmp.Or(refused, error(r))
			continue
		}
		conn, err := dialer.DialContext(ctx, network, netip.AddrPortFrom(ip.Unmap(), uint16(port)).String())
		if err == nil {
			return conn, nil
		}
		lastErr = err
	}
	if lastErr == nil && refused == nil {
		return nil, fmt.Errorf("%s resolves to no address", host)
	}
	return nil, cmp.Or(lastErr, refused)
}
