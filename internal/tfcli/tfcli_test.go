package tfcli_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/tfcli"
)

func TestCLIConfig_DevOverrides(t *testing.T) {
	got := tfcli.CLIConfig(
		tfcli.Override{Source: "paymentsdev/payments", Dir: "/abs/bin"},
		tfcli.Override{Source: "bench/floor", Dir: `/other "dir"`},
	)
	want := `provider_installation {
  dev_overrides {
    "registry.terraform.io/paymentsdev/payments" = "/abs/bin"
    "registry.opentofu.org/paymentsdev/payments" = "/abs/bin"
    "registry.terraform.io/bench/floor" = "/other \"dir\""
    "registry.opentofu.org/bench/floor" = "/other \"dir\""
  }
  direct {}
}
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWriteCLIConfig_Absolute(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := tfcli.WriteCLIConfig("rc", tfcli.Override{Source: "a/b", Dir: "bin"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("rc")
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if want := `"registry.terraform.io/a/b" = "` + filepath.Join(wd, "bin") + `"`; !strings.Contains(string(b), want) {
		t.Errorf("want a relative directory made absolute (%s):\n%s", want, b)
	}
}

func TestEnv_Clean(t *testing.T) {
	got := tfcli.Env([]string{"PATH=/bin", "TF_LOG=DEBUG", "TF_CLI_CONFIG_FILE=/nope", "PAYMENTS_SECRET_KEY=sk_x", "HOME=/root", "CHECKPOINT_DISABLE="},
		"/work/terraform.rc", "PAYMENTS_BASE_URL=http://x")
	want := []string{"PATH=/bin", "HOME=/root", "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_INPUT=0",
		"TF_CLI_CONFIG_FILE=/work/terraform.rc", "PAYMENTS_BASE_URL=http://x"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := tfcli.Env(nil, ""); slices.ContainsFunc(got, func(kv string) bool { return strings.HasPrefix(kv, "TF_CLI_CONFIG_FILE=") }) {
		t.Errorf("no CLI configuration asked for, got %q", got)
	}
}

func TestBinary_Lookup(t *testing.T) {
	fake := fakeCLI(t)
	t.Setenv("TF_ACC_TERRAFORM_PATH", "")
	t.Setenv("PATH", filepath.Dir(fake))
	for _, tc := range []struct{ name, env, want string }{
		{name: fake, want: fake},
		{env: fake, want: fake},
		{want: fake}, // "terraform" on PATH
	} {
		t.Setenv("TF_ACC_TERRAFORM_PATH", tc.env)
		if got, err := tfcli.Binary(tc.name); err != nil || got != tc.want {
			t.Errorf("Binary(%q) with TF_ACC_TERRAFORM_PATH=%q = %q, %v; want %q", tc.name, tc.env, got, err, tc.want)
		}
	}
	t.Setenv("TF_ACC_TERRAFORM_PATH", "")
	if _, err := tfcli.Binary("no-such-terraform"); err == nil || !strings.Contains(err.Error(), `"no-such-terraform"`) {
		t.Errorf("want an error naming the missing CLI, got %v", err)
	}
}

// fakeScript stands in for the CLI: it prints its arguments and
// TF_CLI_CONFIG_FILE, exits with $FAKE_EXIT, answers show -json, and for
// "wait" runs until SIGINT.
const fakeScript = `#!/bin/sh
if [ "$1" = show ]; then
	echo 'Warning: not JSON' >&2
	echo '{"values":{"root_module":{"resources":[` +
	`{"address":"payments_customer.a","mode":"managed","type":"payments_customer","name":"a","values":{"id":"cus_1","email":"a@example.com"}},` +
	`{"address":"data.payments_customer.b","mode":"data","type":"payments_customer","name":"b","values":{"id":"cus_2"}}]}}}'
	exit 0
fi
if [ "$1" = output ]; then
	echo '{"n":{"sensitive":false,"type":"number","value":3}}'
	exit 0
fi
if [ "$1" = broken ]; then
	echo 'not JSON'
	echo 'Error: no state' >&2
	exit "${FAKE_EXIT:-0}"
fi
if [ "$1" = wait ]; then
	trap 'echo interrupted; exit 1' INT
	echo ready
	while :; do sleep 0.05; done
fi
echo "args: $*"
echo "rc: $TF_CLI_CONFIG_FILE" >&2
if [ "${FAKE_EXIT:-0}" != 0 ]; then
	printf '\n│ Error: Something Went Wrong\n│ \n│ the detail\n╵\n'
fi
exit "${FAKE_EXIT:-0}"
`

func fakeCLI(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "terraform")
	if err := os.WriteFile(path, []byte(fakeScript), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func runner(t *testing.T, exit string) *tfcli.Runner {
	return &tfcli.Runner{Bin: fakeCLI(t), Dir: t.TempDir(), Parallelism: 4,
		Env: tfcli.Env(os.Environ(), "/rc", "FAKE_EXIT="+exit)}
}

func TestRunner_Operations(t *testing.T) {
	ctx := context.Background()
	r := runner(t, "0")
	for _, tc := range []struct {
		run  func() (*tfcli.Result, error)
		want string
	}{
		{func() (*tfcli.Result, error) { return r.Init(ctx) }, "args: init -input=false -no-color"},
		{func() (*tfcli.Result, error) { return r.Apply(ctx, "-refresh=false") }, "args: apply -auto-approve -input=false -no-color -parallelism=4 -refresh=false"},
		{func() (*tfcli.Result, error) { return r.Destroy(ctx) }, "args: destroy -auto-approve -input=false -no-color -parallelism=4"},
		{func() (*tfcli.Result, error) {
			changes, res, err := r.Plan(ctx, "-refresh=true")
			if changes {
				t.Error("plan: exit 0 reported as changes")
			}
			return res, err
		}, "args: plan -detailed-exitcode -input=false -no-color -parallelism=4 -refresh=true"},
	} {
		res, err := tc.run()
		if err != nil {
			t.Fatalf("%s: %v", tc.want, err)
		}
		if !strings.Contains(res.Output, tc.want+"\n") || !strings.Contains(res.Output, "rc: /rc\n") || res.ExitCode != 0 || res.Wall <= 0 {
			t.Errorf("want output with %q and the CLI configuration, exit 0: got %+v", tc.want, res)
		}
	}
}

func TestRunner_ExitCodes(t *testing.T) {
	ctx := context.Background()
	changes, res, err := runner(t, "2").Plan(ctx)
	if err != nil || !changes || res.ExitCode != 2 {
		t.Errorf("plan exiting 2: got changes %v, %+v, %v; want changes and no error", changes, res, err)
	}
	for _, run := range []func(r *tfcli.Runner) (*tfcli.Result, error){
		func(r *tfcli.Runner) (*tfcli.Result, error) { return r.Apply(ctx) },
		func(r *tfcli.Runner) (*tfcli.Result, error) { _, res, err := r.Plan(ctx); return res, err },
	} {
		res, err := run(runner(t, "1"))
		var exit *tfcli.ExitError
		if !errors.As(err, &exit) || res == nil || res.ExitCode != 1 {
			t.Fatalf("exit 1: got %+v, %v; want an ExitError and the result", res, err)
		}
		if want := "exited 1: Error: Something Went Wrong the detail"; !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "terraform ") {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if _, err := (&tfcli.Runner{Bin: filepath.Join(t.TempDir(), "missing")}).Run(ctx, "apply"); err == nil {
		t.Error("a missing binary ran")
	}
}

func TestRunner_State(t *testing.T) {
	got, err := runner(t, "0").State(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Address != "payments_customer.a" || got[0].Type != "payments_customer" || got[0].ID() != "cus_1" ||
		got[0].Attr("email") != "a@example.com" || got[0].Attr("missing") != "" {
		t.Errorf("want the managed resource alone, got %+v", got)
	}
}

func TestRunner_JSON(t *testing.T) {
	ctx := context.Background()
	var outputs map[string]struct {
		Value float64 `json:"value"`
	}
	if err := runner(t, "0").JSON(ctx, &outputs, "output", "-json"); err != nil || outputs["n"].Value != 3 {
		t.Errorf("output -json: got %+v, %v; want n = 3", outputs, err)
	}
	for _, tc := range []struct{ exit, want string }{
		{"0", "decoding terraform broken"},
		{"1", "terraform broken: exit status 1: Error: no state"},
	} {
		var v any
		err := runner(t, tc.exit).JSON(ctx, &v, "broken")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("exit %s: got %v; want an error with %q", tc.exit, err, tc.want)
		}
	}
}

func TestCommand_Interrupt(t *testing.T) {
	c, err := runner(t, "0").Start(context.Background(), "wait")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return strings.Contains(c.Output(), "ready") })
	if err := c.Interrupt(); err != nil {
		t.Fatal(err)
	}
	res, err := c.Wait()
	if err == nil || res.ExitCode != 1 || !strings.Contains(res.Output, "interrupted") {
		t.Errorf("got %+v, %v; want the CLI to handle SIGINT and exit 1", res, err)
	}
}

// TestCommand_CancelInterrupts checks that the end of the context reaches
// the CLI as SIGINT, which it handles, rather than as SIGKILL.
func TestCommand_CancelInterrupts(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c, err := runner(t, "0").Start(ctx, "wait")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return strings.Contains(c.Output(), "ready") })
	cancel()
	res, _ := c.Wait()
	if !strings.Contains(res.Output, "interrupted") {
		t.Errorf("output %q: want the CLI to have seen SIGINT", res.Output)
	}
}

func TestFirstError_AndTail(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{"a\n│ Error: Bad Thing\n│ \n│ it broke\n│ badly\n│ more\n", "Error: Bad Thing it broke badly"},
		{"one\ntwo\n", "one\ntwo"},
	} {
		if got := tfcli.FirstError(tc.out); got != tc.want {
			t.Errorf("FirstError(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
	if got := tfcli.Tail("1\n2\n3\n", 2); got != "2\n3" {
		t.Errorf("Tail = %q", got)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
