package sandbox_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/api/apitest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
)

// checked returns hc with every exchange checked against api/openapi.yaml:
// env.doRaw sends every request of these tests through it, so a request
// the document refuses must be refused, and an answer that leaves the
// document fails the test, naming the operation, the status and the fault.
func checked(tb testing.TB, hc *http.Client) *http.Client {
	c := *hc
	c.Transport = apitest.Transport(tb, hc.Transport)
	return &c
}

// exchange is one request to the sandbox and its answer, unchecked, for
// the tests below to alter.
type exchange struct {
	req     *http.Request
	reqBody string
	status  int
	header  http.Header
	body    string
}

func record(t *testing.T, sb *sandboxtest.Sandbox, key, method, path, body string) exchange {
	t.Helper()
	var rd io.Reader
	if method == http.MethodPost {
		rd = strings.NewReader(body)
	}
	r, err := http.NewRequest(method, sb.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if method == http.MethodPost {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	r.SetBasicAuth(key, "")
	resp, err := sb.HTTP.Client().Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return exchange{req: r, reqBody: body, status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// TestOpenAPI_CheckBites shows that the check every test's exchanges go
// through fails on answers and requests that leave api/openapi.yaml: real
// exchanges with the sandbox pass, and each one altered as a broken
// sandbox would alter it fails with a message naming the fault.
func TestOpenAPI_CheckBites(t *testing.T) {
	t.Parallel()
	c, err := apitest.New()
	if err != nil {
		t.Fatal(err)
	}
	sb := sandboxtest.Start(t)
	key := sandboxtest.NewKey(t)
	customer := record(t, sb, key, http.MethodPost, "/v1/customers", "email=jo%40example.com&metadata[plan]=gold")
	payment := record(t, sb, key, http.MethodPost, "/v1/payments", "amount=1000&currency=USD&source=tok_visa")
	declined := record(t, sb, key, http.MethodPost, "/v1/payments", "amount=1000&currency=USD&source=tok_declined")
	unknown := record(t, sb, key, http.MethodGet, "/v1/widgets", "")
	stats := record(t, sb, key, http.MethodGet, "/_sandbox/stats", "")
	if customer.status != 200 || payment.status != 200 || declined.status != 402 || stats.status != 200 {
		t.Fatalf("setup: statuses %d %d %d %d", customer.status, payment.status, declined.status, stats.status)
	}

	replace := func(x exchange, old, new string) exchange {
		t.Helper()
		if !strings.Contains(x.body, old) {
			t.Fatalf("answer %s has no %q", x.body, old)
		}
		x.body = strings.Replace(x.body, old, new, 1)
		return x
	}
	withRequest := func(x exchange, method, path, body string) exchange {
		r := x.req.Clone(x.req.Context())
		r.Method = method
		r.URL = &url.URL{Scheme: "http", Host: r.URL.Host, Path: path}
		x.req, x.reqBody = r, body
		return x
	}
	withStatus := func(x exchange, status int) exchange { x.status = status; return x }
	withoutHeader := func(x exchange, name string) exchange {
		x.header = x.header.Clone()
		x.header.Del(name)
		return x
	}
	withoutAuth := func(x exchange) exchange {
		x.req = x.req.Clone(x.req.Context())
		x.req.Header.Del("Authorization")
		return x
	}
	rateLimited := withStatus(replace(replace(declined,
		`"type":"card_error","code":"card_declined"`, `"type":"rate_limit_error","code":"rate_limited"`),
		`,"payment":"`, `,"param":"`), http.StatusTooManyRequests)

	for _, tc := range []struct {
		name string
		x    exchange
		want string // "" when the exchange is good
	}{
		{"customer created", customer, ""},
		{"payment created", payment, ""},
		{"card declined", declined, ""},
		{"stats", stats, ""},
		{"429 with Retry-After", func() exchange {
			x := rateLimited
			x.header = x.header.Clone()
			x.header.Set("Retry-After", "1")
			return x
		}(), ""},

		{"renamed field", replace(customer, `"livemode":`, `"live_mode":`), "additional properties 'live_mode' not allowed"},
		{"missing field", replace(customer, `"metadata":{"plan":"gold"},`, ``), "missing property 'metadata'"},
		{"wrong object", replace(customer, `"object":"customer"`, `"object":"Customer"`), "/object"},
		{"empty string, not null", replace(customer, `"phone":null`, `"phone":""`), "/phone"},
		{"bad id", replace(payment, `"id":"pay_`, `"id":"py_`), "/id"},
		{"bad timestamp", replace(payment, `Z","livemode"`, `+00:00","livemode"`), "/created_at"},
		{"unknown status", replace(payment, `"status":"approved"`, `"status":"succeeded"`), "/status"},
		{"lower-case currency", replace(payment, `"currency":"USD"`, `"currency":"usd"`), "/currency"},
		{"stats without faults", replace(stats, `"faults":{`, `"fault":{`), "additional properties 'fault'"},
		{"decline without payment", replace(declined, `,"payment":"`, `,"param":"`), "missing property 'payment'"},
		{"error type for another status", withStatus(declined, http.StatusBadRequest), "/error/type"},
		{"undocumented status", withStatus(payment, http.StatusCreated), "status is not supported"},
		{"no Request-Id", withoutHeader(customer, "Request-Id"), "Request-Id"},
		{"429 without Retry-After", rateLimited, "Retry-After"},

		{"refused request answered 200: bad amount",
			withRequest(payment, http.MethodPost, "/v1/payments", "amount=ten&currency=USD&source=tok_visa"), "refuses"},
		{"refused request answered 200: missing currency",
			withRequest(payment, http.MethodPost, "/v1/payments", "amount=1000&source=tok_visa"), "refuses"},
		{"refused request answered 200: metadata key over 40 characters",
			withRequest(customer, http.MethodPost, "/v1/customers", "metadata["+strings.Repeat("k", 41)+"]=v"), "refuses"},
		{"refused request answered 200: bad phone",
			withRequest(customer, http.MethodPost, "/v1/customers", "phone=0123"), "refuses"},
		{"refused request answered 200: limit over 100", func() exchange {
			x := withRequest(stats, http.MethodGet, "/v1/payments", "")
			x.req.URL.RawQuery = "limit=101"
			x.body = `{"object":"list","data":[],"has_more":false,"url":"/v1/payments"}`
			return x
		}(), "refuses"},
		{"refused request answered 200: no key", withoutAuth(customer), "refuses"},
		{"path of no operation answered 200", withRequest(customer, http.MethodPut, "/v1/customers", ""), "in no path"},
		{"unknown path answered resource_missing", replace(unknown, `"code":"`+codeOf(t, unknown.body)+`"`, `"code":"resource_missing"`), "unrecognized_url"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := tc.x
			err := c.Check(x.req, []byte(x.reqBody), x.status, x.header, []byte(x.body))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("a good exchange failed the check: %v", err)
			case tc.want != "" && err == nil:
				t.Errorf("the check let it pass; want an error containing %q\nbody: %s", tc.want, x.body)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

// codeOf is the error code of an error answer.
func codeOf(t *testing.T, body string) string {
	t.Helper()
	_, rest, ok := strings.Cut(body, `"code":"`)
	code, _, ok2 := strings.Cut(rest, `"`)
	if !ok || !ok2 {
		t.Fatalf("no error code in %s", body)
	}
	return code
}

// TestOpenAPI_Coverage calls every /v1 operation of the document once and
// reads the sandbox's per-route counters to see which it serves; the
// sandbox's routes outside the document fail every test that calls them
// (the check answers "in no path"). Operations not served yet are logged:
// the document is the contract, and the sandbox grows into it.
func TestOpenAPI_Coverage(t *testing.T) {
	t.Parallel()
	doc, err := apitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	sb := sandboxtest.Start(t)
	key := sandboxtest.NewKey(t)
	ids := strings.NewReplacer("{id}", "id_"+strings.Repeat("x", 24), "{src}", "src_"+strings.Repeat("x", 24))
	var served, missing []string
	for path, item := range doc.Paths.Map() {
		if !strings.HasPrefix(path, "/v1/") {
			continue
		}
		for method := range item.Operations() {
			record(t, sb, key, method, ids.Replace(path), "")
			served = append(served, method+" "+strings.NewReplacer("{", ":", "}", "").Replace(path))
		}
	}
	var stats struct {
		Requests struct {
			ByRoute map[string]int `json:"by_route"`
		} `json:"requests"`
	}
	x := record(t, sb, key, http.MethodGet, "/_sandbox/stats", "")
	if err := json.Unmarshal([]byte(x.body), &stats); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, route := range served {
		if stats.Requests.ByRoute[route] == 0 {
			missing = append(missing, route)
			continue
		}
		n++
	}
	slices.Sort(missing)
	t.Logf("the sandbox serves %d of the document's %d /v1 operations; not yet: %s", n, len(served), strings.Join(missing, ", "))
	if n < 12 {
		t.Errorf("the sandbox serves %d /v1 operations of the document; it served 12 when this test was written", n)
	}
}
