package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// binPath is the payments-sandbox binary TestMain builds for the tests
// that need a real process (kill -9, signals); "" under -short.
var binPath string

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	if !testing.Short() {
		dir, err := os.MkdirTemp("", "payments-sandbox-test")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		binPath = filepath.Join(dir, "payments-sandbox")
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building payments-sandbox: %v\n%s", err, out)
			return 1
		}
	}
	return m.Run()
}

func binary(t *testing.T) string {
	t.Helper()
	if binPath == "" {
		t.Skip("-short: the binary was not built")
	}
	return binPath
}

var listeningLine = regexp.MustCompile(`^payments-sandbox listening on (http://127\.0\.0\.1:[0-9]+)\n$`)

// proc is a running payments-sandbox.
type proc struct {
	cmd    *exec.Cmd
	url    string
	stderr logFile
	done   chan error
}

// start runs the binary and waits for its listening line.
func start(t *testing.T, args ...string) *proc {
	t.Helper()
	return startEnv(t, nil, args...)
}

// startEnv is start with env added to the process's environment.
func startEnv(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stderr.Close() })
	p := &proc{cmd: cmd, stderr: logFile{stderr}, done: make(chan error, 1)}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-p.done
		}
	})
	lines := make(chan string, 1)
	rest := make(chan []byte, 1)
	go func() {
		br := bufio.NewReader(stdout)
		line, _ := br.ReadString('\n')
		dash, _ := br.ReadString('\n')
		lines <- line + dash
		more, _ := io.ReadAll(br)
		rest <- more
		p.done <- cmd.Wait()
	}()
	select {
	case line := <-lines:
		first, second, _ := strings.Cut(line, "\n")
		m := listeningLine.FindStringSubmatch(first + "\n")
		if m == nil {
			t.Fatalf("first stdout line %q does not match %v; stderr:\n%s", first, listeningLine, p.stderr)
		}
		p.url = m[1]
		if want := "dashboard at " + p.url + "/\n"; second != want {
			t.Fatalf("second stdout line %q, want %q", second, want)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("no listening line within 30s; stderr:\n%s", p.stderr)
	}
	t.Cleanup(func() {
		select {
		case more := <-rest:
			if len(more) > 0 {
				t.Errorf("stdout has more than the listening and dashboard lines: %q", more)
			}
		default:
		}
	})
	return p
}

// logFile is the file a program's standard error goes to: the program
// writes it directly, so the test may read it at any time.
type logFile struct{ *os.File }

// String is what the program has written so far.
func (f logFile) String() string {
	b, _ := os.ReadFile(f.Name())
	return string(b)
}

func (p *proc) call(t *testing.T, key, method, path string, form url.Values, idemKey string) (int, []byte, http.Header) {
	t.Helper()
	r := sandboxtest.Request{Method: method, Path: path, Key: key, IdempotencyKey: idemKey}
	if method == http.MethodPost {
		r.Form = form
		if r.Form == nil {
			r.Form = url.Values{}
		}
	}
	resp, err := sandboxtest.Do(http.DefaultClient, p.url, r)
	if err != nil {
		t.Fatal(err)
	}
	return resp.Status, resp.Body, resp.Header
}

func decode[T any](t *testing.T, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
	return v
}

