package main

// The settings that make one sandbox safe to share: connection bounds and
// timeouts, the keys it admits, and the log format. run calls each piece
// once; tests build the same http.Server through newHTTPServer.

import (
	"bytes"
	"container/list"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// envKeys names the environment variable of comma-separated keys, for
// service managers that pass secrets in the environment.
const envKeys = "PAYMENTS_SANDBOX_KEYS"

// serviceFlags are the flags of a shared sandbox.
type serviceFlags struct {
	readHeaderTimeout time.Duration
	bodyTimeout       time.Duration
	writeTimeout      time.Duration
	idleTimeout       time.Duration
	maxConnections    int
	keyFile           string
	open              bool
	logFormat         string
}

func addServiceFlags(fs *flag.FlagSet) *serviceFlags {
	sf := &serviceFlags{}
	fs.DurationVar(&sf.readHeaderTimeout, "read-header-timeout", 5*time.Second, "close a connection whose request headers take longer than this `duration` to arrive")
	fs.DurationVar(&sf.bodyTimeout, "body-timeout", 30*time.Second, "close a connection whose request body takes longer than this `duration` to arrive, counted from the end of its headers")
	fs.DurationVar(&sf.writeTimeout, "write-timeout", 2*time.Minute, "give up on an answer not written this `duration` after its request's headers arrived; keep it above -body-timeout plus the longest latency fault (60s)")
	fs.DurationVar(&sf.idleTimeout, "idle-timeout", 2*time.Minute, "close a kept-alive connection idle for this `duration`; sooner when every -max-connections slot is taken and a new connection comes, the longest idle first")
	fs.IntVar(&sf.maxConnections, "max-connections", 512, "serve at most this many connections at once (`n`); when all are taken, a new connection closes the kept-alive connection idle the longest (its client reconnects), or, with none idle, waits to be accepted until one closes or goes idle. Busy connections are never closed for it, nor those that have not sent a request yet: -read-header-timeout closes those")
	fs.StringVar(&sf.keyFile, "key-file", "", "admit the keys in this `file` too: one key a line, # starts a comment, blank lines ignored; re-read on SIGHUP")
	fs.BoolVar(&sf.open, "open", false, "allow listening beyond loopback without keys, serving every well-formed key to anyone who can reach the address")
	fs.StringVar(&sf.logFormat, "log-format", "text", "log `format` on stderr: text or json (one object a line, for log shippers)")
	return sf
}

// check validates the flags; the error names the flag and the fix.
func (sf *serviceFlags) check() error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"-read-header-timeout", sf.readHeaderTimeout},
		{"-body-timeout", sf.bodyTimeout},
		{"-write-timeout", sf.writeTimeout},
		{"-idle-timeout", sf.idleTimeout},
	} {
		if d.v <= 0 {
			return fmt.Errorf("%s %s is not positive; give a duration such as 30s", d.name, d.v)
		}
	}
	if sf.maxConnections < 1 {
		return fmt.Errorf("-max-connections %d is out of range; use 1 or more", sf.maxConnections)
	}
	if sf.logFormat != "text" && sf.logFormat != "json" {
		return fmt.Errorf("-log-format %q is not a format; use text or json", sf.logFormat)
	}
	return nil
}

// logHandler is the handler of the sandbox's logs on w.
func (sf *serviceFlags) logHandler(w io.Writer, opts *slog.HandlerOptions) slog.Handler {
	if sf.logFormat == "json" {
		return slog.NewJSONHandler(w, opts)
	}
	return slog.NewTextHandler(w, opts)
}

// maxHeaderBytes bounds a request's line and headers (net/http answers
// 431 past it): the sandbox's requests need a few hundred bytes, and
// net/http's default of 1 MiB let 512 connections of unfinished headers
// hold 512 MiB.
const maxHeaderBytes = 16 << 10

