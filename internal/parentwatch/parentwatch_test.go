package parentwatch

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test runs its own binary twice more: a parent, as Terraform, that
// starts a child, as the plugin, which watches it. Both write to one pipe
// the test reads: it reaches its end only once every process holding it
// has ended, however it ended, on every system, which is how the test
// knows the child is gone without looking it up.
const roleEnv = "PARENTWATCH_TEST_ROLE"

// goneLine is what the child writes when it finds its parent gone.
const goneLine = "parent gone"

// exitDeadline is how long the child may outlive its parent: a few
// polling intervals, with room for a busy machine.
const exitDeadline = 5 * time.Second

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case "parent":
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), roleEnv+"=child")
		child.Stdout = os.Stdout
		if err := child.Start(); err != nil {
			os.Exit(2)
		}
		time.Sleep(time.Minute) // until the test kills it
		os.Exit(0)
	case "child":
		if !Start(func() {
			_, _ = os.Stdout.WriteString(goneLine + "\n")
			os.Exit(0)
		}) {
			os.Exit(3)
		}
		// Watching: the test may kill the parent now.
		_, _ = os.Stdout.WriteString("watching " + strconv.Itoa(os.Getpid()) + "\n")
		time.Sleep(time.Minute)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// TestStart_ExitsWhenTheParentIsKilled kills the parent (SIGKILL;
// TerminateProcess on Windows) and waits for the child to end on its own.
func TestStart_ExitsWhenTheParentIsKilled(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	parent := exec.Command(os.Args[0])
	parent.Env = append(os.Environ(), roleEnv+"=parent")
	parent.Stdout = w
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close() // the parent and the child hold it now
	out := bufio.NewReader(r)
	line, err := out.ReadString('\n')
	pid, perr := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(line, "watching "), "\n"))
	if err != nil || perr != nil {
		_ = parent.Process.Kill()
		t.Fatalf("reading the child's first line, written once it watches: %q, %v", line, err)
	}
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	killed := time.Now()
	rest := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(out) // until the child, the pipe's last writer, ends
		rest <- string(b)
	}()
	select {
	case s := <-rest:
		if !strings.Contains(s, goneLine) {
			t.Errorf("the child ended without noticing its parent was gone; it wrote %q", s)
		}
		t.Logf("the child ended %v after its parent was killed", time.Since(killed).Round(time.Millisecond))
	case <-time.After(exitDeadline):
		if child, err := os.FindProcess(pid); err == nil {
			_ = child.Kill()
		}
		t.Fatalf("the child %d still runs %v after its parent was killed", pid, exitDeadline)
	}
}
