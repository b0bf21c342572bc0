// Package tfcli runs the Terraform CLI, or OpenTofu, the way a user does,
// against providers built from this repository: through a CLI configuration
// of its own whose dev_overrides serve each provider from a local directory
// (no `terraform init`, no registry), in an environment cleared of the
// caller's Terraform and provider settings, with every command's output
// captured. The benchmark, the soak and the provider's CLI tests share it.
//
// It uses the standard library only, so anything may import it.
package tfcli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Override serves one provider from a local directory.
type Override struct {
	// Source is the provider's source address without a host, as written
	// in required_providers, for example "paymentsdev/payments".
	Source string
	// Dir is the directory holding the binary terraform-provider-TYPE.
	Dir string
}

// registryHosts are the hosts Terraform and OpenTofu put in front of a
// source without one. dev_overrides match the full address, so each
// override names both and the same configuration serves either CLI.
var registryHosts = []string{"registry.terraform.io", "registry.opentofu.org"}

// CLIConfig returns a CLI configuration that serves each provider of
// overrides from its directory and installs any other provider as usual.
func CLIConfig(overrides ...Override) string {
	var b strings.Builder
	b.WriteString("provider_installation {\n  dev_overrides {\n")
	for _, o := range overrides {
		for _, host := range registryHosts {
			fmt.Fprintf(&b, "    %s = %s\n", strconv.Quote(host+"/"+o.Source), strconv.Quote(o.Dir))
		}
	}
	b.WriteString("  }\n  direct {}\n}\n")
	return b.String()
}

// WriteCLIConfig writes CLIConfig(overrides...) to path, for
// TF_CLI_CONFIG_FILE. Relative directories are made absolute first:
// Terraform reads them from each working directory.
func WriteCLIConfig(path string, overrides ...Override) error {
	abs := make([]Override, len(overrides))
	for i, o := range overrides {
		dir, err := filepath.Abs(o.Dir)
		if err != nil {
			return err
		}
		abs[i] = Override{Source: o.Source, Dir: dir}
	}
	return os.WriteFile(path, []byte(CLIConfig(abs...)), 0o644)
}

// Env returns base without the variables that would change what Terraform
// or a provider does (TF_*, PAYMENTS_*, CHECKPOINT_DISABLE: logging, other
// CLI configurations, extra arguments, a developer's own provider settings),
// then settings for unattended runs, TF_CLI_CONFIG_FILE=cliConfig (when not
// empty) and extra.
func Env(base []string, cliConfig string, extra ...string) []string {
	var env []string
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "TF_") && !strings.HasPrefix(name, "PAYMENTS_") && name != "CHECKPOINT_DISABLE" {
			env = append(env, kv)
		}
	}
	env = append(env, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_INPUT=0")
	if cliConfig != "" {
		env = append(env, "TF_CLI_CONFIG_FILE="+cliConfig)
	}
	return append(env, extra...)
}

// Binary returns the path of the CLI to run: name when it is not empty,
// else $TF_ACC_TERRAFORM_PATH (the variable that points the acceptance
// tests at a CLI), else terraform; a name without a slash is looked up on
// PATH.
func Binary(name string) (string, error) {
	if name == "" {
		name = os.Getenv("TF_ACC_TERRAFORM_PATH")
	}
	if name == "" {
		name = "terraform"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("the Terraform CLI %q cannot be run (install it, put it on PATH, or name it with TF_ACC_TERRAFORM_PATH): %w", name, err)
	}
	return p, nil
}

// Runner runs the CLI in one working directory.
type Runner struct {
	// Bin is the CLI, terraform or tofu (see Binary).
	Bin string
	// Dir is the working directory.
	Dir string
	// Env is the whole environment of each command (see Env).
	Env []string
	// Parallelism is passed as -parallelism to apply, plan and destroy;
	// 0 leaves the CLI's default (10).
	Parallelism int
	// Output, when not nil, also receives each command's output as it
	// runs, for example to stream it with a -v flag.
	Output io.Writer
	// WaitDelay is how long the CLI has to stop after its context ends:
	// it gets SIGINT first, which it answers by finishing the operations in
	// flight and writing state, and SIGKILL after WaitDelay. 0 means two
	// minutes.
	WaitDelay time.Duration
}