// newHTTPServer is the http.Server run serves h, srv's API and more, with,
// on lim's connections, whose states it reports to lim. The header, write
// and idle timeouts are http.Server's own. The body timeout is set per
// request (bodyDeadline) rather than as http.Server.ReadTimeout, which
// counts headers and body together from the request's first byte: the
// body gets its own bound, and a latency fault the handler sleeps before
// reading the body does not use it up.
func newHTTPServer(sf *serviceFlags, h http.Handler, srv *sandbox.Server, lim *connLimiter, logger *slog.Logger) *http.Server {
	return &http.Server{
		Handler: bodyDeadline(sf.bodyTimeout, h),
		ConnState: func(c net.Conn, state http.ConnState) {
			srv.ConnState(c, state)
			lim.ConnState(c, state)
		},
		ReadHeaderTimeout: sf.readHeaderTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		WriteTimeout:      sf.writeTimeout,
		IdleTimeout:       sf.idleTimeout,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}

// bodyDeadline gives each request's body d to arrive, from the end of its
// headers, or from the handler's first read of it if that comes later (a
// latency fault sleeps first): a client that trickles it is cut off then,
// its connection closed, also when the handler answers without reading it
// (a 401) and net/http drains it after. The deadline is lifted once the
// body is read whole, so a slow answer is never cut.
func bodyDeadline(d time.Duration, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			rc := http.NewResponseController(w)
			if err := rc.SetReadDeadline(time.Now().Add(d)); err == nil {
				r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc, d: d}
			}
		}
		h.ServeHTTP(w, r)
	})
}

type deadlineBody struct {
	io.ReadCloser
	rc            *http.ResponseController
	d             time.Duration
	started, done bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	if !b.started {
		b.started = true
		_ = b.rc.SetReadDeadline(time.Now().Add(b.d))
	}
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) && !b.done {
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// limitListener serves at most n connections at once. A connection that
// arrives when all n are taken is accepted, then waits for a slot: the
// longest-idle kept-alive connection, if any, is closed to make one
// (HTTP/1.1 lets a server close an idle connection at any time, and
// clients retry a request that met such a close), else it waits until a
// connection closes or goes idle. Only a connection that http.Server last
// reported idle (ConnState, which the server must call) is closed, under
// the lock its reports take. Each wait is counted with waited, for the
// metrics.
func limitListener(ln net.Listener, n int, waited func()) *connLimiter {
	l := &connLimiter{Listener: ln, max: n, waited: waited}
	l.cond = sync.NewCond(&l.mu)
	return l
}

type connLimiter struct {
	net.Listener
	max    int
	waited func()

	mu     sync.Mutex
	cond   *sync.Cond // signalled when a slot is freed or a connection goes idle
	open   int
	idle   list.List // of *limitedConn, the longest idle first
	closed bool
}

func (l *connLimiter) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	lc := &limitedConn{Conn: c, l: l}
	l.mu.Lock()
	counted := false
	for l.open >= l.max && !l.closed {
		if e := l.idle.Front(); e != nil {
			l.idle.Remove(e)
			if idle, ok := e.Value.(*limitedConn); ok {
				idle.elem = nil
				l.mu.Unlock()
				idle.Close() // frees its slot
				l.mu.Lock()
			}
			continue
		}
		if !counted {
			counted = true
			l.waited()
		}
		l.cond.Wait()
	}
	if l.closed {
		l.mu.Unlock()
		c.Close()
		return nil, net.ErrClosed
	}
	l.open++
	l.mu.Unlock()
	return lc, nil
}

// Close also ends an Accept waiting for a slot.
func (l *connLimiter) Close() error {
	l.mu.Lock()
	l.closed = true
	l.cond.Broadcast()
	l.mu.Unlock()
	return l.Listener.Close()
}

// ConnState follows http.Server's reports of the connections it accepted
// from l: which are idle, and since when.
func (l *connLimiter) ConnState(c net.Conn, state http.ConnState) {
	lc, ok := c.(*limitedConn)
	if !ok || lc.l != l {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if lc.elem != nil {
		l.idle.Remove(lc.elem)
		lc.elem = nil
	}
	if state == http.StateIdle && !lc.released {
		lc.elem = l.idle.PushBack(lc)
		l.cond.Broadcast()
	}
}

type limitedConn struct {
	net.Conn
	l *connLimiter
	// Under l.mu: elem is the connection's place in l.idle while it is
	// idle; released is set once its slot is freed.
	elem     *list.Element
	released bool
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	l := c.l
	l.mu.Lock()
	if !c.released {
		c.released = true
		l.open--
		if c.elem != nil {
			l.idle.Remove(c.elem)
			c.elem = nil
		}
		l.cond.Broadcast()
	}
	l.mu.Unlock()
	return err
}

// gatherKeys is every key the sandbox admits: the -key flags, the
// environment variable and the key file. Errors name where the bad key
// is (flag number, entry number, file line), never the key.
func (sf *serviceFlags) gatherKeys(flagKeys []string, getenv func(string) string) ([]string, error) {
	keys := append([]string(nil), flagKeys...)
	if v := getenv(envKeys); v != "" {
		n := 0
		for e := range strings.SplitSeq(v, ",") {
			if e = strings.TrimSpace(e); e == "" {
				continue
			}
			n++
			if wire.ClassifyKey(e) != wire.KeySecretSandbox {
				return nil, fmt.Errorf("%s entry number %d is not a sandbox secret key; %s", envKeys, n, keyShape())
			}
			keys = append(keys, e)
		}
	}
	if sf.keyFile != "" {
		fileKeys, err := readKeyFile(sf.keyFile)
		if err != nil {
			return nil, err
		}
		if len(fileKeys) == 0 && len(keys) == 0 {
			return nil, fmt.Errorf("-key-file %s has no keys; put one key a line in it, or leave -key-file out", sf.keyFile)
		}
		keys = append(keys, fileKeys...)
	}
	return keys, nil
}

// checkKeyFileMode refuses a keys file with any permission for group or
// others. Windows keeps permissions in ACLs, which the mode does not show:
// there the check is left to the operator.
func checkKeyFileMode(f *os.File) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("-key-file: %w", err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("-key-file %s is accessible to group or others (mode %04o), and every key in it opens an account; "+
			"run chmod 600 %[1]s (or 400), as OpenSSH requires of a private key", f.Name(), perm)
	}
	return nil
}

