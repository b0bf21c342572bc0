package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestHostPolicy_Allows(t *testing.T) {
	for _, tc := range []struct {
		listen  string
		allowed []string
		host    string
		want    bool
	}{
		// The names of a loopback sandbox, on any port.
		{"127.0.0.1", nil, "127.0.0.1", true},
		{"127.0.0.1", nil, "127.0.0.1:12111", true},
		{"127.0.0.1", nil, "127.0.0.1:8080", true},
		{"127.0.0.1", nil, "localhost", true},
		{"127.0.0.1", nil, "localhost:12111", true},
		{"127.0.0.1", nil, "LOCALHOST:12111", true},
		{"127.0.0.1", nil, "localhost.:12111", true},
		{"127.0.0.1", nil, "app.localhost:3000", false},
		{"127.0.0.1", nil, "[::1]", true},
		{"127.0.0.1", nil, "[::1]:12111", true},
		{"127.0.0.1", nil, "[0:0::1]:1", true},
		{"127.0.0.1", nil, "127.0.0.1:", true},
		// Only the addresses the docs list, unless -addr or -allowed-hosts
		// names another.
		{"127.0.0.1", nil, "192.0.2.7:12111", false},
		{"127.0.0.1", nil, "[2001:db8::1]:12111", false},
		{"192.0.2.7", nil, "192.0.2.7:12111", true},
		{"0.0.0.0", nil, "192.0.2.7:12111", false},
		{"127.0.0.1", []string{"192.0.2.7", "2001:db8::1"}, "192.0.2.7:12111", true},
		{"127.0.0.1", []string{"2001:db8::1"}, "[2001:db8::1]:12111", true},
		// HTTP/1.0 without Host: no browser sends that.
		{"127.0.0.1", nil, "", true},
		// Rebinding names, in every spelling.
		{"127.0.0.1", nil, "rebind.attacker.example", false},
		{"127.0.0.1", nil, "rebind.attacker.example:12111", false},
		{"127.0.0.1", nil, "REBIND.Attacker.Example.:12111", false},
		{"127.0.0.1", nil, "localhost.attacker.example", false},
		{"127.0.0.1", nil, "attackerlocalhost", false},
		{"127.0.0.1", nil, "127.0.0.1.nip.io:12111", false},
		// Malformed hosts are no names of this sandbox.
		{"127.0.0.1", nil, "[::1", false},
		{"127.0.0.1", nil, "[::1]x", false},
		{"127.0.0.1", nil, "[fe80::1%25eth0]:1", false},
		{"127.0.0.1", nil, "localhost:port", false},
		{"127.0.0.1", nil, "localhost:1234567", false},
		{"127.0.0.1", nil, ":12111", false},
		{"127.0.0.1", nil, ".", false},
		// The -addr host, when it is a name.
		{"sandbox.lan", nil, "sandbox.lan:12111", true},
		{"Sandbox.LAN", nil, "sandbox.lan.", true},
		{"sandbox.lan", nil, "other.lan", false},
		{"", nil, "localhost", true},
		// -allowed-hosts.
		{"127.0.0.1", []string{"dev.example.test"}, "dev.example.test:443", true},
		{"127.0.0.1", []string{"dev.example.test"}, "DEV.example.test.", true},
		{"127.0.0.1", []string{"dev.example.test"}, "x.dev.example.test", false},
		{"127.0.0.1", []string{".example.test"}, "example.test", true},
		{"127.0.0.1", []string{".example.test"}, "a.b.example.test:1", true},
		{"127.0.0.1", []string{".example.test"}, "badexample.test", false},
		{"127.0.0.1", []string{"*"}, "rebind.attacker.example", true},
	} {
		p := newHostPolicy(tc.listen, tc.allowed)
		if got := p.allows(tc.host); got != tc.want {
			t.Errorf("listen %q, -allowed-hosts %q: allows(%q) = %v, want %v", tc.listen, tc.allowed, tc.host, got, tc.want)
		}
	}
}

func TestHostNames_Set(t *testing.T) {
	var h hostNames
	if err := h.Set(" a.test, .b.test ,*,"); err != nil {
		t.Fatal(err)
	}
	if err := h.Set("C.test."); err != nil {
		t.Fatal(err)
	}
	if got, want := h.String(), "a.test,.b.test,*,C.test."; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	for _, bad := range []string{"http://a.test", "a.test:8080", "[::1]", ".", "a b"} {
		var h hostNames
		err := h.Set(bad)
		if err == nil || !strings.Contains(err.Error(), "-allowed-hosts") {
			t.Errorf("Set(%q) = %v, want an error naming -allowed-hosts", bad, err)
		}
	}
}

