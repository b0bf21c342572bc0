package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRun_WebhookFlags(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"-h"}, &out, &errOut); code != 0 {
		t.Fatalf("-h exits %d", code)
	}
	for _, want := range []string{"-webhook-allow", "-webhook-attempts", "(default 5)", "loopback", "-webhook-concurrency", "(default 64)",
		"own listening address", "169.254.0.0/16", "fd00:ec2::254", "host:port", "target address not allowed"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("-h output lacks %q:\n%s", want, errOut.String())
		}
	}
	for _, n := range []string{"0", "21", "many"} {
		out.Reset()
		errOut.Reset()
		if code := run([]string{"-webhook-attempts", n}, &out, &errOut); code != 2 {
			t.Errorf("-webhook-attempts %s: exit %d, want 2 (%s)", n, code, errOut.String())
		}
	}
	for _, n := range []string{"0", "10001", "x"} {
		out.Reset()
		errOut.Reset()
		if code := run([]string{"-webhook-concurrency", n}, &out, &errOut); code != 2 {
			t.Errorf("-webhook-concurrency %s: exit %d, want 2 (%s)", n, code, errOut.String())
		}
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"-addr", "127.0.0.1:0", "-webhook-allow", "hooks.internal,10.0.0.0/33"}, &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), "10.0.0.0/33") || out.Len() != 0 {
		t.Errorf("a malformed -webhook-allow network: exit %d, stderr %s", code, errOut.String())
	}
}
