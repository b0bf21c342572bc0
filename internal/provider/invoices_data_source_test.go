package provider

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestInvoicesDataSource_Read_Pages drives Read against a fake list
// endpoint: a limit asks the service for no more invoices than it needs,
// unless billing_reason (which only the provider filters by) may skip
// some, and pages are followed until the limit is met.
func TestInvoicesDataSource_Read_Pages(t *testing.T) {
	const total = wire.ListLimitMax + 50
	ids := make([]string, total) // newest first
	for i := range ids {
		ids[i] = fmt.Sprintf("in_%024d", total-i)
	}
	reason := func(i int) string { // every third a subscription's first
		if i%3 == 0 {
			return wire.BillingReasonSubscriptionCreate
		}
		return wire.BillingReasonSubscriptionCycle
	}
	list := startFakeList(t, "/v1/invoices", ids, func(i int) string {
		return fmt.Sprintf(`{"id":%q,"object":"invoice","customer":"cus_1","subscription":"sub_1",`+
			`"status":"paid","billing_reason":%q,"amount_due":1000,"amount_paid":1000,"currency":"USD",`+
			`"attempt_count":1,"period_start":"2026-01-01T00:00:00Z","period_end":"2026-02-01T00:00:00Z",`+
			`"created_at":"2026-01-01T00:00:00Z","livemode":false}`, ids[i], reason(i))
	})
	c := testUnitClient(t, list.URL)
	num := func(n int) tftypes.Value { return tftypes.NewValue(tftypes.Number, n) }
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

	for _, tc := range []struct {
		name    string
		config  map[string]tftypes.Value
		want    []string
		queries []string
	}{
		{
			name: "all", want: ids,
			queries: []string{"limit=100", "limit=100&starting_after=" + ids[99]},
		},
		{
			name: "limit_1", want: ids[:1],
			config:  map[string]tftypes.Value{"limit": num(1)},
			queries: []string{"limit=1"},
		},
		{
			name: "limit_over_a_page", want: ids[:120],
			config:  map[string]tftypes.Value{"limit": num(120)},
			queries: []string{"limit=100", "limit=100&starting_after=" + ids[99]},
		},
		{
			name: "limit_with_billing_reason", want: []string{ids[0], ids[3]},
			config:  map[string]tftypes.Value{"limit": num(2), "billing_reason": str(wire.BillingReasonSubscriptionCreate)},
			queries: []string{"limit=100"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list.take()
			state, diags := testUnitReadDataSource(t, NewInvoicesDataSource(), c, tc.config)
			if diags.HasError() {
				t.Fatalf("Read: %v", diags)
			}
			var got invoicesDataSourceModel
			if diags := state.Get(t.Context(), &got); diags.HasError() {
				t.Fatalf("state: %v", diags)
			}
			var gotIDs []string
			for _, inv := range got.Invoices {
				gotIDs = append(gotIDs, inv.ID.ValueString())
			}
			if !slices.Equal(gotIDs, tc.want) {
				t.Errorf("got %d invoices %.3q…, want %d %.3q…", len(gotIDs), gotIDs, len(tc.want), tc.want)
			}
			if queries := list.take(); !slices.Equal(queries, tc.queries) {
				t.Errorf("queries:\n got %q\nwant %q", queries, tc.queries)
			}
		})
	}
}
