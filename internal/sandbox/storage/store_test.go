package storage

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestStore_FileAndMemoryAgree: the same commits, made to a data file and
// to a memory store, load the same, before and after the file is
// checkpointed, closed and reopened, and after a crash copy: the two are
// one interface with one meaning.
func TestStore_FileAndMemoryAgree(t *testing.T) {
	t.Parallel()
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	file := testStore(t, true)
	mem := NewMemory()
	buckets := []string{"a", "b", "c"}
	for i := range 300 {
		acct := testAccount(rng.IntN(4))
		var ops []Op
		for range 1 + rng.IntN(4) {
			b, k := buckets[rng.IntN(len(buckets))], strconv.Itoa(rng.IntN(20))
			switch n := rng.IntN(20); {
			case n == 0:
				ops = append(ops, DropAccount())
			case n < 4:
				ops = append(ops, Delete(b, k))
			case n < 6:
				ops = append(ops, SetSeq(uint64(i)))
			case n < 8:
				ops = append(ops, PutRecord(b, &testRecord{key: k, val: fmt.Sprintf("r%d", i)}))
			default:
				ops = append(ops, Put(b, k, fmt.Appendf(nil, "v%d", i)))
			}
		}
		for _, st := range []Store{file, mem} {
			if err := st.Commit(acct, ops); err != nil {
				t.Fatal(err)
			}
		}
		if i%50 == 49 {
			file.checkpoint()
		}
		if i%60 == 59 {
			agree(t, fmt.Sprintf("after commit %d", i), file, mem)
		}
	}
	re, err := Open(crashCopy(t, file, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	agree(t, "after a crash", re, mem)
	if err := re.Close(); err != nil {
		t.Fatal(err)
	}
	path := file.path
	if err := file.Close(); err != nil {
		t.Fatal(err)
	}
	re, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer re.Close()
	agree(t, "after reopening", re, mem)
}

// agree checks that two stores load the same accounts, whole and one by
// one.
func agree(t *testing.T, when string, got, want Store) {
	t.Helper()
	g, err := got.Load()
	if err != nil {
		t.Fatal(err)
	}
	w, err := want.Load()
	if err != nil {
		t.Fatal(err)
	}
	norm := func(m map[AccountID]*Account) map[AccountID]*Account {
		for _, a := range m {
			for name, b := range a.Buckets {
				if len(b) == 0 {
					delete(a.Buckets, name) // an emptied bucket is as good as none
				}
			}
		}
		return m
	}
	if !reflect.DeepEqual(norm(g), norm(w)) {
		t.Fatalf("%s: the stores disagree:\n%v\nwant\n%v", when, g, w)
	}
	for i := range 4 {
		a, err := got.LoadAccount(testAccount(i))
		if err != nil {
			t.Fatal(err)
		}
		if (a == nil) != (w[testAccount(i)] == nil) || a != nil && a.Seq != w[testAccount(i)].Seq {
			t.Fatalf("%s: LoadAccount(%d) is %v, Load has %v", when, i, a, w[testAccount(i)])
		}
	}
}

// TestStore_RefusesBadOps: a change bbolt would refuse, or one to the
// account's own bucket, is refused by both stores alike.
func TestStore_RefusesBadOps(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		op   Op
		want string
	}{
		{"empty key", Put("b", "", nil), "a record key of 0 bytes"},
		{"long key", Put("b", strings.Repeat("k", bolt.MaxKeySize+1), nil), "a record key of 32769 bytes"},
		{"no bucket", Put("", "k", nil), `the record "k" in an account's own bucket`},
	} {
		for name, st := range map[string]Store{"file": testStore(t, true), "memory": NewMemory()} {
			if err := st.Commit(testAccount(1), []Op{tc.op}); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s, %s: %v, want %q", tc.name, name, err, tc.want)
			}
		}
	}
}

