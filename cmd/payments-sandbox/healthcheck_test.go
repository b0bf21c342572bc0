package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestHealthcheck_ExitStatus: the subcommand the image's HEALTHCHECK runs
// is 0 only for a 200 from /healthz, and says why otherwise.
func TestHealthcheck_ExitStatus(t *testing.T) {
	healthy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `{"status":"ok"}`)
	}))
	defer healthy.Close()
	sick := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, `{"status":"unavailable","reason":"data file closed"}`)
	}))
	defer sick.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	_, healthyPort, _ := net.SplitHostPort(healthy.Listener.Addr().String())

	for _, tc := range []struct {
		name       string
		args       []string
		status     int
		out, errOK string
	}{
		{"healthy", []string{"-addr", healthy.Listener.Addr().String()}, 0, `healthy: {"status":"ok"}`, ""},
		{"wildcard asks loopback", []string{"-addr", "0.0.0.0:" + healthyPort}, 0, "healthy", ""},
		{"empty host asks loopback", []string{"-addr", ":" + healthyPort}, 0, "healthy", ""},
		{"503", []string{"-addr", sick.Listener.Addr().String()}, 1, "", "503 Service Unavailable: {\"status\":\"unavailable\",\"reason\":\"data file closed\"}"},
		{"nothing listening", []string{"-addr", closed}, 1, "", "unhealthy:"},
		{"no port", []string{"-addr", "127.0.0.1"}, 2, "", "is not a host:port with a port"},
		{"bad flag", []string{"-nope"}, 2, "", "flag provided but not defined: -nope"},
		{"argument", []string{"now"}, 2, "", `unexpected argument "now"`},
		{"bad timeout", []string{"-timeout", "0s"}, 2, "", "-timeout 0s is not positive"},
		{"help", []string{"-h"}, 0, "Exits 0 when the sandbox answers GET /healthz with 200", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			got := run(append([]string{"healthcheck"}, tc.args...), &stdout, &stderr)
			if got != tc.status {
				t.Fatalf("exit status %d, want %d; stdout %q, stderr %q", got, tc.status, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.out) {
				t.Errorf("stdout %q, want it to contain %q", stdout.String(), tc.out)
			}
			if !strings.Contains(stderr.String(), tc.errOK) {
				t.Errorf("stderr %q, want it to contain %q", stderr.String(), tc.errOK)
			}
		})
	}
}

// TestAccessHint_NamesTheFix: a file the sandbox cannot open gets the
// fix, with the user it runs as; other errors get nothing added.
func TestAccessHint_NamesTheFix(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"permission", &fs.PathError{Op: "open", Path: "/data/sandbox.db", Err: syscall.EACCES}, fmt.Sprintf("accessible to uid %d", os.Getuid())},
		{"read-only", &fs.PathError{Op: "open", Path: "/data/sandbox.db", Err: syscall.EROFS}, "mount a writable volume"},
		{"wrapped", fmt.Errorf("opening data file: %w", &fs.PathError{Op: "open", Path: "/x", Err: syscall.EACCES}), "chown"},
		{"other", errors.New("disk on fire"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := accessHint(tc.err)
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("accessHint(%v) = %q, want it to contain %q", tc.err, got, tc.want)
			}
		})
	}
}

// TestRun_HelpNamesHealthcheck: -h shows the subcommand beside the flags.
func TestRun_HelpNamesHealthcheck(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if got := run([]string{"-h"}, &stdout, &stderr); got != 0 {
		t.Fatalf("-h: exit status %d", got)
	}
	if !strings.Contains(stdout.String(), "payments-sandbox healthcheck [-addr host:port]") {
		t.Errorf("-h lacks the healthcheck subcommand:\n%s", stdout.String())
	}
}
