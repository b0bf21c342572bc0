package model

import (
	"fmt"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestClock is a test clock: a frozen time that its customers'
// subscriptions run on, moved by hand.
type TestClock struct {
	ID      ids.RID
	Seq     uint64 // creation order
	Created int64
	Name    string
	Frozen  int64
	// StopTarget and StopCode say where the last advance was to go and
	// why it stopped short (wire.TestClockStopped); 0 and "" when it got
	// there.
	StopTarget int64
	StopCode   string
	Counted    int64 // bytes charged to the account, see MemBytes
}

// Clocks is an account's test clocks in creation order.
type Clocks struct {
	ByID  map[ids.RID]*TestClock
	Order []*TestClock
	Seq   uint64
}

// Restore makes cl from, a copy read back from the store, keeping the
// higher sequence: an id or cursor given out never comes back.
func (cl *Clocks) Restore(from Clocks) {
	seq := max(cl.Seq, from.Seq)
	*cl = from
	cl.Seq = seq
}

// Add adds a new test clock, giving it the next sequence number.
func (cl *Clocks) Add(k *TestClock) {
	if cl.ByID == nil {
		cl.ByID = make(map[ids.RID]*TestClock)
	}
	cl.Seq++
	k.Seq = cl.Seq
	cl.ByID[k.ID] = k
	cl.Order = append(cl.Order, k)
}

// Remove forgets a deleted test clock.
func (cl *Clocks) Remove(k *TestClock) {
	delete(cl.ByID, k.ID)
	cl.Order = RemoveBySeq(cl.Order, k.Seq, func(x *TestClock) uint64 { return x.Seq })
}

// TestClockRecord is the stored form of a test clock.
type (
	TestClockRecord struct {
		ID      string `json:"id"`
		Seq     uint64 `json:"seq"`
		Created int64  `json:"created"`
		Name    string `json:"name,omitempty"`
		Frozen  int64  `json:"frozen"`
		// StopTarget and StopCode are TestClock's, omitted when the last
		// advance got to its target.
		StopTarget int64  `json:"stop_target,omitempty"`
		StopCode   string `json:"stop_code,omitempty"`
	}
	SubItemRecord struct {
		ID       string `json:"id"`
		Price    string `json:"price"`
		Quantity int64  `json:"quantity"`
	}
	SubscriptionRecord struct {
		ID                string          `json:"id"`
		Seq               uint64          `json:"seq"`
		Created           int64           `json:"created"`
		Customer          string          `json:"customer"`
		Items             []SubItemRecord `json:"items"`
		DefaultSource     string          `json:"default_source,omitempty"`
		Status            string          `json:"status"`
		PeriodStart       int64           `json:"period_start"`
		PeriodEnd         int64           `json:"period_end"`
		CancelAtPeriodEnd bool            `json:"cancel_at_period_end,omitempty"`
		CanceledAt        int64           `json:"canceled_at,omitempty"`
		TrialStart        int64           `json:"trial_start,omitempty"`
		TrialEnd          int64           `json:"trial_end,omitempty"`
		TrialNoticeSent   bool            `json:"trial_notice_sent,omitempty"`
		Anchor            int64           `json:"anchor"`
		Cycle             int64           `json:"cycle"`
		Clock             string          `json:"clock,omitempty"`
		LatestInvoice     string          `json:"latest_invoice,omitempty"`
		Meta              [][2]string     `json:"meta,omitempty"`
	}
	InvoiceLineRecord struct {
		Item     string `json:"item"`
		Price    string `json:"price"`
		Quantity int64  `json:"quantity"`
		Amount   int64  `json:"amount"`
	}
	InvoiceRecord struct {
		ID            string              `json:"id"`
		Seq           uint64              `json:"seq"`
		Created       int64               `json:"created"`
		Customer      string              `json:"customer"`
		Subscription  string              `json:"subscription"`
		Status        string              `json:"status"`
		BillingReason string              `json:"billing_reason"`
		Lines         []InvoiceLineRecord `json:"lines"`
		AmountDue     int64               `json:"amount_due"`
		AmountPaid    int64               `json:"amount_paid"`
		Currency      string              `json:"currency"`
		Attempts      int64               `json:"attempts"`
		NextAttempt   int64               `json:"next_attempt,omitempty"`
		Payment       string              `json:"payment,omitempty"`
		PeriodStart   int64               `json:"period_start"`
		PeriodEnd     int64               `json:"period_end"`
	}
)

// RecordKey is the test clock's key in its bucket: its id.
func (k *TestClock) RecordKey() string { return k.ID.Format(wire.TestClockIDPrefix) }

// RecordValue is the test clock's record, as JSON.
func (k *TestClock) RecordValue() []byte {
	return Marshal(TestClockRecord{ID: k.ID.Format(wire.TestClockIDPrefix), Seq: k.Seq, Created: k.Created, Name: k.Name, Frozen: k.Frozen,
		StopTarget: k.StopTarget, StopCode: k.StopCode})
}

// TestClockFromRecord is the test clock of a decoded record, checked.
func TestClockFromRecord(rec TestClockRecord) (*TestClock, error) {
	id, ok := ids.Parse(rec.ID, wire.TestClockIDPrefix)
	code, okCode := Intern(StopCodes, rec.StopCode)
	if !ok || rec.Seq == 0 || (rec.StopCode != "" && !okCode) {
		return nil, fmt.Errorf("data file: test clock %q is malformed", rec.ID)
	}
	return &TestClock{ID: id, Seq: rec.Seq, Created: rec.Created, Name: rec.Name, Frozen: rec.Frozen,
		StopTarget: rec.StopTarget, StopCode: code}, nil
}

// Load rebuilds an account's test clocks from their records.
func (cl *Clocks) Load(buckets map[string][][]byte) error {
	ks, err := decodeBucket(buckets[BucketTestClocks], "a test clock", TestClockFromRecord, func(k *TestClock) uint64 { return k.Seq })
	if err != nil {
		return err
	}
	for _, k := range ks {
		if cl.ByID == nil {
			cl.ByID = make(map[ids.RID]*TestClock)
		}
		cl.ByID[k.ID] = k
		cl.Order = append(cl.Order, k)
		cl.Seq = max(cl.Seq, k.Seq)
	}
	return nil
}

// StopCodes are the reasons an advance stops short of its target.
var StopCodes = []string{wire.ErrorCodeAccountLimitExceeded, wire.ErrorCodeSandboxLimitExceeded, wire.TestClockStopInterrupted}

// stopMessages say what each of StopCodes means to whoever reads the
// clock.
var stopMessages = map[string]string{
	wire.ErrorCodeAccountLimitExceeded: "The advance stopped at frozen_time, short of target_frozen_time: the next renewal would take this account past " +
		"the most this sandbox allows one account (-max-account-bytes). Delete objects, or POST " + wire.PathSandboxReset + ", then advance again.",
	wire.ErrorCodeSandboxLimitExceeded: "The advance stopped at frozen_time, short of target_frozen_time: the next renewal would take the sandbox past " +
		"the most it keeps over all its accounts (-max-total-bytes). Advance again once there is room, or ask its operator for a higher -max-total-bytes.",
	wire.TestClockStopInterrupted: "The advance stopped at frozen_time, short of target_frozen_time, between two of its writes to the data file " +
		"(the sandbox stopped, or the file failed). Advance again to go on.",
}

// MemBytes is what the test clock costs its account (sizes.go).
func (k *TestClock) MemBytes() int64 {
	return ClockBytes + RidMapEntry + OrderSlot + StrBytes(k.Name)
}

// TestClockJSON appends the test clock's JSON, with its status, to b.
func TestClockJSON(b []byte, k *TestClock, status string) []byte {
	if b == nil {
		b = make([]byte, 0, 224+len(k.Name))
	}
	b = append(b, `{"id":`...)
	b = ids.Append(b, wire.TestClockIDPrefix, k.ID)
	b = append(b, `,"object":"test_helpers.test_clock","name":`...)
	b = jsonw.OptString(b, k.Name)
	b = append(b, `,"frozen_time":`...)
	b = jsonw.Time(b, k.Frozen)
	b = append(b, `,"status":`...)
	b = jsonw.String(b, status)
	b = append(b, `,"status_details":{`...)
	if k.StopCode != "" {
		b = append(b, `"stopped":{"target_frozen_time":`...)
		b = jsonw.Time(b, k.StopTarget)
		b = append(b, `,"code":`...)
		b = jsonw.String(b, k.StopCode)
		b = append(b, `,"message":`...)
		b = jsonw.String(b, stopMessages[k.StopCode])
		b = append(b, '}')
	}
	b = append(b, `},"created_at":`...)
	b = jsonw.Time(b, k.Created)
	return append(b, `,"livemode":false}`...)
}

// rfc writes unix time t as RFC 3339 UTC, for messages.
func rfc(t int64) string { return time.Unix(t, 0).UTC().Format(time.RFC3339) }

// CheckAdvance refuses to move k to to: a test clock only moves forward,
// one advance crosses at most wire.TestClockAdvancePeriods periods of the
// shortest subscription on it that has not ended (of subs, all the
// account's), and no renewal it runs may write a time after
// wire.MaxTime. dunning is how long an unpaid renewal's retries may run
// after it.
func (k *TestClock) CheckAdvance(to int64, subs []*Subscription, dunning int64) *Refusal {
	if to <= k.Frozen {
		return invalid(wire.ParamFrozenTime, "frozen_time %s is not after the clock's time, %s; a test clock only moves forward.", rfc(to), rfc(k.Frozen))
	}
	from := time.Unix(k.Frozen, 0).UTC()
	limit := int64(0)
	for _, s := range subs {
		if s.Clock == k.ID && !s.Ended() {
			if end := s.Recurring().PeriodEnd(from, wire.TestClockAdvancePeriods).Unix(); limit == 0 || end < limit {
				limit = end
			}
		}
	}
	if limit != 0 && to > limit {
		return invalid(wire.ParamFrozenTime, "frozen_time %s is more than %d periods of the clock's shortest subscription ahead; advance to %s at most, then again.",
			rfc(to), wire.TestClockAdvancePeriods, rfc(limit))
	}
	var first *Subscription
	var at int64
	var byRetry bool
	for _, s := range subs {
		if s.Clock != k.ID {
			continue
		}
		if a, retry, ok := s.renewalPastMax(to, dunning); ok && (first == nil || a < at) {
			first, at, byRetry = s, a, retry
		}
	}
	if first == nil {
		return nil
	}
	why := "start a period of " + periodWords(first.Recurring()) + " that ends after " + rfc(wire.MaxTimeUnix)
	if byRetry {
		why = fmt.Sprintf("leave its invoice's retries, should its charge be declined, to run %d days after it, past %s", dunning/86400, rfc(wire.MaxTimeUnix))
	}
	todo := fmt.Sprintf("advance to %s at most, or set the subscription's cancel_at_period_end first so that it ends there", rfc(at-1))
	if at-1 <= k.Frozen {
		todo = "cancel the subscription, or set its cancel_at_period_end, before the clock goes on"
	}
	return invalid(wire.ParamFrozenTime, "frozen_time %s would renew subscription %s at %s, which would %s, the latest time the API writes; %s.",
		rfc(to), first.ID.Format(wire.SubscriptionIDPrefix), rfc(at), why, todo)
}

// periodWords writes a period as in a sentence: "1 month", "3 years".
func periodWords(r wire.Recurring) string {
	if r.IntervalCount == 1 {
		return "1 " + r.Interval
	}
	return fmt.Sprintf("%d %ss", r.IntervalCount, r.Interval)
}

// renewalPastMax is the first renewal of s due by to (those of periods
// that ended before the clock's time included: a subscription paid after
// a pause catches up at the next advance) that would write a time after
// wire.MaxTime: its next period's end, or a retry of its invoice within
// dunning after it (retry is then true). at is the renewal's moment; ok
// is false when there is none.
func (s *Subscription) renewalPastMax(to, dunning int64) (at int64, retry, ok bool) {
	switch s.Status {
	case wire.SubscriptionStatusTrialing, wire.SubscriptionStatusActive, wire.SubscriptionStatusPastDue:
	default:
		// Ended, incomplete (it expires before its period ends) or
		// unpaid (it renews again only once paid, at a later advance).
		return 0, false, false
	}
	if s.CancelAtPeriodEnd {
		return 0, false, false // it ends at its period's end, with no new period
	}
	anchor := time.Unix(s.Anchor, 0).UTC()
	r := s.Recurring()
	for p, cycle := s.PeriodEnd, s.Cycle+1; p <= to; cycle++ {
		next := r.PeriodEnd(anchor, int(cycle)).Unix()
		switch {
		case next > wire.MaxTimeUnix:
			return p, false, true
		case p+dunning > wire.MaxTimeUnix:
			return p, true, true
		}
		p = next
	}
	return 0, false, false
}
