package storage

import (
	"errors"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// errLead tells a queued commit that it leads the next batch.
var errLead = errors.New("lead the next batch")

// commit writes ops to the log and returns once they are on disk.
//
// Writing each request in a transaction of its own would cap the sandbox
// at the disk's sync rate however many clients it has. Here the requests
// that arrive while a batch is being written and synced queue up, and the
// first of them then leads the next batch: it appends them all to the log
// as one record, syncs once, and answers the others. The syncs are
// shared, no request waits for a timer, and a lone client pays one sync
// and no hand-over to another goroutine.
func (st *boltStore) Commit(account [32]byte, ops []Op) error {
	if err := checkOps(ops); err != nil {
		return err
	}
	p := &pendingCommit{account: account, ops: ops, result: make(chan error, 1)}
	st.mu.Lock()
	if st.closed {
		st.mu.Unlock()
		return ErrClosed
	}
	st.queue = append(st.queue, p)
	if st.writing {
		st.mu.Unlock()
		if err := <-p.result; !errors.Is(err, errLead) {
			return err
		}
		st.mu.Lock()
	}
	st.writing = true
	batch := st.queue
	st.queue = nil
	st.mu.Unlock()

	err := st.append(batch)
	st.failing.Store(err != nil)
	for _, q := range batch {
		if q != p {
			q.result <- err
		}
	}

	st.mu.Lock()
	if len(st.queue) > 0 {
		st.queue[0].result <- errLead
	} else {
		st.writing = false
		st.idle.Broadcast()
	}
	st.mu.Unlock()
	return err
}

// append writes a batch to the log as one record and syncs it.
func (st *boltStore) append(batch []*pendingCommit) error {
	w := st.wal
	b := w.encode(batch)
	off, err := st.reserve(int64(len(b)))
	if err != nil {
		return err
	}
	if err := w.write(b, off); err != nil {
		return err
	}
	rec := walRecord{seq: w.seq + 1, start: off, end: off + int64(len(b)), written: time.Now()}
	w.seq, w.tail = rec.seq, rec.end
	st.walMu.Lock()
	st.unapplied = append(st.unapplied, rec)
	st.walBytes += rec.end - rec.start
	due := st.walBytes >= st.ckptBytes
	st.walMu.Unlock()
	if due {
		st.wakeCheckpointer()
	}
	return nil
}

func (st *boltStore) wakeCheckpointer() {
	select {
	case st.ckptWake <- struct{}{}:
	default: // already signalled
	}
}

// reserve finds where in the log a record of n bytes goes: after the last
// record, or at the log's start when the records from there on are
// applied. Without room it grows the log, or, at its largest, waits for a
// checkpoint to free some; it fails when that checkpoint fails.
func (st *boltStore) reserve(n int64) (int64, error) {
	w := st.wal
	var growErr error
	for {
		st.walMu.Lock()
		empty := len(st.unapplied) == 0
		head := w.tail
		if !empty {
			head = st.unapplied[0].start
		}
		gen := st.ckptGen
		st.walMu.Unlock()
		// The records not yet applied are [head, tail), or, once the log
		// has wrapped, [head, size) and [0, tail).
		tail := w.tail
		wrapped := !empty && tail <= head
		switch {
		case empty && tail+n <= w.size, !empty && !wrapped && tail+n <= w.size, wrapped && tail+n <= head:
			return tail, nil
		case empty && n <= w.size, !empty && !wrapped && n <= head:
			return 0, nil
		}
		if !wrapped && growErr == nil {
			size := max(2*w.size, tail+n)
			if size <= walMaxSize || tail+n > walMaxSize/2 {
				if growErr = w.grow(size); growErr == nil {
					return tail, nil
				}
			}
		}
		if empty {
			// Nothing to apply: a checkpoint cannot make room.
			return 0, growErr
		}
		st.walMu.Lock()
		st.wakeCheckpointer()
		for st.ckptGen == gen {
			st.checkpointed.Wait()
		}
		err := st.ckptErr
		st.walMu.Unlock()
		if err != nil {
			return 0, err
		}
	}
}

// checkpointer applies the log to the data file when it holds
// ckptBytes, when its oldest record is ckptAge old, and
// when a leader waits for room; after Close's last commit it applies what
// is left and closes done.
func (st *boltStore) checkpointer() {
	defer close(st.done)
	tick := time.NewTicker(min(st.ckptAge/4, time.Second))
	defer tick.Stop()
	wanted := false
	for {
		select {
		case <-st.committed:
			st.checkpoint()
			return
		case <-st.ckptWake:
			wanted = true
		case <-tick.C:
		}
		st.walMu.Lock()
		due := wanted || st.walBytes >= st.ckptBytes ||
			len(st.unapplied) > 0 && time.Since(st.unapplied[0].written) >= st.ckptAge
		st.walMu.Unlock()
		if due {
			st.checkpoint()
		}
		wanted = false
	}
}

// checkpoint applies the records not yet applied to the data file, in one
// transaction. When that fails (a full disk), the log keeps them, on
// disk, and a later checkpoint tries again.
func (st *boltStore) checkpoint() {
	st.ckptMu.Lock()
	defer st.ckptMu.Unlock()
	st.walMu.Lock()
	recs := st.unapplied
	st.walMu.Unlock()
	var err error
	if len(recs) > 0 {
		var batch []*pendingCommit
		if batch, err = st.wal.commits(recs); err == nil {
			err = st.db.Update(func(tx *bolt.Tx) error { return checkpoint(tx, recs[len(recs)-1], batch) })
		}
	}
	st.walMu.Lock()
	if err == nil && len(recs) > 0 {
		// A new slice, not one growing from the front for ever.
		st.unapplied = slices.Clone(st.unapplied[len(recs):])
		for _, r := range recs {
			st.walBytes -= r.end - r.start
		}
	}
	st.ckptErr = err
	st.ckptGen++
	st.checkpointed.Broadcast()
	st.walMu.Unlock()
}
