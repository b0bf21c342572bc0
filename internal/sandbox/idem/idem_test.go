package idem

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func fp(b byte) [32]byte { return [32]byte{b} }

// TestTable_Lifecycle walks a key through reserve, in use, stored,
// replayed, reused, expired and reserved again.
func TestTable_Lifecycle(t *testing.T) {
	var tb Table
	rec, stored, refused, _ := tb.Begin("k", fp(1), t0)
	if rec == nil || stored != nil || refused != nil {
		t.Fatalf("first Begin: %v %v %v, want a reservation", rec, stored, refused)
	}
	if _, _, refused, _ = tb.Begin("k", fp(1), t0); refused == nil || refused.Code != wire.ErrorCodeIdempotencyKeyInUse || refused.Status != http.StatusConflict {
		t.Fatalf("while running: %+v, want 409 in use", refused)
	}
	if !tb.Store(rec, http.StatusOK, []byte("answer")) || !rec.Done {
		t.Fatal("Store of a 200 kept nothing")
	}
	rec.Counted = 100
	if _, stored, _, _ = tb.Begin("k", fp(1), t0.Add(Retention-time.Nanosecond)); stored != rec || string(stored.Body) != "answer" {
		t.Fatalf("repeat: %+v, want the stored answer", stored)
	}
	if _, _, refused, _ = tb.Begin("k", fp(2), t0); refused == nil || refused.Code != wire.ErrorCodeIdempotencyKeyReused || refused.Status != http.StatusBadRequest ||
		refused.Type != wire.ErrorTypeIdempotency {
		t.Fatalf("other request: %+v, want 400 idempotency_error reused", refused)
	}
	again, stored, refused, freed := tb.Begin("k", fp(2), t0.Add(Retention))
	if again == nil || again == rec || stored != nil || refused != nil || freed != 100 {
		t.Fatalf("after Retention: %v %v %v freed %d, want a new reservation freeing 100", again, stored, refused, freed)
	}
}

// TestTable_StoreRefusals: a refusal a retry may get past frees the key,
// and so does a key reset while its request ran.
func TestTable_StoreRefusals(t *testing.T) {
	for _, status := range []int{http.StatusConflict, http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusServiceUnavailable, http.StatusUnauthorized} {
		var tb Table
		rec, _, _, _ := tb.Begin("k", fp(1), t0)
		if tb.Store(rec, status, nil) || !rec.Done {
			t.Errorf("%d: kept, want the key freed", status)
		}
		if again, _, _, _ := tb.Begin("k", fp(1), t0); again == nil {
			t.Errorf("%d: the key is not free again", status)
		}
	}
	var tb Table
	rec, _, _, _ := tb.Begin("k", fp(1), t0)
	tb.Clear()
	if tb.Store(rec, http.StatusOK, nil) {
		t.Error("an answer was kept under a key reset meanwhile")
	}
}

func TestStorable_Statuses(t *testing.T) {
	for status, want := range map[int]bool{200: true, 400: true, 402: true, 404: true, 413: true, 401: false, 403: false, 409: false, 429: false, 500: false, 503: false} {
		if Storable(status) != want {
			t.Errorf("Storable(%d) = %v, want %v", status, !want, want)
		}
	}
}

// TestTable_Sweep: expired records leave from the front, a running one
// stops the sweep, and a record whose key was freed is not dropped twice.
func TestTable_Sweep(t *testing.T) {
	var tb Table
	var recs []*Record
	for i, key := range []string{"a", "b", "c", "d"} {
		rec, _, _, _ := tb.Begin(key, fp(byte(i)), t0.Add(time.Duration(i)*time.Hour))
		recs = append(recs, rec)
	}
	tb.Store(recs[0], 200, nil)
	tb.Store(recs[1], 500, nil) // freed
	tb.Store(recs[3], 200, nil)
	var dropped []string
	drop := func(r *Record) { dropped = append(dropped, r.Key) }
	tb.Sweep(t0.Add(Retention+10*time.Hour), drop)
	if !slices.Equal(dropped, []string{"a"}) {
		t.Fatalf("dropped %v, want [a]: c still runs", dropped)
	}
	tb.Store(recs[2], 200, nil)
	tb.Sweep(t0.Add(Retention+2*time.Hour), drop)
	if !slices.Equal(dropped, []string{"a", "c"}) {
		t.Fatalf("dropped %v, want [a c]", dropped)
	}
	var left []string
	for r := range tb.All() {
		left = append(left, r.Key)
	}
	if !slices.Equal(left, []string{"d"}) {
		t.Errorf("left %v, want [d]", left)
	}
}

// TestTable_Adopt: after a failed write the table read back takes the
// reservations still running, not the answered ones.
func TestTable_Adopt(t *testing.T) {
	var cur Table
	cur.Begin("run", fp(1), t0)
	done, _, _, _ := cur.Begin("done", fp(2), t0)
	cur.Store(done, 200, nil)
	var back Table
	back.Adopt(&cur)
	if _, _, refused, _ := back.Begin("run", fp(1), t0); refused == nil || refused.Code != wire.ErrorCodeIdempotencyKeyInUse {
		t.Errorf("running key after Adopt: %+v, want in use", refused)
	}
	if rec, _, _, _ := back.Begin("done", fp(2), t0); rec == nil {
		t.Error("an answered key not in the file was adopted")
	}
}

// TestRecord_StoreRoundTrip: what the store keeps reads back as the
// record, done; a damaged record is refused, naming its key.
func TestRecord_StoreRoundTrip(t *testing.T) {
	rec := &Record{Key: "k1", FP: fp(7), Created: t0.UnixNano(), Done: true, Status: 402, Body: []byte(`{"error":{}}`)}
	want := `{"fp":"BwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","created":1767225600000000000,"status":402,"body":"eyJlcnJvciI6e319"}`
	if got := string(rec.RecordValue()); got != want {
		t.Fatalf("RecordValue = %s, want %s", got, want)
	}
	back, err := Decode(rec.RecordKey(), rec.RecordValue())
	if err != nil || back.Key != rec.Key || back.FP != rec.FP || back.Created != rec.Created || !back.Done || back.Status != rec.Status || string(back.Body) != string(rec.Body) {
		t.Fatalf("Decode = %+v, %v; want %+v", back, err, rec)
	}
	if _, err := Decode("k2", []byte(`{"fp":"AAAA"}`)); err == nil {
		t.Error("a 3-byte fingerprint was accepted")
	}
	if _, err := Decode("k3", []byte(`not json`)); err == nil {
		t.Error("damaged JSON was accepted")
	}
	var tb Table
	old := &Record{Key: "old", FP: fp(1), Created: t0.Add(-Retention).UnixNano(), Done: true, Status: 200}
	if err := tb.Load(map[string][]byte{"k1": rec.RecordValue(), "old": old.RecordValue()}, t0); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for r := range tb.All() {
		keys = append(keys, r.Key)
	}
	if !slices.Equal(keys, []string{"k1"}) {
		t.Errorf("loaded %v, want [k1]: old expired", keys)
	}
}
