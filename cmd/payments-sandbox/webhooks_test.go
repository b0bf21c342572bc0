package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestRun_WebhookFlags(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"-h"}, &out, &errOut); code != 0 {
		t.Fatalf("-h exits %d", code)
	}
	for _, want := range []string{"-webhook-allow", "-webhook-attempts", "(default 5)", "loopback", "-webhook-concurrency", "(default 64)",
		"own listening address", "169.254.0.0/16", "fd00:ec2::254", "host:port", "target address not allowed"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-h output lacks %q:\n%s", want, out.String())
		}
	}
	for _, n := range []string{"0", "21", "many"} {
		out.Reset()
		errOut.Reset()
		if code := run([]string{"-webhook-attempts", n}, &out, &errOut); code != 2 {
			t.Errorf("-webhook-attempts %s: exit %d, want 2 (%s)", n, code, errOut.String())
		}
	}
	for _, n := range []string{"0", "10001", "x"} {
		out.Reset()
		errOut.Reset()
		if code := run([]string{"-webhook-concurrency", n}, &out, &errOut); code != 2 {
			t.Errorf("-webhook-concurrency %s: exit %d, want 2 (%s)", n, code, errOut.String())
		}
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"-addr", "127.0.0.1:0", "-webhook-allow", "hooks.internal,10.0.0.0/33"}, &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), "10.0.0.0/33") || out.Len() != 0 {
		t.Errorf("a malformed -webhook-allow network: exit %d, stderr %s", code, errOut.String())
	}
}

// TestProgram_WebhookTargetsWhenShared: shared, by listening beyond
// loopback or by admitting a key list (behind a reverse proxy on the host,
// say), the program calls loopback only where -webhook-allow names it,
// and never its own address, which it learns once listening.
func TestProgram_WebhookTargetsWhenShared(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:0", "127.0.0.1:0"} {
		t.Run(addr, func(t *testing.T) {
			t.Parallel()
			webhookTargetsWhenShared(t, addr)
		})
	}
}

func webhookTargetsWhenShared(t *testing.T, addr string) {
	got := make(chan string, 10)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got <- r.URL.Path }))
	defer rc.Close()
	rcAddr := strings.TrimPrefix(rc.URL, "http://")
	key := sandboxtest.NewKey(t)
	p := start(t, "-addr", addr, "-key", key, "-webhook-allow", rcAddr)
	_, port, _ := strings.Cut(strings.TrimPrefix(p.url, "http://"), ":")

	create := func(target string) int {
		status, body, _ := p.call(t, key, http.MethodPost, wire.PathWebhookEndpoints,
			url.Values{wire.ParamURL: {target}, wire.ParamEnabledEventsItem: {"*"}}, "")
		if status != http.StatusOK && !strings.Contains(string(body), `"param":"url"`) {
			t.Errorf("%s: %d %s, want the url named", target, status, body)
		}
		return status
	}
	for _, target := range []string{
		p.url + "/v1/customers",                   // its own address
		"http://localhost:" + port + "/",          // the same, by name
		"http://127.0.0.1:1/h",                    // loopback, not named
		"http://169.254.169.254/latest/meta-data", // cloud metadata
	} {
		if status := create(target); status != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", target, status)
		}
	}
	if status := create(rc.URL + "/named"); status != http.StatusOK {
		t.Fatalf("the loopback receiver -webhook-allow names: %d", status)
	}
	if status, body, _ := p.call(t, key, http.MethodPost, wire.PathCustomers, url.Values{}, ""); status != http.StatusOK {
		t.Fatalf("create customer: %d %s", status, body)
	}
	select {
	case path := <-got:
		if path != "/named" {
			t.Errorf("the receiver got %s", path)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("no delivery within 15s; stderr:\n%s", p.stderr)
	}
}
