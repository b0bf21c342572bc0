package storage

import (
	"bytes"
	"testing"
)

// testRecord is a Record that counts the times it is asked for its key
// and its encoding.
type testRecord struct {
	key, val    string
	keys, encs  int
	mustNotCall *testing.T // when set, being asked at all fails the test
}

func (r *testRecord) RecordKey() string {
	r.keys++
	if r.mustNotCall != nil {
		r.mustNotCall.Errorf("the key of %q was asked for", r.key)
	}
	return r.key
}

func (r *testRecord) RecordValue() []byte {
	r.encs++
	if r.mustNotCall != nil {
		r.mustNotCall.Errorf("%q was encoded", r.key)
	}
	return []byte(r.val)
}

// TestPutRecord_EncodedAtCommit: a store that keeps records encodes a
// Record once, in Commit, as it is then, and deletes one by its key.
func TestPutRecord_EncodedAtCommit(t *testing.T) {
	t.Parallel()
	for name, st := range map[string]Store{"file": testStore(t, true), "memory": NewMemory()} {
		acct := testAccount(3)
		r := &testRecord{key: "k1", val: "before"}
		ops := []Op{PutRecord("b", r)}
		r.val = "at commit"
		if err := st.Commit(acct, ops); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.keys != 1 || r.encs != 1 {
			t.Errorf("%s: asked %d times for the key and %d for the value, want once each", name, r.keys, r.encs)
		}
		r.val = "after commit"
		got, err := st.LoadAccount(acct)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v := got.Buckets["b"]["k1"]; !bytes.Equal(v, []byte("at commit")) {
			t.Errorf("%s: stored %q, want %q", name, v, "at commit")
		}
		gone := &testRecord{key: "k1"}
		if err := st.Commit(acct, []Op{DeleteRecord("b", gone)}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if gone.keys != 1 || gone.encs != 0 {
			t.Errorf("%s: a delete asked %d times for the key and %d for the value, want once and never", name, gone.keys, gone.encs)
		}
		if got, err = st.LoadAccount(acct); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v, ok := got.Buckets["b"]["k1"]; ok {
			t.Errorf("%s: after DeleteRecord the store keeps %q", name, v)
		}
	}
}

// TestNoCopy_KeepsNothing: NoCopy asks no Record for anything, loads
// nothing, and takes commits without failing, after Close too.
func TestNoCopy_KeepsNothing(t *testing.T) {
	t.Parallel()
	st := NoCopy()
	acct := testAccount(1)
	r := &testRecord{key: "k", val: "v", mustNotCall: t}
	ops := []Op{PutRecord("b", r), DeleteRecord("b", r), Put("b", "", nil), SetSeq(7), DropAccount()}
	if err := st.Commit(acct, ops); err != nil {
		t.Fatalf("commit: %v", err)
	}
	all, err := st.Load()
	if err != nil || len(all) != 0 {
		t.Errorf("Load: %d accounts, %v; want none", len(all), err)
	}
	if a, err := st.LoadAccount(acct); a != nil || err != nil {
		t.Errorf("LoadAccount: %v, %v; want nil, nil", a, err)
	}
	if err := st.Health(); err != nil {
		t.Errorf("Health: %v", err)
	}
	if err := st.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := st.Commit(acct, ops); err != nil {
		t.Errorf("commit after Close: %v, want nil: the caller's memory is the only copy", err)
	}
}

// TestStore_Stage: a store that keeps records stages every change; one
// that keeps none stages nothing, so that its caller collects nothing.
func TestStore_Stage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		st   Store
		want int
	}{
		{"file", testStore(t, true), 3},
		{"memory", NewMemory(), 3},
		{"no copy", NoCopy(), 0},
	} {
		var ops []Op
		for _, o := range []Op{Put("b", "k", []byte("v")), PutRecord("b", &testRecord{key: "r"}), SetSeq(1)} {
			ops = tc.st.Stage(ops, o)
		}
		if len(ops) != tc.want {
			t.Errorf("%s: staged %d of 3 changes, want %d", tc.name, len(ops), tc.want)
		}
	}
}
