package client_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestListPayments_Pagination creates 250 payments (more than two pages of
// the largest size) and walks them every way the contract allows: each
// exactly once, newest first by creation order.
func TestListPayments_Pagination(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	const total = 250
	created := make([]string, 0, total) // oldest first
	for i := range total {
		p := mustPayment(t, e.c, &client.PaymentParams{Amount: int64(i + 1), Currency: "USD", Source: sandbox.TokenVisa})
		created = append(created, p.ID)
	}
	newestFirst := slices.Clone(created)
	slices.Reverse(newestFirst)

	ids := func(ps []*client.Payment) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = p.ID
		}
		return out
	}

	t.Run("AllPayments", func(t *testing.T) {
		for _, limit := range []int{0, 1, 7, 100} {
			var got []string
			for p, err := range e.c.AllPayments(ctx, &client.ListPaymentsParams{ListParams: client.ListParams{Limit: limit}}) {
				if err != nil {
					t.Fatalf("limit %d: %v", limit, err)
				}
				got = append(got, p.ID)
			}
			if !slices.Equal(got, newestFirst) {
				t.Errorf("limit %d: AllPayments gave %d ids, want all %d once, newest first", limit, len(got), total)
			}
		}
	})

	t.Run("AllPayments from a cursor and stopping early", func(t *testing.T) {
		var got []string
		for p, err := range e.c.AllPayments(ctx, &client.ListPaymentsParams{ListParams: client.ListParams{Limit: 30, StartingAfter: newestFirst[9]}}) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, p.ID)
			if len(got) == 45 {
				break
			}
		}
		if !slices.Equal(got, newestFirst[10:55]) {
			t.Errorf("got %v, want newestFirst[10:55]", got)
		}
	})

	t.Run("starting_after pages", func(t *testing.T) {
		var got []string
		page := &client.ListPaymentsParams{ListParams: client.ListParams{Limit: wire.ListLimitMax}}
		for n := 0; ; n++ {
			list, err := e.c.ListPayments(ctx, page)
			if err != nil {
				t.Fatal(err)
			}
			if list.Object != "list" || list.URL != wire.PathPayments {
				t.Errorf("list object %q url %q, want list %s", list.Object, list.URL, wire.PathPayments)
			}
			got = append(got, ids(list.Data)...)
			wantMore := len(got) < total
			if list.HasMore != wantMore {
				t.Errorf("page %d: has_more %v, want %v", n, list.HasMore, wantMore)
			}
			if !list.HasMore {
				break
			}
			if n > 3 {
				t.Fatal("too many pages")
			}
			page.StartingAfter = list.Data[len(list.Data)-1].ID
		}
		if !slices.Equal(got, newestFirst) {
			t.Errorf("manual pages gave %d ids, want all %d once, newest first", len(got), total)
		}
	})

	t.Run("ending_before pages", func(t *testing.T) {
		// Walk back up from the oldest payment: each page is the limit
		// objects right before the cursor, still newest first.
		var got []string
		cursor := created[0]
		for n := 0; ; n++ {
			list, err := e.c.ListPayments(ctx, &client.ListPaymentsParams{ListParams: client.ListParams{Limit: wire.ListLimitMax, EndingBefore: cursor}})
			if err != nil {
				t.Fatal(err)
			}
			if len(list.Data) == 0 {
				break
			}
			if n > 3 {
				t.Fatal("too many pages")
			}
			got = append(ids(list.Data), got...)
			cursor = list.Data[0].ID
		}
		if !slices.Equal(got, newestFirst[:total-1]) {
			t.Errorf("ending_before pages gave %d ids, want the %d newer than the oldest, once, newest first", len(got), total-1)
		}
	})

	t.Run("cursor windows", func(t *testing.T) {
		tests := []struct {
			name string
			p    client.ListPaymentsParams
			want []string
		}{
			{"default limit", client.ListPaymentsParams{}, newestFirst[:wire.ListLimitDefault]},
			{"limit 1", client.ListPaymentsParams{ListParams: client.ListParams{Limit: 1}}, newestFirst[:1]},
			{"after the newest", client.ListPaymentsParams{ListParams: client.ListParams{Limit: 3, StartingAfter: newestFirst[0]}}, newestFirst[1:4]},
			{"after the oldest", client.ListPaymentsParams{ListParams: client.ListParams{Limit: 3, StartingAfter: newestFirst[total-1]}}, []string{}},
			{"before the oldest", client.ListPaymentsParams{ListParams: client.ListParams{Limit: 3, EndingBefore: newestFirst[total-1]}}, newestFirst[total-4 : total-1]},
			{"before the newest", client.ListPaymentsParams{ListParams: client.ListParams{Limit: 3, EndingBefore: newestFirst[0]}}, []string{}},
			{"before, near the top", client.ListPaymentsParams{ListParams: client.ListParams{Limit: 10, EndingBefore: newestFirst[3]}}, newestFirst[:3]},
		}
		for _, tc := range tests {
			list, err := e.c.ListPayments(ctx, &tc.p)
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
				continue
			}
			if got := ids(list.Data); !slices.Equal(got, tc.want) {
				t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
			}
		}
	})
}

// TestListPayments_Filters: customer, status and created bounds.
func TestListPayments_Filters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	cus := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenVisa)})
	mine := mustPayment(t, e.c, &client.PaymentParams{Amount: 100, Currency: "USD", Customer: cus.ID})
	pending := mustPayment(t, e.c, &client.PaymentParams{Amount: 200, Currency: "USD", Source: sandbox.Token3DS})
	_, err := e.c.CreatePayment(ctx, &client.PaymentParams{Amount: 300, Currency: "USD", Source: sandbox.TokenDeclined})
	declined, _ := client.AsError(err)
	if declined == nil {
		t.Fatalf("tok_declined: %v", err)
	}
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)

	tests := []struct {
		name string
		p    client.ListPaymentsParams
		want []string
	}{
		{"customer", client.ListPaymentsParams{Customer: cus.ID}, []string{mine.ID}},
		{"status pending", client.ListPaymentsParams{Status: wire.PaymentStatusPending}, []string{pending.ID}},
		{"status declined", client.ListPaymentsParams{Status: wire.PaymentStatusDeclined}, []string{declined.Payment}},
		{"status refunded", client.ListPaymentsParams{Status: wire.PaymentStatusRefunded}, []string{}},
		{"created gte past", client.ListPaymentsParams{CreatedGTE: past}, []string{declined.Payment, pending.ID, mine.ID}},
		{"created gte future", client.ListPaymentsParams{CreatedGTE: future}, []string{}},
		{"created lte past", client.ListPaymentsParams{CreatedLTE: past}, []string{}},
		{"created lte future", client.ListPaymentsParams{CreatedLTE: future, ListParams: client.ListParams{Limit: 2}}, []string{declined.Payment, pending.ID}},
		{"created exact bounds", client.ListPaymentsParams{CreatedGTE: mine.CreatedAt, CreatedLTE: mine.CreatedAt, Customer: cus.ID}, []string{mine.ID}},
	}
	for _, tc := range tests {
		list, err := e.c.ListPayments(ctx, &tc.p)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		got := []string{}
		for _, p := range list.Data {
			got = append(got, p.ID)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}

	checkAPIError(t, func() error {
		_, err := e.c.ListPayments(ctx, &client.ListPaymentsParams{CreatedGTE: "yesterday"})
		return err
	}(), e.key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, param: "created[gte]"})
	checkAPIError(t, func() error {
		_, err := e.c.ListPayments(ctx, &client.ListPaymentsParams{Status: "lost"})
		return err
	}(), e.key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, param: "status"})
}
