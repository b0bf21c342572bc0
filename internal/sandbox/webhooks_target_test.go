package sandbox_test

import (
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestWebhookTarget_Rules is the address check every delivery makes after
// resolving the URL's host, under each way of starting the sandbox.
func TestWebhookTarget_Rules(t *testing.T) {
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
			check, err := sandbox.WebhookTargetCheck(sandbox.WebhookOptions{Allow: tc.allow, Listen: tc.listen})
			if err != nil {
				t.Fatal(err)
			}
			err = check(tc.host, netip.MustParseAddr(tc.ip), tc.port)
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

func TestWebhookTarget_AllowEntries(t *testing.T) {
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
		_, err := sandbox.New(sandbox.Options{Webhooks: sandbox.WebhookOptions{Allow: []string{tc.entry}}})
		if (err == nil) != tc.ok {
			t.Errorf("-webhook-allow %q: error %v, want ok %v", tc.entry, err, tc.ok)
		}
	}
}

// TestWebhookTarget_EndpointURLs: a URL whose host is an address refused
// at delivery, or localhost on the sandbox's own port, is refused at
// create and update.
func TestWebhookTarget_EndpointURLs(t *testing.T) {
	t.Parallel()
	sb := sandboxtest.Start(t, sandboxtest.WithOptions(sandbox.Options{Webhooks: sandbox.WebhookOptions{Allow: []string{"0.0.0.0/0"}}}))
	e := envOn(t, sb, sandboxtest.NewKey(t))
	self := sb.HTTP.Listener.Addr().String()
	_, port, _ := strings.Cut(self, ":")
	for _, u := range []string{
		"http://" + self + "/h", "http://localhost:" + port + "/h", "http://[::ffff:127.0.0.1]:" + port + "/h",
		"http://169.254.169.254/latest/meta-data", "http://[fe80::1]/h", "http://[fd00:ec2::254]/h", "http://0.0.0.0:4242/h",
		"http://127.0.0.1:0/h",
	} {
		r := e.post(wire.PathWebhookEndpoints, vals(wire.ParamURL, u, wire.ParamEnabledEventsItem, "*"))
		body := r.fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, wire.ParamURL)
		if !strings.Contains(body.Error.Message, "url ") {
			t.Errorf("%s: refused with %q, which does not name url", u, body.Error.Message)
		}
	}
	ep := e.endpoint("http://127.0.0.1:9/h", "*")
	e.post(wire.PathWebhookEndpoints+"/"+ep.ID, vals(wire.ParamURL, "http://"+self+"/v1/customers")).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, wire.ParamURL)
	for _, u := range []string{"http://127.0.0.1:" + strconv.Itoa(portPlus(t, port)) + "/h", "http://203.0.113.5/h"} {
		e.endpoint(u, "*")
	}
}

func portPlus(t *testing.T, port string) int {
	n, err := strconv.Atoi(port)
	if err != nil {
		t.Fatal(err)
	}
	return n%65535 + 1
}

// TestWebhookTarget_Delivery: names resolving to refused addresses are
// caught when the attempt connects, recorded as failed with the refusal
// only, and nothing reaches the address; an allowed one is delivered.
func TestWebhookTarget_Delivery(t *testing.T) {
	t.Parallel()
	rc := newReceiver(t)
	rcURL, err := url.Parse(rc.URL)
	if err != nil {
		t.Fatal(err)
	}
	opts := fastHooks
	opts.Attempts = 1
	opts.Allow = []string{"hooks.internal"}
	sb := sandboxtest.Start(t, sandboxtest.WithOptions(sandbox.Options{Webhooks: opts}))
	self := netip.MustParseAddrPort(sb.HTTP.Listener.Addr().String())
	names := map[string]netip.Addr{
		"metadata.localhost": netip.MustParseAddr("169.254.169.254"),
		"receiver.localhost": netip.MustParseAddr("127.0.0.1"),
		"hooks.internal":     self.Addr(),
	}
	sandbox.SetWebhookResolver(sb.Server, func(host string) []netip.Addr { return []netip.Addr{names[host]} })
	e := envOn(t, sb, sandboxtest.NewKey(t))
	var before wire.Stats
	e.get(wire.PathSandboxStats, nil).ok(&before)

	refused := []string{
		"http://metadata.localhost/latest/meta-data",
		"http://hooks.internal:" + strconv.Itoa(int(self.Port())) + "/v1/customers",
	}
	for _, u := range refused {
		e.endpoint(u, wire.EventCustomerCreated)
	}
	ok := e.endpoint("http://receiver.localhost:"+rcURL.Port()+"/ok", wire.EventCustomerCreated)
	e.customer(nil)
	if h := rc.next(t); h.path != "/ok" {
		t.Errorf("the receiver got %s", h.path)
	}
	ds := e.waitDeliveries(nil, 3)
	for _, d := range ds {
		if d.Endpoint == ok.ID {
			if d.Status != http.StatusOK || d.Error != "" {
				t.Errorf("the allowed endpoint's attempt: %+v", d)
			}
			continue
		}
		if d.Status != 0 || !strings.HasPrefix(d.Error, "target address not allowed: ") || strings.Contains(d.Error, "dial") {
			t.Errorf("a refused target's attempt: %+v", d)
		}
	}
	var after wire.Stats
	e.get(wire.PathSandboxStats, nil).ok(&after)
	// The test's requests share one kept-alive connection; a delivery to
	// the sandbox would have opened another.
	if after.Connections != before.Connections {
		t.Errorf("the sandbox accepted %d connections during the deliveries", after.Connections-before.Connections)
	}
}

// TestWebhookTarget_RedirectNotFollowed: a receiver's redirect, to any
// address, is a failed attempt and is never followed.
func TestWebhookTarget_RedirectNotFollowed(t *testing.T) {
	t.Parallel()
	opts := fastHooks
	opts.Attempts = 1
	e := newHookEnv(t, sandbox.Options{Webhooks: opts})
	target := newReceiver(t)
	rc := newReceiver(t)
	rc.handle = func(w http.ResponseWriter, r *http.Request, _ hit) {
		http.Redirect(w, r, target.URL+"/moved", http.StatusTemporaryRedirect)
	}
	e.endpoint(rc.URL+"/h", "*")
	e.customer(nil)
	rc.next(t)
	ds := e.waitDeliveries(nil, 1)
	if d := ds[0]; d.Status != http.StatusTemporaryRedirect || !strings.Contains(d.Error, "HTTP 307") {
		t.Errorf("a redirect was recorded as %+v", d)
	}
	select {
	case h := <-target.hits:
		t.Errorf("the redirect was followed to %s", h.path)
	default:
	}
}
