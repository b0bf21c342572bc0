package sandbox_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// customerPage is one GET /v1/customers answer, as ids.
func (e *env) customerPage(q ...string) ([]string, bool) {
	e.t.Helper()
	var l client.CustomerList
	e.get("/v1/customers", vals(q...)).ok(&l)
	if l.Object != "list" || l.URL != "/v1/customers" {
		e.t.Errorf("list envelope = %q %q", l.Object, l.URL)
	}
	var out []string
	for _, c := range l.Data {
		out = append(out, c.ID)
	}
	return out, l.HasMore
}

func TestListCustomers_OrderAndEmailFilter(t *testing.T) {
	t.Parallel()
	e, clk := listEnv(t)
	// 25 customers, three per second, so that many share a timestamp and
	// only the creation order can sort them. Every fifth shares an address
	// written in another case; one has none.
	var ids []string // oldest first
	var shared []string
	for i := range 25 {
		f := vals("name", fmt.Sprintf("Customer %d", i), "email", fmt.Sprintf("c%d@example.com", i))
		switch {
		case i%5 == 0:
			f.Set("email", []string{"Ada@Example.com", "ada@example.com", "ADA@EXAMPLE.COM"}[i%3])
		case i == 7:
			f.Del("email")
		}
		cu := e.customer(f)
		ids = append(ids, cu.ID)
		if i%5 == 0 {
			shared = append([]string{cu.ID}, shared...)
		}
		if i%3 == 2 {
			clk.Advance(time.Second)
		}
	}
	// A deleted customer leaves the list and its cursor stops working.
	gone := e.customer(vals("name", "Gone", "email", "ada@example.com"))
	e.del("/v1/customers/" + gone.ID).ok(nil)
	newest := slices.Clone(ids)
	slices.Reverse(newest)

	for _, tc := range []struct {
		name     string
		q        []string
		want     []string
		wantMore bool
	}{
		{"default limit", nil, newest[:10], true},
		{"second page", []string{"starting_after", newest[9]}, newest[10:20], true},
		{"last page", []string{"limit", "10", "starting_after", newest[19]}, newest[20:], false},
		{"limit 100", []string{"limit", "100"}, newest, false},
		{"limit 1", []string{"limit", "1"}, newest[:1], true},
		{"after the oldest", []string{"starting_after", newest[24]}, nil, false},
		{"ending_before back one page", []string{"limit", "10", "ending_before", newest[20]}, newest[10:20], true},
		{"ending_before near the top", []string{"limit", "5", "ending_before", newest[3]}, newest[:3], false},
		{"ending_before the newest", []string{"ending_before", newest[0]}, nil, false},
		{"email, any case", []string{"email", "ADA@example.COM", "limit", "100"}, shared, false},
		{"email, paged", []string{"email", "ada@example.com", "limit", "2", "starting_after", shared[1]}, shared[2:4], true},
		{"email, cursor outside the filter", []string{"email", "ada@example.com", "starting_after", newest[5]}, shared[1:], false},
		{"email nobody has", []string{"email", "nobody@example.com"}, nil, false},
		{"email empty filters nothing", []string{"email", "", "limit", "3"}, newest[:3], true},
		// Customers 3..5 were made in the second second, 6..8 in the
		// third (2030-01-01T00:00:00Z is 1893456000).
		{"created range", []string{"created[gte]", "2030-01-01T00:00:01Z", "created[lt]", "1893456003"}, []string{ids[8], ids[7], ids[6], ids[5], ids[4], ids[3]}, false},
		{"created after", []string{"created[gt]", "1893456006", "limit", "100"}, newest[:4], false},
		{"created and email", []string{"created[lte]", "1893456001", "email", "ada@example.com"}, []string{ids[5], ids[0]}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := *e
			e.t = t
			got, more := e.customerPage(tc.q...)
			if !slices.Equal(got, tc.want) || more != tc.wantMore {
				t.Errorf("got %d ids (has_more %v), want %d (has_more %v)\n got %v\nwant %v", len(got), more, len(tc.want), tc.wantMore, got, tc.want)
			}
		})
	}

	// Walking forward with starting_after and back with ending_before
	// visits every customer once.
	var fwd []string
	cursor := ""
	for {
		q := []string{"limit", "7"}
		if cursor != "" {
			q = append(q, "starting_after", cursor)
		}
		got, more := e.customerPage(q...)
		fwd = append(fwd, got...)
		if !more {
			break
		}
		cursor = got[len(got)-1]
	}
	if !slices.Equal(fwd, newest) {
		t.Errorf("walk forward:\n got %v\nwant %v", fwd, newest)
	}
	var back []string
	cursor = newest[24]
	for {
		got, more := e.customerPage("limit", "7", "ending_before", cursor)
		back = append(got, back...)
		if !more {
			break
		}
		cursor = got[0]
	}
	if !slices.Equal(back, newest[:24]) {
		t.Errorf("walk back:\n got %v\nwant %v", back, newest[:24])
	}

	for _, tc := range []struct {
		q           []string
		code, param string
	}{
		{[]string{"email", "ada"}, wire.ErrorCodeParameterInvalid, "email"},
		{[]string{"email", "ada lovelace@example.com"}, wire.ErrorCodeParameterInvalid, "email"},
		{[]string{"email", strings.Repeat("a", wire.EmailMaxLength) + "@example.com"}, wire.ErrorCodeParameterInvalid, "email"},
		{[]string{"starting_after", gone.ID}, wire.ErrorCodeResourceMissing, "starting_after"},
		{[]string{"name", "Ada"}, wire.ErrorCodeParameterUnknown, "name"},
		{[]string{"created[gte]", "2030-01-01"}, wire.ErrorCodeParameterInvalid, "created[gte]"},
		{[]string{"created", "1893456000"}, wire.ErrorCodeParameterUnknown, "created"},
	} {
		t.Run(strings.Join(tc.q, "="), func(t *testing.T) {
			e := *e
			e.t = t
			e.get("/v1/customers", vals(tc.q...)).fails(400, wire.ErrorTypeInvalidRequest, tc.code, tc.param)
		})
	}
}