// testdata/format1.db was written by payments-sandbox before data files
// had a format key (format 1); testdata/format2.db is the same file
// upgraded by the payments-sandbox of format 2, before the write-ahead
// log. The sandbox's tests check what it serves from them.

// TestStore_UpgradesFormat: a data file of an older format is copied to
// <file>.v<format>.bak, which the notes name, and upgraded in place; it
// loads every record it had, and a second open neither upgrades nor
// copies again.
func TestStore_UpgradesFormat(t *testing.T) {
	t.Parallel()
	for _, from := range []int{1, 2} {
		t.Run(fmt.Sprintf("format %d", from), func(t *testing.T) {
			t.Parallel()
			fixture, err := os.ReadFile(filepath.Join("testdata", fmt.Sprintf("format%d.db", from)))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "s.db")
			if err := os.WriteFile(path, fixture, 0o600); err != nil {
				t.Fatal(err)
			}
			want := rawAccounts(t, path)
			if len(want) != 2 {
				t.Fatalf("the fixture holds %d accounts, want 2", len(want))
			}
			st, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			backup := fmt.Sprintf("%s.v%d.bak", path, from)
			if notes := strings.Join(st.Notes(), "\n"); !strings.Contains(notes, fmt.Sprintf("from format %d to %d", from, dataFormat)) || !strings.Contains(notes, backup) {
				t.Errorf("the notes do not name the upgrade and its copy: %q", notes)
			}
			if raw, err := os.ReadFile(backup); err != nil || !bytes.Equal(raw, fixture) {
				t.Errorf("the copy of the old file differs from it (%v)", err)
			}
			got, err := st.Load()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the upgraded file loads\n%v\nwant\n%v", got, want)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			if f := rawFormat(t, path); f != strconv.Itoa(dataFormat) {
				t.Errorf("format after the upgrade: %q, want %d", f, dataFormat)
			}
			if err := os.Remove(backup); err != nil {
				t.Fatal(err)
			}
			st, err = Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if notes := st.Notes(); len(notes) != 0 {
				t.Errorf("a second open noted %q", notes)
			}
			if _, err := os.Stat(backup); !os.IsNotExist(err) {
				t.Errorf("a second open copied the file again: %v", err)
			}
		})
	}
}

// TestStore_RefusesNewerFormat: a file of a later format is refused,
// naming both versions, and left as it was.
func TestStore_RefusesNewerFormat(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if got := rawFormat(t, path); got != strconv.Itoa(dataFormat) {
		t.Fatalf("a new file's format: %q, want %d", got, dataFormat)
	}
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keyFormat, []byte(strconv.Itoa(dataFormat+1)))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before, _ := os.ReadFile(path)
	want := fmt.Sprintf("data file %s is format %d; this payments-sandbox reads format %d and older: upgrade payments-sandbox", path, dataFormat+1, dataFormat)
	if _, err := Open(path); err == nil || err.Error() != want {
		t.Errorf("opening a newer file: %v, want %q", err, want)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the refused file was changed")
	}
	if _, err := os.Stat(fmt.Sprintf("%s.v%d.bak", path, dataFormat)); !os.IsNotExist(err) {
		t.Errorf("a refused file was copied: %v", err)
	}
}

// rawAccounts reads a closed data file's accounts with bbolt alone.
func rawAccounts(t *testing.T, path string) map[AccountID]*Account {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := make(map[AccountID]*Account)
	if err := db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketAccounts).ForEachBucket(func(name []byte) error {
			var id AccountID
			if n, err := hex.Decode(id[:], name); err != nil || n != len(id) {
				return fmt.Errorf("account bucket %q: %v", name, err)
			}
			out[id] = readRecords(tx.Bucket(bucketAccounts).Bucket(name)).account()
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// rawFormat reads a closed data file's format key; "" when it has none.
func rawFormat(t *testing.T, path string) string {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v string
	_ = db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucketMeta); b != nil {
			v = string(b.Get(keyFormat))
		}
		return nil
	})
	return v
}
