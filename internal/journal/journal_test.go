package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const testKey = "sk_test_journalJOURNALjournal0001"

// tempDir is t.TempDir removed file by file: the journal keeps no
// subdirectory, and os.RemoveAll, which t.TempDir's clean-up calls, fails
// under Wine 8 (it lacks the file disposition class Go's Windows
// RemoveAll asks for), where `make windows` runs these tests.
func tempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "journal-test-") //nolint:usetesting // t.TempDir fails under Wine, above
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		names, _ := os.ReadDir(dir)
		for _, n := range names {
			_ = os.Remove(filepath.Join(dir, n.Name()))
		}
		if err := os.Remove(dir); err != nil {
			t.Errorf("removing the test's directory: %v", err)
		}
	})
	return dir
}

// killed ends j as a SIGKILL would: its lock goes, its files stay.
func killed(t *testing.T, j *Journal) {
	t.Helper()
	if err := j.log.Close(); err != nil {
		t.Fatal(err)
	}
}

// blind returns a journal of dir that never reads the other runs' logs,
// so that using it removes nothing: for leaving files to be found.
func blind(dir string) *Journal {
	j := New(dir)
	j.scanOnce.Do(func() { j.orphans, j.byID = map[string][]*Entry{}, map[string]*Entry{} })
	return j
}

// orphan leaves, in dir, one entry of a run that was killed after the
// service answered with id.
func orphan(t *testing.T, dir, typ, config, account, id string) *Entry {
	t.Helper()
	j := blind(dir)
	e, err := j.Begin(typ, config, account)
	if err != nil {
		t.Fatal(err)
	}
	if id != "" {
		if err := j.Answered(e, id); err != nil {
			t.Fatal(err)
		}
	}
	killed(t, j)
	return e
}

func TestJournal_ClaimsTheOrphanOfAKilledRunOnce(t *testing.T) {
	dir := tempDir(t)
	k := KeysFor(testKey)
	cfg := k.Digest("payments_customer", []byte("plan"))
	want := orphan(t, dir, "payments_customer", cfg, k.Account, "cus_1")

	j := New(dir)
	t.Cleanup(j.CloseClean) // Windows removes no file still open
	e := j.Claim("payments_customer", cfg, k.Account)
	if e == nil {
		t.Fatal("the orphan of a killed run was not offered")
	}
	if e.Seed != want.Seed || e.ID != "cus_1" {
		t.Errorf("claimed %+v, want the seed and id of %+v", e, want)
	}
	if again := j.Claim("payments_customer", cfg, k.Account); again != nil {
		t.Errorf("one orphan was claimed twice (count of equal resources): %+v", again)
	}
	if other := New(dir).Claim("payments_customer", cfg, k.Account); other != nil {
		t.Errorf("another process claimed an orphan already claimed: %+v", other)
	}
}

func TestJournal_EqualConfigurationsTakeOneEntryEach(t *testing.T) {
	dir := tempDir(t)
	k := KeysFor(testKey)
	cfg := k.Digest("payments_payment", []byte("plan"))
	orphan(t, dir, "payments_payment", cfg, k.Account, "pay_1")
	orphan(t, dir, "payments_payment", cfg, k.Account, "pay_2")

	j := New(dir)
	t.Cleanup(j.CloseClean) // Windows removes no file still open
	var mu sync.Mutex
	got := map[string]int{}
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			if e := j.Claim("payments_payment", cfg, k.Account); e != nil {
				mu.Lock()
				got[e.ID]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(got) != 2 || got["pay_1"] != 1 || got["pay_2"] != 1 {
		t.Errorf("three equal creates claimed %v, want pay_1 and pay_2 once each", got)
	}
}

func TestJournal_NeverOffers(t *testing.T) {
	k := KeysFor(testKey)
	cfg := k.Digest("payments_customer", []byte("plan"))
	for _, tc := range []struct {
		name string
		// claim is asked for after the orphan of cfg is left.
		typ, config, account string
		before               func(t *testing.T, dir string, j *Journal)
	}{
		{name: "a configuration that differs", typ: "payments_customer",
			config: k.Digest("payments_customer", []byte("another plan")), account: k.Account},
		{name: "another resource type", typ: "payments_product", config: cfg, account: k.Account},
		{name: "another account", typ: "payments_customer", config: KeysFor("sk_test_someoneELSEsomeoneELSE0002").Digest("payments_customer", []byte("plan")),
			account: KeysFor("sk_test_someoneELSEsomeoneELSE0002").Account},
		{name: "the same digest under another account", typ: "payments_customer", config: cfg,
			account: KeysFor("sk_test_someoneELSEsomeoneELSE0002").Account},
		{name: "an object Terraform showed again", typ: "payments_customer", config: cfg, account: k.Account,
			before: func(t *testing.T, dir string, _ *Journal) {
				if !New(dir).Settle("cus_1") {
					t.Fatal("a read of cus_1 settled nothing")
				}
			}},
		{name: "an entry past the retention", typ: "payments_customer", config: cfg, account: k.Account,
			before: func(_ *testing.T, _ string, j *Journal) {
				j.now = func() time.Time { return time.Now().Add(Retention + time.Minute) }
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tempDir(t)
			orphan(t, dir, "payments_customer", cfg, k.Account, "cus_1")
			j := New(dir)
			if tc.before != nil {
				tc.before(t, dir, j)
			}
			if e := j.Claim(tc.typ, tc.config, tc.account); e != nil {
				t.Errorf("offered %+v", e)
			}
		})
	}
}

func TestJournal_NeverOffersTheEntriesOfARunThatEndedCleanly(t *testing.T) {
	dir := tempDir(t)
	k := KeysFor(testKey)
	cfg := k.Digest("payments_customer", []byte("plan"))
	j := New(dir)
	e, err := j.Begin("payments_customer", cfg, k.Account)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Answered(e, "cus_1"); err != nil {
		t.Fatal(err)
	}
	j.CloseClean()
	next := New(dir)
	if e := next.Claim("payments_customer", cfg, k.Account); e != nil {
		t.Errorf("offered the entry of a run that ended cleanly: %+v", e)
	}
	next.cleaning.Wait()
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Errorf("the log of a run that ended cleanly outlived the next run's read of the journal: %v", names)
	}
}

