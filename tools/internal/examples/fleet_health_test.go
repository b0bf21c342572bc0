package examples_test

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// checkedInstance stands in for a sandbox where the test must choose
// what /healthz answers: it names itself in every other answer, and
// records the health checks it receives.
type checkedInstance struct {
	name   string
	addr   string
	sick   atomic.Bool
	checks atomic.Int64
}

func (c *checkedInstance) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == wire.PathHealth {
		if r.Method == http.MethodGet {
			c.checks.Add(1)
		}
		if c.sick.Load() {
			http.Error(w, `{"status":"unavailable","reason":"the test says so"}`, http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte(`{"status":"ok"}`))
		return
	}
	_, _ = fmt.Fprintf(w, `{"instance":%q}`, c.name)
}

// TestFleet_HealthChecks checks that the balancer of
// examples/fleet/haproxy.cfg asks each instance GET /healthz and acts on
// its answer: an instance that answers it with 503, though it still
// answers everything else, has its accounts answered with the balancer's
// 503, never by another instance, until /healthz says 200 again.
func TestFleet_HealthChecks(t *testing.T) {
	haproxy := haproxyPath(t)
	root := repoRoot(t)
	fleet := make([]*checkedInstance, fleetSize)
	addrs := make([]string, fleetSize)
	for i := range fleet {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		c := &checkedInstance{name: fmt.Sprintf("sandbox%d", i+1), addr: l.Addr().String()}
		srv := &http.Server{Handler: c, ReadHeaderTimeout: 5 * time.Second}
		go func() { _ = srv.Serve(l) }()
		t.Cleanup(func() { _ = srv.Close() })
		fleet[i], addrs[i] = c, c.addr
	}
	bal := startBalancer(t, haproxy, root, addrs)
	waitFor(t, 10*time.Second, "a health check of every instance", func() error {
		for _, c := range fleet {
			if c.checks.Load() == 0 {
				return fmt.Errorf("%s has had no GET %s", c.name, wire.PathHealth)
			}
		}
		return nil
	})

	// Which instance answers each of 60 accounts.
	keys := make([]string, 60)
	home := make(map[string]string, len(keys))
	var mu sync.Mutex
	for i := range keys {
		keys[i] = fmt.Sprintf("%shealth_%03d_account", wire.SecretKeySandboxPrefix, i)
	}
	answeredBy := func(key string) (string, *sandboxtest.Response, error) {
		resp, err := sandboxtest.Do(nil, bal.URL, sandboxtest.Request{Method: http.MethodGet, Path: wire.PathCustomers, Key: key})
		if err != nil || resp.Status != http.StatusOK {
			return "", resp, err
		}
		for _, c := range fleet {
			if strings.Contains(string(resp.Body), `"`+c.name+`"`) {
				return c.name, resp, nil
			}
		}
		return "", resp, fmt.Errorf("an answer from no instance: %s", resp.Body)
	}
	parallel(t, keys, func(key string) error {
		name, resp, err := answeredBy(key)
		if name == "" {
			return fmt.Errorf("%v %v", err, answer(resp))
		}
		mu.Lock()
		home[key] = name
		mu.Unlock()
		return nil
	})
	if t.Failed() {
		t.FailNow()
	}

	sick := fleet[1]
	sick.sick.Store(true)
	// Every account is answered by its own instance, or, once the checks
	// have seen the sick one's 503s, by the balancer's 503: never by
	// another instance.
	waitFor(t, 10*time.Second, "the balancer to take "+sick.name+" out after its /healthz said 503", func() error {
		var waiting []string
		mu.Lock()
		defer mu.Unlock()
		for _, key := range keys {
			name, resp, err := answeredBy(key)
			switch {
			case home[key] != sick.name && name == home[key]:
			case home[key] == sick.name && name == sick.name:
				waiting = append(waiting, key)
			case home[key] == sick.name && err == nil && isDown(resp):
			default:
				t.Fatalf("an account of %s, while %s was failing its checks, was answered by %q: %v %v", home[key], sick.name, name, err, answer(resp))
			}
		}
		if len(waiting) > 0 {
			return fmt.Errorf("%d of its accounts still answered by it", len(waiting))
		}
		return nil
	})

	sick.sick.Store(false)
	waitFor(t, 10*time.Second, "the balancer to take "+sick.name+" back after its /healthz said 200", func() error {
		for _, key := range keys {
			if name, resp, err := answeredBy(key); name != home[key] {
				return fmt.Errorf("an account of %s: %q %v %v", home[key], name, err, answer(resp))
			}
		}
		return nil
	})
}
