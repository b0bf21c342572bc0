package delivery_test

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/delivery"
)

// TestPolicy_Check is the address check every delivery makes after
// resolving the URL's host, under each way of starting the sandbox.
func TestPolicy_Check(t *testing.T) {
	t.Parallel()
	ap := netip.MustParseAddrPort
	local := []netip.AddrPort{ap("127.0.0.1:12111")}
	wildcard := []netip.AddrPort{ap("[::]:12111")}
	public := []netip.AddrPort{ap("192.0.2.10:12111")}
	allow := []string{"10.0.0.0/8", "hooks.internal", "192.0.2.7", "127.0.0.1:4242", "localhost:5000",
		"169.254.169.254", "metadata.internal", "0.0.0.0/0", "fe80::/10", "[::1]:7000"}
	for _, tc := range []struct {
		name   string
		listen []netip.AddrPort
		allow  []string
		host   string // as in the URL; an address unless a name
		ip     string
		port   uint16
		why    string // "" when allowed
	}{
		// Listening on loopback (the default): loopback is allowed.
		{"loopback", local, nil, "127.0.0.1", "127.0.0.1", 4242, ""},
		{"loopback v6", local, nil, "::1", "::1", 4242, ""},
		{"other loopback address", local, nil, "127.0.0.2", "127.0.0.2", 12111, ""},
		{"localhost resolved", local, nil, "localhost", "127.0.0.1", 4242, ""},
		{"own address", local, nil, "127.0.0.1", "127.0.0.1", 12111, "own listening address"},
		{"own address mapped", local, nil, "::ffff:127.0.0.1", "::ffff:127.0.0.1", 12111, "own listening address"},
		{"own address by name", local, nil, "localhost", "127.0.0.1", 12111, "own listening address"},
		{"own address named", local, []string{"127.0.0.1", "hooks.internal"}, "127.0.0.1", "127.0.0.1", 12111, "own listening address"},
		{"name named resolving to own address", local, []string{"hooks.internal"}, "hooks.internal", "127.0.0.1", 12111, "own listening address"},
		{"public address", local, nil, "203.0.113.5", "203.0.113.5", 443, "does not allow it"},
		{"private address", local, nil, "10.1.2.3", "10.1.2.3", 80, "does not allow it"},
		{"metadata v4", local, nil, "169.254.169.254", "169.254.169.254", 80, "link-local or cloud metadata"},
		{"link-local v4", local, nil, "169.254.1.1", "169.254.1.1", 80, "link-local or cloud metadata"},
		{"link-local v6", local, nil, "fe80::1", "fe80::1", 80, "link-local or cloud metadata"},
		{"metadata v6", local, nil, "fd00:ec2::254", "fd00:ec2::254", 80, "link-local or cloud metadata"},
		{"unspecified", local, nil, "0.0.0.0", "0.0.0.0", 4242, "unspecified"},
		{"unspecified v6", local, nil, "::", "::", 4242, "unspecified"},
		{"name resolving to metadata", local, nil, "evil.localhost", "169.254.169.254", 80, "link-local or cloud metadata"},

		// -webhook-allow: networks, addresses and names, with ports.
		{"allowed network", local, allow, "10.1.2.3", "10.1.2.3", 80, ""},
		{"allowed address", local, allow, "192.0.2.7", "192.0.2.7", 8080, ""},
		{"allowed name", local, allow, "HOOKS.internal.", "203.0.113.9", 443, ""},
		{"allowed name resolving to loopback", local, allow, "hooks.internal", "127.0.0.1", 80, ""},
		{"0.0.0.0/0 allows the internet", local, allow, "203.0.113.5", "203.0.113.5", 443, ""},
		{"networks never allow metadata", local, allow, "169.254.170.2", "169.254.170.2", 80, "link-local or cloud metadata"},
		{"networks never allow link-local v6", local, allow, "fe80::2", "fe80::2", 80, "link-local or cloud metadata"},
		{"metadata named exactly", local, allow, "169.254.169.254", "169.254.169.254", 80, ""},
		{"metadata by its name", local, allow, "metadata.internal", "169.254.169.254", 80, ""},
		{"metadata by another name", local, allow, "hooks.internal", "169.254.169.254", 80, ""},

		// Listening beyond loopback: loopback only where named.
		{"shared: loopback", wildcard, nil, "127.0.0.1", "127.0.0.1", 4242, "listening beyond loopback"},
		{"shared: localhost", wildcard, nil, "localhost", "::1", 4242, "listening beyond loopback"},
		{"shared: loopback network", wildcard, []string{"127.0.0.0/8"}, "127.0.0.1", "127.0.0.1", 4242, "listening beyond loopback"},
		{"shared: loopback named with port", wildcard, allow, "127.0.0.1", "127.0.0.1", 4242, ""},
		{"shared: loopback named, other port", wildcard, allow, "127.0.0.1", "127.0.0.1", 4243, "listening beyond loopback"},
		{"shared: localhost named with port", wildcard, allow, "localhost", "127.0.0.1", 5000, ""},
		{"shared: localhost named, other port", wildcard, allow, "localhost", "127.0.0.1", 5001, "listening beyond loopback"},
		{"shared: v6 loopback named with port", wildcard, allow, "::1", "::1", 7000, ""},
		{"shared: own port on loopback", wildcard, allow, "127.0.0.1", "127.0.0.1", 12111, "own listening address"},
		{"shared: own port, another loopback", wildcard, nil, "127.9.9.9", "127.9.9.9", 12111, "own listening address"},
		{"shared: own port, unspecified", wildcard, allow, "0.0.0.0", "0.0.0.0", 12111, "own listening address"},
		{"public listener: own address", public, nil, "192.0.2.10", "192.0.2.10", 12111, "own listening address"},
		{"public listener: own address, other port", public, []string{"192.0.2.0/24"}, "192.0.2.10", "192.0.2.10", 80, ""},
		{"public listener: loopback", public, nil, "127.0.0.1", "127.0.0.1", 12111, "listening beyond loopback"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := delivery.NewPolicy(tc.allow, tc.listen, nil)
			if err != nil {
				t.Fatal(err)
			}
			err = p.Check(tc.host, netip.MustParseAddr(tc.ip), tc.port)
			switch {
			case tc.why == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.why != "" && err == nil:
				t.Errorf("allowed, want refused as %q", tc.why)
			case tc.why != "" && (!strings.Contains(err.Error(), tc.why) || !strings.HasPrefix(err.Error(), "target address not allowed: ")):
				t.Errorf("refused as %q, want %q", err, tc.why)
			}
		})
	}
}

