package storage

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// killChild names the data file a child process of
// TestStore_SurvivesKill writes to.
const killChild = "STORAGE_TEST_KILL_CHILD"

// TestStore_SurvivesKill: a process committing from 8 goroutines, with
// checkpoints every 50 ms, is killed (SIGKILL) mid-way; every commit it
// acknowledged is in the data file and its log when they are opened
// again.
func TestStore_SurvivesKill(t *testing.T) {
	if path := os.Getenv(killChild); path != "" {
		commitUntilKilled(path)
		return
	}
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestStore_SurvivesKill$", "-test.count=1")
	cmd.Env = append(os.Environ(), killChild+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := make(map[string]bool)
	lines := bufio.NewScanner(out)
	deadline := time.Now().Add(60 * time.Second)
	for len(acked) < 20000 && time.Now().Before(deadline) && lines.Scan() {
		if key, ok := strings.CutPrefix(lines.Text(), "acked "); ok {
			acked[key] = true
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() { // acknowledged before the kill, read after it
		if key, ok := strings.CutPrefix(lines.Text(), "acked "); ok {
			acked[key] = true
		}
	}
	_ = cmd.Wait()
	if len(acked) < 100 {
		t.Fatalf("the child acknowledged only %d commits", len(acked))
	}
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	found := make(map[string]bool)
	for _, a := range all {
		for k, v := range a.Buckets["kill"] {
			if string(v) != "value of "+k {
				t.Errorf("record %s holds %q", k, v)
			}
			found[k] = true
		}
	}
	lost := 0
	for k := range acked {
		if !found[k] {
			lost++
		}
	}
	t.Logf("%d commits acknowledged before the kill, %d found after it", len(acked), len(found))
	if lost > 0 {
		t.Errorf("%d acknowledged commits lost to kill -9", lost)
	}
}

// commitUntilKilled is the child: it commits from 8 goroutines, printing
// each key once its commit returns, until it is killed (or a minute has
// passed).
func commitUntilKilled(path string) {
	st, err := open(path, 64<<10, 50*time.Millisecond)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var mu sync.Mutex
	for w := range 8 {
		go func() {
			for i := 0; ; i++ {
				key := fmt.Sprintf("w%d-%06d", w, i)
				if err := st.Commit(testAccount(w), []Op{Put("kill", key, []byte("value of "+key)), SetSeq(uint64(i))}); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				mu.Lock()
				fmt.Println("acked " + key)
				mu.Unlock()
			}
		}()
	}
	time.Sleep(time.Minute)
	os.Exit(1)
}
