package model

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Customer is a customer of the account, with the cards (sources)
// attached to it.
type Customer struct {
	ID                 ids.RID
	Seq                uint64 // creation order (the sandbox's customer_list.go)
	Created            int64
	Email, Name, Phone string
	Meta               Metadata
	// Sources are in the order they were attached; the default after
	// removing the default is the last of them.
	Sources       []*Source
	DefaultSource *Source
	// Clock is the customer's test clock, zero on real time; fixed at
	// creation (the sandbox's testclocks.go).
	Clock   ids.RID
	Counted int64 // bytes charged to the account, see MemBytes
}

// Source finds the customer's source of id r: its place and itself, or -1
// and nil.
func (c *Customer) Source(r ids.RID) (int, *Source) {
	for i, s := range c.Sources {
		if s.ID == r {
			return i, s
		}
	}
	return -1, nil
}

// ChargeSource is the source a charge for the customer goes to: pref,
// when it is one of its sources, else its default; nil when it has none.
func (c *Customer) ChargeSource(pref ids.RID) *Source {
	if !pref.IsZero() {
		if _, src := c.Source(pref); src != nil {
			return src
		}
	}
	return c.DefaultSource
}

// Attach adds src to the customer's sources, as its default when it has
// none; defaulted reports that.
func (c *Customer) Attach(src *Source) (defaulted bool) {
	c.Sources = append(c.Sources, src)
	if c.DefaultSource == nil {
		c.DefaultSource = src
		return true
	}
	return false
}

// Detach removes the customer's i-th source. When it was the default,
// the most recently attached of those left becomes the default (none
// when none is left), and defaultChanged says so.
func (c *Customer) Detach(i int) (src *Source, defaultChanged bool) {
	src = c.Sources[i]
	c.Sources = slices.Delete(c.Sources, i, i+1)
	if c.DefaultSource != src {
		return src, false
	}
	c.DefaultSource = nil
	if n := len(c.Sources); n > 0 {
		c.DefaultSource = c.Sources[n-1]
	}
	return src, true
}

// SubscriptionSource is the source of the customer that a subscription's
// default_source v names; nil when v is empty (its charges then go to the
// customer's default).
func (c *Customer) SubscriptionSource(v string) (*Source, *Refusal) {
	if v == "" {
		return nil, nil
	}
	if r, ok := ids.Parse(v, wire.SourceIDPrefix); ok {
		if _, src := c.Source(r); src != nil {
			return src, nil
		}
	}
	id := c.ID.Format(wire.CustomerIDPrefix)
	return nil, &Refusal{Param: wire.ParamDefaultSource, Code: wire.ErrorCodeResourceMissing,
		Message: fmt.Sprintf("default_source %q is not a source of customer %s; attach it first with POST /v1/customers/%s/sources.", clip(v), id, id)}
}

// SetDefaultSource makes the source v names the customer's default: one
// of its sources; a default is replaced, never removed.
func (c *Customer) SetDefaultSource(v string) *Refusal {
	if v == "" {
		return invalid(wire.ParamDefaultSource, "default_source cannot be empty: a default can be replaced by another attached source (%s...), not removed.", wire.SourceIDPrefix)
	}
	if r, ok := ids.Parse(v, wire.SourceIDPrefix); ok {
		if _, src := c.Source(r); src != nil {
			c.DefaultSource = src
			return nil
		}
	}
	id := c.ID.Format(wire.CustomerIDPrefix)
	return &Refusal{Param: wire.ParamDefaultSource, Code: wire.ErrorCodeResourceMissing,
		Message: fmt.Sprintf("default_source %q is not a source attached to customer %s; attach it first with POST /v1/customers/%s/sources.", clip(v), id, id)}
}

// StoredSource is the source v, a src_ id sent as a payment's source, of
// cu, the payment's customer: a stored source is charged only together
// with the customer it is attached to (cu nil refuses it).
func StoredSource(cu *Customer, v string) (*Source, *Refusal) {
	if cu == nil {
		return nil, &Refusal{Param: wire.ParamCustomer, Code: wire.ErrorCodeParameterMissing,
			Message: "source " + clip(v) + " is a stored source; send it together with customer, the customer it is attached to."}
	}
	if r, ok := ids.Parse(v, wire.SourceIDPrefix); ok {
		if _, src := cu.Source(r); src != nil {
			return src, nil
		}
	}
	return nil, &Refusal{Param: wire.ParamSource, Code: wire.ErrorCodeResourceMissing,
		Message: fmt.Sprintf("source %q is not attached to customer %s; send one of its sources, or a token.", clip(v), cu.ID.Format(wire.CustomerIDPrefix))}
}

// Source is a card attached to a customer.
type Source struct {
	ID                ids.RID
	Card              *Card
	ExpMonth, ExpYear int32
}

// RecordKey is the customer's key in its bucket: its id.
func (cu *Customer) RecordKey() string { return cu.ID.Format(wire.CustomerIDPrefix) }

// RecordValue is the customer's record, as JSON.
func (cu *Customer) RecordValue() []byte {
	rec := CustomerRecord{
		ID: cu.ID.Format(wire.CustomerIDPrefix), Seq: cu.Seq, Created: cu.Created,
		Email: cu.Email, Name: cu.Name, Phone: cu.Phone, Meta: MetaRecord(cu.Meta),
	}
	rec.Clock = OptID(wire.TestClockIDPrefix, cu.Clock)
	for _, s := range cu.Sources {
		sr := SourceRecord{ID: s.ID.Format(wire.SourceIDPrefix), Token: s.Card.Token, ExpYear: s.ExpYear}
		sr.Last4, sr.ExpMonth = CardRecord(s.Card, s.ExpMonth)
		rec.Sources = append(rec.Sources, sr)
	}
	if cu.DefaultSource != nil {
		rec.Default = cu.DefaultSource.ID.Format(wire.SourceIDPrefix)
	}
	return Marshal(rec)
}

