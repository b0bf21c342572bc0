package sandbox_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestCustomers_Lifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cu := e.customer(vals("email", "jo@example.com", "name", "Jo Doe", "phone", "+14155550123",
		"metadata[plan]", "gold", "metadata[tier]", "1", "source", sandbox.TokenVisa))
	if !reCustomerID.MatchString(cu.ID) || cu.Object != "customer" || cu.Livemode || !reTimestamp.MatchString(cu.CreatedAt) {
		t.Fatalf("customer = %+v", cu)
	}
	if cu.Email != "jo@example.com" || cu.Name != "Jo Doe" || cu.Phone != "+14155550123" {
		t.Errorf("scalars = %q %q %q", cu.Email, cu.Name, cu.Phone)
	}
	if len(cu.Metadata) != 2 || cu.Metadata["plan"] != "gold" {
		t.Errorf("metadata = %v", cu.Metadata)
	}
	if cu.Sources.Object != "list" || cu.Sources.HasMore || cu.Sources.URL != "/v1/customers/"+cu.ID+"/sources" || len(cu.Sources.Data) != 1 || cu.DefaultSource != cu.Sources.Data[0].ID ||
		!reSourceID.MatchString(cu.DefaultSource) || cu.Sources.Data[0].Brand != "visa" || cu.Sources.Data[0].Last4 != "4242" {
		t.Errorf("sources = %+v default %q", cu.Sources, cu.DefaultSource)
	}

	var got wire.Customer
	e.get("/v1/customers/"+cu.ID, nil).ok(&got)
	if fmt.Sprint(got) != fmt.Sprint(*cu) {
		t.Errorf("retrieve = %+v\nwant %+v", got, *cu)
	}

	// Empty clears an optional scalar; metadata[k]= deletes k; others stay.
	var up wire.Customer
	e.post("/v1/customers/"+cu.ID, vals("name", "", "phone", "+442071838750", "metadata[tier]", "", "metadata[new]", "x")).ok(&up)
	if up.Name != "" || up.Email != "jo@example.com" || up.Phone != "+442071838750" {
		t.Errorf("after update: %q %q %q", up.Name, up.Email, up.Phone)
	}
	if len(up.Metadata) != 2 || up.Metadata["plan"] != "gold" || up.Metadata["new"] != "x" {
		t.Errorf("metadata after update = %v", up.Metadata)
	}
	if up.ID != cu.ID || up.CreatedAt != cu.CreatedAt || up.DefaultSource != cu.DefaultSource {
		t.Errorf("update changed identity: %+v", up)
	}
	// A cleared field is null on the wire, not "".
	raw := string(e.get("/v1/customers/"+cu.ID, nil).ok(nil).body)
	if !strings.Contains(raw, `"name":null`) {
		t.Errorf("cleared name is not null: %s", raw)
	}
	// metadata= removes every key.
	var cleared wire.Customer
	e.post("/v1/customers/"+cu.ID, vals("metadata", "")).ok(&cleared)
	if len(cleared.Metadata) != 0 {
		t.Errorf("metadata after metadata= : %v", cleared.Metadata)
	}
	// An update without fields changes nothing.
	var same wire.Customer
	e.post("/v1/customers/"+cu.ID, nil).ok(&same)
	if fmt.Sprint(same) != fmt.Sprint(cleared) {
		t.Errorf("empty update changed %+v to %+v", cleared, same)
	}

	var d wire.Deleted
	e.del("/v1/customers/" + cu.ID).ok(&d)
	if d != (wire.Deleted{ID: cu.ID, Object: "customer", Deleted: true}) {
		t.Errorf("delete = %+v", d)
	}
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodDelete} {
		e.do(m, "/v1/customers/"+cu.ID, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	}
	e.get("/v1/customers/cus_malformed", nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
}

func TestCustomers_Validation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	existing := e.customer(nil)
	many := url.Values{}
	for i := range wire.MetadataMaxKeys + 1 {
		many.Set(fmt.Sprintf("metadata[k%02d]", i), "v")
	}
	for _, tc := range []struct {
		name        string
		body        string
		code, param string
	}{
		{"unknown parameter", "emial=jo@example.com", wire.ErrorCodeParameterUnknown, "emial"},
		{"unknown bracket base", "meta[x]=1", wire.ErrorCodeParameterUnknown, "meta[x]"},
		{"default_source on create", "default_source=src_x", wire.ErrorCodeParameterUnknown, "default_source"},
		{"email without @", "email=jo.example.com", wire.ErrorCodeParameterInvalid, "email"},
		{"email with two @", "email=a@b@c", wire.ErrorCodeParameterInvalid, "email"},
		{"email with space", "email=a+b@c", wire.ErrorCodeParameterInvalid, "email"},
		{"email too long", "email=" + strings.Repeat("a", wire.EmailMaxLength) + "@x", wire.ErrorCodeParameterInvalid, "email"},
		{"phone without +", "phone=14155550123", wire.ErrorCodeParameterInvalid, "phone"},
		{"phone + decoded as space", "phone=+14155550123", wire.ErrorCodeParameterInvalid, "phone"},
		{"phone too short", "phone=%2B1234567", wire.ErrorCodeParameterInvalid, "phone"},
		{"phone too long", "phone=%2B1234567890123456", wire.ErrorCodeParameterInvalid, "phone"},
		{"phone letters", "phone=%2B1415555012a", wire.ErrorCodeParameterInvalid, "phone"},
		{"name too long", "name=" + strings.Repeat("é", wire.NameMaxLength+1), wire.ErrorCodeParameterInvalid, "name"},
		{"metadata key too long", "metadata[" + strings.Repeat("k", wire.MetadataKeyMaxLength+1) + "]=v", wire.ErrorCodeParameterInvalid, "metadata[" + strings.Repeat("k", wire.MetadataKeyMaxLength+1) + "]"},
		{"metadata value too long", "metadata[foo]=" + strings.Repeat("v", wire.MetadataValueMaxLength+1), wire.ErrorCodeParameterInvalid, "metadata[foo]"},
		{"too many metadata keys", many.Encode(), wire.ErrorCodeParameterInvalid, "metadata"},
		{"metadata with a value", "metadata=x", wire.ErrorCodeParameterInvalid, "metadata"},
		{"nested brackets", "metadata[a][b]=1", wire.ErrorCodeParameterInvalid, "metadata[a][b]"},
		{"unclosed bracket", "metadata[a=1", wire.ErrorCodeParameterInvalid, "metadata[a"},
		{"empty key", "metadata[]=1", wire.ErrorCodeParameterInvalid, "metadata[]"},
		{"duplicate field", "name=a&name=b", wire.ErrorCodeParameterInvalid, "name"},
		{"bad percent-encoding", "name=%zz", wire.ErrorCodeParameterInvalid, "name"},
		{"invalid UTF-8", "name=%ff", wire.ErrorCodeParameterInvalid, "name"},
		{"unknown token", "source=tok_nope", wire.ErrorCodeTokenInvalid, "source"},
		{"source id instead of token", "source=" + existing.ID, wire.ErrorCodeTokenInvalid, "source"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &env{t: t, url: e.url, key: e.key, hc: e.hc}
			e.doRaw(http.MethodPost, "/v1/customers", tc.body).fails(400, wire.ErrorTypeInvalidRequest, tc.code, tc.param)
			if !strings.Contains(tc.body, "source=") {
				// Update validates its fields exactly as create does.
				e.doRaw(http.MethodPost, "/v1/customers/"+existing.ID, tc.body).fails(400, wire.ErrorTypeInvalidRequest, tc.code, tc.param)
			}
		})
	}
	// At the limits exactly: accepted.
	atLimit := url.Values{}
	for i := range wire.MetadataMaxKeys {
		atLimit.Set(fmt.Sprintf("metadata[%s%02d]", strings.Repeat("k", wire.MetadataKeyMaxLength-2), i), strings.Repeat("v", wire.MetadataValueMaxLength))
	}
	atLimit.Set("name", strings.Repeat("n", wire.NameMaxLength))
	atLimit.Set("email", strings.Repeat("a", wire.EmailMaxLength-2)+"@x")
	atLimit.Set("phone", "+123456789012345")
	c := e.customer(atLimit)
	if len(c.Metadata) != wire.MetadataMaxKeys {
		t.Errorf("metadata keys = %d", len(c.Metadata))
	}
	// The limit applies to the merged result of an update.
	e.post("/v1/customers/"+c.ID, vals("metadata[one_more]", "v")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "metadata")
	e.post("/v1/customers/"+c.ID, vals("metadata[one_more]", "v", "metadata["+strings.Repeat("k", wire.MetadataKeyMaxLength-2)+"00]", "")).ok(nil)
	// A rejected update changes nothing.
	e.post("/v1/customers/"+c.ID, vals("name", "new", "email", "bad")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "email")
	var got wire.Customer
	e.get("/v1/customers/"+c.ID, nil).ok(&got)
	if got.Name != atLimit.Get("name") {
		t.Errorf("a rejected update changed name to %q", got.Name)
	}
	// Unknown query parameters on a GET are rejected too.
	e.get("/v1/customers/"+c.ID, vals("expand", "sources")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, "expand")
}

