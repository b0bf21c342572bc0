package storage

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage/storagetest"
)

// testStore opens a store on a new data file, closed when the test ends;
// a manual one checkpoints only when the test says so.
func testStore(t *testing.T, manual bool) *boltStore {
	t.Helper()
	ckptBytes, ckptAge := int64(walCheckpointBytes), walCheckpointAge
	if manual {
		ckptBytes, ckptAge = 1<<40, 1000*time.Hour
	}
	st, err := open(filepath.Join(t.TempDir(), "s.db"), ckptBytes, ckptAge)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// crashCopy copies a running store's data file and log to dir, as a
// crash or a power cut would leave them at this moment: no checkpoint
// runs meanwhile, and every commit returned is in the log.
func crashCopy(t *testing.T, bs *boltStore, dir string) string {
	t.Helper()
	bs.ckptMu.Lock()
	defer bs.ckptMu.Unlock()
	to := filepath.Join(dir, "copy.db")
	for _, suffix := range []string{"", walSuffix} {
		raw, err := os.ReadFile(bs.path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to+suffix, raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return to
}

// customerIDs is the sorted ids of an account's customers in a store.
func customerIDs(t *testing.T, st Store, account [32]byte) []string {
	t.Helper()
	sa, err := st.LoadAccount(account)
	if err != nil {
		t.Fatal(err)
	}
	all, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	if (sa == nil) != (all[account] == nil) || sa != nil && len(sa.Buckets[bucketCustomers]) != len(all[account].Buckets[bucketCustomers]) {
		t.Fatalf("LoadAccount and Load disagree: %+v and %+v", sa, all[account])
	}
	var ids []string
	if sa != nil {
		m := sa.Buckets[bucketCustomers]
		for _, k := range slices.Sorted(maps.Keys(m)) {
			ids = append(ids, string(m[k]))
		}
	}
	return ids
}

func customerOp(id string, size int) Op {
	return Op{kind: opPut, bucket: bucketCustomers, key: id, val: append([]byte(id), bytes.Repeat([]byte{'.'}, size)...)}
}

// TestStoreLog_CrashReplays: after a crash, the data file and its log
// hold every commit that returned, applied or not; a record cut short by
// the crash (never acknowledged) is ignored; and the reopened store goes
// on writing after it.
func TestStoreLog_CrashReplays(t *testing.T) {
	t.Parallel()
	st := testStore(t, false)
	acct := testAccount(1)
	var want [][]byte
	for i := range 30 {
		o := customerOp(fmt.Sprintf("cus_%03d", i), 200)
		if err := st.Commit(acct, []Op{o}); err != nil {
			t.Fatal(err)
		}
		want = append(want, o.val)
		if i == 9 {
			st.checkpoint() // the first ten are in the data file, the rest only in the log
		}
	}
	crashed := crashCopy(t, st, t.TempDir())

	// A record cut by the crash: the next one's header and half its batch.
	cut := st.wal.encode([]*pendingCommit{{account: acct, ops: []Op{customerOp("cus_lost", 200)}}})
	f, err := os.OpenFile(crashed+walSuffix, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(cut[:len(cut)/2], st.wal.tail); err != nil {
		t.Fatal(err)
	}
	f.Close()

	re, err := Open(crashed)
	if err != nil {
		t.Fatal(err)
	}
	got := customerIDs(t, re, acct)
	if len(got) != len(want) {
		t.Fatalf("after the crash: %d customers, want the %d committed", len(got), len(want))
	}
	for i := range got {
		if got[i] != string(want[i]) {
			t.Fatalf("customer %d after the crash: %.20q, want %.20q", i, got[i], want[i])
		}
	}
	more := customerOp("cus_after", 10)
	if err := re.Commit(acct, []Op{more}); err != nil {
		t.Fatal(err)
	}
	if err := re.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(crashed + walSuffix); !os.IsNotExist(err) {
		t.Errorf("the log is left after a clean close: %v", err)
	}
	if re, err = Open(crashed); err != nil {
		t.Fatal(err)
	}
	defer re.Close()
	if got := customerIDs(t, re, acct); len(got) != len(want)+1 || !slices.Contains(got, string(more.val)) {
		t.Errorf("after reopening: %d customers, want %d with cus_after", len(got), len(want)+1)
	}
}

// TestStoreLog_Wraps: the log grows while its records are not applied;
// records go on at its start once the records there are applied; a full
// log that has wrapped waits for a checkpoint; and a crash at any point
// replays the right records, across the wrap.
func TestStoreLog_Wraps(t *testing.T) {
	t.Parallel()
	bs := testStore(t, true)
	acct := testAccount(2)
	const size = 8 << 10 // 31 records fill the log's first size
	wrapped, grown := false, false
	var want []string
	for i := range 400 {
		o := customerOp(fmt.Sprintf("cus_%04d", i), size)
		if err := bs.Commit(acct, []Op{o}); err != nil {
			t.Fatal(err)
		}
		want = append(want, string(o.val))
		bs.walMu.Lock()
		if last := bs.unapplied[len(bs.unapplied)-1]; i > 0 && last.start == 0 && len(bs.unapplied) > 1 {
			wrapped = true // at the start, after records not yet applied
		}
		bs.walMu.Unlock()
		switch {
		case i == 59:
			grown = bs.wal.size > walInitialSize // 60 records, 500 KB, and no checkpoint: it grew
		case i >= 60 && i < 200 && i%20 == 19:
			bs.checkpoint() // room at the start: the log wraps
		}
		// From 200 on only a leader waiting for room asks for checkpoints.
		if i%37 == 36 {
			re, err := Open(crashCopy(t, bs, t.TempDir()))
			if err != nil {
				t.Fatal(err)
			}
			if got := customerIDs(t, re, acct); !slices.Equal(got, want) {
				t.Fatalf("a crash after %d records replays %d", len(want), len(got))
			}
			re.Close()
		}
	}
	if !wrapped || !grown {
		t.Errorf("the log wrapped: %v; it grew: %v (size %d)", wrapped, grown, bs.wal.size)
	}
}

// TestStoreLog_IgnoresAnotherFilesLog: a log beside a data file that did
// not write it (a data file replaced, a log copied from elsewhere) is not
// replayed into it.
func TestStoreLog_IgnoresAnotherFilesLog(t *testing.T) {
	t.Parallel()
	st := testStore(t, false)
	if err := st.Commit(testAccount(3), []Op{customerOp("cus_other", 10)}); err != nil {
		t.Fatal(err)
	}
	other := crashCopy(t, st, t.TempDir())
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	raw, err := os.ReadFile(other + walSuffix)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fresh+walSuffix, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	re, err := Open(fresh)
	if err != nil {
		t.Fatal(err)
	}
	defer re.Close()
	if got := customerIDs(t, re, testAccount(3)); len(got) != 0 {
		t.Errorf("a new data file took another's log: %d customers", len(got))
	}
}

// TestStoreLog_BigBatch: a batch bigger than the whole log grows it.
func TestStoreLog_BigBatch(t *testing.T) {
	t.Parallel()
	st := testStore(t, false)
	var ops []Op
	for i := range 40 {
		ops = append(ops, customerOp(fmt.Sprintf("cus_%02d", i), 16<<10))
	}
	if err := st.Commit(testAccount(4), ops); err != nil {
		t.Fatal(err)
	}
	if rec := st.unapplied[len(st.unapplied)-1]; rec.end > st.wal.size || st.wal.size <= walInitialSize {
		t.Errorf("a record to byte %d in a log of %d bytes: the log did not grow to hold it", rec.end, st.wal.size)
	}
	re, err := Open(crashCopy(t, st, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	defer re.Close()
	if got := customerIDs(t, re, testAccount(4)); len(got) != 40 {
		t.Errorf("after a crash: %d customers, want 40", len(got))
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
}

// failSyncs makes the log's next n syncs fail, as a disk's I/O error
// would, while the bytes written stay in the file (as they may on disk).
func failSyncs(bs *boltStore, n int) {
	var mu sync.Mutex
	bs.wal.sync = func(f *os.File) error {
		mu.Lock()
		defer mu.Unlock()
		if n > 0 {
			n--
			return errInjectedSync
		}
		return datasync(f)
	}
}

var errInjectedSync = errors.New("injected sync failure")

// TestStoreLog_FailedWriteNeverReplayed: a record whose sync failed is
// erased before its callers are told nothing changed, so that a crash
// right after never replays it; the store goes on writing. When erasing
// it fails too, the commit's outcome is unknown, said so, and the store
// takes no more writes.
func TestStoreLog_FailedWriteNeverReplayed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		fails   int // syncs that fail: the record's, then its erasure's
		unknown bool
	}{
		{"the erasure works", 1, false},
		{"the erasure fails too", 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			bs := testStore(t, true)
			acct := testAccount(5)
			var want []string
			for i := range 8 {
				o := customerOp(fmt.Sprintf("cus_%02d", i), 1<<10)
				if err := bs.Commit(acct, []Op{o}); err != nil {
					t.Fatal(err)
				}
				want = append(want, string(o.val))
			}
			failSyncs(bs, tc.fails)
			err := bs.Commit(acct, []Op{customerOp("cus_failed", 10)})
			if err == nil || !errors.Is(err, errInjectedSync) || errors.Is(err, ErrOutcomeUnknown) != tc.unknown {
				t.Fatalf("the commit whose sync failed: %v; want the cause, outcome unknown: %v", err, tc.unknown)
			}
			if tc.unknown {
				next := bs.Commit(acct, []Op{customerOp("cus_next", 10)})
				if next == nil || errors.Is(next, ErrOutcomeUnknown) || !strings.Contains(next.Error(), "takes no more writes") {
					t.Errorf("a commit after an unknown outcome: %v, want the store stopped", next)
				}
				if h := bs.Health(); h == nil || !strings.Contains(h.Error(), "takes no more writes") {
					t.Errorf("Health after an unknown outcome: %v", h)
				}
				return
			}
			re, err := Open(crashCopy(t, bs, t.TempDir()))
			if err != nil {
				t.Fatal(err)
			}
			if got := customerIDs(t, re, acct); !slices.Equal(got, want) {
				t.Errorf("after a crash: %d customers, want the %d acknowledged and not the failed one", len(got), len(want))
			}
			re.Close()
			// The store goes on: the next record takes the failed one's
			// sequence, and both it and a crash after it are right.
			o := customerOp("cus_after", 10)
			if err := bs.Commit(acct, []Op{o}); err != nil {
				t.Fatal(err)
			}
			if err := bs.Health(); err != nil {
				t.Errorf("Health after the disk mended: %v", err)
			}
			want = append(want, string(o.val))
			re, err = Open(crashCopy(t, bs, t.TempDir()))
			if err != nil {
				t.Fatal(err)
			}
			defer re.Close()
			if got := customerIDs(t, re, acct); !slices.Equal(got, want) {
				t.Errorf("after the next write and a crash: %d customers, want %d", len(got), len(want))
			}
		})
	}
}

// TestStoreLog_CloseOnFullDisk: when the last checkpoint cannot be
// written, Close says so and keeps the log, and the next start applies
// it: nothing acknowledged is lost to a full disk at shutdown.
func TestStoreLog_CloseOnFullDisk(t *testing.T) {
	t.Parallel()
	dir := storagetest.SmallDisk(t)
	path := filepath.Join(dir, "s.db")
	bs, err := open(path, 1<<40, 1000*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	acct := testAccount(6)
	var want []string
	for i := range 20 {
		o := customerOp(fmt.Sprintf("cus_%02d", i), 8<<10)
		if err := bs.Commit(acct, []Op{o}); err != nil {
			t.Fatal(err)
		}
		want = append(want, string(o.val))
	}
	filler := filepath.Join(dir, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			break // full
		}
	}
	f.Close()

	err = bs.Close()
	if err == nil || !strings.Contains(err.Error(), "no space left on device") || !strings.Contains(err.Error(), path+walSuffix) {
		t.Errorf("Close on a full disk: %v, want the cause and the log kept", err)
	}
	if _, err := os.Stat(path + walSuffix); err != nil {
		t.Fatalf("the log is gone after a failed checkpoint: %v", err)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	re, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer re.Close()
	if got := customerIDs(t, re, acct); !slices.Equal(got, want) {
		t.Errorf("after the restart: %d customers, want the %d acknowledged", len(got), len(want))
	}
}

// TestStoreLog_DamagedInTheMiddle: a record damaged with whole records
// after it is not a crash's cut: the data file is refused, naming the log,
// rather than opened without what follows the damage.
func TestStoreLog_DamagedInTheMiddle(t *testing.T) {
	t.Parallel()
	bs := testStore(t, true)
	acct := testAccount(7)
	for i := range 10 {
		if err := bs.Commit(acct, []Op{customerOp(fmt.Sprintf("cus_%02d", i), 100)}); err != nil {
			t.Fatal(err)
		}
	}
	path := crashCopy(t, bs, t.TempDir())
	raw, err := os.ReadFile(path + walSuffix)
	if err != nil {
		t.Fatal(err)
	}
	fifth := bs.unapplied[4]
	raw[fifth.start+walHeaderSize+40] ^= 0xff
	if err := os.WriteFile(path+walSuffix, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Open(path)
	if err == nil || !strings.Contains(err.Error(), path+walSuffix+" is damaged: record 5 does not follow record 4, yet record 6") {
		t.Errorf("opening a log damaged in its middle: %v", err)
	}
}

// TestStoreLog_FileWithoutID: a data file of this format without its id
// (damaged, or edited by hand) is refused with the damaged-file error,
// not a crash: the log could not tell its records from another file's.
func TestStoreLog_FileWithoutID(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Delete(keyID) }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(path)
	if err == nil || !strings.Contains(err.Error(), "is damaged or is not a sandbox data file (its id is 0 bytes long, not 8)") {
		t.Errorf("opening a file without its id: %v", err)
	}
}

// TestStoreLog_CapHolds: while no checkpoint can run, the log grows to its
// cap and no further: a commit that finds no room waits a bounded time
// and fails with ErrLogFull, changing nothing; once checkpoints run
// again, commits succeed.
func TestStoreLog_CapHolds(t *testing.T) {
	t.Parallel()
	bs := testStore(t, true)
	bs.maxSize, bs.roomWait = 1<<20, 200*time.Millisecond
	acct := testAccount(8)
	bs.ckptMu.Lock() // a checkpoint blocked, as by a slow disk
	var want []string
	failed := make(chan error, 1)
	go func() {
		for i := range 100 {
			o := customerOp(fmt.Sprintf("cus_%03d", i), 60<<10)
			if err := bs.Commit(acct, []Op{o}); err != nil {
				failed <- err
				return
			}
			want = append(want, string(o.val))
		}
		failed <- nil
	}()
	select {
	case err := <-failed:
		if !errors.Is(err, ErrLogFull) {
			t.Errorf("a commit into a full log: %v, want %v", err, ErrLogFull)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a commit into a full log did not return within 30 s")
	}
	info, err := os.Stat(bs.wal.path)
	if err != nil {
		t.Fatal(err)
	}
	if bs.wal.size > bs.maxSize || info.Size() > bs.maxSize {
		t.Errorf("the log is %d bytes (%d on disk), past its cap of %d", bs.wal.size, info.Size(), bs.maxSize)
	}
	if len(want) < 10 {
		t.Errorf("only %d commits before the log was full", len(want))
	}
	// Writers arriving at a full log all get ErrLogFull within about one
	// wait, not one wait after another as each leads in turn.
	bs.roomWait = time.Second
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { errs[i] = bs.Commit(acct, []Op{customerOp(fmt.Sprintf("cus_full_%d", i), 60<<10)}) })
	}
	wg.Wait()
	for i, err := range errs {
		if !errors.Is(err, ErrLogFull) {
			t.Errorf("writer %d at a full log: %v, want %v", i, err, ErrLogFull)
		}
	}
	if took := time.Since(start); took > 2*bs.roomWait {
		t.Errorf("8 writers at a full log took %v to be refused, want about one wait of %v", took, bs.roomWait)
	}
	bs.ckptMu.Unlock()
	o := customerOp("cus_after", 60<<10)
	if err := bs.Commit(acct, []Op{o}); err != nil {
		t.Fatalf("a commit once checkpoints run again: %v", err)
	}
	want = append(want, string(o.val))
	slices.Sort(want)
	if got := customerIDs(t, bs, acct); !slices.Equal(got, want) {
		t.Errorf("%d customers, want the %d committed", len(got), len(want))
	}
}

// TestStoreLog_ReplayReadsOneRecordAtATime: opening a data file whose log
// holds 16 MiB of records not yet applied allocates about one record's
// worth, not the log's. Not parallel: it reads the process's allocations.
func TestStoreLog_ReplayReadsOneRecordAtATime(t *testing.T) {
	bs := testStore(t, true)
	acct := testAccount(9)
	for i := range 128 {
		if err := bs.Commit(acct, []Op{customerOp(fmt.Sprintf("cus_%03d", i), 128<<10)}); err != nil {
			t.Fatal(err)
		}
	}
	path := crashCopy(t, bs, t.TempDir())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	re, err := Open(path)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	defer re.Close()
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Errorf("opening a 16 MiB log allocated %d bytes, want under 4 MiB", got)
	}
	if got := customerIDs(t, re, acct); len(got) != 128 {
		t.Errorf("after replay: %d customers, want 128", len(got))
	}
}
