package apitest_test

import (
	"bytes"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/paymentsdev/terraform-provider-payments/api"
	"github.com/paymentsdev/terraform-provider-payments/api/apitest"
)

// TestLoad_Valid31 shows that api/openapi.yaml is a valid OpenAPI 3.1 document.
func TestLoad_Valid31(t *testing.T) {
	doc, err := apitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	if _, err := apitest.New(); err != nil {
		t.Fatal(err)
	}
}

// TestLoadData_Broken shows that Load's validation bites: each edit makes
// the document invalid.
func TestLoadData_Broken(t *testing.T) {
	for name, edit := range map[string][2]string{
		"dangling reference": {`$ref: "#/components/schemas/Customer"}`, `$ref: "#/components/schemas/Customr"}`},
		"bad type":           {"type: [string, \"null\"]", "type: [strung, \"null\"]"},
		"3.0 document":       {"openapi: 3.1.0", "openapi: 3.0.3"},
		"path without slash": {"  /v1/customers:\n", "  v1/customers:\n"},
	} {
		t.Run(name, func(t *testing.T) {
			if !bytes.Contains(api.OpenAPI, []byte(edit[0])) {
				t.Fatalf("the document no longer contains %q; update the test", edit[0])
			}
			broken := bytes.Replace(api.OpenAPI, []byte(edit[0]), []byte(edit[1]), 1)
			if _, err := apitest.LoadData(broken); err == nil {
				t.Errorf("LoadData accepted the document with %q replaced by %q", edit[0], edit[1])
			} else {
				t.Logf("refused as expected: %v", err)
			}
		})
	}
}

// TestDocument_Conventions pins what holds for every operation: the
// answers every request can get, the headers, the tags, the markers.
func TestDocument_Conventions(t *testing.T) {
	doc, err := apitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		v1 := strings.HasPrefix(path, "/v1/")
		sandbox := strings.HasPrefix(path, "/_sandbox/")
		operational := path == "/healthz" || path == "/metrics"
		if !v1 && !sandbox && !operational {
			t.Errorf("%s: every path begins with /v1/ or /_sandbox/, or is /healthz or /metrics", path)
		}
		for method, op := range item.Operations() {
			where := method + " " + path
			if op.OperationID == "" || ids[op.OperationID] {
				t.Errorf("%s: operationId %q missing or repeated", where, op.OperationID)
			}
			ids[op.OperationID] = true
			if operational {
				// For the operator, outside the API: no key, none of its answers.
				if op.Security == nil || len(*op.Security) != 0 || !slices.Contains(op.Tags, "operations") || op.Extensions["x-assumed"] != true {
					t.Errorf("%s: an operational endpoint has security: [], tag operations and x-assumed", where)
				}
				continue
			}
			if got := slices.Contains(op.Tags, "sandbox"); got != sandbox {
				t.Errorf("%s: tag sandbox is %v, want %v (the sandbox controls, and only they)", where, got, sandbox)
			}
			if sandbox && op.Extensions["x-assumed"] != true {
				t.Errorf("%s: a sandbox control is an [assumed] decision; mark it x-assumed", where)
			}
			want := []string{"200", "400", "401", "403", "500"}
			if v1 {
				want = append(want, "429", "503")
			}
			if method == http.MethodPost {
				want = append(want, "413")
				if v1 {
					want = append(want, "409")
				}
			}
			if strings.Contains(path, "{") {
				want = append(want, "404")
			}
			for _, code := range want {
				if op.Responses.Value(code) == nil {
					t.Errorf("%s: no %s answer", where, code)
				}
			}
			for code, resp := range op.Responses.Map() {
				h := resp.Value.Headers
				if h["Request-Id"] == nil || !h["Request-Id"].Value.Required {
					t.Errorf("%s %s: no required Request-Id header", where, code)
				}
				if code == "429" && (h["Retry-After"] == nil || !h["Retry-After"].Value.Required) {
					t.Errorf("%s 429: no required Retry-After header", where)
				}
				if resp.Value.Content.Get("application/json") == nil {
					t.Errorf("%s %s: no application/json body", where, code)
				}
			}
			idem := slices.ContainsFunc(op.Parameters, func(p *openapi3.ParameterRef) bool {
				return p.Value.In == "header" && p.Value.Name == "Idempotency-Key"
			})
			if wantIdem := v1 && method == http.MethodPost; idem != wantIdem {
				t.Errorf("%s: Idempotency-Key parameter %v, want %v (POSTs under /v1 only)", where, idem, wantIdem)
			}
			if rb := op.RequestBody; rb != nil {
				if rb.Value.Content.Get("application/x-www-form-urlencoded") == nil || len(rb.Value.Content) != 1 {
					t.Errorf("%s: a request body is application/x-www-form-urlencoded, and only that", where)
				}
			}
		}
	}
	// 9 customer and source operations (the list of its sources among
	// them), 6 payment, 1 token, 5 product, 4
	// price, 6 subscription (the list of its items among them), 5
	// invoice (the list of its lines among them), 5 test clock, 6
	// webhook endpoint, 2 event, 14 sandbox controls (the account's
	// summary among them) and 2 operational
	// endpoints: an operation added or lost must be a deliberate change
	// of this count too.
	if len(ids) != 64 {
		t.Errorf("%d operations; the document has had 64", len(ids))
	}
}

// TestDocument_Markers keeps the document to its two markers of a
// decision, described at its top: x-assumed ("[assumed]") and
// x-own-decision ("[own decision]"), each extension beside its tag.
func TestDocument_Markers(t *testing.T) {
	known := map[string]bool{"x-assumed": true, "x-own-decision": true}
	for _, m := range regexp.MustCompile(`(?m)(?:^\s*|[{,]\s*)(x-[A-Za-z0-9-]+):`).FindAllSubmatch(api.OpenAPI, -1) {
		if !known[string(m[1])] {
			t.Errorf("extension %s: the document marks decisions with x-assumed or x-own-decision only", m[1])
		}
	}
	for _, tag := range []string{"assumed", "own decision"} {
		text, ext := bytes.Count(api.OpenAPI, []byte("["+tag+"]")), bytes.Count(api.OpenAPI, []byte("x-"+strings.ReplaceAll(tag, " ", "-")+": true"))
		if text == 0 || ext == 0 {
			t.Errorf("[%s]: %d in descriptions, %d extensions; want both", tag, text, ext)
		}
	}
}
