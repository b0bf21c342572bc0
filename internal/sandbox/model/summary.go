package model

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The account's summary (GET /_sandbox/summary) is kept as its objects
// change: counts by status beside the objects, and one SummaryDay per day
// that had activity, a record of its own bucket, so that the answer never
// scans the objects.

// BucketSummaryDays holds an account's SummaryDays, keyed by date.
const BucketSummaryDays = "summary_days"

// SummaryDay is one UTC day's activity on the objects' time: payments
// made, refunded and disputed by currency, the monthly recurring revenue
// it added or took, and renewal invoices paid and failed.
type SummaryDay struct {
	Day            int64 // days since 1970-01-01
	Payments       []wire.SummaryVolume
	MRR            []wire.SummaryAmount
	RenewalsPaid   int64
	RenewalsFailed int64
	Counted        int64 // bytes charged to the account, see MemBytes
}

// Volume is the day's payments in currency cur, added when it has none;
// the day's currencies are kept in order.
func (d *SummaryDay) Volume(cur string) *wire.SummaryVolume {
	i, found := slices.BinarySearchFunc(d.Payments, cur, func(v wire.SummaryVolume, cur string) int { return strings.Compare(v.Currency, cur) })
	if !found {
		d.Payments = slices.Insert(d.Payments, i, wire.SummaryVolume{Currency: cur})
	}
	return &d.Payments[i]
}

// AddMRR adds delta to the day's change of the recurring revenue in cur.
func (d *SummaryDay) AddMRR(cur string, delta int64) {
	i, found := slices.BinarySearchFunc(d.MRR, cur, func(m wire.SummaryAmount, cur string) int { return strings.Compare(m.Currency, cur) })
	if !found {
		d.MRR = slices.Insert(d.MRR, i, wire.SummaryAmount{Currency: cur})
	}
	d.MRR[i].Amount += delta
}

// Wire is the day as the summary answers it: its figures without the
// revenue changes that came to nothing, and false when nothing is left.
func (d *SummaryDay) Wire() (wire.SummaryDay, bool) {
	w := wire.SummaryDay{Date: wire.SummaryDate(d.Day), Payments: d.Payments, RenewalsPaid: d.RenewalsPaid, RenewalsFailed: d.RenewalsFailed}
	for _, m := range d.MRR {
		if m.Amount != 0 {
			w.MRRChange = append(w.MRRChange, m)
		}
	}
	return w, len(w.Payments) > 0 || len(w.MRRChange) > 0 || w.RenewalsPaid != 0 || w.RenewalsFailed != 0
}

// summaryDayRecord is the stored form of a SummaryDay.
type summaryDayRecord struct {
	Date           string                `json:"date"`
	Payments       []summaryVolumeRecord `json:"payments,omitempty"`
	MRR            []summaryAmountRecord `json:"mrr,omitempty"`
	RenewalsPaid   int64                 `json:"renewals_paid,omitempty"`
	RenewalsFailed int64                 `json:"renewals_failed,omitempty"`
}

type summaryVolumeRecord struct {
	Currency string   `json:"currency"`
	Approved [2]int64 `json:"approved"` // count, amount
	Declined [2]int64 `json:"declined"`
	Refunded [2]int64 `json:"refunded"`
	Disputed [2]int64 `json:"disputed"`
}

type summaryAmountRecord struct {
	Currency string `json:"currency"`
	Amount   int64  `json:"amount"`
}

// RecordKey is the day's key in its bucket: its date.
func (d *SummaryDay) RecordKey() string { return wire.SummaryDate(d.Day) }

// RecordValue is the day's record, as JSON.
func (d *SummaryDay) RecordValue() []byte {
	rec := summaryDayRecord{Date: wire.SummaryDate(d.Day), RenewalsPaid: d.RenewalsPaid, RenewalsFailed: d.RenewalsFailed}
	pair := func(t wire.SummaryTally) [2]int64 { return [2]int64{t.Count, t.Amount} }
	for _, v := range d.Payments {
		rec.Payments = append(rec.Payments, summaryVolumeRecord{Currency: v.Currency,
			Approved: pair(v.Approved), Declined: pair(v.Declined), Refunded: pair(v.Refunded), Disputed: pair(v.Disputed)})
	}
	for _, m := range d.MRR {
		rec.MRR = append(rec.MRR, summaryAmountRecord(m))
	}
	return Marshal(rec)
}