func keyShape() string {
	return fmt.Sprintf("use %s followed by at least %d letters, digits or underscores", wire.SecretKeySandboxPrefix, wire.MinKeySecretLength)
}

// readKeyFile reads one key a line; # starts a comment (keys hold no #).
// A file that group or others may read is refused, as OpenSSH refuses
// such a private key: every key in it opens an account.
func readKeyFile(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		// The *PathError names the file and the cause; it holds no content.
		return nil, fmt.Errorf("-key-file: %w%s", err, accessHint(err))
	}
	defer f.Close()
	if err := checkKeyFileMode(f); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("-key-file: %w", err)
	}
	var keys []string
	for i, line := range bytes.Split(b, []byte("\n")) {
		if j := bytes.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		k := string(bytes.TrimSpace(line))
		if k == "" {
			continue
		}
		if wire.ClassifyKey(k) != wire.KeySecretSandbox {
			return nil, fmt.Errorf("-key-file %s line %d is not a sandbox secret key; %s", path, i+1, keyShape())
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// checkExposure refuses to serve every key beyond loopback unless -open
// says so, as Redis's protected mode does: an address others can reach
// with no keys lets anyone make accounts and read every account whose
// key they guess or see.
func (sf *serviceFlags) checkExposure(addr string, ln net.Addr, keys int) error {
	if keys > 0 || sf.open || isLoopback(ln) {
		return nil
	}
	return fmt.Errorf("-addr %s listens beyond loopback with no keys: anyone who can reach it could use every account and fill the sandbox; "+
		"admit only your team's keys with -key, -key-file or %s, or pass -open to serve anyone who can reach it", addr, envKeys)
}

// isLoopback reports whether a listener's address is loopback only
// (127.0.0.0/8 or ::1). It is checked once listening, on the address the
// name in -addr resolved to: localhost is loopback, while an empty host,
// 0.0.0.0 and :: listen on every interface.
func isLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// reloadKeysOnHUP re-reads the key file on each SIGHUP until ctx ends. A
// file that fails keeps the keys in use and logs why (a line number,
// never a key). Without a key file SIGHUP is logged and ignored: a
// service manager's reload must never stop the sandbox, as SIGHUP's
// default action would.
func (sf *serviceFlags) reloadKeysOnHUP(ctx context.Context, srv *sandbox.Server, flagKeys []string, logger *slog.Logger) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		defer signal.Stop(hup)
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				if sf.keyFile == "" {
					logger.Warn("SIGHUP ignored: there is no -key-file to re-read")
					continue
				}
				sf.reloadKeys(srv, flagKeys, os.Getenv, logger)
			}
		}
	}()
}

func (sf *serviceFlags) reloadKeys(srv *sandbox.Server, flagKeys []string, getenv func(string) string, logger *slog.Logger) {
	keys, err := sf.gatherKeys(flagKeys, getenv)
	if err == nil {
		err = srv.SetKeys(keys)
	}
	if err != nil {
		logger.Error("reloading the keys failed; the keys in use stay", "file", sf.keyFile, "error", err)
		return
	}
	logger.Info("keys reloaded", "file", sf.keyFile, "keys", len(keys))
}