func TestJournal_NeverOffersTheEntriesOfARunStillRunning(t *testing.T) {
	dir := tempDir(t)
	k := KeysFor(testKey)
	cfg := k.Digest("payments_customer", []byte("plan"))
	running := New(dir)
	if _, err := running.Begin("payments_customer", cfg, k.Account); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(running.CloseClean) // Windows removes no file still open
	if e := New(dir).Claim("payments_customer", cfg, k.Account); e != nil {
		t.Errorf("offered the entry of a run still running: %+v", e)
	}
}

func TestJournal_RemovesExpiredEntriesAndDeadRuns(t *testing.T) {
	dir := tempDir(t)
	k := KeysFor(testKey)
	orphan(t, dir, "payments_customer", k.Digest("payments_customer", nil), k.Account, "cus_1")
	j := New(dir)
	j.now = func() time.Time { return time.Now().Add(Retention) }
	if err := j.Open(); err != nil {
		t.Fatal(err)
	}
	j.CloseClean()
	j.cleaning.Wait() // j read the expired entry and removes its log
	next := New(dir)
	next.scan()
	next.cleaning.Wait()
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Errorf("left %v after an expired entry, its dead run and a clean run", names)
	}
}

// TestJournal_NeverTakesAnEntryWhoseLogWasRemoved: a process read an
// orphan, another settled it, a third removed the spent log and its
// marker; the first must not take the entry then.
func TestJournal_NeverTakesAnEntryWhoseLogWasRemoved(t *testing.T) {
	dir := tempDir(t)
	k := KeysFor(testKey)
	cfg := k.Digest("payments_customer", []byte("plan"))
	orphan(t, dir, "payments_customer", cfg, k.Account, "cus_1")
	early := New(dir)
	if early.Orphans() != 1 {
		t.Fatal("the orphan was not read")
	}
	if !New(dir).Settle("cus_1") {
		t.Fatal("a read of cus_1 settled nothing")
	}
	cleaner := New(dir)
	cleaner.scan()
	cleaner.cleaning.Wait()
	if e := early.Claim("payments_customer", cfg, k.Account); e != nil {
		t.Errorf("claimed an entry settled and removed since it was read: %+v", e)
	}
}