// TestProgram_HostCheck: a keyless sandbox answers 421 host_not_allowed to
// a foreign Host on the API, the controls and the dashboard's sign-in,
// through the real listener, and answers its own names; -allowed-hosts
// adds names; a sandbox with keys answers every Host.
func TestProgram_HostCheck(t *testing.T) {
	key := wire.SecretKeySandboxPrefix + "hostcheck001"
	send := func(t *testing.T, base, host, method, path, body string, withKey bool) (int, []byte) {
		t.Helper()
		r, err := http.NewRequest(method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		r.Host = host
		if withKey {
			r.SetBasicAuth(key, "")
		}
		if body != "" {
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	hookURL := url.Values{"url": {"http://127.0.0.1:9/hook"}, "enabled_events[]": {"*"}}.Encode()
	requests := []struct{ name, method, path, body string }{
		{"API", http.MethodPost, wire.PathWebhookEndpoints, hookURL},
		{"controls", http.MethodPost, wire.PathSandboxReset, ""},
		{"dashboard sign-in", http.MethodPost, "/sign-in", url.Values{"key": {key}}.Encode()},
		{"dashboard", http.MethodGet, "/", ""},
	}

	t.Run("keyless", func(t *testing.T) {
		p := start(t, "-addr", "127.0.0.1:0", "-allowed-hosts", "sandbox.example.test")
		port := strings.TrimPrefix(p.url, "http://127.0.0.1")
		for _, rq := range requests {
			for _, host := range []string{"rebind.attacker.example" + port, "Rebind.Attacker.Example.", "localhost.attacker.example:80"} {
				st, b := send(t, p.url, host, rq.method, rq.path, rq.body, rq.name != "dashboard" && rq.name != "dashboard sign-in")
				if st != http.StatusMisdirectedRequest {
					t.Errorf("%s with Host %q: %d %s, want 421", rq.name, host, st, b)
					continue
				}
				eb := decode[wire.ErrorBody](t, b)
				if eb.Error == nil || eb.Error.Code != wire.ErrorCodeHostNotAllowed || !strings.Contains(eb.Error.Message, "-allowed-hosts") {
					t.Errorf("%s with Host %q: %s, want code %s naming -allowed-hosts", rq.name, host, b, wire.ErrorCodeHostNotAllowed)
				}
			}
		}
		// Nothing was made under the foreign Host.
		if st, b := send(t, p.url, "localhost"+port, http.MethodGet, wire.PathWebhookEndpoints, "", true); st != 200 ||
			len(decode[wire.List[wire.WebhookEndpoint]](t, b).Data) != 0 {
			t.Errorf("after the refusals: %d %s, want an empty list", st, b)
		}
		for _, host := range []string{"127.0.0.1" + port, "localhost" + port, "LocalHost.", "[::1]" + port, "sandbox.example.test", "SANDBOX.example.test.:443"} {
			if st, b := send(t, p.url, host, http.MethodGet, wire.PathCustomers, "", true); st != 200 {
				t.Errorf("API with Host %q: %d %s, want 200", host, st, b)
			}
			if st, b := send(t, p.url, host, http.MethodGet, "/", "", false); st != 200 {
				t.Errorf("dashboard with Host %q: %d %.200s, want 200", host, st, b)
			}
		}
		// HTTP/1.0 without a Host header, as no browser sends.
		if st := rawStatus(t, p.url, "GET "+wire.PathHealth+" HTTP/1.0\r\n\r\n"); st != 200 {
			t.Errorf("HTTP/1.0 without Host: %d, want 200", st)
		}
	})

	t.Run("keys", func(t *testing.T) {
		// A keyed sandbox calls loopback only where -webhook-allow names it.
		p := start(t, "-addr", "127.0.0.1:0", "-key", key, "-webhook-allow", "127.0.0.1:9")
		for _, rq := range requests[:2] {
			if st, b := send(t, p.url, "rebind.attacker.example", rq.method, rq.path, rq.body, true); st != 200 {
				t.Errorf("%s with a key and a foreign Host: %d %s, want 200", rq.name, st, b)
			}
			if st, b := send(t, p.url, "rebind.attacker.example", rq.method, rq.path, rq.body, false); st != http.StatusUnauthorized {
				t.Errorf("%s without a key: %d %s, want 401", rq.name, st, b)
			}
		}
	})
}

// rawStatus sends a raw request on a new connection and reads the status.
func rawStatus(t *testing.T, base, raw string) int {
	t.Helper()
	c, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestHostCheck_MasksKeys: the 421's message repeats the Host it refused,
// and a key pasted there is masked like everywhere else.
func TestHostCheck_MasksKeys(t *testing.T) {
	const key = "sk_sandbox_hostcheckkey0123"
	h := hostCheck(newHostPolicy("127.0.0.1", nil), http.NotFoundHandler())
	r := httptest.NewRequest(http.MethodGet, "/v1/customers", nil)
	r.Host = key + ".attacker.example"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusMisdirectedRequest {
		t.Fatalf("status %d, want 421", w.Code)
	}
	if body := w.Body.String(); strings.Contains(body, key) || !strings.Contains(body, "redacted key") {
		t.Errorf("the 421 shows the key or does not say it was masked: %s", body)
	}
}
