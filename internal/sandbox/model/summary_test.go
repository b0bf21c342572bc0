package model

import (
	"reflect"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestMRR_ByPeriodAndStatus(t *testing.T) {
	t.Parallel()
	price := func(amount int64, interval string, count int64) *Price {
		return &Price{ID: ids.New(), Currency: "USD", UnitAmount: amount, Recurring: wire.Recurring{Interval: interval, IntervalCount: count}}
	}
	for _, tc := range []struct {
		name   string
		status string
		items  []SubItem
		want   int64
	}{
		{"monthly", wire.SubscriptionStatusActive, []SubItem{{Price: price(1500, "month", 1), Quantity: 2}}, 3000},
		{"two items", wire.SubscriptionStatusActive, []SubItem{{Price: price(1500, "month", 1), Quantity: 1}, {Price: price(250, "month", 1), Quantity: 4}}, 2500},
		{"past_due counts", wire.SubscriptionStatusPastDue, []SubItem{{Price: price(1500, "month", 1), Quantity: 1}}, 1500},
		{"every 3 months, rounded half up", wire.SubscriptionStatusActive, []SubItem{{Price: price(1000, "month", 3), Quantity: 1}}, 333},
		{"every 2 months, a half up", wire.SubscriptionStatusActive, []SubItem{{Price: price(1001, "month", 2), Quantity: 1}}, 501},
		{"yearly", wire.SubscriptionStatusActive, []SubItem{{Price: price(12000, "year", 1), Quantity: 1}}, 1000},
		{"every 2 years", wire.SubscriptionStatusActive, []SubItem{{Price: price(12000, "year", 2), Quantity: 1}}, 500},
		{"weekly", wire.SubscriptionStatusActive, []SubItem{{Price: price(700, "week", 1), Quantity: 1}}, 3033}, // 700×52/12 = 3033.3
		{"every 2 weeks", wire.SubscriptionStatusActive, []SubItem{{Price: price(700, "week", 2), Quantity: 3}}, 4550},
		{"daily", wire.SubscriptionStatusActive, []SubItem{{Price: price(100, "day", 1), Quantity: 1}}, 3042}, // 100×365/12 = 3041.7
		{"the largest daily", wire.SubscriptionStatusActive, []SubItem{{Price: price(wire.PaymentAmountMax, "day", 1), Quantity: 1}}, (wire.PaymentAmountMax*365 + 6) / 12},
		{"trialing does not count", wire.SubscriptionStatusTrialing, []SubItem{{Price: price(1500, "month", 1), Quantity: 1}}, 0},
		{"unpaid does not count", wire.SubscriptionStatusUnpaid, []SubItem{{Price: price(1500, "month", 1), Quantity: 1}}, 0},
		{"incomplete does not count", wire.SubscriptionStatusIncomplete, []SubItem{{Price: price(1500, "month", 1), Quantity: 1}}, 0},
		{"canceled does not count", wire.SubscriptionStatusCanceled, []SubItem{{Price: price(1500, "month", 1), Quantity: 1}}, 0},
	} {
		if got := MRR(&Subscription{Status: tc.status, Items: tc.items}); got != tc.want {
			t.Errorf("%s: MRR = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestSummaryDay_Record: a day reads back from its record as it was, its
// currencies in order however they came.
func TestSummaryDay_Record(t *testing.T) {
	t.Parallel()
	d := &SummaryDay{Day: wire.SummaryDayOf(1767225600), RenewalsPaid: 3, RenewalsFailed: 1}
	d.Volume("USD").Approved = wire.SummaryTally{Count: 2, Amount: 3000}
	d.Volume("EUR").Refunded = wire.SummaryTally{Count: 1, Amount: 50}
	d.Volume("USD").Disputed = wire.SummaryTally{Count: 1, Amount: 900}
	d.AddMRR("USD", 1500)
	d.AddMRR("EUR", -200)
	d.AddMRR("USD", 500)
	if d.RecordKey() != "2026-01-01" || d.Payments[0].Currency != "EUR" || d.MRR[1] != (wire.SummaryAmount{Currency: "USD", Amount: 2000}) {
		t.Fatalf("day %s: %+v", d.RecordKey(), d)
	}
	back, err := SummaryDayFromRecord(d.RecordValue())
	if err != nil {
		t.Fatal(err)
	}
	if back.Counted = d.Counted; !reflect.DeepEqual(back, d) {
		t.Errorf("read back %+v\nwant %+v", back, d)
	}
	for _, bad := range []string{`{"date":"2026-13-01"}`, `{"date":"2026-01-01","payments":[{"currency":"XYZ"}]}`, `{"date":"2026-01-01","mrr":[{"currency":"usd"}]}`, `[`} {
		if _, err := SummaryDayFromRecord([]byte(bad)); err == nil {
			t.Errorf("%s read without an error", bad)
		}
	}
	if w, ok := (&SummaryDay{MRR: []wire.SummaryAmount{{Currency: "USD"}}}).Wire(); ok || w.MRRChange != nil {
		t.Errorf("a day whose revenue came to nothing is listed: %+v", w)
	}
}
