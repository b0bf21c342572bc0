package sandboxtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ListeningPrefix starts the line payments-sandbox prints to standard
// output once it listens; the base URL follows it.
const ListeningPrefix = "payments-sandbox listening on "

// ProcessOptions configure StartProcess.
type ProcessOptions struct {
	// Args are flags passed after -addr 127.0.0.1:0, for example -data
	// FILE or -log-level debug.
	Args []string
	// Log receives the program's standard error (its log) and anything it
	// prints to standard output after the listening line. nil discards it.
	Log io.Writer
	// Timeout bounds the wait for the listening line; 0 means 30 seconds.
	Timeout time.Duration
}

// Process is a payments-sandbox program started by StartProcess: the real
// binary on a free loopback port, for the tools and for tests that need a
// separate process, such as those driving the Terraform CLI.
type Process struct {
	// URL is the base URL from its listening line, for example
	// http://127.0.0.1:34567 (no trailing slash).
	URL string

	cmd  *exec.Cmd
	done chan struct{} // closed when it has exited; err is then set
	err  error
}

// StartProcess starts the payments-sandbox binary bin on a free loopback
// port and returns once it prints its listening line. ctx bounds that wait
// only: the program runs until Stop. It runs in a process group of its
// own, so that a Ctrl-C meant for the caller leaves it serving while a
// Terraform CLI it serves finishes gracefully.
func StartProcess(ctx context.Context, bin string, opts ProcessOptions) (*Process, error) {
	log := &logWriter{w: opts.Log}
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0"}, opts.Args...)...)
	cmd.Stderr = log
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	ownProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the sandbox %s: %w", bin, err)
	}
	p := &Process{cmd: cmd, done: make(chan struct{})}
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), ListeningPrefix); ok {
				url <- strings.TrimSpace(u)
				break
			}
			fmt.Fprintln(log, sc.Text())
		}
		// Keep draining, so the program never blocks on a full pipe.
		_, _ = io.Copy(log, stdout)
		p.err = cmd.Wait()
		close(p.done)
	}()
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var cause error
	select {
	case p.URL = <-url:
		return p, nil
	case <-p.done:
		cause = fmt.Errorf("it exited before listening (%w)", p.err)
	case <-timer.C:
		cause = fmt.Errorf("it did not print %q within %s", ListeningPrefix+"URL", timeout)
	case <-ctx.Done():
		cause = ctx.Err()
	}
	_ = p.kill()
	return nil, fmt.Errorf("starting the sandbox %s: %w; its log ends:\n%s", bin, cause, log.tail())
}

// Pid returns the program's process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Stop asks the program to stop (SIGTERM, which lets requests in flight
// finish), kills it after 10 seconds, and returns how it exited: nil for a
// clean stop.
func (p *Process) Stop() error {
	select {
	case <-p.done:
		return p.exitErr()
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return p.exitErr()
	case <-time.After(10 * time.Second):
		_ = p.kill()
		return errors.New("the sandbox did not stop within 10s of SIGTERM and was killed")
	}
}

func (p *Process) kill() error {
	killGroup(p.cmd)
	<-p.done
	return p.err
}

func (p *Process) exitErr() error {
	if p.err != nil {
		return fmt.Errorf("the sandbox exited: %w", p.err)
	}
	return nil
}

// logWriter serialises the program's two output streams into the
// caller's writer and keeps the last few kilobytes for error messages.
type logWriter struct {
	mu   sync.Mutex
	w    io.Writer
	last []byte
}

const logTail = 4 << 10

func (l *logWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last = append(l.last, b...)
	if len(l.last) > logTail {
		l.last = l.last[len(l.last)-logTail:]
	}
	if l.w == nil {
		return len(b), nil
	}
	return l.w.Write(b)
}

func (l *logWriter) tail() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.TrimRight(string(l.last), "\n")
}
