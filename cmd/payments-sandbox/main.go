// Command payments-sandbox serves the payments API contract
// (api/openapi.yaml) on a local address, for tests, demos, benchmarks
// and work without network access.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/bytesize"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/dashboard"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/logmask"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// keyList is the repeatable -key flag. String never prints the keys: flag
// shows a flag's value in error messages and defaults.
type keyList []string

func (k *keyList) String() string {
	if k == nil || len(*k) == 0 {
		return ""
	}
	return fmt.Sprintf("%d key(s)", len(*k))
}

// Set accepts anything: run checks the keys after parsing, because the
// flag package would quote a rejected value, key and all, in its error.
func (k *keyList) Set(v string) error {
	*k = append(*k, v)
	return nil
}

// hostList is the repeatable, comma-separated -webhook-allow flag.
type hostList []string

func (h *hostList) String() string { return strings.Join(*h, ",") }

func (h *hostList) Set(v string) error {
	for _, e := range strings.Split(v, ",") {
		if e = strings.TrimSpace(e); e != "" {
			*h = append(*h, e)
		}
	}
	return nil
}

// byteSize is a flag holding a size such as 64MiB (bytesize.Parse).
type byteSize int64

func (b *byteSize) String() string {
	if b == nil || *b == 0 {
		return "0"
	}
	return strings.ReplaceAll(bytesize.Format(int64(*b)), " ", "")
}

