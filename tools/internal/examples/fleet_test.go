package examples_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// fleetKeys is the number of accounts the fleet test spreads.
const fleetKeys = 100

// instance is one payments-sandbox of the fleet: its address stays the
// same across a restart, and so does its data file.
type instance struct {
	name string // the server's name in fleetConfig: sandbox1, ...
	addr string
	data string
	p    *sandboxtest.Process
}

func (in *instance) url() string { return "http://" + in.addr }

func (in *instance) start(t *testing.T, bin string, log *syncBuffer) {
	t.Helper()
	addr := "127.0.0.1:0"
	if in.addr != "" {
		addr = in.addr // the port it had: the balancer knows it by it
	}
	p, err := sandboxtest.StartProcess(context.Background(), bin, sandboxtest.ProcessOptions{
		Args: []string{"-addr", addr, "-data", in.data}, Log: log,
	})
	if err != nil {
		t.Fatal(err)
	}
	in.p = p
	in.addr = strings.TrimPrefix(p.URL, "http://")
}

// TestFleet_HAProxy runs examples/fleet/haproxy.cfg with Debian's haproxy
// in front of three real sandboxes, each with its own data file, and
// checks what the guide "Running a shared sandbox" promises of it: every
// account on one instance chosen by its key, the dashboard following the
// key at sign-in and then its cookie, and an instance that stops taking
// its accounts down with it (a 503 from the balancer, never another
// instance) and back with everything it acknowledged.
func TestFleet_HAProxy(t *testing.T) {
	haproxy := haproxyPath(t)
	root := repoRoot(t)
	bin := buildSandbox(t, root)
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))

	dir := t.TempDir()
	sandboxLog := &syncBuffer{}
	fleet := make([]*instance, fleetSize)
	addrs := make([]string, fleetSize)
	for i := range fleet {
		in := &instance{name: fmt.Sprintf("sandbox%d", i+1), data: filepath.Join(dir, fmt.Sprintf("sandbox%d.db", i+1))}
		in.start(t, bin, sandboxLog)
		fleet[i], addrs[i] = in, in.addr
	}
	t.Cleanup(func() {
		for _, in := range fleet {
			if err := in.p.Stop(); err != nil {
				t.Errorf("%s: %v", in.name, err)
			}
		}
		if t.Failed() {
			t.Logf("the sandboxes' log:\n%s", sandboxLog.String())
		}
	})
	bal := startBalancer(t, haproxy, root, addrs)

	// 100 accounts, two customers each, created through the balancer: the
	// key of the second sent as a Bearer token, which must lead to the
	// same instance.
	keys := make([]string, fleetKeys)
	acked := make(map[string][]string, fleetKeys) // key: ids acknowledged
	var mu sync.Mutex
	for i := range keys {
		keys[i] = fmt.Sprintf("%sfleet_%03d_%08x", wire.SecretKeySandboxPrefix, i, rng.Uint32())
	}
	parallel(t, keys, func(key string) error {
		for j := range 2 {
			var opts []func(*sandboxtest.Request)
			if j == 1 {
				opts = append(opts, bearer)
			}
			resp, id, err := createCustomer(bal.URL, key, fmt.Sprintf("first-%d", j), opts...)
			if err != nil || id == "" {
				return fmt.Errorf("creating a customer through the balancer: %v %v", err, answer(resp))
			}
			mu.Lock()
			acked[key] = append(acked[key], id)
			mu.Unlock()
		}
		return nil
	})

	// Each account's customers are all on one instance, and only there,
	// and the balancer shows the same.
	home := map[string]int{}
	perInstance := make([]int, fleetSize)
	parallel(t, keys, func(key string) error {
		var holders []int
		for i, in := range fleet {
			ids, err := listCustomers(in.url(), key)
			if err != nil {
				return fmt.Errorf("listing on %s: %v", in.name, err)
			}
			switch {
			case len(ids) == 0:
			case containsAll(ids, acked[key]) && len(ids) == len(acked[key]):
				holders = append(holders, i)
			default:
				return fmt.Errorf("%s holds %d of the account's customers, of %d acknowledged: the account is split", in.name, len(ids), len(acked[key]))
			}
		}
		if len(holders) != 1 {
			return fmt.Errorf("the account's customers are on %d instances, want exactly 1", len(holders))
		}
		via, err := listCustomers(bal.URL, key)
		if err != nil || !containsAll(via, acked[key]) || len(via) != len(acked[key]) {
			return fmt.Errorf("through the balancer: %d customers (%v), want the %d acknowledged", len(via), err, len(acked[key]))
		}
		mu.Lock()
		home[key] = holders[0]
		perInstance[holders[0]]++
		mu.Unlock()
		return nil
	})
	t.Logf("accounts per instance: %v", perInstance)
	for i, n := range perInstance {
		if n*100 < fleetKeys*15 {
			t.Errorf("%s holds %d of %d accounts, under 15%%: the keys are not spread", fleet[i].name, n, fleetKeys)
		}
	}
	byInstance := make([][]string, fleetSize)
	for _, key := range keys {
		byInstance[home[key]] = append(byInstance[home[key]], key)
	}
	if t.Failed() {
		t.FailNow()
	}

	// A publishable key reaches the account of its secret key: a token
	// made with it is the secret key's to use. The balancer derives the
	// one from the other as the sandbox does.
	for i := range fleet {
		key := byInstance[i][0]
		if err := useToken(bal.URL, key, acked[key][0]); err != nil {
			t.Errorf("an account on %s: %v", fleet[i].name, err)
		}
	}

	// The dashboard: a sign-in follows its key, even from a browser whose
	// cookie names another instance, and the session's pages then follow
	// the cookie its answer set.
	browsers := make([]*http.Client, fleetSize)
	for i, in := range fleet {
		key := byInstance[i][0]
		stale := fleet[(i+1)%fleetSize].name
		typed := key
		if i == 0 {
			typed = "  " + key + " " // pasted with spaces, which the dashboard trims
		}
		c, err := signIn(bal.URL, typed, stale)
		if err != nil {
			t.Fatalf("signing in to an account on %s: %v", in.name, err)
		}
		browsers[i] = c
		if got := instanceCookie(c, bal.URL); got != in.name {
			t.Errorf("signing in to an account on %s set %s=%q, want %q", in.name, instanceCookieName, got, in.name)
		}
		for range 2 { // the sign-in's redirect, then a page of its own
			page, err := getPage(c, bal.URL+"/customers")
			if err != nil {
				t.Fatalf("the dashboard of an account on %s: %v", in.name, err)
			}
			for _, id := range acked[key] {
				if !strings.Contains(page, id) {
					t.Errorf("the dashboard of an account on %s lacks its customer %s", in.name, id)
				}
			}
		}
	}

	// Stop one instance while writers of every instance's accounts keep
	// writing through the balancer.
	const down = 1
	downKeys := map[string]bool{}
	for _, key := range byInstance[down] {
		downKeys[key] = true
	}
	writers := startWriters(bal.URL, append(slices.Clone(byInstance[down][:4]), append(byInstance[0][:4], byInstance[2][:4]...)...), downKeys)
	waitFor(t, 15*time.Second, "every writer's first acknowledged writes", func() error { return writers.each(func(w *writer) bool { return w.ok >= 3 }) })
	if err := fleet[down].p.Stop(); err != nil {
		t.Fatalf("stopping %s: %v", fleet[down].name, err)
	}
	writers.markStopped()
	waitFor(t, 20*time.Second, "the stopped instance's accounts to get 503, and the others' writes to go on", func() error {
		return writers.each(func(w *writer) bool {
			if home[w.key] == down {
				return w.downAfterStop >= 3
			}
			return w.okAfterStop >= 5
		})
	})
	writers.stop()
	for _, w := range writers.all {
		if w.unanswered > 0 {
			t.Logf("a writer of an account on %s had %d requests unanswered while it stopped", fleet[home[w.key]].name, w.unanswered)
		}
		if len(w.unexpected) > 0 {
			t.Errorf("a writer of an account on %s met answers other than 200 or the balancer's 503: %s", fleet[home[w.key]].name, strings.Join(w.unexpected, "; "))
		}
		if home[w.key] != down && w.down > 0 {
			t.Errorf("a writer of an account on %s, which kept running, got %d 503s", fleet[home[w.key]].name, w.down)
		}
		if home[w.key] == down && w.okAfterStop > 0 {
			t.Errorf("an account of the stopped instance had %d writes acknowledged after it stopped: another instance took them", w.okAfterStop)
		}
		acked[w.key] = append(acked[w.key], w.ids...)
	}
	// Every account, read through the balancer: the stopped instance's
	// get the 503, the others their customers.
	parallel(t, keys, func(key string) error {
		if home[key] == down {
			resp, err := sandboxtest.Do(nil, bal.URL, sandboxtest.Request{Method: http.MethodGet, Path: wire.PathCustomers, Key: key})
			if err != nil || !isDown(resp) {
				return fmt.Errorf("an account of the stopped instance: %v %v, want the balancer's 503", err, answer(resp))
			}
			return nil
		}
		via, err := listCustomers(bal.URL, key)
		if err != nil || !containsAll(via, acked[key]) {
			return fmt.Errorf("an account on a running instance, while %s is stopped: %v", fleet[down].name, err)
		}
		return nil
	})
	resp, err := doPage(browsers[down], http.MethodGet, bal.URL+"/customers")
	if err != nil || !isDown(resp) {
		t.Errorf("a dashboard session of the stopped instance: %v %v, want the balancer's 503", err, answer(resp))
	}

	// Back on its data file, the instance has every write it acknowledged,
	// and every account is still whole on its one instance.
	fleet[down].start(t, bin, sandboxLog)
	waitFor(t, 20*time.Second, "the balancer to send the restarted instance's accounts to it", func() error {
		_, err := listCustomers(bal.URL, byInstance[down][0])
		return err
	})
	parallel(t, keys, func(key string) error {
		via, err := listCustomers(bal.URL, key)
		if err != nil || !containsAll(via, acked[key]) {
			return fmt.Errorf("through the balancer after the restart: %d customers (%v), want the %d acknowledged", len(via), err, len(acked[key]))
		}
		for i, in := range fleet {
			ids, err := listCustomers(in.url(), key)
			switch {
			case err != nil:
				return fmt.Errorf("listing on %s: %v", in.name, err)
			case i == home[key] && !sameSet(ids, via):
				return fmt.Errorf("its instance %s holds %d customers, the balancer shows %d", in.name, len(ids), len(via))
			case i != home[key] && len(ids) > 0:
				return fmt.Errorf("%s, not its instance, holds %d of its customers", in.name, len(ids))
			}
		}
		return nil
	})
}

