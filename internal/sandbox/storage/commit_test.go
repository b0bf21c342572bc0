package storage

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// The buckets of the tests' records: any names do.
const (
	bucketCustomers = "customers"
	bucketPayments  = "payments"
	bucketEvents    = "events"
)

func testAccount(i int) [32]byte {
	var a [32]byte
	a[0], a[31] = byte(i), 0xee
	return a
}

func putCustomerOp(i int) Op {
	return Op{kind: opPut, bucket: bucketCustomers, key: fmt.Sprintf("cus_%02d", i), val: []byte(`{}`)}
}

// TestBoltStoreCommit_BadCommitFailsAlone: a change bbolt would refuse
// when the log is applied is refused at commit, to its caller alone, and
// the commits beside it are written and applied.
func TestBoltStoreCommit_BadCommitFailsAlone(t *testing.T) {
	t.Parallel()
	var st Store = testStore(t, false)
	path := st.(*boltStore).path
	const bad = 5
	errs := make([]error, 12)
	var wg sync.WaitGroup
	for i := range errs {
		ops := []Op{putCustomerOp(i)}
		if i == bad {
			ops = append(ops, Op{kind: opPut, bucket: bucketCustomers, key: "", val: []byte(`{}`)}) // bbolt refuses an empty key
		}
		wg.Go(func() { errs[i] = st.Commit(testAccount(i), ops) })
	}
	wg.Wait()
	check := func(st Store) {
		t.Helper()
		for i, err := range errs {
			sa, lerr := st.LoadAccount(testAccount(i))
			if lerr != nil {
				t.Fatal(lerr)
			}
			switch {
			case i == bad && err == nil:
				t.Errorf("commit %d with an empty key succeeded", i)
			case i == bad && sa != nil:
				t.Errorf("the failed commit %d wrote %d customers, want none", i, len(sa.Buckets[bucketCustomers]))
			case i != bad && err != nil:
				t.Errorf("commit %d failed with the bad one: %v", i, err)
			case i != bad && (sa == nil || len(sa.Buckets[bucketCustomers]) != 1):
				t.Errorf("commit %d is not in the file: %+v", i, sa)
			}
		}
	}
	check(st)
	if err := st.Health(); err != nil {
		t.Errorf("check after a bad commit: %v", err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	check(st)
}

// TestBoltStoreCommit_Concurrent: many goroutines committing at once each
// return after their own changes are in the file, and Close writes what is
// queued; a commit after Close fails plainly.
func TestBoltStoreCommit_Concurrent(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 16, 20
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				if err := st.Commit(testAccount(w), []Op{putCustomerOp(i)}); err != nil {
					errs <- err
					return
				}
				sa, err := st.LoadAccount(testAccount(w))
				if err != nil || sa == nil || len(sa.Buckets[bucketCustomers]) != i+1 {
					errs <- fmt.Errorf("writer %d after commit %d: %v, %+v", w, i, err, sa)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := st.Commit(testAccount(0), []Op{putCustomerOp(99)}); !errors.Is(err, ErrClosed) {
		t.Errorf("commit after Close: %v, want %v", err, ErrClosed)
	}
	st, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	for w := range writers {
		if sa := all[testAccount(w)]; sa == nil || len(sa.Buckets[bucketCustomers]) != each {
			t.Errorf("writer %d after reopening: %+v", w, sa)
		}
	}
}

// TestBoltStoreCheckpoint_ChangesThenDrop: an account changed and then
// dropped (reset) in the records one checkpoint applies is dropped whole,
// and the file stays sound: bbolt 1.5 loses pages when a bucket whose own
// keys changed in a transaction is deleted in it too.
func TestBoltStoreCheckpoint_ChangesThenDrop(t *testing.T) {
	t.Parallel()
	bs := testStore(t, true)
	var st Store = bs
	path := bs.path
	seq := func(n byte) Op { return Op{kind: opPut, key: keySeq, val: []byte{0, 0, 0, 0, 0, 0, 0, n}} }
	var ops []Op
	for i := range 20 {
		k := fmt.Sprintf("%02d", i)
		ops = append(ops, seq(1),
			Op{kind: opPut, bucket: bucketCustomers, key: "cus_" + k, val: make([]byte, 300)},
			Op{kind: opPut, bucket: bucketPayments, key: "pay_" + k, val: make([]byte, 300)},
			Op{kind: opPut, bucket: bucketEvents, key: "evt_" + k, val: make([]byte, 300)})
	}
	for _, c := range [][]Op{
		ops,
		nil, // checkpoint: the account has pages of its own
		{putCustomerOp(1), seq(2)},
		{{kind: opDropAccount}, seq(3)},
		{putCustomerOp(2)},
	} {
		if c == nil {
			bs.checkpoint()
			continue
		}
		if err := st.Commit(testAccount(1), c); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := checkFile(path); err != nil {
		t.Fatal(err)
	}
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sa, err := st.LoadAccount(testAccount(1))
	if err != nil {
		t.Fatal(err)
	}
	if sa == nil || sa.Seq != 3 || len(sa.Buckets[bucketCustomers]) != 1 || len(sa.Buckets[bucketPayments])+len(sa.Buckets[bucketEvents]) != 0 {
		t.Errorf("the account after its reset: %+v, want sequence 3 and one customer", sa)
	}
}

// BenchmarkBoltStoreCommit_Batch writes batches of one customer in each
// of n accounts, as n clients' concurrent creates are written: the
// store's own ceiling, without HTTP, for `-data`'s throughput on the disk
// the test's temporary directory is on. commits/s is the figure to read.
func BenchmarkBoltStoreCommit_Batch(b *testing.B) {
	for _, n := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			st, err := Open(filepath.Join(b.TempDir(), "s.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			bs, ok := st.(*boltStore)
			if !ok {
				b.Fatalf("OpenStore returned a %T", st)
			}
			val := make([]byte, 300)
			seq := 0
			for b.Loop() {
				batch := make([]*pendingCommit, n)
				for i := range batch {
					seq++
					batch[i] = &pendingCommit{account: testAccount(i), result: make(chan error, 1),
						ops: []Op{{kind: opPut, bucket: bucketCustomers, key: fmt.Sprintf("cus_%08d", seq), val: val}}}
				}
				if err := bs.append(batch); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "commits/s")
		})
	}
}
