package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestAllCustomers_EveryWay creates more customers than the largest page
// holds and lists them every way: all once, newest first, filtered by
// e-mail address ignoring case, from a cursor, and stopping early.
func TestAllCustomers_EveryWay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	const total = wire.ListLimitMax + 20
	var created, ada []string // oldest first
	for i := range total {
		p := &client.CustomerParams{Name: new(fmt.Sprint("Customer ", i)), Email: new(fmt.Sprintf("c%d@example.com", i))}
		if i%10 == 0 {
			p.Email = new([]string{"ada@example.com", "Ada@Example.COM"}[i%20/10])
		}
		id := mustCustomer(t, e.c, p).ID
		created = append(created, id)
		if i%10 == 0 {
			ada = append(ada, id)
		}
	}
	newestFirst, adaNewestFirst := slices.Clone(created), slices.Clone(ada)
	slices.Reverse(newestFirst)
	slices.Reverse(adaNewestFirst)

	all := func(p *client.ListCustomersParams, stopAt int) ([]string, error) {
		var got []string
		for cu, err := range e.c.AllCustomers(ctx, p) {
			if err != nil {
				return got, err
			}
			got = append(got, cu.ID)
			if len(got) == stopAt {
				break
			}
		}
		return got, nil
	}
	for _, tc := range []struct {
		name   string
		p      *client.ListCustomersParams
		stopAt int
		want   []string
	}{
		{"nil params", nil, 0, newestFirst},
		{"default page size", &client.ListCustomersParams{}, 0, newestFirst},
		{"page size 1, stopped early", &client.ListCustomersParams{ListParams: client.ListParams{Limit: 1}}, 3, newestFirst[:3]},
		{"page size 7", &client.ListCustomersParams{ListParams: client.ListParams{Limit: 7}}, 0, newestFirst},
		{"page size 100", &client.ListCustomersParams{ListParams: client.ListParams{Limit: wire.ListLimitMax}}, 0, newestFirst},
		{"from a cursor", &client.ListCustomersParams{ListParams: client.ListParams{Limit: 30, StartingAfter: newestFirst[9]}}, 45, newestFirst[10:55]},
		{"ending_before is ignored", &client.ListCustomersParams{ListParams: client.ListParams{EndingBefore: newestFirst[50]}}, 0, newestFirst},
		{"email, any case", &client.ListCustomersParams{Email: "ADA@example.com", ListParams: client.ListParams{Limit: 5}}, 0, adaNewestFirst},
		{"email nobody has", &client.ListCustomersParams{Email: "nobody@example.com"}, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := all(tc.p, tc.stopAt)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %d ids, want %d\n got %v\nwant %v", len(got), len(tc.want), got, tc.want)
			}
		})
	}

	t.Run("one page", func(t *testing.T) {
		list, err := e.c.ListCustomers(ctx, &client.ListCustomersParams{ListParams: client.ListParams{Limit: 3, EndingBefore: newestFirst[4]}})
		if err != nil {
			t.Fatal(err)
		}
		if list.Object != "list" || list.URL != "/v1/customers" || !list.HasMore {
			t.Errorf("envelope %q %q has_more %v, want list /v1/customers true", list.Object, list.URL, list.HasMore)
		}
		var got []string
		for _, cu := range list.Data {
			got = append(got, cu.ID)
		}
		if !slices.Equal(got, newestFirst[1:4]) {
			t.Errorf("got %v, want %v", got, newestFirst[1:4])
		}
	})

	t.Run("bad filter", func(t *testing.T) {
		_, err := e.c.ListCustomers(ctx, &client.ListCustomersParams{Email: "ada"})
		if ae, ok := client.AsError(err); !ok || ae.HTTPStatus != http.StatusBadRequest || ae.Param != "email" {
			t.Errorf("email ada: %v, want a 400 naming email", err)
		}
		if errors.Is(err, client.ErrCustomerListUnsupported) {
			t.Errorf("a bad filter reads as an unsupported list: %v", err)
		}
	})
}

// TestAllCustomers_Answers drives ListCustomers against fixed answers: a
// service without the list, and answers the client must refuse.
func TestAllCustomers_Answers(t *testing.T) {
	t.Parallel()
	const customer = `{"id":"cus_AAAAAAAAAAAAAAAAAAAAAAAA","object":"customer","email":null,"name":null,"phone":null,` +
		`"default_source":null,"sources":{"object":"list","data":[]},"metadata":{},"created_at":"2030-01-01T00:00:00Z","livemode":%s}`
	for _, tc := range []struct {
		name        string
		status      int
		body        string
		unsupported bool
		wantErr     string // in the error's text; "" for success
	}{
		{"no customer list", 404, `{"error":{"type":"invalid_request_error","code":"unrecognized_url","message":"Unrecognized request URL (GET /v1/customers)."}}`,
			true, "cannot list customers"},
		{"another 404 is not that", 404, `{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such thing."}}`,
			false, "No such thing"},
		{"a proxy's 404 is not that", 404, `<html>not found</html>`, false, "404"},
		{"a null entry", 200, `{"object":"list","data":[null],"has_more":false,"url":"/v1/customers"}`, false, "entry 0 of the list is null"},
		{"a live customer for a sandbox key", 200, `{"object":"list","data":[` + fmt.Sprintf(customer, "true") + `],"has_more":false,"url":"/v1/customers"}`,
			false, "live-mode object"},
		{"a good page", 200, `{"object":"list","data":[` + fmt.Sprintf(customer, "false") + `],"has_more":false,"url":"/v1/customers"}`, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodGet || r.URL.Path != "/v1/customers" {
					t.Errorf("request %s %s, want GET /v1/customers", r.Method, r.URL.Path)
				}
				if strings.HasPrefix(tc.body, "{") {
					w.Header().Set("Content-Type", "application/json")
				}
				w.WriteHeader(tc.status)
				fmt.Fprint(w, tc.body)
			}))
			t.Cleanup(srv.Close)
			c := newClient(t, srv.URL, "sk_sandbox_"+strings.Repeat("k", 24), noRetries)
			var err error
			for _, err = range c.AllCustomers(context.Background(), nil) {
				if err != nil {
					break
				}
			}
			if errors.Is(err, client.ErrCustomerListUnsupported) != tc.unsupported {
				t.Errorf("errors.Is(%v, ErrCustomerListUnsupported) = %v, want %v", err, !tc.unsupported, tc.unsupported)
			}
			if tc.unsupported {
				if ae, ok := client.AsError(err); !ok || ae.Code != "unrecognized_url" {
					t.Errorf("the service's answer is not reachable with errors.As: %v", err)
				}
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}