// TestProgram_PersistenceSurvivesKill: every answered write is on disk,
// even when the process is killed with SIGKILL in the middle of concurrent
// writes from several accounts, whose commits share transactions.
func TestProgram_PersistenceSurvivesKill(t *testing.T) {
	data := filepath.Join(t.TempDir(), "state.db")
	key := wire.SecretKeySandboxPrefix + "persist0001"
	p := start(t, "-addr", "127.0.0.1:0", "-data", data)

	// Writers on accounts of their own keep creating payments until the
	// kill; each one answered 200 is recorded as acknowledged.
	type ack struct{ key, id, idem string }
	const writers = 6
	acks := make(chan ack, 100000)
	var wg sync.WaitGroup
	for w := range writers {
		wkey := fmt.Sprintf("%swriter%04d", wire.SecretKeySandboxPrefix, w)
		wg.Go(func() {
			for i := 0; ; i++ {
				idem := fmt.Sprintf("w%d-%d", w, i)
				resp, err := sandboxtest.Do(nil, p.url, sandboxtest.Request{
					Method: http.MethodPost, Path: "/v1/payments", Key: wkey, IdempotencyKey: idem,
					Form: url.Values{"amount": {"100"}, "currency": {"USD"}, "source": {sandbox.TokenVisa}},
				})
				if err != nil {
					return // killed: this one was never answered
				}
				if resp.Status != 200 {
					t.Errorf("writer %d: %d %s", w, resp.Status, resp.Body)
					return
				}
				var pay wire.Payment
				if err := json.Unmarshal(resp.Body, &pay); err != nil {
					t.Errorf("writer %d: %v", w, err)
					return
				}
				acks <- ack{wkey, pay.ID, idem}
			}
		})
	}

	st, b, _ := p.call(t, key, "POST", "/v1/customers", url.Values{"email": {"jo@example.com"}, "source": {sandbox.TokenVisa}}, "")
	if st != 200 {
		t.Fatalf("create customer: %d %s", st, b)
	}
	cu := decode[wire.Customer](t, b)
	var payments []wire.Payment
	for i := range 5 {
		st, b, _ := p.call(t, key, "POST", "/v1/payments", url.Values{"amount": {"100"}, "currency": {"USD"}, "customer": {cu.ID}}, "pay-"+string(rune('a'+i)))
		if st != 200 {
			t.Fatalf("create payment: %d %s", st, b)
		}
		payments = append(payments, decode[wire.Payment](t, b))
	}
	_, wantList, _ := p.call(t, key, "GET", "/v1/payments", nil, "")

	// Kill once the writers are well under way, while they still write.
	deadline := time.Now().Add(30 * time.Second)
	for len(acks) < 20*writers {
		if time.Now().After(deadline) {
			t.Fatalf("only %d writes acknowledged in 30s", len(acks))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.done
	wg.Wait()
	close(acks)

	p = start(t, "-addr", "127.0.0.1:0", "-data", data)
	st, b, _ = p.call(t, key, "GET", "/v1/customers/"+cu.ID, nil, "")
	if got := decode[wire.Customer](t, b); st != 200 || got.Email != cu.Email || got.DefaultSource != cu.DefaultSource {
		t.Errorf("customer after kill -9: %d %s", st, b)
	}
	if _, got, _ := p.call(t, key, "GET", "/v1/payments", nil, ""); !bytes.Equal(got, wantList) {
		t.Errorf("payments after kill -9:\n%s\nwant\n%s", got, wantList)
	}
	st, b, h := p.call(t, key, "POST", "/v1/payments", url.Values{"amount": {"100"}, "currency": {"USD"}, "customer": {cu.ID}}, "pay-a")
	if got := decode[wire.Payment](t, b); st != 200 || got.ID != payments[0].ID || h.Get(wire.HeaderIdempotentReplayed) != "true" {
		t.Errorf("idempotent retry after kill -9: %d %s", st, b)
	}
	n := 0
	for a := range acks {
		n++
		if st, b, _ := p.call(t, a.key, "GET", "/v1/payments/"+a.id, nil, ""); st != 200 {
			t.Errorf("acknowledged payment %s lost to kill -9: %d %s", a.id, st, b)
		}
		st, b, h := p.call(t, a.key, "POST", "/v1/payments", url.Values{"amount": {"100"}, "currency": {"USD"}, "source": {sandbox.TokenVisa}}, a.idem)
		if got := decode[wire.Payment](t, b); st != 200 || got.ID != a.id || h.Get(wire.HeaderIdempotentReplayed) != "true" {
			t.Errorf("retry of acknowledged %s after kill -9: %d %s", a.idem, st, b)
		}
	}
	t.Logf("%d concurrent writes acknowledged before kill -9, all present after", n)
}

// TestProgram_SignalsStopCleanly: SIGTERM and SIGINT end the process with
// status 0, and the logs, even at debug level, never hold a key.
func TestProgram_SignalsStopCleanly(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			key := wire.SecretKeySandboxPrefix + "signalkey99"
			p := start(t, "-addr", "127.0.0.1:0", "-log-level", "debug", "-key", key, "-data", filepath.Join(t.TempDir(), "s.db"))
			if st, b, _ := p.call(t, key, "POST", "/v1/customers", url.Values{"name": {"x"}}, "k"); st != 200 {
				t.Fatalf("%d %s", st, b)
			}
			if st, _, _ := p.call(t, wire.SecretKeySandboxPrefix+"notallowed1", "GET", "/v1/payments", nil, ""); st != 401 {
				t.Errorf("a key outside -key: %d, want 401", st)
			}
			if err := p.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-p.done:
				if err != nil {
					t.Errorf("exit after %v: %v; stderr:\n%s", sig, err, p.stderr)
				}
			case <-time.After(15 * time.Second):
				t.Fatalf("still running 15s after %v", sig)
			}
			logs := p.stderr.String()
			if !strings.Contains(logs, "request") || !strings.Contains(logs, "shutting down") {
				t.Errorf("logs lack the request or the shutdown:\n%s", logs)
			}
			if strings.Contains(logs, "signalkey99") || strings.Contains(logs, "notallowed1") || strings.Contains(logs, "Basic ") {
				t.Errorf("logs hold a key:\n%s", logs)
			}
		})
	}
}