// parallel runs f for every key, eight at a time, and reports each error
// with the key's index (never the key).
func parallel(t *testing.T, keys []string, f func(key string) error) {
	t.Helper()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	errs := make([]error, len(keys))
	for i, key := range keys {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = f(key)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("account %d: %v", i, err)
		}
	}
}

func containsAll(set map[string]bool, ids []string) bool {
	for _, id := range ids {
		if !set[id] {
			return false
		}
	}
	return true
}

func sameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for id := range a {
		if !b[id] {
			return false
		}
	}
	return true
}

// answer describes a response for a failure message.
func answer(resp *sandboxtest.Response) string {
	if resp == nil {
		return "(no answer)"
	}
	return fmt.Sprintf("status %d: %s", resp.Status, bytes.TrimSpace(resp.Body))
}

// useToken reads the account's publishable key with key, makes a card
// token with it, and attaches the token to the customer with key: all
// three must reach the same account, through the balancer.
func useToken(base, key, customer string) error {
	resp, err := sandboxtest.Do(nil, base, sandboxtest.Request{Method: http.MethodGet, Path: wire.PathSandboxAccount, Key: key})
	if err != nil || resp.Status != http.StatusOK {
		return fmt.Errorf("reading the publishable key: %v %v", err, answer(resp))
	}
	var acct wire.SandboxAccount
	if err := json.Unmarshal(resp.Body, &acct); err != nil || acct.PublishableKey == "" {
		return fmt.Errorf("an account without a publishable key (%v)", err)
	}
	pk := acct.PublishableKey
	resp, err = sandboxtest.Do(nil, base, sandboxtest.Request{
		Method: http.MethodPost, Path: wire.PathTokens, Key: pk,
		Form: url.Values{wire.ParamCardNumber: {"4242424242424242"}, wire.ParamCardExpMonth: {"12"}, wire.ParamCardExpYear: {"2040"}, wire.ParamCardCVC: {"123"}},
	})
	if err != nil || resp.Status != http.StatusOK {
		return fmt.Errorf("a token with the publishable key: %v %v", err, answer(resp))
	}
	var tok struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(resp.Body, &tok); err != nil || tok.ID == "" {
		return fmt.Errorf("a token without an id (%v): %s", err, resp.Body)
	}
	resp, err = sandboxtest.Do(nil, base, sandboxtest.Request{
		Method: http.MethodPost, Path: wire.ExpandPath(wire.PathCustomerSources, url.PathEscape, customer), Key: key,
		Form: url.Values{wire.ParamSource: {tok.ID}},
	})
	if err != nil || resp.Status != http.StatusOK {
		return fmt.Errorf("attaching the publishable key's token with the secret key: %v %v", err, answer(resp))
	}
	return nil
}

