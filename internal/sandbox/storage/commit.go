package storage

import (
	"errors"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// errLead tells a queued commit that it leads the next batch.
var errLead = errors.New("lead the next batch")

func (st *boltStore) Stage(ops []Op, o Op) []Op { return append(ops, o) }

// Commit writes ops to the log and returns once they are on disk.
//
// Writing each request in a transaction of its own would cap the sandbox
// at the disk's sync rate however many clients it has. Here the requests
// that arrive while a batch is being written and synced queue up, and the
// first of them then leads the next batch: it appends them all to the log
// as one record, syncs once, and answers the others. The syncs are
// shared, no request waits for a timer, and a lone client pays one sync
// and no hand-over to another goroutine.
func (st *boltStore) Commit(account [32]byte, ops []Op) error {
	encode(ops)
	if err := checkOps(ops); err != nil {
		return err
	}
	p := &pendingCommit{account: account, ops: ops, result: make(chan error, 1)}
	st.mu.Lock()
	if st.closed {
		st.mu.Unlock()
		return ErrClosed
	}
	if st.stopped != nil {
		st.mu.Unlock()
		return st.stopped
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
	batch := st.take()
	st.mu.Unlock()

	err := st.append(batch)
	st.failing.Store(err != nil)
	switch {
	case errors.Is(err, ErrOutcomeUnknown):
		st.mu.Lock()
		// %v, not %w: the later commits refused with this error changed
		// nothing, so they must not read as ErrOutcomeUnknown.
		st.stopped = fmt.Errorf("the data file takes no more writes since one's outcome became unknown (%v); restart to read back what the disk holds", err) //nolint:errorlint // see above
		// The commits queued meanwhile were never written: they fail
		// plainly, as every later one does.
		st.failQueue(st.stopped)
		st.mu.Unlock()
	case errors.Is(err, ErrLogFull):
		// The commits queued while the leader waited for room fail with
		// it rather than wait as long again, one leader after another.
		st.mu.Lock()
		st.failQueue(err)
		st.mu.Unlock()
	}
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

// failQueue answers every queued commit with err. st.mu is held.
func (st *boltStore) failQueue(err error) {
	for _, q := range st.queue {
		q.result <- err
	}
	st.queue = nil
}

// take takes the leader's batch from the queue: the leader's commit, which
// is first, and those after it while the record stays within a quarter of
// the log's cap, so that a record always fits in the log. The rest wait
// for the next leader. st.mu is held.
func (st *boltStore) take() []*pendingCommit {
	n, size := 1, batchSize(st.queue[:1])
	for n < len(st.queue) {
		size += batchSize(st.queue[n : n+1])
		if size > int(st.maxSize/4) {
			break
		}
		n++
	}
	batch := st.queue[:n:n]
	st.queue = slices.Clone(st.queue[n:])
	return batch
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
// applied. Without room it grows the log, up to its cap, then waits for a
// checkpoint to free some: it fails when that checkpoint fails, and with
// ErrLogFull when none frees room within roomWait.
func (st *boltStore) reserve(n int64) (int64, error) {
	w := st.wal
	if n > st.maxSize {
		return 0, fmt.Errorf("a commit of %d bytes: the write-ahead log holds at most %d", n, st.maxSize)
	}
	deadline := time.Now().Add(st.roomWait)
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
		if !wrapped && growErr == nil && w.size < st.maxSize {
			if growErr = w.grow(min(max(2*w.size, tail+n), st.maxSize)); growErr == nil {
				continue
			}
		}
		if empty {
			// Nothing to apply: a checkpoint cannot make room.
			return 0, growErr
		}
		st.walMu.Lock()
		st.wakeCheckpointer()
		if st.ckptGen == gen {
			// Cond has no timeout: a timer wakes the waiters at the deadline.
			timer := time.AfterFunc(time.Until(deadline), func() {
				st.walMu.Lock()
				st.checkpointed.Broadcast()
				st.walMu.Unlock()
			})
			for st.ckptGen == gen && time.Now().Before(deadline) {
				st.checkpointed.Wait()
			}
			timer.Stop()
		}
		done, err := st.ckptGen != gen, st.ckptErr
		st.walMu.Unlock()
		switch {
		case !done:
			return 0, ErrLogFull
		case err != nil:
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
