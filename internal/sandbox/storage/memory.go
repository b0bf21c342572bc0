package storage

import (
	"fmt"
	"maps"
	"sync"
)

var _ Store = (*memory)(nil)

// memory is a Store that keeps its records in memory alone: what a
// process without a data file has, gone when it ends.
type memory struct {
	mu       sync.Mutex
	accounts map[AccountID]records
	closed   bool
}

// NewMemory returns a Store that keeps a copy of its records in memory
// only. It takes the same changes as a data file and answers the same
// reads, and its writes never fail (but after Close).
func NewMemory() Store { return &memory{accounts: make(map[AccountID]records)} }

func (m *memory) Load() (map[AccountID]*Account, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[AccountID]*Account, len(m.accounts))
	for id, r := range m.accounts {
		out[id] = r.clone().account()
	}
	return out, nil
}

func (m *memory) LoadAccount(id AccountID) (*Account, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.accounts[id]; r != nil {
		return r.clone().account(), nil
	}
	return nil, nil
}

func (m *memory) Stage(ops []Op, o Op) []Op { return append(ops, o) }

func (m *memory) Commit(id AccountID, ops []Op) error {
	encode(ops)
	if err := checkOps(ops); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	replay(m.accounts, []*pendingCommit{{account: id, ops: ops}}, nil)
	return nil
}

func (m *memory) Health() error { return nil }

func (m *memory) Notes() []string { return nil }

func (m *memory) Unusable(cause error) error {
	return fmt.Errorf("reading the stored records: %w", cause)
}

func (m *memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	return nil
}

// clone copies the maps of r, not its values, which no one changes.
func (r records) clone() records {
	out := make(records, len(r))
	for name, m := range r {
		out[name] = maps.Clone(m)
	}
	return out
}

var _ Store = noCopy{}

// noCopy is a Store that keeps nothing.
type noCopy struct{}

// NoCopy returns a Store that keeps nothing, for a caller whose objects in
// memory are the only copy of its state: a second one would double what
// it keeps, for a read back that a write which cannot fail never needs.
// Load finds no account, Stage keeps no change, Commit checks and encodes
// nothing and never fails, even after Close, and Health is always nil.
func NoCopy() Store { return noCopy{} }

func (noCopy) Load() (map[AccountID]*Account, error) { return map[AccountID]*Account{}, nil }

func (noCopy) LoadAccount(AccountID) (*Account, error) { return nil, nil }

func (noCopy) Stage(ops []Op, _ Op) []Op { return ops }

func (noCopy) Commit(AccountID, []Op) error { return nil }

func (noCopy) Health() error { return nil }

func (noCopy) Notes() []string { return nil }

func (noCopy) Unusable(cause error) error {
	return fmt.Errorf("reading the stored records: %w", cause)
}

func (noCopy) Close() error { return nil }