// SummaryDayFromRecord decodes a day's record.
func SummaryDayFromRecord(raw []byte) (*SummaryDay, error) {
	var rec summaryDayRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reading a summary day record from the data file: %w", err)
	}
	t, err := time.Parse(time.DateOnly, rec.Date)
	if err != nil {
		return nil, fmt.Errorf("data file: summary day %q is malformed", rec.Date)
	}
	d := &SummaryDay{Day: wire.SummaryDayOf(t.Unix()), RenewalsPaid: rec.RenewalsPaid, RenewalsFailed: rec.RenewalsFailed}
	tally := func(p [2]int64) wire.SummaryTally { return wire.SummaryTally{Count: p[0], Amount: p[1]} }
	for _, v := range rec.Payments {
		cur, ok := Intern(wire.Currencies, v.Currency)
		if !ok {
			return nil, fmt.Errorf("data file: summary day %s names currency %q", rec.Date, v.Currency)
		}
		d.Payments = append(d.Payments, wire.SummaryVolume{Currency: cur,
			Approved: tally(v.Approved), Declined: tally(v.Declined), Refunded: tally(v.Refunded), Disputed: tally(v.Disputed)})
	}
	for _, m := range rec.MRR {
		cur, ok := Intern(wire.Currencies, m.Currency)
		if !ok {
			return nil, fmt.Errorf("data file: summary day %s names currency %q", rec.Date, m.Currency)
		}
		d.MRR = append(d.MRR, wire.SummaryAmount{Currency: cur, Amount: m.Amount})
	}
	return d, nil
}

var (
	summaryDayBytes    = int64(reflect.TypeFor[SummaryDay]().Size()) + AllocOverhead
	summaryVolumeBytes = int64(reflect.TypeFor[wire.SummaryVolume]().Size())
	summaryAmountBytes = int64(reflect.TypeFor[wire.SummaryAmount]().Size())
	// summaryDayEntry is a day's entry in its account's map of days and
	// its place in the sorted list of them.
	summaryDayEntry = int64(8+PtrBytes+1)*8/5 + 8*3/2
)

// MemBytes is what the day costs its account (sizes.go).
func (d *SummaryDay) MemBytes() int64 {
	n := summaryDayBytes + summaryDayEntry
	if len(d.Payments) > 0 {
		n += SliceBytes(len(d.Payments), summaryVolumeBytes) + AllocOverhead
	}
	if len(d.MRR) > 0 {
		n += SliceBytes(len(d.MRR), summaryAmountBytes) + AllocOverhead
	}
	return n
}

// SummaryDayGrowth bounds what one change can add to its account's days:
// a new day with a currency's payments and revenue in it.
var SummaryDayGrowth = summaryDayBytes + summaryDayEntry + 2*AllocOverhead + (summaryVolumeBytes+summaryAmountBytes)*3/2

// PaymentSum is what an account's summary counted of a payment besides
// its status (Payment.SummedStatus): the amount counted as made
// (approved or declined) on the day it was created, and the amount
// counted as refunded. A payment's amounts are at most
// wire.PaymentAmountMax.
type PaymentSum struct {
	Amount   int32
	Refunded int32
}

// SummedStatus is the status the account's summary counts p in, "" when
// it is not counted yet.
func (p *Payment) SummedStatus() string {
	if p.sumStatus == 0 {
		return ""
	}
	return wire.PaymentStatuses[p.sumStatus-1]
}

// IsSummed reports whether the summary counted p as it is now.
func (p *Payment) IsSummed() bool {
	return p.SummedStatus() == p.Status && int64(p.Summed.Amount) == p.Amount && int64(p.Summed.Refunded) == p.Refunded
}

// MarkSummed records that the summary counted p as it is now.
func (p *Payment) MarkSummed() {
	p.sumStatus = uint8(slices.Index(wire.PaymentStatuses, p.Status) + 1)
	p.Summed = PaymentSum{Amount: int32(p.Amount), Refunded: int32(p.Refunded)}
}

// MadeApproved and MadeDeclined say how a payment in status counts on the
// day it was made: approved (authorized, captured, and what became of
// it: refunded or disputed) or declined; a payment waiting for 3-D
// Secure counts as neither until it is completed.
func MadeApproved(status string) bool {
	switch status {
	case wire.PaymentStatusApproved, wire.PaymentStatusAuthorized, wire.PaymentStatusPartiallyRefunded,
		wire.PaymentStatusRefunded, wire.PaymentStatusDisputed:
		return true
	}
	return false
}

// MadeDeclined: see MadeApproved.
func MadeDeclined(status string) bool { return status == wire.PaymentStatusDeclined }

// CountsInMRR reports whether a subscription in status counts in the
// monthly recurring revenue: active and past_due ones, as Stripe's
// billing analytics count them; trialing, incomplete, unpaid and ended
// ones do not. [own decision]
func CountsInMRR(status string) bool {
	return status == wire.SubscriptionStatusActive || status == wire.SubscriptionStatusPastDue
}

// MRR is what s adds to the monthly recurring revenue, in its currency's
// minor units: each item's unit_amount × quantity for one period, summed,
// then brought to a month (a month's period of n months ÷ n, a year's
// ÷ 12n, a week's × 52 ÷ 12n, a day's × 365 ÷ 12n) and rounded once, half
// up, to a whole minor unit; 0 when s does not count (CountsInMRR).
func MRR(s *Subscription) int64 {
	if !CountsInMRR(s.Status) || len(s.Items) == 0 {
		return 0
	}
	period := Amount(s.Items)
	r := s.Recurring()
	n := max(r.IntervalCount, 1)
	num, den := int64(1), n
	switch r.Interval {
	case wire.IntervalYear:
		den = 12 * n
	case wire.IntervalWeek:
		num, den = 52, 12*n
	case wire.IntervalDay:
		num, den = 365, 12*n
	}
	return (period*num + den/2) / den
}
