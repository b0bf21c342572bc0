package storage

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// freedFile makes a data file at dir/s.db whose free pages are most of
// it, with a log beside it holding commits not yet applied, as a crash
// leaves them: account 1 wrote bigMiB MiB and was dropped, account 2
// keeps 30 customers, the last 10 of them only in the log. It returns
// the file and every account's records as they must load.
func freedFile(t *testing.T, dir string, bigMiB int) (string, map[AccountID]*Account) {
	t.Helper()
	st := testStore(t, true)
	big := make([]byte, 1<<20)
	for i := range bigMiB {
		if err := st.Commit(testAccount(1), []Op{Put("big", fmt.Sprint(i), big)}); err != nil {
			t.Fatal(err)
		}
		if i%8 == 7 {
			st.checkpoint()
		}
	}
	for i := range 30 {
		if i == 20 {
			st.checkpoint()
		}
		if i == 0 {
			if err := st.Commit(testAccount(1), []Op{DropAccount()}); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.Commit(testAccount(2), []Op{customerOp(fmt.Sprintf("cus_%02d", i), 1000)}); err != nil {
			t.Fatal(err)
		}
	}
	want, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	return crashCopy(t, st, dir), want
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

// loadAll opens the data file at path and reads every account.
func loadAll(t *testing.T, path string) (map[AccountID]*Account, []string) {
	t.Helper()
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	return all, st.Notes()
}

// TestOpen_CompactsMostlyFreeFile: a file whose free pages are over half
// of it and over compactMinFree is compacted when opened, which it notes
// with the sizes, and its records, those in its log too, are all there.
func TestOpen_CompactsMostlyFreeFile(t *testing.T) {
	t.Parallel()
	path, want := freedFile(t, t.TempDir(), 48)
	before := fileSize(t, path)
	got, notes := loadAll(t, path)
	after := fileSize(t, path)
	t.Logf("%d bytes before, %d after; notes %q", before, after, notes)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after the compaction the file loads %v, want %v", got, want)
	}
	if after > before/4 {
		t.Errorf("the file is %d bytes, %d before: not compacted", after, before)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "compacted data file "+path) || !strings.Contains(notes[0], "MiB to ") {
		t.Errorf("notes %q, want one naming the compaction and its sizes", notes)
	}
	// Compacted, it is not compacted again.
	if _, notes := loadAll(t, path); len(notes) != 0 {
		t.Errorf("reopened, notes %q, want none", notes)
	}
}

// TestOpen_LeavesSmallFreeSpace: free pages under compactMinFree are left
// as they are, however much of the file they are.
func TestOpen_LeavesSmallFreeSpace(t *testing.T) {
	t.Parallel()
	path, want := freedFile(t, t.TempDir(), 8)
	before := fileSize(t, path)
	got, notes := loadAll(t, path)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the file loads %v, want %v", got, want)
	}
	if len(notes) != 0 || fileSize(t, path) < before {
		t.Errorf("notes %q, size %d then %d: compacted", notes, before, fileSize(t, path))
	}
	// By hand, it is compacted all the same.
	c, err := Compact(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Compact: %v", c)
	if c.Before != before || c.After >= before || c.After != fileSize(t, path) {
		t.Errorf("Compact: %+v, from a file of %d bytes to one of %d", c, before, fileSize(t, path))
	}
	if got, _ := loadAll(t, path); !reflect.DeepEqual(got, want) {
		t.Errorf("compacted by hand, the file loads %v, want %v", got, want)
	}
}

// TestCompact_RefusesOpenFile: a data file in use is not compacted.
func TestCompact_RefusesOpenFile(t *testing.T) {
	t.Parallel()
	st := testStore(t, true)
	if _, err := Compact(st.path); err == nil || !strings.Contains(err.Error(), "locked by another process") {
		t.Errorf("Compact of a file in use: %v, want it refused as locked", err)
	}
}

// compactChild names the data file a child process of
// TestCompact_SurvivesKill compacts, and the step it stops at.
const compactChild = "STORAGE_TEST_COMPACT_CHILD"

// TestCompact_SurvivesKill: a process compacting a data file is killed
// (SIGKILL) after each step: the copy written, synced, renamed over the
// file. Opened again, the file holds every record, those in its log too,
// and no copy is left beside it.
func TestCompact_SurvivesKill(t *testing.T) {
	if v := os.Getenv(compactChild); v != "" {
		path, step, _ := strings.Cut(v, "|")
		compactUntilKilled(path, step)
		return
	}
	t.Parallel()
	for _, step := range []string{"copied", "synced", "renamed"} {
		t.Run(step, func(t *testing.T) {
			t.Parallel()
			path, want := freedFile(t, t.TempDir(), 48)
			cmd := exec.Command(os.Args[0], "-test.run=^TestCompact_SurvivesKill$", "-test.count=1")
			cmd.Env = append(os.Environ(), compactChild+"="+path+"|"+step)
			cmd.Stderr = os.Stderr
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(out)
			if !lines.Scan() || lines.Text() != "at "+step {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				t.Fatalf("the child did not reach %s: %q", step, lines.Text())
			}
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			got, notes := loadAll(t, path)
			t.Logf("killed once %s; reopened: %q", step, notes)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("killed once %s, the file loads %v, want %v", step, got, want)
			}
			if _, err := os.Stat(path + compactSuffix); !os.IsNotExist(err) {
				t.Errorf("the compaction's copy is still there: %v", err)
			}
		})
	}
}

