package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
)

// TestCompact_Subcommand: `payments-sandbox compact -data FILE` compacts a
// stopped sandbox's data file and prints its sizes; a file in use is
// refused with status 1, a mistake in the flags with 2, each in one line.
func TestCompact_Subcommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sandbox.db")
	st, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var account storage.AccountID
	if err := st.Commit(account, []storage.Op{storage.Put("customers", "cus_1", []byte("{}"))}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		status int
		out    string
	}{
		{[]string{"compact"}, 2, "-data is missing"},
		{[]string{"compact", "-data", path, "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"compact", "-data", path}, 1, "locked by another process"},
	} {
		var stdout, stderr bytes.Buffer
		if got := run(tc.args, &stdout, &stderr); got != tc.status || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), tc.out) {
			t.Errorf("%q: exit status %d, stderr %q; want %d and one line naming %q", tc.args, got, stderr.String(), tc.status, tc.out)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if got := run([]string{"compact", "-data", path}, &stdout, &stderr); got != 0 || !strings.HasPrefix(stdout.String(), "compacted data file "+path+" from ") {
		t.Fatalf("compact of a stopped sandbox's file: exit status %d, stdout %q, stderr %q", got, stdout.String(), stderr.String())
	}
	t.Log(strings.TrimSpace(stdout.String()))
	st, err = storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, err := st.Load()
	if err != nil || string(all[account].Buckets["customers"]["cus_1"]) != "{}" {
		t.Errorf("after compact the file loads %v, %v", all, err)
	}
}