func TestRun_HelpDocumentsEveryFlag(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"-h"}, &out, &errOut); code != 0 {
		t.Errorf("-h exits %d", code)
	}
	for _, want := range []string{"-addr", "-data", "-key", "-log-level", "127.0.0.1:12111", "listening on", "SIGTERM", "/proc/PID/cmdline", "chmod", "mode 600",
		"-max-accounts", "(default 1000)", "-max-account-bytes", "(default 64MiB)", "-max-total-bytes", "(default 256MiB)",
		"-account-idle", "(default 720h0m0s)", "account_limit_exceeded", "sandbox_limit_exceeded", "GOMEMLIMIT"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-h output lacks %q:\n%s", want, out.String())
		}
	}
	// Asked for, the usage is the program's output: `-h | less` shows it.
	if errOut.Len() != 0 {
		t.Errorf("-h wrote to stderr: %q", errOut.String())
	}
}

// TestRun_BusyPort: a port another program holds fails with exit 1 and a
// line saying how to get a free one.
func TestRun_BusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var out, errOut bytes.Buffer
	if code := run([]string{"-addr", ln.Addr().String()}, &out, &errOut); code != 1 {
		t.Errorf("a busy port exits %d, want 1", code)
	}
	for _, want := range []string{ln.Addr().String() + " is in use", "-addr 127.0.0.1:0"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("the error lacks %q:\n%s", want, errOut.String())
		}
	}
}

// TestRun_BadArguments: a mistake gets exit 2 and one line naming what is
// wrong and pointing at -h, never the whole usage, never the key.
func TestRun_BadArguments(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		names string
	}{
		{[]string{"-key", "sk_live_secretsecret"}, "-key"},
		{[]string{"-key", "sk_sandbox_short"}, "-key"},
		{[]string{"-log-level", "chatty"}, "-log-level"},
		{[]string{"extra"}, `"extra"`},
		{[]string{"-nope"}, "-nope"},
		{[]string{"-addr"}, "-addr"},
		{[]string{"-data"}, "-data"},
		{[]string{"-max-account-bytes", "64M"}, "-max-account-bytes"},
		{[]string{"-max-account-bytes", "-1"}, "such as 64MiB"},
		{[]string{"-max-total-bytes", "lots"}, "-max-total-bytes"},
		{[]string{"-max-total-bytes", "1.5GiB"}, "such as 64MiB"},
		{[]string{"-max-accounts", "-1"}, "-max-accounts"},
		{[]string{"-max-accounts", "many"}, "-max-accounts"},
		{[]string{"-account-idle", "soon"}, "-account-idle"},
		{[]string{"-account-idle", "-1h"}, "-account-idle"},
	} {
		var out, errOut bytes.Buffer
		if code := run(tc.args, &out, &errOut); code != 2 {
			t.Errorf("%v: exit %d, want 2", tc.args, code)
		}
		msg := errOut.String()
		if strings.Contains(msg, "secretsecret") {
			t.Errorf("%v: the error quotes the key: %s", tc.args, msg)
		}
		if strings.Count(msg, "\n") != 1 || !strings.HasSuffix(msg, "\n") || !strings.HasPrefix(msg, "payments-sandbox: ") {
			t.Errorf("%v: want one line, got %q", tc.args, msg)
		}
		if !strings.Contains(msg, tc.names) || !strings.Contains(msg, "-h") || strings.Contains(msg, "Usage") {
			t.Errorf("%v: %q does not name %s and -h alone", tc.args, msg, tc.names)
		}
		if out.Len() != 0 {
			t.Errorf("%v: wrote to stdout: %q", tc.args, out.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"-addr", "256.0.0.1:0"}, &out, &errOut); code != 1 || out.Len() != 0 {
		t.Errorf("unusable -addr: exit %d, stdout %q", code, out.String())
	}
}