func TestCustomers_DefaultSourceRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cu := e.customer(nil)
	if cu.DefaultSource != "" || len(cu.Sources.Data) != 0 {
		t.Fatalf("new customer has sources: %+v", cu)
	}
	if !strings.Contains(string(e.get("/v1/customers/"+cu.ID, nil).body), `"default_source":null`) {
		t.Error("default_source is not null without sources")
	}
	add := func(tok string) wire.Source {
		var s wire.Source
		e.post("/v1/customers/"+cu.ID+"/sources", vals("source", tok)).ok(&s)
		return s
	}
	defaultOf := func() (string, []string) {
		var c wire.Customer
		e.get("/v1/customers/"+cu.ID, nil).ok(&c)
		var ids []string
		for _, s := range c.Sources.Data {
			ids = append(ids, s.ID)
		}
		// GET of the sources' url pages the same sources, whole.
		var l wire.List[wire.Source]
		e.get("/v1/customers/"+cu.ID+"/sources", nil).ok(&l)
		var listed []string
		for _, s := range l.Data {
			if s.Object != "source" || s.Customer != cu.ID {
				t.Errorf("listed source %+v", s)
			}
			listed = append(listed, s.ID)
		}
		if !slices.Equal(listed, ids) || l.URL != "/v1/customers/"+cu.ID+"/sources" || l.HasMore {
			t.Errorf("GET sources lists %v (url %s, has_more %v); the customer shows %v", listed, l.URL, l.HasMore, ids)
		}
		return c.DefaultSource, ids
	}
	s1 := add(sandbox.TokenVisa)
	if !reSourceID.MatchString(s1.ID) || s1.Object != "source" || s1.Customer != cu.ID || s1.Brand != "visa" ||
		s1.Last4 != "4242" || s1.ExpMonth != 12 || s1.Livemode {
		t.Errorf("source = %+v", s1)
	}
	s2 := add(sandbox.TokenMastercard)
	s3 := add(sandbox.TokenAmex)
	if s2.Brand != "mastercard" || s2.Last4 != "4444" || s3.Brand != "amex" || s3.Last4 != "8431" {
		t.Errorf("brands: %+v %+v", s2, s3)
	}
	if d, ids := defaultOf(); d != s1.ID || !slices.Equal(ids, []string{s1.ID, s2.ID, s3.ID}) {
		t.Errorf("the first source attached is not the default: %s of %v", d, ids)
	}
	var got wire.Source
	e.get("/v1/customers/"+cu.ID+"/sources/"+s2.ID, nil).ok(&got)
	if got != s2 {
		t.Errorf("retrieve source = %+v, want %+v", got, s2)
	}

	// default_source: empty is refused, an unattached id is missing.
	e.post("/v1/customers/"+cu.ID, vals("default_source", "")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "default_source")
	e.post("/v1/customers/"+cu.ID, vals("default_source", "src_AAAAAAAAAAAAAAAAAAAAAAAA")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "default_source")
	other := e.customer(vals("source", sandbox.TokenVisa))
	e.post("/v1/customers/"+cu.ID, vals("default_source", other.DefaultSource)).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "default_source")
	e.post("/v1/customers/"+cu.ID, vals("default_source", sandbox.TokenVisa)).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "default_source")
	var c wire.Customer
	e.post("/v1/customers/"+cu.ID, vals("default_source", s2.ID)).ok(&c)
	if c.DefaultSource != s2.ID {
		t.Errorf("default_source = %s, want %s", c.DefaultSource, s2.ID)
	}

	// Removing a non-default source keeps the default.
	var d wire.Deleted
	e.del("/v1/customers/" + cu.ID + "/sources/" + s1.ID).ok(&d)
	if d != (wire.Deleted{ID: s1.ID, Object: "source", Deleted: true}) {
		t.Errorf("remove = %+v", d)
	}
	if def, _ := defaultOf(); def != s2.ID {
		t.Errorf("default = %s after removing another source", def)
	}
	// Removing the default makes the most recently added remaining one default.
	s4 := add(sandbox.TokenVisa)
	e.del("/v1/customers/" + cu.ID + "/sources/" + s2.ID).ok(nil)
	if def, ids := defaultOf(); def != s4.ID || !slices.Equal(ids, []string{s3.ID, s4.ID}) {
		t.Errorf("default = %s of %v, want the latest %s", def, ids, s4.ID)
	}
	e.del("/v1/customers/" + cu.ID + "/sources/" + s4.ID).ok(nil)
	if def, _ := defaultOf(); def != s3.ID {
		t.Errorf("default = %s, want %s", def, s3.ID)
	}
	e.del("/v1/customers/" + cu.ID + "/sources/" + s3.ID).ok(nil)
	if def, ids := defaultOf(); def != "" || len(ids) != 0 {
		t.Errorf("default = %q of %v after removing every source", def, ids)
	}
	// A removed source and another customer's source are not there.
	e.get("/v1/customers/"+cu.ID+"/sources/"+s3.ID, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	e.del("/v1/customers/"+cu.ID+"/sources/"+s3.ID).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	e.get("/v1/customers/"+cu.ID+"/sources/"+other.DefaultSource, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	// Adding needs a valid token.
	e.post("/v1/customers/"+cu.ID+"/sources", nil).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterMissing, "source")
	e.post("/v1/customers/"+cu.ID+"/sources", vals("source", "tok_bogus")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeTokenInvalid, "source")
	e.post("/v1/customers/"+cu.ID+"/sources", vals("source", sandbox.TokenVisa, "default", "true")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, "default")
	e.post("/v1/customers/cus_AAAAAAAAAAAAAAAAAAAAAAAA/sources", vals("source", sandbox.TokenVisa)).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	// Listing needs a customer of the account, and takes no object filter.
	e.get("/v1/customers/cus_AAAAAAAAAAAAAAAAAAAAAAAA/sources", nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	e.other().get("/v1/customers/"+cu.ID+"/sources", nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	e.get("/v1/customers/"+cu.ID+"/sources", vals("object", "card")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, "object")
}

func TestCustomers_CascadeDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cu := e.customer(vals("source", sandbox.TokenVisa))
	var s2 wire.Source
	e.post("/v1/customers/"+cu.ID+"/sources", vals("source", sandbox.TokenAmex)).ok(&s2)
	p := e.payment(pay("700", "GBP", "", "customer", cu.ID))
	if st := e.stats(); st.Customers != 1 || st.Sources != 2 || st.Payments != 1 {
		t.Fatalf("stats before = %+v", st)
	}
	e.del("/v1/customers/" + cu.ID).ok(nil)
	for _, src := range []string{cu.DefaultSource, s2.ID} {
		e.get("/v1/customers/"+cu.ID+"/sources/"+src, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	}
	if st := e.stats(); st.Customers != 0 || st.Sources != 0 || st.Payments != 1 {
		t.Errorf("stats after = %+v", st)
	}
	// The payment stays, and keeps the customer's id.
	var got wire.Payment
	e.get("/v1/payments/"+p.ID, nil).ok(&got)
	if got.Customer != cu.ID || got.Source.ID != cu.DefaultSource {
		t.Errorf("payment after delete: customer %q source %+v", got.Customer, got.Source)
	}
	// Its source can no longer be charged, and the customer no longer named.
	e.post("/v1/payments", pay("100", "USD", cu.DefaultSource, "customer", cu.ID)).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "customer")
}
