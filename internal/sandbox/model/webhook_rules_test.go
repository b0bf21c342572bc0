package model

import (
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestParseWebhookURL_Shapes: an absolute http or https URL without a
// fragment, its port defaulted by scheme; the host policy comes after.
func TestParseWebhookURL_Shapes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, url, host string
		port            uint16
		code, want      string
	}{
		{"http on a port", "http://127.0.0.1:4242/webhooks", "127.0.0.1", 4242, "", ""},
		{"https by default", "https://example.com/h", "example.com", 443, "", ""},
		{"http by default", "http://[::1]/h", "::1", 80, "", ""},
		{"empty", "", "", 0, wire.ErrorCodeParameterMissing, "url is required"},
		{"too long", "https://example.com/" + strings.Repeat("a", wire.WebhookURLMaxLength), "", 0, wire.ErrorCodeParameterInvalid, "bytes long"},
		{"relative", "/webhooks", "", 0, wire.ErrorCodeParameterInvalid, "is not an absolute https or http URL"},
		{"another scheme", "ftp://example.com/h", "", 0, wire.ErrorCodeParameterInvalid, "is not an absolute https or http URL"},
		{"a fragment", "https://example.com/h#x", "", 0, wire.ErrorCodeParameterInvalid, "has a fragment"},
		{"port 0", "https://example.com:0/h", "", 0, wire.ErrorCodeParameterInvalid, `has port "0"`},
		{"port too high", "https://example.com:65536/h", "", 0, wire.ErrorCodeParameterInvalid, `has port "65536"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			host, port, r := ParseWebhookURL(tc.url)
			wantRefusal(t, r, tc.code, tc.want)
			if r != nil && r.Param != wire.ParamURL || host != tc.host || port != tc.port {
				t.Fatalf("host %q port %d refusal %+v", host, port, r)
			}
		})
	}
}

// TestEnabledEvents_Values: known types once each, at least one.
func TestEnabledEvents_Values(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		vals []string
		out  []string
		want string
	}{
		{"every type", []string{wire.EventTypeAll}, []string{wire.EventTypeAll}, ""},
		{"each once, empties skipped", []string{wire.EventPaymentUpdated, "", wire.EventPaymentUpdated}, []string{wire.EventPaymentUpdated}, ""},
		{"unknown", []string{"payment.exploded"}, nil, `enabled_events has "payment.exploded", which is not an event type`},
		{"only empties", []string{"", ""}, nil, "enabled_events is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, r := EnabledEvents(tc.vals)
			wantRefusal(t, r, wire.ErrorCodeParameterInvalid, tc.want)
			if strings.Join(out, ",") != strings.Join(tc.out, ",") {
				t.Fatalf("events %v, want %v", out, tc.out)
			}
		})
	}
}

// TestCheckAPIVersion_Forms: a calendar date, then optionally a dot and
// a lower-case release name, as Stripe writes its versions.
func TestCheckAPIVersion_Forms(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v  string
		ok bool
	}{
		{wire.APIVersion, true},
		{"2025-03-31.basil", true},
		{"2024-06-20", true},
		{"2024-02-29.acacia", true},
		{"2025-02-29.basil", false}, // not in the calendar
		{"2025-13-01", false},
		{"2025-3-31", false},
		{"2025-03-31.", false},
		{"2025-03-31.Basil", false},
		{"2025-03-31.basil.preview", false},
		{"2025-03-31." + strings.Repeat("a", 33), false},
		{"basil", false},
		{"", false},
		{"2025-03-31\".x", false},
	} {
		r := CheckAPIVersion(tc.v)
		if (r == nil) != tc.ok || r != nil && (r.Param != wire.ParamAPIVersion || !strings.Contains(r.Message, "is not an API version")) {
			t.Errorf("%q: %+v, want ok %v", tc.v, r, tc.ok)
		}
	}
}

// TestEvent_JSONFor: a delivery's body differs from the listed one in
// api_version only, whether the event holds its object or a body read
// from the data file, one stored before events had an api_version
// included.
func TestEvent_JSONFor(t *testing.T) {
	t.Parallel()
	ev := &Event{ID: ids.New(), Type: wire.EventCustomerCreated, At: 1_767_225_600, Obj: []byte(`{"id":"cus_1"}`)}
	listed := string(ev.JSON())
	const other = "2025-03-31.basil"
	want := strings.Replace(listed, `"api_version":"`+wire.APIVersion+`"`, `"api_version":"`+other+`"`, 1)
	if want == listed || !strings.HasPrefix(listed, `{"id":"evt_`) {
		t.Fatalf("listed body %s holds no default api_version", listed)
	}
	if got := string(ev.JSONFor(other)); got != want {
		t.Errorf("made:\n got %s\nwant %s", got, want)
	}
	if got := string(ev.JSONFor(wire.APIVersion)); got != listed {
		t.Errorf("at the default version:\n got %s\nwant %s", got, listed)
	}
	stored := &Event{ID: ev.ID, Body: ev.JSON()}
	if got := string(stored.JSONFor(other)); got != want {
		t.Errorf("read from the file:\n got %s\nwant %s", got, want)
	}
	old := &Event{ID: ev.ID, Body: []byte(strings.Replace(listed, `"api_version":"`+wire.APIVersion+`",`, "", 1))}
	if got := string(old.JSONFor(other)); got != want {
		t.Errorf("stored before api_version:\n got %s\nwant %s", got, want)
	}
	oldRec := Marshal(EventRecord{ID: ev.ID.Format(wire.EventIDPrefix), Seq: 1, Type: ev.Type, Created: 1, Body: old.Body})
	if rec, err := EventFromRecord(oldRec); err != nil || string(rec.JSON()) != listed || rec.At != ev.At {
		t.Errorf("a record stored before api_version reads back as %s (at %d), %v; want %s", rec.JSON(), rec.At, err, listed)
	}
	rec, err := EventFromRecord(ev.RecordValue())
	if err != nil || rec.At != ev.At || string(rec.JSON()) != listed {
		t.Errorf("record read back: %+v, %v", rec, err)
	}
	// A record without at (written before it was kept) takes the body's.
	noAt := []byte(strings.Replace(string(ev.RecordValue()), `"at":1767225600,`, "", 1))
	if rec, err := EventFromRecord(noAt); err != nil || rec.At != ev.At {
		t.Errorf("record without at, from %s: %+v, %v", noAt, rec, err)
	}
}
