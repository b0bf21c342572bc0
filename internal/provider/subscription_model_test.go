package provider

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

func TestTrialDays_FromTheTrialBounds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		start, end string
		want       int64
	}{
		{"no trial", "", "", 0},
		{"fourteen days", "2026-01-01T00:00:00Z", "2026-01-15T00:00:00Z", 14},
		{"across a clock change is whole days", "2026-03-20T00:00:00Z", "2026-04-03T00:00:00Z", 14},
		{"end before start", "2026-01-15T00:00:00Z", "2026-01-01T00:00:00Z", 0},
		{"malformed", "yesterday", "2026-01-01T00:00:00Z", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := trialDays(&client.Subscription{TrialStart: tc.start, TrialEnd: tc.end}); got != tc.want {
				t.Fatalf("trialDays = %d; want %d", got, tc.want)
			}
		})
	}
}

func TestSubscriptionUpdateParams_SendsOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	items := func(qty ...int64) types.List {
		elems := make([]attr.Value, 0, len(qty))
		for i, q := range qty {
			price := []string{"price_a", "price_b", "price_c"}[i]
			elems = append(elems, types.ObjectValueMust(subscriptionItemType.AttrTypes, map[string]attr.Value{
				"price": types.StringValue(price), "quantity": types.Int64Value(q),
			}))
		}
		return types.ListValueMust(subscriptionItemType, elems)
	}
	base := func() subscriptionModel {
		return subscriptionModel{
			Items:             items(1),
			DefaultSource:     types.StringValue("src_1"),
			CancelAtPeriodEnd: types.BoolValue(false),
			Metadata:          types.MapValueMust(types.StringType, map[string]attr.Value{"a": types.StringValue("1")}),
		}
	}
	for _, tc := range []struct {
		name        string
		change      func(m *subscriptionModel)
		want        client.SubscriptionUpdateParams
		wantChanged bool
	}{
		{name: "nothing", change: func(*subscriptionModel) {}},
		{name: "a quantity sends every item", change: func(m *subscriptionModel) { m.Items = items(3, 2) },
			want: client.SubscriptionUpdateParams{Items: []client.SubscriptionItemParams{{Price: "price_a", Quantity: 3}, {Price: "price_b", Quantity: 2}}}, wantChanged: true},
		{name: "a removed default source goes back to the customer's", change: func(m *subscriptionModel) { m.DefaultSource = types.StringNull() },
			want: client.SubscriptionUpdateParams{DefaultSource: new("")}, wantChanged: true},
		{name: "cancel at period end", change: func(m *subscriptionModel) { m.CancelAtPeriodEnd = types.BoolValue(true) },
			want: client.SubscriptionUpdateParams{CancelAtPeriodEnd: new(true)}, wantChanged: true},
		{name: "a removed metadata key is sent empty", change: func(m *subscriptionModel) { m.Metadata = types.MapNull(types.StringType) },
			want: client.SubscriptionUpdateParams{Metadata: map[string]string{"a": ""}}, wantChanged: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			state, plan := base(), base()
			tc.change(&plan)
			got, changed, diags := subscriptionUpdateParams(ctx, &plan, &state)
			if diags.HasError() {
				t.Fatal(diags)
			}
			if changed != tc.wantChanged || !reflect.DeepEqual(*got, tc.want) {
				t.Fatalf("got %+v, changed %t; want %+v, changed %t", *got, changed, tc.want, tc.wantChanged)
			}
		})
	}
}
