package model

import (
	"encoding/json"
	"fmt"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
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

// Source is a card attached to a customer.
type Source struct {
	ID                ids.RID
	Card              *Card
	ExpMonth, ExpYear int32
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

// MemBytes is what the customer costs its account (sizes.go).
func (cu *Customer) MemBytes() int64 {
	n := CustomerBytes + RidMapEntry + OrderSlot +
		StrBytes(cu.Email) + StrBytes(cu.Name) + StrBytes(cu.Phone) + MetaBytes(cu.Meta)
	if len(cu.Sources) > 0 {
		n += int64(cap(cu.Sources))*PtrBytes + AllocOverhead + int64(len(cu.Sources))*SourceBytes
	}
	return n
}
