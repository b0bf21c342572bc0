package client_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestClient_NeverFollowsRedirects: a 3xx is an error naming the status and
// the Location, and nothing reaches the server it points at, nor another
// path of the same server (where Go's client would resend Authorization).
func TestClient_NeverFollowsRedirects(t *testing.T) {
	t.Parallel()
	key := wire.SecretKeySandboxPrefix + "redirect12345"
	for _, status := range []int{
		http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect,
	} {
		for _, tc := range []struct {
			name     string
			sameHost bool
		}{{"other host", false}, {"same host", true}} {
			t.Run(http.StatusText(status)+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				var elsewhere, withAuth atomic.Int64
				record := func(r *http.Request) {
					elsewhere.Add(1)
					if r.Header.Get("Authorization") != "" {
						withAuth.Add(1)
					}
				}
				other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					record(r)
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write([]byte(`{"id":"cus_x","object":"customer"}`))
				}))
				t.Cleanup(other.Close)
				var asked atomic.Int64
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if strings.HasPrefix(r.URL.Path, "/moved") {
						record(r)
						return
					}
					asked.Add(1)
					target := other.URL + "/v1/customers?key=" + key
					if tc.sameHost {
						target = "/moved" + r.URL.Path
					}
					http.Redirect(w, r, target, status)
				}))
				t.Cleanup(srv.Close)

				c := newClient(t, srv.URL, key)
				_, err := c.CreateCustomer(context.Background(), &client.CustomerParams{})
				if n, a := elsewhere.Load(), withAuth.Load(); n != 0 || a != 0 {
					t.Errorf("the redirect's target got %d requests (%d with Authorization), want none", n, a)
				}
				e, ok := client.AsError(err)
				if !ok || e.HTTPStatus != status {
					t.Fatalf("CreateCustomer = %v, want a *client.Error of HTTP %d", err, status)
				}
				want := "redirecting to " + other.URL + "/v1/customers?…;"
				if tc.sameHost {
					want = "redirecting to " + srv.URL + "/moved/v1/customers;"
				}
				for _, part := range []string{http.StatusText(status), want, "follows no redirect", "base_url"} {
					if !strings.Contains(err.Error(), part) {
						t.Errorf("error %q does not name %q", err, part)
					}
				}
				noKeyIn(t, "the error", err.Error(), key)
				if n := asked.Load(); n != 1 {
					t.Errorf("the base URL was asked %d times, want once (a redirect is not retried)", n)
				}
			})
		}
	}
}

// TestNew_LiveKeyOverPlainHTTP: a live key is refused with an http base URL
// unless the host is loopback; a sandbox key may use http anywhere.
func TestNew_LiveKeyOverPlainHTTP(t *testing.T) {
	t.Parallel()
	live := wire.SecretKeyLivePrefix + "abcdefgh1234"
	sandbox := wire.SecretKeySandboxPrefix + "abcdefgh1234"
	for _, tc := range []struct {
		url, key string
		ok       bool
	}{
		{"http://api.example.com", live, false},
		{"http://10.0.0.5:12111", live, false},
		{"http://localhost.example.com", live, false},
		{"https://api.example.com", live, true},
		{"http://127.0.0.1:12111", live, true},
		{"http://127.8.9.10", live, true},
		{"http://[::1]:12111", live, true},
		{"http://localhost:12111", live, true},
		{"http://LOCALHOST", live, true},
		{"http://api.example.com", sandbox, true},
	} {
		_, err := client.New(client.Config{BaseURL: tc.url, SecretKey: tc.key})
		if tc.ok {
			if err != nil {
				t.Errorf("New(%s, %.8s…) = %v, want no error", tc.url, tc.key, err)
			}
			continue
		}
		var be *client.BaseURLError
		if !errors.As(err, &be) || !strings.Contains(err.Error(), "https") || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("New(%s, %.8s…) = %v, want a *BaseURLError naming https and loopback", tc.url, tc.key, err)
		}
		noKeyIn(t, "the error", err.Error(), tc.key)
	}
}
