package parentwatch

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test runs its own binary twice more: a parent, as Terraform, that
// starts a child, as the plugin, which watches it.
const roleEnv = "PARENTWATCH_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case "parent":
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), roleEnv+"=child")
		child.Stdout = os.Stdout
		if err := child.Start(); err != nil {
			os.Exit(2)
		}
		time.Sleep(time.Minute)
		os.Exit(0)
	case "child":
		if !Start(func() { os.Exit(0) }) {
			os.Exit(3)
		}
		// Watching: the test may kill the parent now.
		_, _ = os.Stdout.WriteString(strconv.Itoa(os.Getpid()) + "\n")
		time.Sleep(time.Minute)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// TestStart_ExitsWhenTheParentIsKilled kills the parent with SIGKILL and
// waits for the child to end on its own.
func TestStart_ExitsWhenTheParentIsKilled(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	parent := exec.Command(os.Args[0])
	parent.Env = append(os.Environ(), roleEnv+"=parent")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the child's pid, written once it watches: %v", err)
	}
	child, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for running(child) {
		if time.Now().After(deadline) {
			t.Fatalf("the child %d still runs 5 s after its parent was killed", child)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// running reports whether pid runs (a zombie does not).
func running(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z"
}
