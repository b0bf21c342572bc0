package sandbox

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

func testAccount(i int) [32]byte {
	var a [32]byte
	a[0], a[31] = byte(i), 0xee
	return a
}

func putCustomerOp(i int) op {
	return op{kind: opPut, bucket: bucketCustomers, key: fmt.Sprintf("cus_%02d", i), val: []byte(`{}`)}
}

// TestBoltStoreCommit_BatchFailsOnlyTheBadCommit: commits that share a
// transaction do not share a failure of one of them: the batch is tried
// again one commit at a time, and only the bad one fails, whole.
func TestBoltStoreCommit_BatchFailsOnlyTheBadCommit(t *testing.T) {
	t.Parallel()
	st, err := OpenStore(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	bs, ok := st.(*boltStore)
	if !ok {
		t.Fatalf("OpenStore returned a %T", st)
	}
	const bad = 5
	var batch []*pendingCommit
	for i := range 12 {
		ops := []op{putCustomerOp(i)}
		if i == bad {
			ops = append(ops, op{kind: opPut, bucket: bucketCustomers, key: "", val: []byte(`{}`)}) // bbolt refuses an empty key
		}
		batch = append(batch, &pendingCommit{account: testAccount(i), ops: ops, result: make(chan error, 1)})
	}
	bs.write(batch)
	for i, p := range batch {
		err := <-p.result
		sa, lerr := st.loadAccount(testAccount(i))
		if lerr != nil {
			t.Fatal(lerr)
		}
		switch {
		case i == bad && err == nil:
			t.Errorf("commit %d with an empty key succeeded", i)
		case i == bad && sa != nil:
			t.Errorf("the failed commit %d wrote %d customers, want none", i, len(sa.customers))
		case i != bad && err != nil:
			t.Errorf("commit %d failed with the bad one: %v", i, err)
		case i != bad && (sa == nil || len(sa.customers) != 1):
			t.Errorf("commit %d is not in the file: %+v", i, sa)
		}
	}
	if err := st.check(); err != nil {
		t.Errorf("check after a batch with one bad commit: %v", err)
	}
}

// TestBoltStoreCommit_Concurrent: many goroutines committing at once each
// return after their own changes are in the file, and Close writes what is
// queued; a commit after Close fails plainly.
func TestBoltStoreCommit_Concurrent(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 16, 20
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				if err := st.commit(testAccount(w), []op{putCustomerOp(i)}); err != nil {
					errs <- err
					return
				}
				sa, err := st.loadAccount(testAccount(w))
				if err != nil || sa == nil || len(sa.customers) != i+1 {
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
	if err := st.commit(testAccount(0), []op{putCustomerOp(99)}); !errors.Is(err, errStoreClosed) {
		t.Errorf("commit after Close: %v, want %v", err, errStoreClosed)
	}
	st, err = OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, err := st.load()
	if err != nil {
		t.Fatal(err)
	}
	for w := range writers {
		if sa := all[testAccount(w)]; sa == nil || len(sa.customers) != each {
			t.Errorf("writer %d after reopening: %+v", w, sa)
		}
	}
}

// BenchmarkBoltStoreCommit_Batch writes batches of one customer in each
// of n accounts, as n clients' concurrent creates are written: the
// store's own ceiling, without HTTP, for `-data`'s throughput on the disk
// the test's temporary directory is on. commits/s is the figure to read.
func BenchmarkBoltStoreCommit_Batch(b *testing.B) {
	for _, n := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			st, err := OpenStore(filepath.Join(b.TempDir(), "s.db"))
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
						ops: []op{{kind: opPut, bucket: bucketCustomers, key: fmt.Sprintf("cus_%08d", seq), val: val}}}
				}
				bs.write(batch)
				for _, p := range batch {
					if err := <-p.result; err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "commits/s")
		})
	}
}