// Result is a command that ran to its end.
type Result struct {
	// Args are the command's arguments, without the binary.
	Args []string
	// Output is its standard output and standard error, interleaved.
	Output string
	// ExitCode is its exit status.
	ExitCode int
	// Wall is its duration; CPU the user and system CPU time of the CLI
	// and of the children it waited for (the provider plugins, on Linux).
	Wall, CPU time.Duration
}

// ExitError is returned when the CLI ran and exited with a status the
// caller did not expect.
type ExitError struct {
	Name   string // the CLI's file name: terraform or tofu
	Result *Result
}

func (e *ExitError) Error() string {
	op := ""
	if len(e.Result.Args) > 0 {
		op = " " + e.Result.Args[0]
	}
	return fmt.Sprintf("%s%s exited %d: %s", e.Name, op, e.Result.ExitCode, FirstError(e.Result.Output))
}

// Command is a CLI command started with Start.
type Command struct {
	r     *Runner
	cmd   *exec.Cmd
	out   *lockedBuffer
	start time.Time
	args  []string
}

// Start starts the CLI with args and returns without waiting; see
// Command.Interrupt and Command.Wait.
func (r *Runner) Start(ctx context.Context, args ...string) (*Command, error) {
	cmd := exec.CommandContext(ctx, r.Bin, args...)
	cmd.Dir, cmd.Env = r.Dir, r.Env
	out := &lockedBuffer{}
	var w io.Writer = out
	if r.Output != nil {
		w = io.MultiWriter(out, r.Output)
	}
	// The same writer for both, so exec writes to it from one goroutine.
	cmd.Stdout, cmd.Stderr = w, w
	// The CLI handles SIGINT itself: a Ctrl-C meant for the caller must
	// not reach it directly, or the caller's own SIGINT on cancellation
	// would be the second one, which makes the CLI exit at once and may
	// lose state.
	ownProcessGroup(cmd)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = r.WaitDelay
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = 2 * time.Minute
	}
	c := &Command{r: r, cmd: cmd, out: out, args: args, start: time.Now()}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s %s: %w", r.name(), strings.Join(args, " "), err)
	}
	return c, nil
}

// Interrupt sends the CLI SIGINT, as a Ctrl-C would: it stops starting new
// operations, finishes those in flight and writes state.
func (c *Command) Interrupt() error {
	return c.cmd.Process.Signal(os.Interrupt)
}

// Kill kills the CLI alone with SIGKILL (on Windows, TerminateProcess), as
// a cancelled CI job or the OOM killer does: it writes nothing more, and
// its plugins are left to notice on their own.
func (c *Command) Kill() error {
	return c.cmd.Process.Kill()
}

// Pid returns the CLI's process id.
func (c *Command) Pid() int { return c.cmd.Process.Pid }

// Output returns what the command has written so far.
func (c *Command) Output() string { return c.out.String() }

// Wait waits for the command to end. The Result is nil only when it could
// not be waited for; the error is an *ExitError when it exited non-zero.
func (c *Command) Wait() (*Result, error) {
	err := c.cmd.Wait()
	res := &Result{Args: c.args, Output: c.out.String(), Wall: time.Since(c.start)}
	if ps := c.cmd.ProcessState; ps != nil {
		res.ExitCode = ps.ExitCode()
		// On Linux the rusage of a process includes the children it
		// reaped: the provider plugins.
		res.CPU = ps.UserTime() + ps.SystemTime()
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return res, &ExitError{Name: c.r.name(), Result: res}
	case err != nil:
		return res, fmt.Errorf("%s %s: %w", c.r.name(), strings.Join(c.args, " "), err)
	}
	return res, nil
}

// Run runs the CLI with args and waits for it. The error is an *ExitError
// when it exited non-zero; the Result is then still there.
func (r *Runner) Run(ctx context.Context, args ...string) (*Result, error) {
	c, err := r.Start(ctx, args...)
	if err != nil {
		return nil, err
	}
	return c.Wait()
}

// Init runs `init`. With dev_overrides it is needed only for providers
// that are not overridden, and for modules.
func (r *Runner) Init(ctx context.Context, args ...string) (*Result, error) {
	return r.Run(ctx, append([]string{"init", "-input=false", "-no-color"}, args...)...)
}

