package wire_test

import (
	"errors"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The vector was computed independently of this package, with Python:
// hmac.new(secret, b'1700000000.{"id":"evt_1"}', hashlib.sha256).hexdigest()
const (
	vectorSecret    = "whsec_TestSecretTestSecretTestSecret12"
	vectorUnix      = 1700000000
	vectorBody      = `{"id":"evt_1"}`
	vectorSignature = "2048edcef09bba38db4769d22c040e1676df6970afc8d3df92953c9bc3745d36"
)

func TestSign_KnownVector(t *testing.T) {
	t.Parallel()
	at := time.Unix(vectorUnix, 0)
	if got := wire.ComputeSignature(vectorSecret, at, []byte(vectorBody)); got != vectorSignature {
		t.Errorf("ComputeSignature = %s, want %s", got, vectorSignature)
	}
	want := "t=1700000000,v1=" + vectorSignature
	if got := wire.Sign(vectorSecret, at, []byte(vectorBody)); got != want {
		t.Errorf("Sign = %s, want %s", got, want)
	}
}

func TestVerifySignature_AcceptsAndRefuses(t *testing.T) {
	t.Parallel()
	at := time.Unix(vectorUnix, 0)
	body := []byte(vectorBody)
	good := wire.Sign(vectorSecret, at, body)
	for _, tc := range []struct {
		name   string
		header string
		secret string
		body   string
		now    time.Time
		tol    time.Duration
		want   error
	}{
		{"valid", good, vectorSecret, vectorBody, at.Add(time.Minute), wire.SignatureTolerance, nil},
		{"valid, no time check", good, vectorSecret, vectorBody, at.Add(24 * time.Hour), 0, nil},
		{"spaces and an unknown scheme", "t=1700000000, v0=abcd, v1=" + vectorSignature, vectorSecret, vectorBody, at, time.Minute, nil},
		{"second v1 matches (during a roll)", "t=1700000000,v1=00ff,v1=" + vectorSignature, vectorSecret, vectorBody, at, time.Minute, nil},
		{"missing", "", vectorSecret, vectorBody, at, time.Minute, wire.ErrSignatureMissing},
		{"no timestamp", "v1=" + vectorSignature, vectorSecret, vectorBody, at, time.Minute, wire.ErrSignatureMalformed},
		{"no v1", "t=1700000000", vectorSecret, vectorBody, at, time.Minute, wire.ErrSignatureMalformed},
		{"bad hex", "t=1700000000,v1=zz", vectorSecret, vectorBody, at, time.Minute, wire.ErrSignatureMalformed},
		{"bad timestamp", "t=soon,v1=" + vectorSignature, vectorSecret, vectorBody, at, time.Minute, wire.ErrSignatureMalformed},
		{"two timestamps", "t=1,t=1700000000,v1=" + vectorSignature, vectorSecret, vectorBody, at, time.Minute, wire.ErrSignatureMalformed},
		{"no equals sign", "garbage", vectorSecret, vectorBody, at, time.Minute, wire.ErrSignatureMalformed},
		{"other secret", good, "whsec_other", vectorBody, at, time.Minute, wire.ErrSignatureMismatch},
		{"body changed", good, vectorSecret, `{"id":"evt_2"}`, at, time.Minute, wire.ErrSignatureMismatch},
		{"timestamp changed", "t=1700000001,v1=" + vectorSignature, vectorSecret, vectorBody, at, time.Minute, wire.ErrSignatureMismatch},
		{"too old", good, vectorSecret, vectorBody, at.Add(wire.SignatureTolerance + time.Second), wire.SignatureTolerance, wire.ErrSignatureTooOld},
		{"from the future", good, vectorSecret, vectorBody, at.Add(-wire.SignatureTolerance - time.Second), wire.SignatureTolerance, wire.ErrSignatureTooOld},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := wire.VerifySignature(tc.header, tc.secret, []byte(tc.body), tc.tol, tc.now)
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Errorf("VerifySignature = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestEventTypes_UniqueAndKnown(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, typ := range wire.EventTypes {
		if seen[typ] {
			t.Errorf("%s listed twice", typ)
		}
		seen[typ] = true
		if !wire.IsEventType(typ) {
			t.Errorf("IsEventType(%s) = false", typ)
		}
	}
	if wire.IsEventType(wire.EventTypeAll) {
		t.Error("IsEventType(*) = true; * is not a type")
	}
	if got := wire.PaymentStatusEvent("approved"); got != wire.EventPaymentApproved {
		t.Errorf("PaymentStatusEvent(approved) = %s", got)
	}
}

func TestPaymentStatusEvent_EveryStatusIsATypeWithoutAllocating(t *testing.T) {
	for _, status := range wire.PaymentStatuses {
		got := wire.PaymentStatusEvent(status)
		if got != "payment."+status || !wire.IsEventType(got) {
			t.Errorf("PaymentStatusEvent(%s) = %s, want the event type payment.%s", status, got, status)
		}
		if n := testing.AllocsPerRun(10, func() { _ = wire.PaymentStatusEvent(status) }); n != 0 {
			t.Errorf("PaymentStatusEvent(%s) allocates %v times, want 0", status, n)
		}
	}
	// Not a status: still the type's spelling.
	if got := wire.PaymentStatusEvent("updated_x"); got != "payment.updated_x" {
		t.Errorf("PaymentStatusEvent(updated_x) = %s", got)
	}
}
