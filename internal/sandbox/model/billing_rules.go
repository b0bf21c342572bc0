package model

import (
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The rules of subscriptions and their invoices: what an item may be,
// how a subscription starts, changes and ends, and which of an invoice's
// moves are allowed. A refusal here is answered by the handlers as is.

// CheckItem refuses pr as item name of a subscription: a one-time or an
// archived price, one of another currency or period than like (the
// subscription's first price), or one already among before, the items
// read so far.
func CheckItem(name string, pr, like *Price, before []SubItem) *Refusal {
	id := pr.ID.Format(wire.PriceIDPrefix)
	switch {
	case !pr.IsRecurring():
		return invalid(name, "%s %s is a one-time price; a subscription needs recurring prices (recurring[interval]).", name, id)
	case !pr.Active:
		return invalid(name, "%s %s is archived (active=false); subscribe to an active price.", name, id)
	case pr.Currency != like.Currency || pr.Recurring != like.Recurring:
		return invalid(name, "%s %s bills %s every %d %s, but the subscription bills %s every %d %s; one subscription has one currency and one period.",
			name, id, pr.Currency, pr.Recurring.IntervalCount, pr.Recurring.Interval, like.Currency, like.Recurring.IntervalCount, like.Recurring.Interval)
	}
	for _, it := range before {
		if it.Price == pr {
			return invalid(name, "%s %s is already an item of the subscription; raise that item's quantity instead.", name, id)
		}
	}
	return nil
}

// CheckItemCount refuses n items, more than a subscription has.
func CheckItemCount(n int) *Refusal {
	if n > wire.SubscriptionItemsMax {
		return invalid(wire.ParamItems, "items has %d entries; a subscription has at most %d.", n, wire.SubscriptionItemsMax)
	}
	return nil
}

// NewSubItem is an item of q of pr. It keeps the id of the item of prev,
// the subscription's items before an update, with the same price, so
// that an update that only changes a quantity keeps the item; else it
// takes a new id.
func NewSubItem(prev []SubItem, pr *Price, q int64) SubItem {
	it := SubItem{ID: ids.New(), Price: pr, Quantity: q}
	for _, old := range prev {
		if old.Price == pr {
			it.ID = old.ID
		}
	}
	return it
}

// CheckItemsCost refuses items that cost more a period than the largest
// payment.
func CheckItemsCost(items []SubItem) *Refusal {
	if total := Amount(items); total > wire.PaymentAmountMax {
		return invalid(wire.ParamItems, "items cost %d a period, over the largest payment, %d; lower a quantity.", total, wire.PaymentAmountMax)
	}
	return nil
}

// Amount is what one period of items costs.
func Amount(items []SubItem) int64 {
	var n int64
	for _, it := range items {
		n += it.Price.UnitAmount * it.Quantity
	}
	return n
}

// PaymentBehavior reads payment_behavior v: what a subscription's create
// does when its first charge does not succeed at once; allow_incomplete
// when v is empty.
func PaymentBehavior(v string) (string, *Refusal) {
	switch v {
	case "":
		return wire.PaymentBehaviorAllowIncomplete, nil
	case wire.PaymentBehaviorAllowIncomplete, wire.PaymentBehaviorErrorIfIncomplete:
		return v, nil
	}
	return "", invalid(wire.ParamPaymentBehavior, "payment_behavior %q is not valid; use %s or %s.", clip(v),
		wire.PaymentBehaviorAllowIncomplete, wire.PaymentBehaviorErrorIfIncomplete)
}

// NoSourceToCharge refuses a charge of customer cu, who has no default
// source; param is the parameter that could have named another source,
// "" for none.
func NoSourceToCharge(cu ids.RID, param string) *Refusal {
	id := cu.Format(wire.CustomerIDPrefix)
	r := &Refusal{Param: param, Code: wire.ErrorCodeMissingSource,
		Message: "customer " + id + " has no default source to charge; attach one with POST /v1/customers/" + id + "/sources"}
	if param == "" {
		r.Message = "C" + r.Message[1:] + "."
	} else {
		r.Message += ", or send " + param + "."
	}
	return r
}

// CheckFirstCharge refuses to create s when its first invoice, billed now
// unless a trial of trialDays comes first, cannot be charged as asked:
// src, the card it goes to, is nil, or behavior is error_if_incomplete
// and the card's first charge would not succeed at once (nothing is then
// created). chargedBefore reports whether src was charged before.
func (s *Subscription) CheckFirstCharge(src *Source, trialDays int64, behavior string, chargedBefore func() bool) *Refusal {
	if trialDays > 0 || Amount(s.Items) == 0 {
		return nil
	}
	if src == nil {
		return NoSourceToCharge(s.Customer, wire.ParamDefaultSource)
	}
	if behavior == wire.PaymentBehaviorErrorIfIncomplete && src.Card.Outcome(chargedBefore) != Approves {
		return &Refusal{Code: wire.ErrorCodeCardDeclined, Card: true,
			Message: "The first payment would not succeed at once (sandbox token " + src.Card.Token + "), and payment_behavior is " +
				wire.PaymentBehaviorErrorIfIncomplete + "; nothing was created. Use another card, or allow_incomplete."}
	}
	return nil
}

// CheckChange refuses to change a subscription that has ended.
func (s *Subscription) CheckChange() *Refusal {
	if !s.Ended() {
		return nil
	}
	return unexpected(wire.ErrorCodeSubscriptionUnexpectedState, "Subscription %s is %s and can no longer change; create a new subscription instead.",
		s.ID.Format(wire.SubscriptionIDPrefix), s.Status)
}

// CheckQuantity refuses the parameter quantity, which sets the quantity
// of a subscription's only item, when s has several items or the update
// sends items too.
func (s *Subscription) CheckQuantity(itemsGiven bool) *Refusal {
	if itemsGiven || len(s.Items) != 1 {
		return invalid(wire.ParamQuantity, "quantity sets the quantity of a subscription's only item; with several items, or with items, send items[N][quantity].")
	}
	return nil
}

// SetQuantity sets the quantity of s's only item to q (CheckQuantity
// allowed it), refusing a period that costs more than the largest
// payment.
func (s *Subscription) SetQuantity(q int64) *Refusal {
	items := []SubItem{{ID: s.Items[0].ID, Price: s.Items[0].Price, Quantity: q}}
	if n := Amount(items); n > wire.PaymentAmountMax {
		return invalid(wire.ParamQuantity, "quantity %d costs %d a period, over the largest payment, %d.", q, n, wire.PaymentAmountMax)
	}
	s.Items = items
	return nil
}

// CheckStart refuses to start s at now (Start) when its first period, a
// trial of trialDays days or one period of its prices, would end after
// wire.MaxTime: the service never writes a later time.
func (s *Subscription) CheckStart(now, trialDays int64) *Refusal {
	end := s.firstEnd(now, trialDays)
	if end.Unix() <= wire.MaxTimeUnix {
		return nil
	}
	if trialDays > 0 {
		if most := (wire.MaxTimeUnix - now) / 86400; most >= 1 {
			return invalid(wire.ParamTrialPeriodDays, "trial_period_days %d would end the trial after %s, the latest time the API writes; from %s, use %d at most.",
				trialDays, rfc(wire.MaxTimeUnix), rfc(now), most)
		}
		return invalid(wire.ParamTrialPeriodDays, "trial_period_days %d would end the trial after %s, the latest time the API writes; at %s not even a day's trial fits.",
			trialDays, rfc(wire.MaxTimeUnix), rfc(now))
	}
	name := wire.ItemParam(0, wire.ParamPrice)
	return invalid(name, "%s %s bills every %s: a period starting at %s would end after %s, the latest time the API writes; use a price of a shorter period, or a test clock at an earlier time.",
		name, s.Items[0].Price.ID.Format(wire.PriceIDPrefix), periodWords(s.Recurring()), rfc(now), rfc(wire.MaxTimeUnix))
}

// firstEnd is the end of the first period of s started at now: the end
// of a trial of trialDays days when above 0, else one period later.
func (s *Subscription) firstEnd(now, trialDays int64) time.Time {
	start := time.Unix(now, 0).UTC()
	if trialDays > 0 {
		return start.AddDate(0, 0, int(trialDays))
	}
	return s.Recurring().PeriodEnd(start, 1)
}

// Start sets the first period of a new subscription, from now (CheckStart
// allowed it): a trial of trialDays days when above 0 (trialing, renewing
// at its end), else its first paid period.
func (s *Subscription) Start(now, trialDays int64) {
	end := s.firstEnd(now, trialDays)
	if trialDays > 0 {
		s.TrialStart, s.TrialEnd = now, end.Unix()
		s.Status = wire.SubscriptionStatusTrialing
		s.Anchor = end.Unix()
	} else {
		s.Anchor, s.Cycle = now, 1
	}
	s.PeriodStart, s.PeriodEnd = now, end.Unix()
}

// Cancel ends s at now.
func (s *Subscription) Cancel(now int64) {
	s.Status, s.CanceledAt = wire.SubscriptionStatusCanceled, now
}

// StatusAfterPaid is the status s moves to once inv is paid: active when
// inv is its latest invoice and s was waiting on it (incomplete,
// past_due, unpaid, or trialing at its first paid renewal); else its
// status as is.
func (s *Subscription) StatusAfterPaid(inv *Invoice) string {
	if s.LatestInvoice == inv.ID {
		switch s.Status {
		case wire.SubscriptionStatusIncomplete, wire.SubscriptionStatusPastDue, wire.SubscriptionStatusUnpaid:
			return wire.SubscriptionStatusActive
		case wire.SubscriptionStatusTrialing:
			if inv.BillingReason == wire.BillingReasonSubscriptionCycle {
				return wire.SubscriptionStatusActive
			}
		}
	}
	return s.Status
}

// StatusAfterUnpaid is the status s moves to after a failed or waiting
// charge of inv: a first invoice leaves it incomplete, a later one
// past_due. It stays as it is when inv is not its latest invoice, when
// it has ended, or when inv is uncollectible (its dunning already chose).
func (s *Subscription) StatusAfterUnpaid(inv *Invoice) string {
	switch {
	case s.LatestInvoice != inv.ID || s.Ended() || inv.Status == wire.InvoiceStatusUncollectible:
		return s.Status
	case inv.BillingReason == wire.BillingReasonSubscriptionCreate:
		return wire.SubscriptionStatusIncomplete
	}
	return wire.SubscriptionStatusPastDue
}

// NewInvoice is the open invoice of s's current period, made at created
// for reason, without its id; free (a trial) bills nothing.
func NewInvoice(s *Subscription, created int64, reason string, free bool) *Invoice {
	inv := &Invoice{
		Created: created, Customer: s.Customer, Subscription: s.ID, Status: wire.InvoiceStatusOpen,
		BillingReason: reason, Currency: s.Currency(), PeriodStart: s.PeriodStart, PeriodEnd: s.PeriodEnd,
	}
	inv.makeLines(len(s.Items))
	for i, it := range s.Items {
		inv.Lines[i] = InvoiceLine{Item: it.ID, Price: it.Price.ID, Quantity: it.Quantity}
		if !free {
			inv.Lines[i].Amount = it.Price.UnitAmount * it.Quantity
			inv.AmountDue += inv.Lines[i].Amount
		}
	}
	return inv
}

// NewPayment is the charge of inv's amount due to src, made at created:
// a payment of the payments API with its invoice set, captured at once,
// without its id or status (the charge decides them).
func (inv *Invoice) NewPayment(created int64, src *Source) *Payment {
	p := &Payment{
		Created: created, Amount: inv.AmountDue, Currency: inv.Currency, CaptureRequested: true,
		Customer: inv.Customer, Invoice: inv.ID,
		Description: "Invoice " + wire.InvoiceIDPrefix + string(inv.ID[:]), // one allocation
	}
	p.SetSource(src)
	return p
}

// Payable reports whether inv can still be paid: open, or uncollectible
// after its dunning ran out, as Stripe's invoices are.
func (inv *Invoice) Payable() bool {
	return inv.Status == wire.InvoiceStatusOpen || inv.Status == wire.InvoiceStatusUncollectible
}

// MarkPaid records inv as paid in full, with no attempt left to make.
func (inv *Invoice) MarkPaid() {
	inv.Status, inv.AmountPaid, inv.NextAttempt = wire.InvoiceStatusPaid, inv.AmountDue, 0
}

// CheckPay refuses another attempt at inv: it is neither open nor
// uncollectible, or last, its latest payment, still waits for 3-D Secure
// (so that an invoice is never paid twice). last is nil when inv has no
// payment.
func (inv *Invoice) CheckPay(last *Payment) *Refusal {
	id := inv.ID.Format(wire.InvoiceIDPrefix)
	if !inv.Payable() {
		return unexpected(wire.ErrorCodeInvoiceUnexpectedState, "Invoice %s is %s; only an open or uncollectible invoice can be paid.", id, inv.Status)
	}
	if last != nil && last.Status == wire.PaymentStatusPending {
		return unexpected(wire.ErrorCodeInvoiceUnexpectedState, "Invoice %s's payment %s is waiting for 3-D Secure; complete it (POST /_sandbox/payments/{id}/complete) before another attempt.",
			id, last.ID.Format(wire.PaymentIDPrefix))
	}
	return nil
}

// CheckRetry refuses outcome, the end of the 3-D Secure of inv's latest
// payment, when it would leave inv, an open renewal's invoice, to be
// charged again at at, after wire.MaxTime: the service never writes a
// later next_payment_attempt.
func (inv *Invoice) CheckRetry(outcome string, at int64) *Refusal {
	if outcome == wire.OutcomeApproved || inv.Status != wire.InvoiceStatusOpen || inv.BillingReason != wire.BillingReasonSubscriptionCycle || at <= wire.MaxTimeUnix {
		return nil
	}
	return invalid(wire.ParamOutcome, "outcome %s would leave invoice %s unpaid, to be charged again after %s, the latest time the API writes; complete the payment %s.",
		outcome, inv.ID.Format(wire.InvoiceIDPrefix), rfc(wire.MaxTimeUnix), wire.OutcomeApproved)
}

// Void makes inv void, never to be paid, or refuses: only an open
// invoice can be voided, and not while last, its latest payment, waits
// for 3-D Secure (so that a void invoice cannot be paid after all).
func (inv *Invoice) Void(last *Payment) *Refusal {
	id := inv.ID.Format(wire.InvoiceIDPrefix)
	if inv.Status != wire.InvoiceStatusOpen {
		return unexpected(wire.ErrorCodeInvoiceUnexpectedState, "Invoice %s is %s; only an open invoice can be voided.", id, inv.Status)
	}
	if last != nil && last.Status == wire.PaymentStatusPending {
		return unexpected(wire.ErrorCodeInvoiceUnexpectedState, "Invoice %s's payment %s is waiting for 3-D Secure; complete it (POST /_sandbox/payments/{id}/complete) first.",
			id, last.ID.Format(wire.PaymentIDPrefix))
	}
	inv.Status, inv.NextAttempt = wire.InvoiceStatusVoid, 0
	return nil
}
