package sandbox

import "github.com/paymentsdev/terraform-provider-payments/internal/wire"

// The JSON of subscriptions and invoices, written by hand as the other
// objects' (jsonw.go).

func SubscriptionJSON(b []byte, s *Subscription) []byte {
	if b == nil {
		b = make([]byte, 0, 640+500*len(s.Items))
	}
	b = append(b, `{"id":`...)
	b = appendID(b, wire.SubscriptionIDPrefix, s.ID)
	b = append(b, `,"object":"subscription","customer":`...)
	b = appendID(b, wire.CustomerIDPrefix, s.Customer)
	b = append(b, `,"items":[`...)
	for i, it := range s.Items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = appendID(b, wire.SubscriptionItemIDPrefix, it.ID)
		b = append(b, `,"object":"subscription_item","price":`...)
		b = priceJSON(b, it.Price)
		b = append(b, `,"quantity":`...)
		b = appendInt(b, it.Quantity)
		b = append(b, '}')
	}
	b = append(b, `],"default_source":`...)
	b = appendOptID(b, wire.SourceIDPrefix, s.DefaultSource)
	b = append(b, `,"status":`...)
	b = appendString(b, s.Status)
	b = append(b, `,"current_period_start":`...)
	b = appendTime(b, s.PeriodStart)
	b = append(b, `,"current_period_end":`...)
	b = appendTime(b, s.PeriodEnd)
	b = append(b, `,"cancel_at_period_end":`...)
	b = appendBool(b, s.CancelAtPeriodEnd)
	b = append(b, `,"canceled_at":`...)
	b = appendOptTime(b, s.CanceledAt)
	b = append(b, `,"trial_start":`...)
	b = appendOptTime(b, s.TrialStart)
	b = append(b, `,"trial_end":`...)
	b = appendOptTime(b, s.TrialEnd)
	b = append(b, `,"latest_invoice":`...)
	b = appendOptID(b, wire.InvoiceIDPrefix, s.LatestInvoice)
	return appendMetadataTail(b, s.Meta, s.Created)
}

func InvoiceJSON(b []byte, inv *Invoice) []byte {
	if b == nil {
		b = make([]byte, 0, 640+200*len(inv.Lines))
	}
	b = append(b, `{"id":`...)
	b = appendID(b, wire.InvoiceIDPrefix, inv.ID)
	b = append(b, `,"object":"invoice","customer":`...)
	b = appendID(b, wire.CustomerIDPrefix, inv.Customer)
	b = append(b, `,"subscription":`...)
	b = appendID(b, wire.SubscriptionIDPrefix, inv.Subscription)
	b = append(b, `,"status":`...)
	b = appendString(b, inv.Status)
	b = append(b, `,"billing_reason":`...)
	b = appendString(b, inv.BillingReason)
	b = append(b, `,"lines":[`...)
	for i, l := range inv.Lines {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"subscription_item":`...)
		b = appendID(b, wire.SubscriptionItemIDPrefix, l.Item)
		b = append(b, `,"price":`...)
		b = appendID(b, wire.PriceIDPrefix, l.Price)
		b = append(b, `,"quantity":`...)
		b = appendInt(b, l.Quantity)
		b = append(b, `,"amount":`...)
		b = appendInt(b, l.Amount)
		b = append(b, `,"period_start":`...)
		b = appendTime(b, inv.PeriodStart)
		b = append(b, `,"period_end":`...)
		b = appendTime(b, inv.PeriodEnd)
		b = append(b, '}')
	}
	b = append(b, `],"amount_due":`...)
	b = appendInt(b, inv.AmountDue)
	b = append(b, `,"amount_paid":`...)
	b = appendInt(b, inv.AmountPaid)
	b = append(b, `,"currency":`...)
	b = appendString(b, inv.Currency)
	b = append(b, `,"attempt_count":`...)
	b = appendInt(b, inv.Attempts)
	b = append(b, `,"next_payment_attempt":`...)
	b = appendOptTime(b, inv.NextAttempt)
	b = append(b, `,"payment":`...)
	b = appendOptID(b, wire.PaymentIDPrefix, inv.Payment)
	b = append(b, `,"period_start":`...)
	b = appendTime(b, inv.PeriodStart)
	b = append(b, `,"period_end":`...)
	b = appendTime(b, inv.PeriodEnd)
	b = append(b, `,"created_at":`...)
	b = appendTime(b, inv.Created)
	return append(b, `,"livemode":false}`...)
}