// instanceCookieName is the cookie fleetConfig pins a dashboard session
// with.
const instanceCookieName = "sandbox_instance"

// signIn signs in to the dashboard at base with key, from a browser whose
// instance cookie names stale, and returns that browser.
func signIn(base, key, stale string) (*http.Client, error) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	jar.SetCookies(u, []*http.Cookie{{Name: instanceCookieName, Value: stale, Path: "/"}})
	c := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	resp, err := c.PostForm(base+"/sign-in", url.Values{"key": {key}})
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Request.URL.Path != "/" {
		return nil, fmt.Errorf("the sign-in ended with status %d at %s, want 200 at / (the account's home page)", resp.StatusCode, resp.Request.URL.Path)
	}
	return c, nil
}

func instanceCookie(c *http.Client, base string) string {
	u, _ := url.Parse(base)
	for _, ck := range c.Jar.Cookies(u) {
		if ck.Name == instanceCookieName {
			return ck.Value
		}
	}
	return ""
}

func doPage(c *http.Client, method, u string) (*sandboxtest.Response, error) {
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(resp.Body); err != nil {
		return nil, err
	}
	return &sandboxtest.Response{Status: resp.StatusCode, Header: resp.Header, Body: b.Bytes()}, nil
}

func getPage(c *http.Client, u string) (string, error) {
	resp, err := doPage(c, http.MethodGet, u)
	if err != nil {
		return "", err
	}
	if resp.Status != http.StatusOK {
		return "", fmt.Errorf("GET %s: %s", u, answer(resp))
	}
	return string(resp.Body), nil
}