// CustomerFromRecord decodes a customer's record, its sources with it.
func CustomerFromRecord(raw []byte) (*Customer, error) {
	var rec CustomerRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reading a customer record from the data file: %w", err)
	}
	id, ok := ids.Parse(rec.ID, wire.CustomerIDPrefix)
	if !ok {
		return nil, fmt.Errorf("data file: customer id %q is malformed", rec.ID)
	}
	cu := &Customer{ID: id, Seq: rec.Seq, Created: rec.Created, Email: rec.Email, Name: rec.Name, Phone: rec.Phone, Meta: MetaFromRecord(rec.Meta)}
	if cu.Clock, ok = ParseOptID(rec.Clock, wire.TestClockIDPrefix); !ok {
		return nil, fmt.Errorf("data file: customer %s has a malformed test clock %q", rec.ID, rec.Clock)
	}
	for _, sr := range rec.Sources {
		sid, ok := ids.Parse(sr.ID, wire.SourceIDPrefix)
		cd, month := CardFromRecord(sr.Token, sr.Last4, sr.ExpMonth)
		if !ok || cd == nil {
			return nil, fmt.Errorf("data file: source %q of customer %s is malformed", sr.ID, rec.ID)
		}
		src := &Source{ID: sid, Card: cd, ExpMonth: month, ExpYear: sr.ExpYear}
		cu.Sources = append(cu.Sources, src)
		if sr.ID == rec.Default {
			cu.DefaultSource = src
		}
	}
	return cu, nil
}

// CustomerRecord is the stored form of a customer, its sources inside it in attach order, so that
// the two change together.
type CustomerRecord struct {
	ID      string         `json:"id"`
	Seq     uint64         `json:"seq,omitempty"` // 0 in files written before the customer list
	Created int64          `json:"created"`
	Email   string         `json:"email,omitempty"`
	Name    string         `json:"name,omitempty"`
	Phone   string         `json:"phone,omitempty"`
	Meta    [][2]string    `json:"meta,omitempty"`
	Sources []SourceRecord `json:"sources,omitempty"`
	Default string         `json:"default,omitempty"`
	Clock   string         `json:"clock,omitempty"`
}

// SourceRecord is the stored form of a customer's source, inside its customer's record.
type SourceRecord struct {
	ID      string `json:"id"`
	Token   string `json:"token"`
	ExpYear int32  `json:"exp_year"`
	// A minted token's card: its own last 4 and expiry month. Empty
	// and 0 for a test token's card (and in older files).
	Last4    string `json:"last4,omitempty"`
	ExpMonth int32  `json:"exp_month,omitempty"`
}

// MemBytes is what the customer costs its account (sizes.go).
func (cu *Customer) MemBytes() int64 {
	n := CustomerBytes + RidMapEntry + OrderSlot +
		StrBytes(cu.Email) + StrBytes(cu.Name) + StrBytes(cu.Phone) + MetaBytes(cu.Meta)
	if len(cu.Sources) > 0 {
		n += SliceBytes(len(cu.Sources), PtrBytes) + AllocOverhead + int64(len(cu.Sources))*SourceBytes
	}
	return n
}

// CustomerJSON appends the customer's JSON, as the API answers it, to b
// (nil makes a buffer of a typical size).
func CustomerJSON(b []byte, cu *Customer) []byte {
	if b == nil {
		b = make([]byte, 0, 320+80*len(cu.Sources))
	}
	b = append(b, `{"id":`...)
	b = ids.Append(b, wire.CustomerIDPrefix, cu.ID)
	b = append(b, `,"object":"customer","email":`...)
	b = jsonw.OptString(b, cu.Email)
	b = append(b, `,"name":`...)
	b = jsonw.OptString(b, cu.Name)
	b = append(b, `,"phone":`...)
	b = jsonw.OptString(b, cu.Phone)
	b = append(b, `,"default_source":`...)
	if cu.DefaultSource != nil {
		b = ids.Append(b, wire.SourceIDPrefix, cu.DefaultSource.ID)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"sources":{"object":"list","data":[`...)
	for i, s := range cu.Sources {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = ids.Append(b, wire.SourceIDPrefix, s.ID)
		b = append(b, `,"brand":`...)
		b = jsonw.String(b, s.Card.Brand)
		b = append(b, `,"last4":`...)
		b = jsonw.String(b, s.Card.Last4)
		b = append(b, '}')
	}
	b = append(b, `],"has_more":false,"url":"`+wire.PathCustomers+"/"+wire.CustomerIDPrefix...)
	b = append(b, cu.ID[:]...)
	b = append(b, `/sources"}`...)
	if !cu.Clock.IsZero() {
		b = append(b, `,"test_clock":`...)
		b = ids.Append(b, wire.TestClockIDPrefix, cu.Clock)
	}
	return AppendMetadataTail(b, cu.Meta, cu.Created)
}

// SourceJSON appends the JSON of the customer's source s to b.
func SourceJSON(b []byte, cu *Customer, s *Source) []byte {
	b = append(b, `{"id":`...)
	b = ids.Append(b, wire.SourceIDPrefix, s.ID)
	b = append(b, `,"object":"source","customer":`...)
	b = ids.Append(b, wire.CustomerIDPrefix, cu.ID)
	b = append(b, ',')
	b = cardFieldsJSON(b, s.Card, s.ExpMonth, s.ExpYear)
	return append(b, `,"livemode":false}`...)
}