func (b *byteSize) Set(v string) error {
	n, err := bytesize.Parse(v)
	*b = byteSize(n)
	return err
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status, so that
// tests can drive it.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == healthcheckCommand {
		return healthcheck(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == compactCommand {
		return compact(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("payments-sandbox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:12111", "listen on this `host:port`; port 0 picks a free port (see the listening line)")
	data := fs.String("data", "", "keep the state in this bbolt `file` across restarts (created if missing), with its write-ahead log beside it as FILE-wal while it runs; every write is on disk, in the log, before it is answered; both are made mode 0600, and one that another user owns, or that others or a group it does not run with may access, is refused; empty keeps state in memory only. The file keeps the room rewrites and deletes free, and reuses it: a start compacts it when that room is over half of it and over 32 MiB, logging its sizes, and payments-sandbox compact -data FILE does it by hand while the sandbox is stopped")
	var keys keyList
	fs.Var(&keys, "key", "admit only this sandbox secret `key` (repeat for several; see also -key-file and "+envKeys+"); without keys every well-formed "+wire.SecretKeySandboxPrefix+" key is its own account, made on first use. Other local users can read it in ps and /proc/PID/cmdline: on a shared machine use -key-file")
	var allow hostList
	fs.Var(&allow, "webhook-allow", "also deliver webhooks to these `hosts`, comma-separated, repeatable: host names (trusted whatever they resolve to), IP addresses, either with :port to allow that port only (hooks.internal:8443, 127.0.0.1:4242, [::1]:4242), or CIDR networks (10.0.0.0/8); see Webhook targets above")
	attempts := fs.Int("webhook-attempts", sandbox.DefaultWebhookAttempts, "make at most this many `attempts` to deliver each event to each endpoint (retries after 1s, 2s, 4s...)")
	maxAccounts := fs.Int("max-accounts", sandbox.DefaultMaxAccounts, "keep at most `n` accounts made on first use (keys not named by -key); a request from a new key past it gets 403 sandbox_limit_exceeded until an account is removed by -account-idle; 0 removes the limit")
	maxAccountBytes := byteSize(sandbox.DefaultMaxAccountBytes)
	fs.Var(&maxAccountBytes, "max-account-bytes", "let one account keep at most this many bytes of memory (`size`, such as 64MiB, 500MB or 1048576): its customers, payments, products, prices, subscriptions, invoices, test clocks, webhook endpoints, events, pending webhook deliveries and their log, idempotency records and request log, counted as the sandbox holds them. A write (POST) to an account at the limit first drops the account's oldest events, then gets 403 account_limit_exceeded, and the account's renewals wait until it has room; reads, deletes and POST /_sandbox/reset still work, and other accounts are untouched. 0 removes the limit")
	maxTotalBytes := byteSize(sandbox.DefaultMaxTotalBytes)
	fs.Var(&maxTotalBytes, "max-total-bytes", "let all accounts together keep at most this many bytes (`size`, counted as for -max-account-bytes); past it every account's writes get 403 sandbox_limit_exceeded, reads and deletes still work. Unless GOMEMLIMIT is set, the Go runtime's soft memory limit is set to 1.5 times this, so that garbage is collected before the process outgrows it. With the defaults a flood of keys and large requests, of clients that do not read their answers, or of unfinished headers keeps the process under 512 MiB resident; with -data, the data file's pages the kernel keeps mapped and the buffers of applying the write-ahead log come on top (about 290 MiB more in the same flood, most of it reclaimable). 0 removes the limit")
	accountIdle := fs.Duration("account-idle", sandbox.DefaultAccountIdle, "remove an account made on first use, in memory and in the -data file, once no request has used it for this `duration` (such as 720h or 30m; counted from the start for accounts read from -data) and no webhook delivery of it is pending; its key gets a new, empty account on its next request. Accounts named by -key are never removed. 0 keeps accounts forever")
	concurrency := fs.Int("webhook-concurrency", sandbox.DefaultWebhookConcurrency, "make at most this many webhook delivery `attempts` at once, all accounts and endpoints together; more wait their turn, in each endpoint's order (one endpoint has at most 4 in flight; past a quarter of them, at least 4, an account takes more only while an eighth stay free)")
	dunningEnd := fs.String("dunning-end", sandbox.DunningEnds[0], "the `status` a subscription ends in when the retries of a renewal's unpaid invoice (3, 5 and 7 days apart) run out: canceled, unpaid or past_due; the invoice is then uncollectible. An account may choose its own with POST /_sandbox/billing")
	faultSeed := fs.Int64("fault-seed", 0, "start every account's injected faults (error_rate, drop_rate of POST /_sandbox/faults) from this `seed`, 1 to 9007199254740991, so that a run meets the same faults again; 0 picks a random seed per account. GET /_sandbox/faults shows the seed in use")
	var allowedHosts hostNames
	fs.Var(&allowedHosts, "allowed-hosts", "without keys, also answer requests whose Host header is one of these `names`, comma-separated, repeatable: sandbox.internal, 192.168.1.20, .example.test (that domain and every name under it), or * (any: turns the DNS rebinding defence off). Without keys the sandbox answers only requests for its -addr host, localhost, 127.0.0.1 and [::1], any port, and 421 host_not_allowed to any other Host; with keys, the keys gate it and every Host is answered")
	level := fs.String("log-level", "info", "log `level` on stderr: debug (one line per request), info, warn or error")
	svc := addServiceFlags(fs)
	// The usage goes to standard output: it is asked for (-h), and
	// `payments-sandbox -h | less` must show it.
	usage := func() {
		fs.SetOutput(stdout)
		fmt.Fprintf(stdout, `Usage: payments-sandbox [flags]
       payments-sandbox healthcheck [-addr host:port]   (exit 0 when healthy)
       payments-sandbox compact -data FILE              (shrink a stopped sandbox's data file)

payments-sandbox is a local stand-in for the payments API: it serves every
endpoint of the contract under /v1, plus the sandbox controls under
/_sandbox/ (complete, dispute, reset, stats, faults, deliveries, requests,
resend), for tests, demos and work without network access. It delivers
webhook events itself, signed, to the endpoints created under
/v1/webhook_endpoints.

Webhook targets: every address is checked after name resolution, when
an endpoint is created or updated (400, param url) and again when an
attempt connects (recorded as failed, "target address not allowed: ...",
without connecting). Redirects are never followed.
  - never the sandbox's own listening address (any address of the host
    on its port, when -addr is a wildcard such as 0.0.0.0);
  - loopback (localhost, 127.0.0.0/8, ::1) for a personal sandbox (a
    loopback -addr and no keys); a shared one (it admits a key list, or
    listens beyond loopback, -addr 0.0.0.0:PORT, say) calls loopback only
    where -webhook-allow names the host or host:port, never through a
    network, wherever it listens: behind a reverse proxy on the host,
    others reach it too;
  - link-local and cloud metadata addresses (169.254.0.0/16, fe80::/10,
    fd00:ec2::254) and unspecified ones (0.0.0.0, ::) only where
    -webhook-allow names them exactly, never through a network;
  - anything else only where -webhook-allow allows it.
At most -webhook-concurrency attempts are in flight at once; past a
quarter of them an account takes more only while an eighth stay free for
the others; more wait their turn, each endpoint's in the order of its
events. Pending deliveries count toward
-max-account-bytes and -max-total-bytes: past them no new delivery is
queued, and /_sandbox/deliveries says so (attempt 0, "not queued: ...").

Authenticate with HTTP Basic: a sandbox secret key (%s...) as the user
name and an empty password; or send the key as a Bearer token, as
Stripe's libraries do. Each key is its own isolated account.

What it keeps is bounded, so that one sandbox can serve a whole CI fleet
for weeks: -max-accounts accounts made on first use, -max-account-bytes per
account, -max-total-bytes over all of them, and accounts unused for
-account-idle are removed. Refusals are 403 with code
account_limit_exceeded (this account is full: delete objects or POST
/_sandbox/reset) or sandbox_limit_exceeded (the sandbox is full, or has no
room for a new key's account); the message names the flag. A request's
line and headers may hold at most 16 KiB (431 past it), and a list answer
is sent 32 KiB at a time, so that slow clients cannot multiply it.

It serves a dashboard of an account at its root URL: sign in there with
the account's secret key (the guide "The sandbox dashboard").

Once listening, it prints two lines to standard output:

    payments-sandbox listening on http://HOST:PORT
    dashboard at http://HOST:PORT/

SIGINT or SIGTERM stops it cleanly, finishing requests in flight.

To share one sandbox, admit only your team's keys: -key, -key-file
(re-read on SIGHUP; refused if group or others may read it: chmod 600,
for mode 600 or 400) or %[2]s (comma-separated). A -key on the
command line is visible to every local user (ps, /proc/PID/cmdline): on
a machine others use, prefer -key-file. Without keys it refuses to
listen beyond loopback unless -open is given, and answers only requests
whose Host names it (its -addr host, localhost, an IP address;
-allowed-hosts names more), 421 host_not_allowed to any other, so that
no web page reaches it through DNS rebinding. No key is
ever printed or logged. GET /healthz and GET /metrics (Prometheus) answer
without a key; the guide "Running a shared sandbox" has the rest.

Flags:
`, wire.SecretKeySandboxPrefix, envKeys)
		fs.PrintDefaults()
		fmt.Fprintf(stdout, `
Examples:
  payments-sandbox
  payments-sandbox -addr 127.0.0.1:0 -data sandbox.db
  payments-sandbox -addr :12111 -key-file /etc/payments-sandbox/keys -data /var/lib/payments-sandbox/sandbox.db
  payments-sandbox -addr 0.0.0.0:12111 -key-file keys.txt -webhook-allow 127.0.0.1:4242,hooks.internal
  curl -u %sexample123: -d email=jo@example.com http://127.0.0.1:12111/v1/customers
`, wire.SecretKeySandboxPrefix)
	}
	// A mistake gets one line naming it, not the whole usage: flag would
	// print both, so it prints nothing and the usage is shown on -h only.
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage()
			return 0
		}
		fmt.Fprintf(stderr, "payments-sandbox: %v; see payments-sandbox -h for the flags\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "payments-sandbox: unexpected argument %q; all settings are flags (see -h)\n", fs.Arg(0))
		return 2
	}
	for i, k := range keys {
		if wire.ClassifyKey(k) != wire.KeySecretSandbox {
			fmt.Fprintf(stderr, "payments-sandbox: -key number %d is not a sandbox secret key; use %s followed by at least %d letters, digits or underscores (see -h)\n",
				i+1, wire.SecretKeySandboxPrefix, wire.MinKeySecretLength)
			return 2
		}
	}
	if err := svc.check(); err != nil {
		fmt.Fprintf(stderr, "payments-sandbox: %v; see payments-sandbox -h\n", err)
		return 2
	}
	allKeys, err := svc.gatherKeys(keys, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "payments-sandbox: %v; see payments-sandbox -h\n", err)
		return 2
	}
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintf(stderr, "payments-sandbox: -log-level %q is not a level; use debug, info, warn or error (see -h)\n", *level)
		return 2
	}
	// Masked once for every log line: the sandbox's, the dashboard's and
	// net/http's own (ErrorLog).
	logger := slog.New(logmask.Wrap(svc.logHandler(stderr, &slog.HandlerOptions{Level: lvl})))

	if *attempts < 1 || *attempts > 20 {
		fmt.Fprintf(stderr, "payments-sandbox: -webhook-attempts %d is out of range; use 1 to 20\n", *attempts)
		return 2
	}
	if *maxAccounts < 0 || maxAccountBytes < 0 || maxTotalBytes < 0 || *accountIdle < 0 {
		fmt.Fprintf(stderr, "payments-sandbox: -max-accounts, -max-account-bytes, -max-total-bytes and -account-idle cannot be negative; use 0 to remove a limit (see -h)\n")
		return 2
	}
	limits := sandbox.Limits{
		MaxAccounts: *maxAccounts, MaxAccountBytes: int64(maxAccountBytes),
		MaxTotalBytes: int64(maxTotalBytes), AccountIdle: *accountIdle,
	}
	if limits.MaxTotalBytes > 0 && os.Getenv("GOMEMLIMIT") == "" {
		// The bytes counted are live data; with the default GOGC the heap
		// may grow to twice that before a collection. The soft limit makes
		// the collector run earlier instead.
		debug.SetMemoryLimit(limits.MaxTotalBytes + limits.MaxTotalBytes/2)
	}
	if *concurrency < 1 || *concurrency > 10_000 {
		fmt.Fprintf(stderr, "payments-sandbox: -webhook-concurrency %d is out of range; use 1 to 10000\n", *concurrency)
		return 2
	}
	// Listening first tells the sandbox its own address, where it never
	// delivers webhooks, and whether others can reach it.
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		logger.Error("cannot listen", "addr", *addr, "error", err)
		if errors.Is(err, syscall.EADDRINUSE) {
			fmt.Fprintf(stderr, "payments-sandbox: %s is in use by another program; pick another port with -addr, or let the system pick a free one with -addr 127.0.0.1:0 (the listening line names it)\n", *addr)
		}
		return 1
	}
	defer ln.Close()
	if err := svc.checkExposure(*addr, ln.Addr(), len(allKeys)); err != nil {
		fmt.Fprintf(stderr, "payments-sandbox: %v; see payments-sandbox -h\n", err)
		return 2
	}
	if *faultSeed < 0 || *faultSeed > wire.FaultSeedMax {
		fmt.Fprintf(stderr, "payments-sandbox: -fault-seed %d is out of range; use 1 to %d, or 0 for a random seed (see -h)\n", *faultSeed, int64(wire.FaultSeedMax))
		return 2
	}
	if !slices.Contains(sandbox.DunningEnds, *dunningEnd) {
		fmt.Fprintf(stderr, "payments-sandbox: -dunning-end %q is not valid; use %s (see -h)\n", *dunningEnd, strings.Join(sandbox.DunningEnds, ", "))
		return 2
	}
	opts := sandbox.Options{Keys: allKeys, Logger: logger, Limits: limits, FaultSeed: *faultSeed, DunningEnd: *dunningEnd,
		Webhooks: sandbox.WebhookOptions{Allow: allow, Attempts: *attempts, Concurrency: *concurrency}}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok {
		opts.Webhooks.Listen = []netip.AddrPort{tcp.AddrPort()}
	}
	if *data != "" {
		st, err := storage.Open(*data)
		if err != nil {
			// One plain line: it names the file and what to do.
			fmt.Fprintf(stderr, "payments-sandbox: %v%s\n", err, accessHint(err))
			return 1
		}
		opts.Store = st
	}
	srv, err := sandbox.New(opts)
	if err != nil {
		fmt.Fprintf(stderr, "payments-sandbox: %v\n", err)
		if opts.Store != nil {
			opts.Store.Close()
		}
		return 1
	}
	defer srv.Close()

	// The API and its controls go to the sandbox; every other path to the
	// dashboard, which passes what it does not serve back to the sandbox
	// (an unknown path keeps the API's 404 unrecognized_url).
	dash, err := dashboard.New(dashboard.Options{API: srv.Internal(), Fallback: srv, Logger: logger})
	if err != nil {
		fmt.Fprintf(stderr, "payments-sandbox: %v\n", err)
		return 1
	}
	mux := http.NewServeMux()
	mux.Handle(wire.APIVersionPrefix+"/", srv)
	mux.Handle(wire.PathSandbox+"/", srv)
	mux.Handle(wire.PathHealth, srv)
	mux.Handle(wire.PathMetrics, srv)
	mux.Handle("/", dash)
	var h http.Handler = mux
	if len(allKeys) == 0 {
		// A key list gates a shared sandbox: a rebinding page has no key.
		// Without one, the Host check does, on the API, the controls and
		// the dashboard alike.
		listenHost, _, _ := net.SplitHostPort(*addr)
		h = hostCheck(newHostPolicy(listenHost, allowedHosts), mux)
	}
	lim := limitListener(ln, svc.maxConnections, srv.CountConnectionWait)
	ln = lim
	hs := newHTTPServer(svc, h, srv, lim, logger)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	svc.reloadKeysOnHUP(ctx, srv, keys, logger)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()

	fmt.Fprintf(stdout, "payments-sandbox listening on http://%s\n", displayAddr(ln.Addr()))
	fmt.Fprintf(stdout, "dashboard at http://%s/\n", displayAddr(ln.Addr()))
	logger.Info("serving", "addr", ln.Addr().String(), "data", *data, "keys", len(allKeys),
		"max_accounts", limits.MaxAccounts, "max_account_bytes", maxAccountBytes.String(),
		"max_total_bytes", maxTotalBytes.String(), "account_idle", limits.AccountIdle.String())

	select {
	case err := <-errc:
		logger.Error("serving failed", "error", err)
		return 1
	case <-ctx.Done():
	}
	stop() // a second signal kills the process the default way
	logger.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		logger.Warn("requests still running at shutdown were cut", "error", err)
	}
	if err := srv.Close(); err != nil {
		logger.Error("closing the data file failed", "error", err)
		return 1
	}
	return 0
}

// displayAddr is the address to print: a wildcard listener (0.0.0.0, [::]
// or an empty host) is reachable on loopback, which a URL can name; Go
// listens on both stacks for a wildcard, so IPv4 loopback always works.
func displayAddr(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return a.String()
	}
	ip := tcp.IP
	if ip == nil || ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
	}
	return net.JoinHostPort(ip.String(), strconv.Itoa(tcp.Port))
}