// TestJournal_CleansADirectoryOfStaleEntries leaves every kind of spent
// file the journal can leave, many of each, and one entry still of use:
// one process's read of the journal leaves that entry's log alone.
func TestJournal_CleansADirectoryOfStaleEntries(t *testing.T) {
	dir := tempDir(t)
	k := KeysFor(testKey)
	cfg := k.Digest("payments_customer", []byte("plan"))
	const each = 40
	for i := range each {
		// A killed run's entry, past the retention.
		j := blind(dir)
		j.now = func() time.Time { return time.Now().Add(-Retention - time.Minute) }
		if _, err := j.Begin("payments_customer", cfg, k.Account); err != nil {
			t.Fatal(err)
		}
		killed(t, j)
		// A clean run's entry.
		j = blind(dir)
		e, err := j.Begin("payments_customer", cfg, k.Account)
		if err != nil {
			t.Fatal(err)
		}
		_ = j.Answered(e, "cus_clean"+strconv.Itoa(i))
		j.CloseClean()
		// A killed run's entry, settled since: its marker made, as
		// Settle makes it.
		e = orphan(t, dir, "payments_customer", cfg, k.Account, "cus_settled"+strconv.Itoa(i))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d%s", e.run, e.N, takenSuffix)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		// A marker whose log is gone.
		if err := os.WriteFile(filepath.Join(dir, newHex(8)+"-1"+takenSuffix), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		// A killed run's entry whose create made nothing.
		j = blind(dir)
		if e, err = j.Begin("payments_customer", cfg, k.Account); err != nil {
			t.Fatal(err)
		}
		j.Done(e)
		killed(t, j)
	}
	keep := orphan(t, dir, "payments_customer", cfg, k.Account, "cus_live")
	if names, _ := os.ReadDir(dir); len(names) < 4*each {
		t.Fatalf("left %d files, want at least %d to clean", len(names), 4*each)
	}
	next := New(dir)
	next.scan()
	next.cleaning.Wait()
	names, _ := os.ReadDir(dir)
	if len(names) != 1 || names[0].Name() != keep.run+logSuffix {
		var got []string
		for _, n := range names {
			got = append(got, n.Name())
		}
		t.Errorf("left %d files (%v), want only the log of the entry still of use", len(got), got)
	}
	if next.Orphans() != 1 {
		t.Errorf("%d orphans, want the one still of use", next.Orphans())
	}
}

// TestJournal_StaysBoundedOverManyRuns runs apply after apply in one
// directory, some killed, each followed by the next run's plan that
// shows Terraform's state to the journal, as Terraform does: the
// directory never holds more than the runs of the last few processes.
func TestJournal_StaysBoundedOverManyRuns(t *testing.T) {
	dir := tempDir(t)
	k := KeysFor(testKey)
	most := 0
	for run := range 100 {
		j := New(dir)
		var ids []string
		for i := range 5 {
			cfg := k.Digest("payments_customer", []byte(strconv.Itoa(i)))
			if j.Claim("payments_customer", cfg, k.Account) != nil {
				t.Fatalf("run %d adopted an entry of an object in state", run)
			}
			e, err := j.Begin("payments_customer", cfg, k.Account)
			if err != nil {
				t.Fatal(err)
			}
			id := "cus_" + strconv.Itoa(run) + "_" + strconv.Itoa(i)
			if err := j.Answered(e, id); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		if run%3 == 0 {
			killed(t, j)
		} else {
			j.CloseClean()
		}
		// The next plan reads every object in state.
		plan := New(dir)
		for _, id := range ids {
			plan.Settle(id)
		}
		plan.cleaning.Wait()
		names, _ := os.ReadDir(dir)
		most = max(most, len(names))
	}
	// At most: a killed run's log and its five markers, and a clean
	// run's log, before the next read removes them.
	if most > 7 {
		t.Errorf("the directory held up to %d files over 100 runs, want at most 7", most)
	}
}

func TestJournal_UnwritableDirectory(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a directory's mode does not stop Windows from writing in it")
	}
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere")
	}
	parent := t.TempDir()
	if err := os.Chmod(parent, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(parent, 0o700) })
	j := New(filepath.Join(parent, DirName))
	if err := j.Open(); err == nil {
		t.Fatal("opened a journal in a read-only directory")
	}
	if _, err := j.Begin("payments_customer", "c", "a"); err == nil {
		t.Error("Begin wrote to a journal that could not be opened")
	}
}

func TestJournal_HoldsNoSecretKey(t *testing.T) {
	dir := tempDir(t)
	k := KeysFor(testKey)
	orphan(t, dir, "payments_customer", k.Digest("payments_customer", []byte("4242424242424242")), k.Account, "cus_1")
	names, _ := os.ReadDir(dir)
	for _, n := range names {
		b, _ := os.ReadFile(filepath.Join(dir, n.Name()))
		for _, secret := range []string{testKey, "4242424242424242", "sk_test_"} {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s holds %q", n.Name(), secret)
			}
		}
	}
	if KeysFor(testKey).Digest("t", []byte("x")) == KeysFor(testKey+"2").Digest("t", []byte("x")) {
		t.Error("two keys give one configuration digest")
	}
}

// BenchmarkJournal_Create is what the journal adds to one create that
// ends normally: its entry written before the request, given the id
// after, and removed with the run's at a clean end. "sync" is the same
// with each line flushed to the disk (fdatasync) as a journal that must
// survive a power loss would: it measures, in the same run, the disk's
// sync rate that the journal does not pay (ARCHITECTURE.md, "A killed
// Terraform").
func BenchmarkJournal_Create(b *testing.B) {
	for _, sync := range []bool{false, true} {
		name := "write"
		if sync {
			name = "sync"
		}
		b.Run(name, func(b *testing.B) {
			dir := tempDir(b)
			k := KeysFor(testKey)
			plan := make([]byte, 600) // a customer's planned state is a few hundred bytes
			j := New(dir)
			if err := j.Open(); err != nil {
				b.Fatal(err)
			}
			for i := 0; b.Loop(); i++ {
				cfg := k.Digest("payments_customer", plan)
				if e := j.Claim("payments_customer", cfg, k.Account); e != nil {
					b.Fatal("claimed an entry of its own run")
				}
				e, err := j.Begin("payments_customer", cfg, k.Account)
				if err != nil {
					b.Fatal(err)
				}
				if sync {
					if err := j.log.Sync(); err != nil {
						b.Fatal(err)
					}
				}
				if err := j.Answered(e, "cus_"+strconv.Itoa(i)); err != nil {
					b.Fatal(err)
				}
				if sync {
					if err := j.log.Sync(); err != nil {
						b.Fatal(err)
					}
				}
			}
			j.CloseClean()
		})
	}
}
