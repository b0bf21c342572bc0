package examples_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
	"github.com/paymentsdev/terraform-provider-payments/tools/internal/build"
)

// defaultHAProxy is where Debian's haproxy package puts the program;
// PAYMENTS_HAPROXY names another one.
const defaultHAProxy = "/usr/sbin/haproxy"

// fleetConfig is the configuration under test, relative to the
// repository's root.
const fleetConfig = "examples/fleet/haproxy.cfg"

// fleetSize is the number of instances fleetConfig balances.
const fleetSize = 3

// downMessage is what the balancer answers, with a 503, for an account
// whose instance is down.
const downMessage = "The sandbox instance that holds this account is down."

// haproxyPath returns the HAProxy program, failing the test when it is
// missing: the fleet's tests never skip.
func haproxyPath(t *testing.T) string {
	t.Helper()
	path := os.Getenv("PAYMENTS_HAPROXY")
	if path == "" {
		path = defaultHAProxy
	}
	if _, err := exec.LookPath(path); err != nil {
		t.Fatalf("HAProxy is not at %s (%v): install Debian's package (apt-get install haproxy; make test does it, as root), or name the program with PAYMENTS_HAPROXY; the fleet's tests never skip", path, err)
	}
	return path
}

// repoRoot returns the repository's root.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := build.Root()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// buildSandbox builds payments-sandbox from this tree.
func buildSandbox(t *testing.T, root string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "payments-sandbox")
	if err := build.Program(context.Background(), root, "./cmd/payments-sandbox", bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

// syncBuffer is a log that two processes' outputs and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

// balancer is HAProxy running fleetConfig.
type balancer struct {
	URL  string
	log  *syncBuffer
	done chan struct{}
}

// startBalancer checks fleetConfig with `haproxy -c`, then runs it in
// front of the instances at addrs, on a free loopback port, and returns
// once it accepts connections. Its internal sockets get a name of their
// own, so that balancers of tests run at once do not meet.
func startBalancer(t *testing.T, haproxy, root string, addrs []string) *balancer {
	t.Helper()
	if len(addrs) != fleetSize {
		t.Fatalf("%s balances %d instances, not %d", fleetConfig, fleetSize, len(addrs))
	}
	listen := freeAddr(t)
	env := append(os.Environ(),
		"FLEET_LISTEN="+listen,
		fmt.Sprintf("FLEET_NAME=payments-fleet-test-%d-%d", os.Getpid(), time.Now().UnixNano()))
	for i, a := range addrs {
		env = append(env, fmt.Sprintf("SANDBOX%d_ADDR=%s", i+1, a))
	}
	cfg := filepath.Join(root, fleetConfig)
	check := exec.Command(haproxy, "-c", "-f", cfg)
	check.Env = env
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("haproxy -c -f %s: %v\n%s", fleetConfig, err, out)
	}

	b := &balancer{URL: "http://" + listen, log: &syncBuffer{}, done: make(chan struct{})}
	cmd := exec.Command(haproxy, "-db", "-f", cfg)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = b.log, b.log
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", haproxy, err)
	}
	go func() {
		_ = cmd.Wait()
		close(b.done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-b.done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-b.done
		}
		if t.Failed() {
			t.Logf("HAProxy's log:\n%s", b.log.String())
		}
	})
	waitFor(t, 10*time.Second, "HAProxy to accept connections on "+listen, func() error {
		select {
		case <-b.done:
			t.Fatalf("HAProxy exited:\n%s", b.log.String())
		default:
		}
		c, err := net.DialTimeout("tcp", listen, time.Second)
		if err != nil {
			return err
		}
		return c.Close()
	})
	return b
}

// waitFor calls cond until it returns nil, failing the test with its last
// error once timeout has passed.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := cond()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s: %v", timeout, what, err)
		}
		time.Sleep(20 * time.Millisecond) // polling interval, not an assertion's wait
	}
}

// createCustomer creates a customer named name with key at base.
func createCustomer(base, key, name string, opts ...func(*sandboxtest.Request)) (*sandboxtest.Response, string, error) {
	r := sandboxtest.Request{
		Method: http.MethodPost, Path: wire.PathCustomers, Key: key,
		Form: url.Values{wire.ParamName: {name}},
	}
	for _, o := range opts {
		o(&r)
	}
	resp, err := sandboxtest.Do(nil, base, r)
	if err != nil || resp.Status != http.StatusOK {
		return resp, "", err
	}
	var c struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(resp.Body, &c); err != nil || c.ID == "" {
		return resp, "", fmt.Errorf("a created customer without an id (%v): %s", err, resp.Body)
	}
	return resp, c.ID, nil
}

// bearer sends the request's key as a Bearer token instead, as Stripe's
// libraries do.
func bearer(r *sandboxtest.Request) {
	r.Header = http.Header{wire.HeaderAuthorization: {wire.BearerAuthorization(r.Key)}}
	r.Key = ""
}

// listCustomers returns the ids of every customer of key's account at
// base, page by page.
func listCustomers(base, key string) (map[string]bool, error) {
	ids := map[string]bool{}
	after := ""
	for {
		q := url.Values{wire.ParamLimit: {"100"}}
		if after != "" {
			q.Set(wire.ParamStartingAfter, after)
		}
		resp, err := sandboxtest.Do(nil, base, sandboxtest.Request{Method: http.MethodGet, Path: wire.PathCustomers, Key: key, Form: q})
		if err != nil {
			return nil, err
		}
		if resp.Status != http.StatusOK {
			return nil, &statusError{resp}
		}
		var page struct {
			Data []struct {
				ID string `json:"id"`
			} `json:"data"`
			HasMore bool `json:"has_more"`
		}
		if err := json.Unmarshal(resp.Body, &page); err != nil {
			return nil, fmt.Errorf("a list that is not one (%v): %s", err, resp.Body)
		}
		for _, c := range page.Data {
			ids[c.ID] = true
		}
		if !page.HasMore || len(page.Data) == 0 {
			return ids, nil
		}
		after = page.Data[len(page.Data)-1].ID
	}
}

// statusError is an answer other than 200.
type statusError struct{ resp *sandboxtest.Response }

func (e *statusError) Error() string {
	return "status " + strconv.Itoa(e.resp.Status) + ": " + strings.TrimSpace(string(e.resp.Body))
}

// isDown reports whether resp is the balancer's answer for an account
// whose instance is down.
func isDown(resp *sandboxtest.Response) bool {
	return resp != nil && resp.Status == http.StatusServiceUnavailable && bytes.Contains(resp.Body, []byte(downMessage))
}