func TestDisplayAddr_Loopback(t *testing.T) {
	for _, tc := range []struct {
		addr net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80}, "127.0.0.1:80"},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 81}, "127.0.0.1:81"},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 82}, "127.0.0.1:82"},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 83}, "[::1]:83"},
		{&net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 84}, "192.0.2.7:84"},
	} {
		if got := displayAddr(tc.addr); got != tc.want {
			t.Errorf("displayAddr(%v) = %q, want %q", tc.addr, got, tc.want)
		}
	}
}

// TestProgram_DamagedDataFile: payments-sandbox on a truncated or partly
// overwritten data file exits 1 with one line naming the file and what to
// do; it never panics, prints a stack or starts serving.
func TestProgram_DamagedDataFile(t *testing.T) {
	bin := binary(t)
	seed := filepath.Join(t.TempDir(), "seed.db")
	p := start(t, "-addr", "127.0.0.1:0", "-data", seed)
	key := wire.SecretKeySandboxPrefix + "damaged0001"
	for i := range 60 {
		f := url.Values{"name": {strings.Repeat("n", 200)}, "metadata[k]": {strings.Repeat("v", 400)}, "source": {sandbox.TokenVisa}}
		if st, b, _ := p.call(t, key, "POST", "/v1/customers", f, fmt.Sprintf("k%d", i)); st != 200 {
			t.Fatalf("seeding: %d %s", st, b)
		}
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := <-p.done; err != nil {
		t.Fatalf("seeding sandbox exit: %v", err)
	}
	good, err := os.ReadFile(seed)
	if err != nil {
		t.Fatal(err)
	}
	pg := os.Getpagesize()
	if len(good) < 16*pg {
		t.Fatalf("seed file is only %d bytes", len(good))
	}
	for _, tc := range []struct {
		name   string
		damage func([]byte) []byte
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)/3] }},
		{"truncated to one page", func(b []byte) []byte { return b[:pg] }},
		{"pages overwritten", func(b []byte) []byte {
			for i := 2 * pg; i < len(b)/2; i++ {
				b[i] = byte(i * 13)
			}
			return b
		}},
		{"meta pages overwritten", func(b []byte) []byte {
			for i := range 2 * pg {
				b[i] = byte(i * 7)
			}
			return b
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "damaged.db")
			if err := os.WriteFile(path, tc.damage(bytes.Clone(good)), 0o600); err != nil {
				t.Fatal(err)
			}
			var out, errOut bytes.Buffer
			cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-data", path)
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 {
				t.Fatalf("exit: %v, want status 1; stderr:\n%s", err, errOut.String())
			}
			msg := errOut.String()
			if strings.Count(msg, "\n") != 1 || !strings.HasSuffix(msg, "\n") {
				t.Errorf("stderr is not one line:\n%s", msg)
			}
			for _, part := range []string{path, "damaged", "restore it from a copy", "without -data"} {
				if !strings.Contains(msg, part) {
					t.Errorf("stderr %q lacks %q", msg, part)
				}
			}
			for _, bad := range []string{"panic", "goroutine", "SIGSEGV", "SIGBUS"} {
				if strings.Contains(msg, bad) {
					t.Errorf("stderr shows a crash (%s):\n%s", bad, msg)
				}
			}
			if out.Len() != 0 {
				t.Errorf("stdout %q: it started serving", out.String())
			}
		})
	}
}

// TestProgram_DashboardAtRoot: the program serves the dashboard's sign-in
// form at its root URL, and unknown API paths keep the API's 404.
func TestProgram_DashboardAtRoot(t *testing.T) {
	p := start(t, "-addr", "127.0.0.1:0")
	resp, err := http.Get(p.url + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `<label for="key">Secret key</label>`) ||
		resp.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("GET /: %d %s", resp.StatusCode, body)
	}
	key := sandboxtest.NewKey(t)
	for _, path := range []string{"/v1/nope", "/_sandbox/nope"} {
		if status, b, _ := p.call(t, key, http.MethodGet, path, nil, ""); status != http.StatusNotFound || !strings.Contains(string(b), wire.ErrorCodeUnrecognizedURL) {
			t.Errorf("%s: %d %s", path, status, b)
		}
	}
}
