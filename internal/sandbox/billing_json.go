package sandbox

import "github.com/paymentsdev/terraform-provider-payments/internal/wire"

// The JSON of subscriptions and invoices, written by hand as the other
// objects' (jsonw.go).

func subscriptionJSON(b []byte, s *subscription) []byte {
	if b == nil {
		b = make([]byte, 0, 640+500*len(s.items))
	}
	b = append(b, `{"id":`...)
	b = appendID(b, wire.SubscriptionIDPrefix, s.id)
	b = append(b, `,"object":"subscription","customer":`...)
	b = appendID(b, wire.CustomerIDPrefix, s.customer)
	b = append(b, `,"items":[`...)
	for i, it := range s.items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = appendID(b, wire.SubscriptionItemIDPrefix, it.id)
		b = append(b, `,"object":"subscription_item","price":`...)
		b = priceJSON(b, it.price)
		b = append(b, `,"quantity":`...)
		b = appendInt(b, it.quantity)
		b = append(b, '}')
	}
	b = append(b, `],"default_source":`...)
	b = appendOptID(b, wire.SourceIDPrefix, s.defaultSource)
	b = append(b, `,"status":`...)
	b = appendString(b, s.status)
	b = append(b, `,"current_period_start":`...)
	b = appendTime(b, s.periodStart)
	b = append(b, `,"current_period_end":`...)
	b = appendTime(b, s.periodEnd)
	b = append(b, `,"cancel_at_period_end":`...)
	b = appendBool(b, s.cancelAtPeriodEnd)
	b = append(b, `,"canceled_at":`...)
	b = appendOptTime(b, s.canceledAt)
	b = append(b, `,"trial_start":`...)
	b = appendOptTime(b, s.trialStart)
	b = append(b, `,"trial_end":`...)
	b = appendOptTime(b, s.trialEnd)
	b = append(b, `,"latest_invoice":`...)
	b = appendOptID(b, wire.InvoiceIDPrefix, s.latestInvoice)
	return appendMetadataTail(b, s.meta, s.created)
}

func invoiceJSON(b []byte, inv *invoice) []byte {
	if b == nil {
		b = make([]byte, 0, 640+200*len(inv.lines))
	}
	b = append(b, `{"id":`...)
	b = appendID(b, wire.InvoiceIDPrefix, inv.id)
	b = append(b, `,"object":"invoice","customer":`...)
	b = appendID(b, wire.CustomerIDPrefix, inv.customer)
	b = append(b, `,"subscription":`...)
	b = appendID(b, wire.SubscriptionIDPrefix, inv.subscription)
	b = append(b, `,"status":`...)
	b = appendString(b, inv.status)
	b = append(b, `,"billing_reason":`...)
	b = appendString(b, inv.billingReason)
	b = append(b, `,"lines":[`...)
	for i, l := range inv.lines {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"subscription_item":`...)
		b = appendID(b, wire.SubscriptionItemIDPrefix, l.item)
		b = append(b, `,"price":`...)
		b = appendID(b, wire.PriceIDPrefix, l.price)
		b = append(b, `,"quantity":`...)
		b = appendInt(b, l.quantity)
		b = append(b, `,"amount":`...)
		b = appendInt(b, l.amount)
		b = append(b, `,"period_start":`...)
		b = appendTime(b, inv.periodStart)
		b = append(b, `,"period_end":`...)
		b = appendTime(b, inv.periodEnd)
		b = append(b, '}')
	}
	b = append(b, `],"amount_due":`...)
	b = appendInt(b, inv.amountDue)
	b = append(b, `,"amount_paid":`...)
	b = appendInt(b, inv.amountPaid)
	b = append(b, `,"currency":`...)
	b = appendString(b, inv.currency)
	b = append(b, `,"attempt_count":`...)
	b = appendInt(b, inv.attempts)
	b = append(b, `,"next_payment_attempt":`...)
	b = appendOptTime(b, inv.nextAttempt)
	b = append(b, `,"payment":`...)
	b = appendOptID(b, wire.PaymentIDPrefix, inv.payment)
	b = append(b, `,"period_start":`...)
	b = appendTime(b, inv.periodStart)
	b = append(b, `,"period_end":`...)
	b = appendTime(b, inv.periodEnd)
	b = append(b, `,"created_at":`...)
	b = appendTime(b, inv.created)
	return append(b, `,"livemode":false}`...)
}