// ApplyArgs returns the arguments Apply passes, followed by args.
func (r *Runner) ApplyArgs(args ...string) []string {
	return r.opArgs([]string{"apply", "-auto-approve"}, args)
}

// Apply runs `apply -auto-approve`.
func (r *Runner) Apply(ctx context.Context, args ...string) (*Result, error) {
	return r.Run(ctx, r.ApplyArgs(args...)...)
}

// PlanArgs returns the arguments Plan passes, followed by args.
func (r *Runner) PlanArgs(args ...string) []string {
	return r.opArgs([]string{"plan", "-detailed-exitcode"}, args)
}

// Plan runs `plan -detailed-exitcode` and reports whether the plan has
// changes (exit status 2), which is no error here.
func (r *Runner) Plan(ctx context.Context, args ...string) (changes bool, res *Result, err error) {
	res, err = r.Run(ctx, r.PlanArgs(args...)...)
	if exit := (*ExitError)(nil); errors.As(err, &exit) && res.ExitCode == 2 {
		return true, res, nil
	}
	return false, res, err
}

// DestroyArgs returns the arguments Destroy passes, followed by args.
func (r *Runner) DestroyArgs(args ...string) []string {
	return r.opArgs([]string{"destroy", "-auto-approve"}, args)
}

// Destroy runs `destroy -auto-approve`.
func (r *Runner) Destroy(ctx context.Context, args ...string) (*Result, error) {
	return r.Run(ctx, r.DestroyArgs(args...)...)
}

func (r *Runner) opArgs(op, args []string) []string {
	out := append(op, "-input=false", "-no-color")
	if r.Parallelism > 0 {
		out = append(out, "-parallelism="+strconv.Itoa(r.Parallelism))
	}
	return append(out, args...)
}

// Resource is a managed resource instance in state.
type Resource struct {
	Address string         `json:"address"`
	Type    string         `json:"type"`
	Name    string         `json:"name"`
	Values  map[string]any `json:"values"`
}

// ID returns the instance's "id" attribute, or "".
func (r Resource) ID() string { return r.Attr("id") }

// Attr returns the instance's attribute name when it is a string, or "".
func (r Resource) Attr(name string) string {
	s, _ := r.Values[name].(string)
	return s
}

// JSON runs the CLI with args, a command whose standard output is JSON
// (show -json, output -json), and decodes that output into v. Standard
// error, where warnings go, is kept apart and only reported on failure.
func (r *Runner) JSON(ctx context.Context, v any, args ...string) error {
	cmd := exec.CommandContext(ctx, r.Bin, args...)
	cmd.Dir, cmd.Env = r.Dir, r.Env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	what := r.name() + " " + strings.Join(args, " ")
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w: %s", what, err, strings.TrimSpace(stderr.String()))
	}
	if err := json.Unmarshal(stdout.Bytes(), v); err != nil {
		return fmt.Errorf("decoding %s: %w", what, err)
	}
	return nil
}

// State returns the managed resource instances of the root module in
// state, from `show -json`.
func (r *Runner) State(ctx context.Context) ([]Resource, error) {
	var doc struct {
		Values *struct {
			RootModule struct {
				Resources []struct {
					Resource
					Mode string `json:"mode"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := r.JSON(ctx, &doc, "show", "-json", "-no-color"); err != nil {
		return nil, err
	}
	if doc.Values == nil {
		return nil, nil
	}
	var managed []Resource
	for _, res := range doc.Values.RootModule.Resources {
		if res.Mode == "managed" {
			managed = append(managed, res.Resource)
		}
	}
	return managed, nil
}

func (r *Runner) name() string { return filepath.Base(r.Bin) }

// FirstError returns the CLI's first "Error:" line and the lines of its
// detail that follow, without the box drawing, or the output's last lines
// when it has no such line.
func FirstError(out string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.Contains(l, "Error:") {
			msg := strings.TrimSpace(strings.TrimLeft(l, "│╷╵ "))
			for _, next := range lines[i+1 : min(i+4, len(lines))] {
				if s := strings.TrimSpace(strings.TrimLeft(next, "│╷╵ ")); s != "" {
					msg += " " + s
				}
			}
			return msg
		}
	}
	return Tail(out, 10)
}

// Tail returns the last n lines of out.
func Tail(out string, n int) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// lockedBuffer is the output of a running command: exec writes it from its
// copying goroutine while Output may read it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