// compactUntilKilled is the child: it compacts the file, and at step
// says so and waits to be killed.
func compactUntilKilled(path, step string) {
	testHookCompact = func(s string) {
		if s == step {
			fmt.Println("at " + step)
			time.Sleep(time.Hour) // killed meanwhile
		}
	}
	_, err := Compact(path)
	fmt.Fprintf(os.Stderr, "the compaction ended without reaching %s: %v\n", step, err)
	os.Exit(1)
}

// TestOpen_KeepsFileWhenCompactionFails: a compaction that cannot make
// its copy leaves the file as it was, and Open goes on with it, noting
// why.
func TestOpen_KeepsFileWhenCompactionFails(t *testing.T) {
	t.Parallel()
	path, want := freedFile(t, t.TempDir(), 48)
	before := fileSize(t, path)
	// A directory where the copy goes: it cannot be removed nor written.
	if err := os.MkdirAll(filepath.Join(path+compactSuffix, "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	got, notes := loadAll(t, path)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the file loads %v, want %v", got, want)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "it is used as it is") || fileSize(t, path) != before {
		t.Errorf("notes %q, size %d then %d: want the file used as it was, and a note why", notes, before, fileSize(t, path))
	}
}

// BenchmarkBoltStore_Rewrites writes 10,000 records of 0.5 to 24.5 KB
// (50 accounts of 200, about 120 MiB), rewrites each of them five times
// with a new size, checkpointing as a running sandbox does, and closes
// the file: it reports the file's size after the first write, after the
// rewrites, after the next Open (which compacts it when that is worth
// it) and the Open's time, and the size and time of a compaction by
// hand, which leaves the live data alone.
// Run it with -benchtime 1x.
func BenchmarkBoltStore_Rewrites(b *testing.B) {
	seed := time.Now().UnixNano()
	b.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "s.db")
		st, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		size := func() float64 {
			info, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			return float64(info.Size()) / (1 << 20)
		}
		var first float64
		for round := range 6 {
			for a := range 50 {
				var ops []Op
				for i := range 200 {
					ops = append(ops, customerOp(fmt.Sprintf("cus_%05d", i), 500+rng.IntN(24000)))
					if len(ops) == 20 {
						if err := st.Commit(testAccount(a), ops); err != nil {
							b.Fatal(err)
						}
						ops = nil
					}
				}
			}
			if round == 0 {
				st.(*boltStore).checkpoint()
				first = size()
			}
		}
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
		rewritten := size()
		began := time.Now()
		if st, err = Open(path); err != nil {
			b.Fatal(err)
		}
		took := time.Since(began)
		b.Logf("notes: %q", st.Notes())
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
		opened := size()
		c, err := Compact(path)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(first, "first-MiB")
		b.ReportMetric(rewritten, "rewritten-MiB")
		b.ReportMetric(opened, "opened-MiB")
		b.ReportMetric(took.Seconds(), "open-s")
		b.ReportMetric(size(), "live-MiB")
		b.ReportMetric(c.Took.Seconds(), "compact-s")
	}
}