func TestNewPolicy_AllowEntries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		entry string
		ok    bool
	}{
		{"hooks.internal", true}, {"hooks.internal:8080", true}, {"127.0.0.1:4242", true}, {"[::1]:4242", true},
		{"::1", true}, {"[::1]", true}, {"10.0.0.0/8", true}, {"fd00::/8", true},
		{"10.0.0.0/33", false}, {"hooks.internal:0", false}, {"hooks.internal:http", false}, {"hooks.internal:70000", false},
		{"user@hooks.internal", false}, {"hooks internal", false}, {"http://hooks.internal", false}, {":8080", false},
	} {
		_, err := delivery.NewPolicy([]string{tc.entry}, nil, nil)
		if (err == nil) != tc.ok {
			t.Errorf("-webhook-allow %q: error %v, want ok %v", tc.entry, err, tc.ok)
		}
	}
}

// TestPolicy_CheckKeyed: a sandbox that admits a key list is shared,
// wherever it listens (behind a proxy on the host, say): loopback only
// where -webhook-allow names it. A personal one (loopback, no keys) calls
// loopback as before.
func TestPolicy_CheckKeyed(t *testing.T) {
	t.Parallel()
	local := []netip.AddrPort{netip.MustParseAddrPort("127.0.0.1:12111")}
	allow := []string{"127.0.0.1:4242", "localhost:5000", "10.0.0.0/8"}
	for _, tc := range []struct {
		name  string
		keyed bool
		allow []string
		host  string
		ip    string
		port  uint16
		why   string // "" when allowed
	}{
		{"personal: loopback", false, nil, "127.0.0.1", "127.0.0.1", 4242, ""},
		{"personal: localhost", false, nil, "localhost", "::1", 8080, ""},
		{"keyed: loopback", true, nil, "127.0.0.1", "127.0.0.1", 4242, "shared sandbox (one admitting a key list"},
		{"keyed: the proxy's port", true, nil, "127.0.0.1", "127.0.0.1", 443, "shared sandbox"},
		{"keyed: localhost", true, nil, "localhost", "::1", 8080, "shared sandbox"},
		{"keyed: loopback network", true, []string{"127.0.0.0/8"}, "127.0.0.1", "127.0.0.1", 4242, "shared sandbox"},
		{"keyed: loopback named with port", true, allow, "127.0.0.1", "127.0.0.1", 4242, ""},
		{"keyed: loopback named, other port", true, allow, "127.0.0.1", "127.0.0.1", 4243, "shared sandbox"},
		{"keyed: localhost named with port", true, allow, "localhost", "127.0.0.1", 5000, ""},
		{"keyed: allowed network", true, allow, "10.1.2.3", "10.1.2.3", 80, ""},
		{"keyed: own address", true, allow, "127.0.0.1", "127.0.0.1", 12111, "own listening address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := delivery.NewPolicy(tc.allow, local, func() bool { return tc.keyed })
			if err != nil {
				t.Fatal(err)
			}
			err = p.Check(tc.host, netip.MustParseAddr(tc.ip), tc.port)
			switch {
			case tc.why == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.why != "" && err == nil:
				t.Errorf("allowed, want refused as %q", tc.why)
			case tc.why != "" && !strings.Contains(err.Error(), tc.why):
				t.Errorf("refused as %q, want %q", err, tc.why)
			}
		})
	}
}
