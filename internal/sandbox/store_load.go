package sandbox

// Reading the store back: the records of every account, decoded into the
// objects the handlers serve, when the sandbox starts or after a failed
// commit.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// buildAccounts turns the stored records into accounts; a record that does
// not decode fails it whole, so that no half-read state is ever served.
func (s *Server) buildAccounts(stored map[storage.AccountID]*storage.Account) error {
	now := s.now()
	for hash, acct := range stored {
		a, err := s.buildAccount(hash, storedFrom(acct), now, &s.total)
		if err != nil {
			return err
		}
		s.accounts[hash] = a
		s.indexAccount(a)
	}
	return nil
}

// buildAccount turns one account's stored records into an account.
func (s *Server) buildAccount(hash [32]byte, sa *storedAccount, now time.Time, total *atomic.Int64) (*account, error) {
	a := newAccount(hash, total)
	a.seq = sa.seq
	for _, raw := range sa.customers {
		cu, err := CustomerFromRecord(raw)
		if err != nil {
			return nil, err
		}
		a.customers[cu.ID] = cu
		a.sources += len(cu.Sources)
	}
	if err := s.orderCustomers(a); err != nil {
		return nil, err
	}
	ps := make([]*Payment, 0, len(sa.payments))
	for _, raw := range sa.payments {
		p, err := PaymentFromRecord(raw)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
		a.seq = max(a.seq, p.Seq)
	}
	slices.SortFunc(ps, func(x, y *Payment) int { return cmp.Compare(x.Seq, y.Seq) })
	for _, p := range ps {
		a.addPayment(p)
	}
	if err := a.loadWebhooks(sa.webhooks); err != nil {
		return nil, err
	}
	if err := a.cat.Load(sa.catalog); err != nil {
		return nil, err
	}
	if err := a.bill.Load(sa.catalog, &a.cat); err != nil {
		return nil, err
	}
	if err := a.clocks.Load(sa.catalog); err != nil {
		return nil, err
	}
	for _, raw := range sa.tokens {
		t, err := TokenFromRecord(raw)
		if err != nil {
			return nil, err
		}
		if a.tokens == nil {
			a.tokens = make(map[rid]*CardToken)
		}
		a.tokens[t.ID] = t
	}
	for key, raw := range sa.idem {
		var st idemStored
		if err := json.Unmarshal(raw, &st); err != nil {
			return nil, fmt.Errorf("reading an idempotency record from the data file: %w", err)
		}
		if len(st.FP) != 32 {
			return nil, fmt.Errorf("data file: idempotency record %q has a %d-byte fingerprint, want 32", key, len(st.FP))
		}
		rec := &idemRecord{key: key, created: st.Created, done: true, status: st.Status, body: st.Body}
		copy(rec.fp[:], st.FP)
		if rec.expired(now) {
			continue // deleted from the file by a later sweep or overwrite
		}
		a.idem[key] = rec
		a.idemQueue = append(a.idemQueue, rec)
	}
	slices.SortFunc(a.idemQueue, func(x, y *idemRecord) int { return cmp.Compare(x.created, y.created) })
	a.countLoaded(now)
	return a, nil
}

// tokenFromRecord decodes a minted card token's record.
func TokenFromRecord(raw []byte) (*CardToken, error) {
	var rec TokenRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reading a token record from the data file: %w", err)
	}
	id, ok := parseRID(rec.ID, wire.TokenIDPrefix)
	cd, month := CardFromRecord(rec.Token, rec.Last4, rec.ExpMonth)
	if !ok || cd == nil {
		return nil, fmt.Errorf("data file: token %q is malformed", rec.ID)
	}
	return &CardToken{ID: id, Card: cd, ExpMonth: month, ExpYear: rec.ExpYear,
		Fingerprint: rec.Fingerprint, Used: rec.Used, Created: rec.Created}, nil
}

// customerFromRecord decodes a customer's record, its sources with it.
func CustomerFromRecord(raw []byte) (*Customer, error) {
	var rec CustomerRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reading a customer record from the data file: %w", err)
	}
	id, ok := parseRID(rec.ID, wire.CustomerIDPrefix)
	if !ok {
		return nil, fmt.Errorf("data file: customer id %q is malformed", rec.ID)
	}
	cu := &Customer{ID: id, Seq: rec.Seq, Created: rec.Created, Email: rec.Email, Name: rec.Name, Phone: rec.Phone, Meta: MetaFromRecord(rec.Meta)}
	if cu.Clock, ok = ParseOptID(rec.Clock, wire.TestClockIDPrefix); !ok {
		return nil, fmt.Errorf("data file: customer %s has a malformed test clock %q", rec.ID, rec.Clock)
	}
	for _, sr := range rec.Sources {
		sid, ok := parseRID(sr.ID, wire.SourceIDPrefix)
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

// paymentFromRecord decodes a payment's record.
func PaymentFromRecord(raw []byte) (*Payment, error) {
	var rec PaymentRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reading a payment record from the data file: %w", err)
	}
	id, ok1 := parseRID(rec.ID, wire.PaymentIDPrefix)
	sid, ok2 := parseRID(rec.SourceID, wire.SourceIDPrefix)
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
		if p.Customer, ok1 = parseRID(rec.Customer, wire.CustomerIDPrefix); !ok1 {
			return nil, fmt.Errorf("data file: payment %s has a malformed customer %q", rec.ID, rec.Customer)
		}
	}
	if p.Invoice, ok1 = ParseOptID(rec.Invoice, wire.InvoiceIDPrefix); !ok1 {
		return nil, fmt.Errorf("data file: payment %s has a malformed invoice %q", rec.ID, rec.Invoice)
	}
	return p, nil
}
