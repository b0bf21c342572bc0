package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestIsLoopback_ListenerAddrs: what -addr listens on, as the listener
// reports it (localhost is 127.0.0.1 by then; an empty host is the
// unspecified one).
func TestIsLoopback_ListenerAddrs(t *testing.T) {
	for _, tc := range []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:12111", true},
		{"127.8.9.10:0", true},
		{"[::1]:12111", true},
		{"[::ffff:127.0.0.1]:1", true},
		{"0.0.0.0:12111", false},
		{"[::]:12111", false},
		{"192.0.2.7:12111", false},
		{"[2001:db8::1]:12111", false},
	} {
		ap := netip.MustParseAddrPort(tc.addr)
		if got := isLoopback(net.TCPAddrFromAddrPort(ap)); got != tc.want {
			t.Errorf("isLoopback(%v) = %v, want %v", tc.addr, got, tc.want)
		}
	}
	if isLoopback(&net.UnixAddr{Name: "/tmp/x", Net: "unix"}) {
		t.Error("a unix socket address counts as loopback")
	}
}

func TestCheckExposure_Addresses(t *testing.T) {
	for _, tc := range []struct {
		addr    string
		keys    int
		open    bool
		refused bool
	}{
		{"127.0.0.1:0", 0, false, false},
		{"localhost:0", 0, false, false},
		{":0", 0, false, true},
		{"0.0.0.0:0", 0, false, true},
		{"[::]:0", 0, false, true},
		{":0", 1, false, false},
		{":0", 0, true, false},
	} {
		ln, err := net.Listen("tcp", tc.addr)
		if err != nil {
			t.Fatal(err)
		}
		ln.Close()
		sf := &serviceFlags{open: tc.open}
		err = sf.checkExposure(tc.addr, ln.Addr(), tc.keys)
		if (err != nil) != tc.refused {
			t.Errorf("%s keys=%d open=%v: err = %v, want refused %v", tc.addr, tc.keys, tc.open, err, tc.refused)
			continue
		}
		if err != nil {
			for _, want := range []string{tc.addr, "beyond loopback", "-key", "-key-file", envKeys, "-open"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%s: %q lacks %q", tc.addr, err, want)
				}
			}
		}
	}
}

