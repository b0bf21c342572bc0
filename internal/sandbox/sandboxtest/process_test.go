package sandboxtest_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
)

// fakeSandbox writes a shell script standing in for payments-sandbox.
func fakeSandbox(t *testing.T, script string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "payments-sandbox")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestStartProcess_Fake(t *testing.T) {
	bin := fakeSandbox(t, `trap 'echo "after SIGTERM"; exit 0' TERM
echo "args: $*" >&2
echo "starting"
echo "payments-sandbox listening on http://127.0.0.1:4242"
while :; do sleep 0.05; done
`)
	// Read only after Stop, when StartProcess has written all the output.
	var log bytes.Buffer
	p, err := sandboxtest.StartProcess(context.Background(), bin, sandboxtest.ProcessOptions{Args: []string{"-data", "x.db"}, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if p.URL != "http://127.0.0.1:4242" || p.Pid() <= 0 {
		t.Errorf("URL %q pid %d", p.URL, p.Pid())
	}
	if err := p.Stop(); err != nil {
		t.Errorf("Stop after a clean exit: %v", err)
	}
	for _, want := range []string{"args: -addr 127.0.0.1:0 -data x.db\n", "starting\n", "after SIGTERM\n"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	if err := p.Stop(); err != nil {
		t.Errorf("a second Stop: %v", err)
	}
}

func TestStartProcess_Failures(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		want         []string
	}{
		{"exits", "echo 'flag provided but not defined: -nope' >&2; exit 2\n",
			[]string{"exited before listening (exit status 2)", "flag provided but not defined: -nope"}},
		{"silent", "echo 'still thinking' >&2; sleep 30\n",
			[]string{"did not print \"payments-sandbox listening on URL\" within 300ms", "still thinking"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			p, err := sandboxtest.StartProcess(context.Background(), fakeSandbox(t, tc.script), sandboxtest.ProcessOptions{Timeout: 300 * time.Millisecond})
			if err == nil {
				_ = p.Stop()
				t.Fatal("want an error")
			}
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error lacks %q:\n%v", want, err)
				}
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %s: the silent program was not killed", d)
			}
		})
	}
	if _, err := sandboxtest.StartProcess(context.Background(), filepath.Join(t.TempDir(), "missing"), sandboxtest.ProcessOptions{}); err == nil {
		t.Error("a missing binary started")
	}
}

// TestStartProcess_Real runs the real program, built from this module.
func TestStartProcess_Real(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the sandbox program")
	}
	bin := filepath.Join(t.TempDir(), "payments-sandbox")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/paymentsdev/terraform-provider-payments/cmd/payments-sandbox").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var log bytes.Buffer // read only after Stop, as above
	p, err := sandboxtest.StartProcess(context.Background(), bin, sandboxtest.ProcessOptions{Args: []string{"-log-level", "debug"}, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, p.URL+"/_sandbox/stats", nil)
	req.SetBasicAuth(sandboxtest.NewKey(t), "")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /_sandbox/stats: %d", resp.StatusCode)
	}
	if err := p.Stop(); err != nil {
		t.Errorf("SIGTERM should stop it cleanly: %v\n%s", err, log.String())
	}
	if !strings.Contains(log.String(), "/_sandbox/stats") {
		t.Errorf("the debug log does not show the request:\n%s", log.String())
	}
}