func TestListCustomers_IsolationAndReset(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other := e.other()
	mine := e.customer(vals("email", "ada@example.com"))
	theirs := other.customer(vals("email", "ada@example.com"))

	if got, _ := e.customerPage("email", "ada@example.com"); !slices.Equal(got, []string{mine.ID}) {
		t.Errorf("my list = %v, want only %s", got, mine.ID)
	}
	// Another account's customer is no cursor here: 400, as an unknown id.
	e.get("/v1/customers", vals("starting_after", theirs.ID)).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "starting_after")

	e.post("/_sandbox/reset", nil).ok(nil)
	if got, more := e.customerPage(); len(got) != 0 || more {
		t.Errorf("after reset: %v (has_more %v), want an empty list", got, more)
	}
	// Customers made after a reset come before nothing that was reset.
	after := e.customer(nil)
	if got, _ := e.customerPage(); !slices.Equal(got, []string{after.ID}) {
		t.Errorf("after reset and create: %v, want [%s]", got, after.ID)
	}
	if got, _ := other.customerPage(); !slices.Equal(got, []string{theirs.ID}) {
		t.Errorf("the other account's list = %v, want [%s]", got, theirs.ID)
	}
}

// TestListCustomers_OrderSurvivesRestart checks that the creation order is
// kept in the data file, and that a file written before customers had a
// sequence number is numbered once, in created_at order, so that the
// order is then the same on every restart.
func TestListCustomers_OrderSurvivesRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	key := sandboxtest.NewKey(t)
	e, stop := openEnv(t, path, key)
	var ids []string // oldest first
	for i := range 5 {
		ids = append(ids, e.customer(vals("name", fmt.Sprint(i))).ID)
	}
	e.del("/v1/customers/" + ids[2]).ok(nil)
	ids = slices.Delete(ids, 2, 3)
	stop()

	newestFirst := func(ids []string) []string { r := slices.Clone(ids); slices.Reverse(r); return r }
	e, stop = openEnv(t, path, key)
	if got, _ := e.customerPage(); !slices.Equal(got, newestFirst(ids)) {
		t.Errorf("after restart: %v, want %v", got, newestFirst(ids))
	}
	ids = append(ids, e.customer(nil).ID)
	if got, _ := e.customerPage(); !slices.Equal(got, newestFirst(ids)) {
		t.Errorf("after restart and create: %v, want %v", got, newestFirst(ids))
	}
	stop()

	// Make the file an older one: customer records without seq.
	created := map[string]int64{}
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(key))
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("accounts")).Bucket([]byte(hex.EncodeToString(sum[:]))).Bucket([]byte("customers"))
		return b.ForEach(func(k, v []byte) error {
			var rec map[string]any
			if err := json.Unmarshal(v, &rec); err != nil {
				return err
			}
			if _, ok := rec["seq"]; !ok {
				return fmt.Errorf("record %s has no seq: %s", k, v)
			}
			delete(rec, "seq")
			// Oldest first by created_at: the reverse of creation order, so
			// that the test tells the migration's order from the old one.
			c := 2_000_000_000 - int64(slices.Index(ids, string(k)))
			rec["created"], created[string(k)] = c, c
			nv, err := json.Marshal(rec)
			if err != nil {
				return err
			}
			return b.Put(k, nv)
		})
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	migrated := slices.Clone(ids)
	slices.SortFunc(migrated, func(x, y string) int { return int(created[y] - created[x]) })
	for range 2 {
		e, stop = openEnv(t, path, key)
		if got, _ := e.customerPage(); !slices.Equal(got, migrated) {
			t.Errorf("older file: %v, want by created_at, newest first: %v", got, migrated)
		}
		stop()
	}
	e, stop = openEnv(t, path, key)
	defer stop()
	newest := e.customer(nil).ID
	if got, _ := e.customerPage("limit", "1"); !slices.Equal(got, []string{newest}) {
		t.Errorf("a customer made after the migration is not first: %v, want %s", got, newest)
	}
}