// TestGatherKeys_Sources: keys come from -key, the environment and the key
// file; every error names where the bad key is and never the key.
func TestGatherKeys_Sources(t *testing.T) {
	a, b, c := wire.SecretKeySandboxPrefix+"alpha0001", wire.SecretKeySandboxPrefix+"bravo0002", wire.SecretKeySandboxPrefix+"charlie003"
	const bad = "sk_live_secretsecret9"
	for _, tc := range []struct {
		name    string
		flags   []string
		env     string
		file    *string // nil: no -key-file
		mode    os.FileMode
		want    []string
		wantErr string
	}{
		{name: "none", want: nil},
		{name: "flags only", flags: []string{a}, want: []string{a}},
		{name: "env", env: " " + a + ", ," + b + ",", want: []string{a, b}},
		{name: "file", file: ptr("# team keys\n" + a + "\n\n  " + b + "  # ci\r\n"), want: []string{a, b}},
		{name: "all three", flags: []string{a}, env: b, file: ptr(c + "\n"), want: []string{a, b, c}},
		{name: "empty file", file: ptr("# nobody yet\n\n"), wantErr: "has no keys"},
		{name: "empty file beside a flag key", flags: []string{a}, file: ptr(""), want: []string{a}},
		{name: "bad file line", file: ptr(a + "\n# x\n" + bad + "\n"), wantErr: "line 3 is not a sandbox secret key"},
		{name: "two keys on a line", file: ptr(a + " " + b + "\n"), wantErr: "line 1 is not"},
		{name: "bad env entry", env: a + "," + bad, wantErr: envKeys + " entry number 2 is not"},
		{name: "file read-only by its owner", file: ptr(a + "\n"), mode: 0o400, want: []string{a}},
		{name: "file readable by others", file: ptr(a + "\n"), mode: 0o644, wantErr: "accessible to group or others (mode 0644)"},
		{name: "file readable by group", file: ptr(a + "\n"), mode: 0o640, wantErr: "run chmod 600"},
		{name: "file writable by group", file: ptr(a + "\n"), mode: 0o620, wantErr: "(mode 0620)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sf := &serviceFlags{}
			if tc.file != nil {
				sf.keyFile = filepath.Join(t.TempDir(), "keys")
				if err := os.WriteFile(sf.keyFile, []byte(*tc.file), 0o600); err != nil {
					t.Fatal(err)
				}
				if tc.mode != 0 {
					// Chmod: the umask does not narrow it as it does WriteFile's.
					if err := os.Chmod(sf.keyFile, tc.mode); err != nil {
						t.Fatal(err)
					}
				}
			}
			got, err := sf.gatherKeys(tc.flags, func(name string) string {
				if name == envKeys {
					return tc.env
				}
				return ""
			})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				for _, k := range []string{a, b, c, bad} {
					if strings.Contains(err.Error(), k) {
						t.Errorf("the error quotes a key: %v", err)
					}
				}
				return
			}
			if err != nil || fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	sf := &serviceFlags{keyFile: filepath.Join(t.TempDir(), "missing")}
	if _, err := sf.gatherKeys(nil, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "-key-file") || !strings.Contains(err.Error(), "missing") {
		t.Errorf("a missing key file: err = %v, want one naming -key-file and the file", err)
	}
}

func ptr[T any](v T) *T { return &v }

// TestRun_BadServiceSettings: each mistake exits 2 with one line naming the
// flag or variable and the fix, never a key.
func TestRun_BadServiceSettings(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(keyFile, []byte("# ok\nsk_live_secretsecret9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args  []string
		env   string
		names []string
	}{
		{[]string{"-log-format", "xml"}, "", []string{"-log-format", "text or json"}},
		{[]string{"-max-connections", "0"}, "", []string{"-max-connections", "1 or more"}},
		{[]string{"-body-timeout", "0s"}, "", []string{"-body-timeout", "not positive"}},
		{[]string{"-read-header-timeout", "-1s"}, "", []string{"-read-header-timeout"}},
		{[]string{"-key-file", keyFile}, "", []string{"-key-file", "line 2"}},
		{[]string{"-key-file", keyFile + ".missing"}, "", []string{"-key-file", "no such file"}},
		{nil, "sk_live_secretsecret9", []string{envKeys, "entry number 1"}},
		{[]string{"-addr", ":0"}, "", []string{"beyond loopback", "-open", "-key-file"}},
		{[]string{"-addr", "0.0.0.0:0"}, "", []string{"beyond loopback"}},
	} {
		t.Setenv(envKeys, tc.env)
		var out, errOut bytes.Buffer
		if code := run(tc.args, &out, &errOut); code != 2 {
			t.Errorf("%v %s: exit %d, want 2 (%s)", tc.args, tc.env, code, errOut.String())
		}
		msg := errOut.String()
		if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "payments-sandbox: ") {
			t.Errorf("%v: want one line, got %q", tc.args, msg)
		}
		for _, want := range tc.names {
			if !strings.Contains(msg, want) {
				t.Errorf("%v: %q lacks %q", tc.args, msg, want)
			}
		}
		if strings.Contains(msg, "secretsecret") {
			t.Errorf("%v: the error quotes a key: %s", tc.args, msg)
		}
		if out.Len() != 0 {
			t.Errorf("%v: wrote to stdout: %q", tc.args, out.String())
		}
	}
}

// TestRun_ServiceHelp: -h documents each flag of a shared sandbox with its
// default, and prints no key, not even one given in the environment.
func TestRun_ServiceHelp(t *testing.T) {
	t.Setenv(envKeys, wire.SecretKeySandboxPrefix+"helpsecret01")
	var out, errOut bytes.Buffer
	if code := run([]string{"-h", "-key", wire.SecretKeySandboxPrefix + "helpsecret02"}, &out, &errOut); code != 0 {
		t.Fatalf("-h exits %d", code)
	}
	help := out.String()
	for _, want := range []string{
		"-read-header-timeout", "(default 5s)", "-body-timeout", "(default 30s)", "-write-timeout", "(default 2m0s)",
		"-idle-timeout", "-max-connections", "(default 512)", "-key-file", "SIGHUP", envKeys, "-open", "-log-format", `(default "text")`,
	} {
		if !strings.Contains(help, want) {
			t.Errorf("-h lacks %q", want)
		}
	}
	if strings.Contains(help, "helpsecret") {
		t.Errorf("-h prints a key:\n%s", help)
	}
}

// TestLimitListener_WaitsAtCap: beyond the cap, Accept waits (and counts
// the wait) until a connection closes; nothing is refused.
func TestLimitListener_WaitsAtCap(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	waits := make(chan struct{}, 10)
	ln := limitListener(inner, 2, func() { waits <- struct{}{} })
	defer ln.Close()
	accepted := make(chan net.Conn, 3)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	for range 3 {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	first, second := <-accepted, <-accepted
	defer second.Close()
	<-waits // the third waits for a free slot
	select {
	case <-accepted:
		t.Fatal("a third connection was accepted beyond the cap of 2")
	default:
	}
	first.Close()
	first.Close() // a second Close must not free a second slot
	third := <-accepted
	defer third.Close()
}

// TestProgram_SlowClients: 200 connections trickling their headers or their
// body a byte a second neither keep a normal request from being answered
// within 100 ms, nor stay open past their timeout (and a margin). It runs
// the program itself, so the http.Server is exactly the one it serves.
func TestProgram_SlowClients(t *testing.T) {
	const timeout, margin, slow = 2 * time.Second, 3 * time.Second, 200
	key := wire.SecretKeySandboxPrefix + "slowclients1"
	p := start(t, "-addr", "127.0.0.1:0", "-key", key, "-read-header-timeout", timeout.String(), "-body-timeout", timeout.String())
	host := strings.TrimPrefix(p.url, "http://")
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	normal := func() (time.Duration, error) {
		began := time.Now()
		r, err := sandboxtest.Do(hc, p.url, sandboxtest.Request{Method: http.MethodPost, Path: wire.PathCustomers, Key: key, Form: url.Values{"name": {"normal"}}})
		if err == nil && r.Status != 200 {
			err = fmt.Errorf("status %d: %s", r.Status, r.Body)
		}
		return time.Since(began), err
	}
	// The account exists before the slow clients come: what is measured
	// is their effect, not a first request's.
	if _, err := normal(); err != nil {
		t.Fatal(err)
	}

	type result struct {
		lived time.Duration
		err   error
	}
	results := make(chan result, slow)
	var stop sync.WaitGroup
	quit := make(chan struct{})
	defer func() { close(quit); stop.Wait() }()
	for i := range slow {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		head := "POST /v1/customers HTTP/1.1\r\nHost: " + host + "\r\n"
		switch i % 3 {
		case 0: // trickles its headers
		case 1: // trickles its body
			head += "Authorization: Basic " + basic(key) + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n"
		case 2: // trickles a body the sandbox refuses unread (no key: 401)
			head += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n"
		}
		if _, err := io.WriteString(c, head); err != nil {
			t.Fatal(err)
		}
		began := time.Now()
		stop.Add(2)
		go func() { // a byte a second until the server closes
			defer stop.Done()
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for {
				select {
				case <-quit: // unblocks the reader if the server never closed
					c.Close()
					return
				case <-tick.C:
					if _, err := c.Write([]byte("a")); err != nil {
						return
					}
				}
			}
		}()
		go func() { // reads until the server closes the connection
			defer stop.Done()
			_, err := io.Copy(io.Discard, c)
			results <- result{time.Since(began), err}
			c.Close()
		}()
	}

	// Wait until the server has accepted every slow connection (and the
	// first request's), so that the normal requests come beside all 200.
	waitUntil := time.Now().Add(15 * time.Second)
	for {
		resp, err := hc.Get(p.url + wire.PathMetrics)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var accepted float64
		for line := range strings.Lines(string(b)) {
			if v, ok := strings.CutPrefix(line, "payments_sandbox_connections_accepted_total "); ok {
				accepted, _ = strconv.ParseFloat(strings.TrimSpace(v), 64)
			}
		}
		if accepted >= slow+1 {
			break
		}
		if time.Now().After(waitUntil) {
			t.Fatalf("the server accepted %v connections within 15s, want %d", accepted, slow+1)
		}
		time.Sleep(10 * time.Millisecond)
	}
	var slowest, longest time.Duration
	for i := range 10 {
		took, err := normal()
		if err != nil {
			t.Fatalf("normal request %d beside %d slow clients: %v", i, slow, err)
		}
		if took > 100*time.Millisecond {
			t.Errorf("normal request %d took %v beside %d slow clients, want at most 100ms", i, took, slow)
		}
		slowest = max(slowest, took)
	}

	deadline := time.After(timeout + margin + 10*time.Second)
	for i := range slow {
		select {
		case r := <-results:
			longest = max(longest, r.lived)
			if r.lived > timeout+margin {
				t.Errorf("a slow connection stayed open %v, past the %v timeout and %v margin (%v)", r.lived, timeout, margin, r.err)
			}
		case <-deadline:
			t.Fatalf("%d of %d slow connections still open long past the %v timeout", slow-i, slow, timeout)
		}
	}
	t.Logf("beside %d slow clients: the slowest of 10 normal requests took %v; the longest-lived slow connection %v (timeout %v)", slow, slowest, longest, timeout)
}

func basic(key string) string {
	r, _ := http.NewRequest(http.MethodGet, "http://x/", nil)
	r.SetBasicAuth(key, "")
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Basic ")
}

// TestProgram_BodyTimeoutSparesSlowAnswers: an answer slower than -body-timeout
// (a latency fault, slept before the body is read) still comes, whole.
func TestProgram_BodyTimeoutSparesSlowAnswers(t *testing.T) {
	key := wire.SecretKeySandboxPrefix + "slowanswer01"
	p := start(t, "-addr", "127.0.0.1:0", "-body-timeout", "500ms")
	if st, b, _ := p.call(t, key, http.MethodPost, wire.PathSandboxFaults, url.Values{wire.ParamLatencyMS: {"1500"}}, ""); st != 200 {
		t.Fatalf("setting a latency fault: %d %s", st, b)
	}
	form := url.Values{"name": {"slow"}}
	for i := range 40 {
		form.Set(fmt.Sprintf("metadata[k%02d]", i), strings.Repeat("v", wire.MetadataValueMaxLength))
	}
	began := time.Now()
	if st, b, _ := p.call(t, key, http.MethodPost, wire.PathCustomers, form, ""); st != 200 {
		t.Errorf("a request slower than -body-timeout: %d %s", st, b)
	}
	// Not a speed check: a latency fault cut short by a cancelled request
	// context would answer before its 1.5 s.
	if took := time.Since(began); took < 1500*time.Millisecond {
		t.Errorf("answered after %v: the 1.5s latency fault was cut short", took)
	}
}

// TestProgram_ExposureFlags: beyond loopback the program serves with keys
// or with
// -open, and names the listener's loopback address.
func TestProgram_ExposureFlags(t *testing.T) {
	key := wire.SecretKeySandboxPrefix + "exposure0001"
	for _, tc := range []struct {
		name string
		env  []string
		args []string
	}{
		{"-open", nil, []string{"-addr", ":0", "-open"}},
		{"-key", nil, []string{"-addr", "0.0.0.0:0", "-key", key}},
		{envKeys, []string{envKeys + "=" + key}, []string{"-addr", ":0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := startEnv(t, tc.env, tc.args...)
			if st, b, _ := p.call(t, key, http.MethodGet, wire.PathCustomers, nil, ""); st != 200 {
				t.Errorf("%d %s", st, b)
			}
		})
	}
}

// TestProgram_KeyFileReload: SIGHUP re-reads -key-file: added keys are
// admitted, removed ones refused; a bad file keeps the keys in use and the
// log names its line, never a key. Keys from the environment stay
// throughout.
func TestProgram_KeyFileReload(t *testing.T) {
	k := func(s string) string { return wire.SecretKeySandboxPrefix + "reload" + s }
	a, b, envKey := k("alpha1"), k("bravo2"), k("envkey")
	file := filepath.Join(t.TempDir(), "keys")
	write := func(content string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("# the team\n" + a + "\n")
	p := startEnv(t, []string{envKeys + "=" + envKey}, "-addr", "127.0.0.1:0", "-key-file", file, "-log-format", "json")
	hup := func(wantLog string) {
		t.Helper()
		want := strings.Count(p.stderr.String(), wantLog) + 1
		if err := p.cmd.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for strings.Count(p.stderr.String(), wantLog) < want {
			if time.Now().After(deadline) {
				t.Fatalf("no new %q logged after SIGHUP:\n%s", wantLog, p.stderr)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	reloaded, failed := `"msg":"keys reloaded"`, `"msg":"reloading the keys failed`
	for _, step := range []struct {
		name     string
		file     string
		log      string
		admitted []string
		refused  []string
	}{
		{"as started", "", "", []string{a, envKey}, []string{b}},
		{"b added", a + "\n" + b + "\n", reloaded, []string{a, b, envKey}, nil},
		{"a removed", b + "\n", reloaded, []string{b, envKey}, []string{a}},
		{"bad line 3 keeps b", a + "\n\nsk_live_secretsecret9\n", failed, []string{b, envKey}, []string{a}},
		{"emptied: still only env", "# none\n", reloaded, []string{envKey}, []string{a, b}},
	} {
		if step.log != "" {
			write(step.file)
			hup(step.log)
		}
		for _, key := range step.admitted {
			if st, body, _ := p.call(t, key, http.MethodGet, wire.PathCustomers, nil, ""); st != 200 {
				t.Errorf("%s: a key that should be admitted: %d %s", step.name, st, body)
			}
		}
		for _, key := range step.refused {
			if st, _, _ := p.call(t, key, http.MethodGet, wire.PathCustomers, nil, ""); st != 401 {
				t.Errorf("%s: a key that should be refused: %d, want 401", step.name, st)
			}
		}
	}
	logs := p.stderr.String()
	if !strings.Contains(logs, "line 3") {
		t.Errorf("the failed reload does not name line 3:\n%s", logs)
	}
	for _, key := range []string{a, b, envKey, "secretsecret9"} {
		if strings.Contains(logs, key) {
			t.Errorf("the logs hold a key:\n%s", logs)
		}
	}
}

// TestProgram_HUPWithoutKeyFile: SIGHUP without -key-file is logged and
// ignored; the sandbox goes on serving.
func TestProgram_HUPWithoutKeyFile(t *testing.T) {
	key := wire.SecretKeySandboxPrefix + "hupnofile01"
	p := start(t, "-addr", "127.0.0.1:0", "-key", key)
	if err := p.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(p.stderr.String(), "SIGHUP ignored") {
		if time.Now().After(deadline) {
			t.Fatalf("no \"SIGHUP ignored\" logged within 10s:\n%s", p.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if st, b, _ := p.call(t, key, http.MethodGet, wire.PathCustomers, nil, ""); st != 200 {
		t.Errorf("after SIGHUP: %d %s", st, b)
	}
}

// TestProgram_JSONLogs: -log-format json writes one JSON object a line, request
// lines included, and never a key.
func TestProgram_JSONLogs(t *testing.T) {
	key := wire.SecretKeySandboxPrefix + "jsonlogs0001"
	p := start(t, "-addr", "127.0.0.1:0", "-log-format", "json", "-log-level", "debug", "-key", key)
	if st, b, _ := p.call(t, key, http.MethodPost, wire.PathCustomers, url.Values{"name": {"j"}}, ""); st != 200 {
		t.Fatalf("%d %s", st, b)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := <-p.done; err != nil {
		t.Fatalf("exit: %v", err)
	}
	var msgs []string
	sc := bufio.NewScanner(strings.NewReader(p.stderr.String()))
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("a log line is not JSON: %q", sc.Text())
		}
		msg, _ := line["msg"].(string)
		msgs = append(msgs, msg)
	}
	if got := strings.Join(msgs, ","); !strings.Contains(got, "serving") || !strings.Contains(got, "request") {
		t.Errorf("log messages %q lack serving or request", got)
	}
	if strings.Contains(p.stderr.String(), "jsonlogs0001") {
		t.Errorf("the logs hold the key:\n%s", p.stderr)
	}
}

// TestProgram_KeysMaskedInLogs: at -log-level debug, a key pasted into a
// path, a query or an Idempotency-Key, on an admitted request or a 401,
// reaches no log line and no request log line.
func TestProgram_KeysMaskedInLogs(t *testing.T) {
	key := wire.SecretKeySandboxPrefix + "maskedlogs01"
	pasted := wire.SecretKeySandboxPrefix + "pastedpasted42"
	p := start(t, "-addr", "127.0.0.1:0", "-log-level", "debug", "-key", key)
	p.call(t, key, http.MethodGet, "/v1/customers/key="+pasted, nil, "")
	p.call(t, key, http.MethodGet, wire.PathCustomers+"?limit="+pasted, nil, "")
	p.call(t, key, http.MethodPost, wire.PathCustomers, url.Values{"name": {"n"}}, "retry-"+pasted)
	if st, _, _ := p.call(t, pasted, http.MethodGet, "/v1/customers/key="+pasted, nil, ""); st != http.StatusUnauthorized {
		t.Errorf("a key not admitted: %d, want 401", st)
	}
	_, reqlog, _ := p.call(t, key, http.MethodGet, wire.PathSandboxRequests, nil, "")
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := <-p.done; err != nil {
		t.Fatalf("exit: %v", err)
	}
	logs := p.stderr.String()
	if strings.Contains(logs, "pastedpasted42") || strings.Contains(string(reqlog), "pastedpasted42") {
		t.Errorf("a pasted key is in the logs:\n%s\nor the request log: %s", logs, reqlog)
	}
	if !strings.Contains(logs, "status=401") || !strings.Contains(logs, wire.RedactedKey) {
		t.Errorf("the debug log lacks the 401 or the masked key:\n%s", logs)
	}
}

// TestProgram_OperationalEndpoints: /healthz and /metrics answer without a key on
// a sandbox that admits only its keys, beside the dashboard and the API.
func TestProgram_OperationalEndpoints(t *testing.T) {
	key := wire.SecretKeySandboxPrefix + "operational1"
	p := start(t, "-addr", "127.0.0.1:0", "-key", key)
	if st, b, _ := p.call(t, key, http.MethodGet, wire.PathCustomers, nil, ""); st != 200 {
		t.Fatalf("%d %s", st, b)
	}
	for _, tc := range []struct {
		path string
		want string
	}{
		{wire.PathHealth, `{"status":"ok"}`},
		{wire.PathMetrics, `payments_sandbox_requests_total{route="GET /v1/customers",status="200"} 1`},
	} {
		resp, err := http.Get(p.url + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), tc.want) {
			t.Errorf("GET %s without a key: %d, body lacks %q:\n%.300s", tc.path, resp.StatusCode, tc.want, b)
		}
		if strings.Contains(string(b), "operational1") {
			t.Errorf("GET %s shows the key", tc.path)
		}
	}
}

// TestSharedSandboxGuide_EveryFlag: the guide "Running a shared sandbox"
// names every flag -h lists, so a flag added later is documented there.
func TestSharedSandboxGuide_EveryFlag(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join("..", "..", "templates", "guides", "running-a-shared-sandbox.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"-h"}, &out, &errOut); code != 0 {
		t.Fatalf("-h exits %d", code)
	}
	flagLine := regexp.MustCompile(`(?m)^  (-[a-z-]+)\b`)
	flags := flagLine.FindAllStringSubmatch(out.String(), -1)
	if len(flags) < 10 { // -h is parsed wrongly, not a flag missing
		t.Fatalf("found %d flags in -h, want every one:\n%s", len(flags), out.String())
	}
	for _, f := range flags {
		if !strings.Contains(string(guide), "`"+f[1]+"`") {
			t.Errorf("the guide does not name %s", f[1])
		}
	}
}
