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
