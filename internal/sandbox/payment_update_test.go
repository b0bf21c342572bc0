package sandbox_test

import (
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestUpdatePayment_DescriptionAndMetadata covers POST /v1/payments/{id}:
// description and metadata change with the customers' rules, nothing else
// of the payment moves, and every other parameter is refused before the
// path is read.
func TestUpdatePayment_DescriptionAndMetadata(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		name     string
		create   []string // extra create fields
		update   url.Values
		wantDesc string
		wantMeta map[string]string
	}{
		{"set description", nil, vals("description", "order 8"), "order 8", nil},
		{"clear description", []string{"description", "old"}, vals("description", ""), "", nil},
		{"keep description when absent", []string{"description", "old"}, vals("metadata[a]", "1"), "old", map[string]string{"a": "1"}},
		{"add a key", []string{"metadata[a]", "1"}, vals("metadata[b]", "2"), "", map[string]string{"a": "1", "b": "2"}},
		{"change a key", []string{"metadata[a]", "1"}, vals("metadata[a]", "9"), "", map[string]string{"a": "9"}},
		{"delete a key", []string{"metadata[a]", "1", "metadata[b]", "2"}, vals("metadata[a]", ""), "", map[string]string{"b": "2"}},
		{"clear every key", []string{"metadata[a]", "1", "metadata[b]", "2"}, vals("metadata", ""), "", nil},
		{"clear and set", []string{"metadata[a]", "1"}, vals("metadata", "", "metadata[c]", "3"), "", map[string]string{"c": "3"}},
		{"nothing", []string{"description", "d", "metadata[a]", "1"}, nil, "d", map[string]string{"a": "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := e.sub(t)
			p := e.payment(pay("700", "EUR", sandbox.TokenVisa, tc.create...))
			var got client.Payment
			e.post("/v1/payments/"+p.ID, tc.update).ok(&got)
			if got.Description != tc.wantDesc || !sameMap(got.Metadata, tc.wantMeta) {
				t.Errorf("after update: description %q metadata %v; want %q %v", got.Description, got.Metadata, tc.wantDesc, tc.wantMeta)
			}
			// Everything else is as it was.
			if got.ID != p.ID || got.Amount != p.Amount || got.Currency != p.Currency || got.Status != p.Status ||
				got.AuthorizationCode != p.AuthorizationCode || got.Source.ID != p.Source.ID || got.CreatedAt != p.CreatedAt {
				t.Errorf("update changed more than description and metadata: %+v, was %+v", got, p)
			}
			var again client.Payment
			e.get("/v1/payments/"+p.ID, nil).ok(&again)
			if again.Description != tc.wantDesc || !sameMap(again.Metadata, tc.wantMeta) {
				t.Errorf("retrieve after update: %q %v", again.Description, again.Metadata)
			}
		})
	}

	// Every status can be updated: the description of a payment is the
	// integrator's note, whatever happened to the charge.
	for _, status := range wire.PaymentStatuses {
		p := e.state(status)
		var got client.Payment
		e.post("/v1/payments/"+p.ID, vals("description", "note "+status)).ok(&got)
		if got.Description != "note "+status || got.Status != status {
			t.Errorf("%s payment after update: %q %s", status, got.Description, got.Status)
		}
	}
	if s := e.stats(); s.Requests.ByRoute["POST /v1/payments/:id"] == 0 {
		t.Errorf("stats do not count the update route: %v", s.Requests.ByRoute)
	}
}

func TestUpdatePayment_Refusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.payment(pay("700", "EUR", sandbox.TokenVisa, "description", "keep", "metadata[k]", "v"))
	many := url.Values{}
	for i := range wire.MetadataMaxKeys {
		many.Set(fmt.Sprintf("metadata[n%02d]", i), "v")
	}
	long := strings.Repeat("k", wire.MetadataKeyMaxLength+1)
	for _, tc := range []struct {
		name, path, body string
		status           int
		typ, code, param string
	}{
		{"amount", p.ID, "amount=5", 400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, "amount"},
		{"currency", p.ID, "currency=USD", 400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, "currency"},
		{"source", p.ID, "source=tok_visa", 400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, "source"},
		{"customer", p.ID, "customer=cus_x", 400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, "customer"},
		{"capture", p.ID, "capture=true", 400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, "capture"},
		{"status", p.ID, "status=refunded", 400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, "status"},
		{"unknown before missing payment", "pay_AAAAAAAAAAAAAAAAAAAAAAAA", "amount=5", 400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, "amount"},
		{"missing payment", "pay_AAAAAAAAAAAAAAAAAAAAAAAA", "description=x", 404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, ""},
		{"metadata key too long", p.ID, "metadata[" + long + "]=v", 400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "metadata[" + long + "]"},
		{"metadata value too long", p.ID, "metadata[k]=" + strings.Repeat("v", wire.MetadataValueMaxLength+1), 400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "metadata[k]"},
		{"too many keys after merge", p.ID, many.Encode(), 400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "metadata"},
		{"metadata with a value", p.ID, "metadata=x", 400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "metadata"},
		{"description twice", p.ID, "description=a&description=b", 400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "description"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := e.sub(t)
			body := tc.body
			if !strings.Contains(body, "description=") {
				// A valid change beside the bad one, which must not happen either.
				body += "&description=changed"
			}
			e.doRaw(http.MethodPost, "/v1/payments/"+tc.path, body).fails(tc.status, tc.typ, tc.code, tc.param)
		})
	}
	// A refused update changed nothing.
	var got client.Payment
	e.get("/v1/payments/"+p.ID, nil).ok(&got)
	if got.Description != "keep" || !sameMap(got.Metadata, map[string]string{"k": "v"}) {
		t.Errorf("a refused update changed the payment: %q %v", got.Description, got.Metadata)
	}
	// Another account's payment does not exist for this one.
	o := e.other()
	o.post("/v1/payments/"+p.ID, vals("description", "x")).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
}

// sub is e for a subtest.
func (e *env) sub(t *testing.T) *env { return &env{t: t, url: e.url, key: e.key, hc: e.hc} }

func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestUpdatePayment_Persists: an answered update is on disk; a restart on
// the same data file shows it.
func TestUpdatePayment_Persists(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	key := sandboxtest.NewKey(t)
	e, stop := openEnv(t, path, key)
	p := e.payment(pay("700", "EUR", sandbox.TokenVisa, "description", "old", "metadata[a]", "1", "metadata[b]", "2"))
	var want client.Payment
	e.post("/v1/payments/"+p.ID, vals("description", "new", "metadata[a]", "", "metadata[c]", "3")).ok(&want)
	stop()

	e, stop = openEnv(t, path, key)
	defer stop()
	var got client.Payment
	e.get("/v1/payments/"+p.ID, nil).ok(&got)
	if got.Description != "new" || !sameMap(got.Metadata, map[string]string{"b": "2", "c": "3"}) || !sameMap(got.Metadata, want.Metadata) {
		t.Errorf("after restart: %q %v, want %q %v", got.Description, got.Metadata, want.Description, want.Metadata)
	}
}