// writer creates customers for one account, one after another, and
// counts the answers.
type writer struct {
	key                 string
	ids                 []string // acknowledged
	ok, okAfterStop     int
	down, downAfterStop int
	unanswered          int // sent while the instance stopped, and unanswered
	unexpected          []string
}

type writers struct {
	mu      sync.Mutex
	all     []*writer
	stopped atomic.Bool // the instance has stopped
	quit    chan struct{}
	wg      sync.WaitGroup
}

// startWriters starts a writer for each key; downKeys are the accounts
// of the instance that will stop.
func startWriters(base string, keys []string, downKeys map[string]bool) *writers {
	ws := &writers{quit: make(chan struct{})}
	for _, key := range keys {
		w := &writer{key: key}
		ws.all = append(ws.all, w)
		ws.wg.Add(1)
		go func() {
			defer ws.wg.Done()
			for n := 0; ; n++ {
				select {
				case <-ws.quit:
					return
				default:
				}
				stopped := ws.stopped.Load()
				resp, id, err := createCustomer(base, key, fmt.Sprintf("writer-%d", n))
				ws.mu.Lock()
				switch {
				case id != "":
					w.ids = append(w.ids, id)
					w.ok++
					if stopped {
						w.okAfterStop++
					}
				case err == nil && isDown(resp):
					w.down++
					if stopped {
						w.downAfterStop++
					}
				case !stopped && downKeys[key]:
					// Sent while its instance was stopping: a request on a
					// connection the instance closed gets no answer, as
					// with any restart of a single sandbox. It was not
					// acknowledged; clients retry it (the provider with
					// the same Idempotency-Key).
					w.unanswered++
				default:
					if len(w.unexpected) < 5 {
						w.unexpected = append(w.unexpected, fmt.Sprintf("%v %v", err, answer(resp)))
					}
				}
				ws.mu.Unlock()
			}
		}()
	}
	return ws
}

// markStopped records that the instance has stopped: answers to requests
// sent from now on count as after the stop.
func (ws *writers) markStopped() { ws.stopped.Store(true) }

func (ws *writers) stop() {
	close(ws.quit)
	ws.wg.Wait()
}

// each reports nil when ok holds for every writer.
func (ws *writers) each(ok func(*writer) bool) error {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for i, w := range ws.all {
		if !ok(w) {
			return fmt.Errorf("writer %d: %d acknowledged (%d after the stop), %d 503s (%d after the stop), unexpected: %v",
				i, w.ok, w.okAfterStop, w.down, w.downAfterStop, w.unexpected)
		}
	}
	return nil
}
