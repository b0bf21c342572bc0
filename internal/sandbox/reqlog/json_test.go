package reqlog

import (
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestLine_AppendJSON(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.FixedZone("x", 3600))
	for _, tc := range []struct {
		name string
		l    Line
		want string
	}{
		{"plain", Line{ID: "req_1", At: at, Method: "GET", Path: "/v1/customers", Status: 200, Duration: 1500 * time.Microsecond},
			`{"id":"req_1","object":"request","at":"2026-01-02T02:04:05.006Z","method":"GET","path":"/v1/customers","status":200,"duration_ms":1.5,"idempotency_key":null,"replayed":false,"error_code":null}`},
		{"replayed refusal", Line{ID: "req_2", At: at, Method: "POST", Path: "/v1/payments", Status: 400, IdemKey: "k\"1", Replayed: true, Code: "parameter_invalid"},
			`{"id":"req_2","object":"request","at":"2026-01-02T02:04:05.006Z","method":"POST","path":"/v1/payments","status":400,"duration_ms":0,"idempotency_key":"k\"1","replayed":true,"error_code":"parameter_invalid"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(tc.l.AppendJSON(nil)); got != tc.want {
				t.Errorf("AppendJSON =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestStatusClass_Filter(t *testing.T) {
	for _, tc := range []struct {
		class   string
		keep    []int
		drop    []int
		refused bool
	}{
		{"", []int{100, 200, 404, 599}, nil, false},
		{"2xx", []int{200, 299}, []int{199, 300, 404}, false},
		{"5xx", []int{500, 503}, []int{499, 600}, false},
		{"1xx", []int{101}, []int{200}, false},
		{"6xx", nil, nil, true},
		{"2XX", nil, nil, true},
		{"200", nil, nil, true},
		{"2xxx", nil, nil, true},
	} {
		t.Run(tc.class, func(t *testing.T) {
			keep, e := StatusClass(tc.class)
			if tc.refused {
				if e == nil || e.Param != wire.ParamStatusClass {
					t.Fatalf("got %v, want a refusal naming %s", e, wire.ParamStatusClass)
				}
				return
			}
			if e != nil {
				t.Fatal(e)
			}
			for _, s := range tc.keep {
				if !keep(&Line{Status: s}) {
					t.Errorf("%s drops %d", tc.class, s)
				}
			}
			for _, s := range tc.drop {
				if keep(&Line{Status: s}) {
					t.Errorf("%s keeps %d", tc.class, s)
				}
			}
		})
	}
}
