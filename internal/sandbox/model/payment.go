package model

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Payment is a charge of a card, and what became of it.
type Payment struct {
	ID       ids.RID
	Seq      uint64
	Created  int64
	Amount   int64
	Refunded int64
	Currency string
	Status   string
	Captured bool
	// CaptureRequested is the create's capture flag; a 3-D Secure payment
	// completed without an outcome ends authorized when it was false.
	CaptureRequested bool
	// sumStatus and Summed are what the account's summary counted of it
	// (summary.go): sumStatus in the struct's padding, so that they cost
	// a payment 8 bytes.
	sumStatus   uint8
	AuthCode    string
	SourceID    ids.RID
	Card        *Card
	ExpMonth    int32
	ExpYear     int32
	Customer    ids.RID // zero when none
	Invoice     ids.RID // the invoice it pays, zero when none
	Description string
	Meta        Metadata
	Counted     int64 // bytes charged to the account, see MemBytes
	Summed      PaymentSum
}

// SetSource records the card a payment is charged to.
func (p *Payment) SetSource(src *Source) {
	p.SourceID, p.Card, p.ExpMonth, p.ExpYear = src.ID, src.Card, src.ExpMonth, src.ExpYear
}

// PaymentFromRecord decodes a payment's record.
func PaymentFromRecord(raw []byte) (*Payment, error) {
	var rec PaymentRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reading a payment record from the data file: %w", err)
	}
	id, ok1 := ids.Parse(rec.ID, wire.PaymentIDPrefix)
	sid, ok2 := ids.Parse(rec.SourceID, wire.SourceIDPrefix)
	cd, month := CardFromRecord(rec.Token, rec.Last4, rec.ExpMonth)
	cur, okCur := Intern(wire.Currencies, rec.Currency)
	if !ok1 || !ok2 || cd == nil || !okCur || !slices.Contains(wire.PaymentStatuses, rec.Status) {
		return nil, fmt.Errorf("data file: payment %q is malformed", rec.ID)
	}
	p := &Payment{
		ID: id, Seq: rec.Seq, Created: rec.Created, Amount: rec.Amount, Refunded: rec.Refunded,
		Currency: cur, Captured: rec.Captured, CaptureRequested: rec.CaptureRequested,
		AuthCode: rec.AuthCode, SourceID: sid, Card: cd, ExpMonth: month, ExpYear: rec.ExpYear,
		Description: rec.Description, Meta: MetaFromRecord(rec.Meta),
	}
	// Interned like a fresh payment's, so that statuses compare as constants.
	p.Status = wire.PaymentStatuses[slices.Index(wire.PaymentStatuses, rec.Status)]
	if rec.Customer != "" {
		if p.Customer, ok1 = ids.Parse(rec.Customer, wire.CustomerIDPrefix); !ok1 {
			return nil, fmt.Errorf("data file: payment %s has a malformed customer %q", rec.ID, rec.Customer)
		}
	}
	if p.Invoice, ok1 = ParseOptID(rec.Invoice, wire.InvoiceIDPrefix); !ok1 {
		return nil, fmt.Errorf("data file: payment %s has a malformed invoice %q", rec.ID, rec.Invoice)
	}
	return p, nil
}

// PaymentRecord is the stored form of a payment.
type PaymentRecord struct {
	ID               string      `json:"id"`
	Seq              uint64      `json:"seq"`
	Created          int64       `json:"created"`
	Amount           int64       `json:"amount"`
	Refunded         int64       `json:"refunded,omitempty"`
	Currency         string      `json:"currency"`
	Status           string      `json:"status"`
	Captured         bool        `json:"captured,omitempty"`
	CaptureRequested bool        `json:"capture_requested,omitempty"`
	AuthCode         string      `json:"auth_code,omitempty"`
	SourceID         string      `json:"source_id"`
	Token            string      `json:"token"`
	ExpYear          int32       `json:"exp_year"`
	Last4            string      `json:"last4,omitempty"`
	ExpMonth         int32       `json:"exp_month,omitempty"`
	Customer         string      `json:"customer,omitempty"`
	Invoice          string      `json:"invoice,omitempty"`
	Description      string      `json:"description,omitempty"`
	Meta             [][2]string `json:"meta,omitempty"`
}

// RecordKey is the payment's key in its bucket: its id.
func (p *Payment) RecordKey() string { return p.ID.Format(wire.PaymentIDPrefix) }

// RecordValue is the payment's record, as JSON.
func (p *Payment) RecordValue() []byte {
	rec := PaymentRecord{
		ID: p.ID.Format(wire.PaymentIDPrefix), Seq: p.Seq, Created: p.Created,
		Amount: p.Amount, Refunded: p.Refunded, Currency: p.Currency, Status: p.Status,
		Captured: p.Captured, CaptureRequested: p.CaptureRequested, AuthCode: p.AuthCode,
		SourceID: p.SourceID.Format(wire.SourceIDPrefix), Token: p.Card.Token, ExpYear: p.ExpYear,
		Description: p.Description, Meta: MetaRecord(p.Meta),
	}
	rec.Last4, rec.ExpMonth = CardRecord(p.Card, p.ExpMonth)
	if !p.Customer.IsZero() {
		rec.Customer = p.Customer.Format(wire.CustomerIDPrefix)
	}
	rec.Invoice = OptID(wire.InvoiceIDPrefix, p.Invoice)
	return Marshal(rec)
}

// MemBytes is what the payment costs its account (sizes.go).
func (p *Payment) MemBytes() int64 {
	n := PaymentBytes + RidMapEntry + OrderSlot + StrBytes(p.AuthCode) + StrBytes(p.Description) + MetaBytes(p.Meta)
	if !p.Customer.IsZero() {
		n += OrderSlot // byCustomer
	}
	return n
}

// PaymentJSON appends the payment's JSON, as the API answers it, to b.
func PaymentJSON(b []byte, p *Payment) []byte {
	if b == nil {
		b = make([]byte, 0, 512+len(p.Description))
	}
	b = append(b, `{"id":`...)
	b = ids.Append(b, wire.PaymentIDPrefix, p.ID)
	b = append(b, `,"object":"payment","amount":`...)
	b = jsonw.Int(b, p.Amount)
	b = append(b, `,"amount_refunded":`...)
	b = jsonw.Int(b, p.Refunded)
	b = append(b, `,"currency":`...)
	b = jsonw.String(b, p.Currency)
	b = append(b, `,"status":`...)
	b = jsonw.String(b, p.Status)
	b = append(b, `,"captured":`...)
	b = jsonw.Bool(b, p.Captured)
	b = append(b, `,"authorization_code":`...)
	b = jsonw.OptString(b, p.AuthCode)
	b = append(b, `,"source":{"id":`...)
	b = ids.Append(b, wire.SourceIDPrefix, p.SourceID)
	b = append(b, ',')
	b = cardFieldsJSON(b, p.Card, p.ExpMonth, p.ExpYear)
	b = append(b, `},"customer":`...)
	if p.Customer.IsZero() {
		b = append(b, "null"...)
	} else {
		b = ids.Append(b, wire.CustomerIDPrefix, p.Customer)
	}
	b = append(b, `,"description":`...)
	b = jsonw.OptString(b, p.Description)
	b = append(b, `,"invoice":`...)
	b = ids.AppendOpt(b, wire.InvoiceIDPrefix, p.Invoice)
	return AppendMetadataTail(b, p.Meta, p.Created)
}
