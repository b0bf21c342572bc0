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
		cu, err := customerFromRecord(raw)
		if err != nil {
			return nil, err
		}
		a.customers[cu.id] = cu
		a.sources += len(cu.sources)
	}
	if err := s.orderCustomers(a); err != nil {
		return nil, err
	}
	ps := make([]*payment, 0, len(sa.payments))
	for _, raw := range sa.payments {
		p, err := paymentFromRecord(raw)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
		a.seq = max(a.seq, p.seq)
	}
	slices.SortFunc(ps, func(x, y *payment) int { return cmp.Compare(x.seq, y.seq) })
	for _, p := range ps {
		a.addPayment(p)
	}
	if err := a.loadWebhooks(sa.webhooks); err != nil {
		return nil, err
	}
	if err := a.cat.load(sa.catalog); err != nil {
		return nil, err
	}
	if err := a.bill.load(sa.catalog, &a.cat); err != nil {
		return nil, err
	}
	if err := a.clocks.load(sa.catalog); err != nil {
		return nil, err
	}
	for _, raw := range sa.tokens {
		t, err := tokenFromRecord(raw)
		if err != nil {
			return nil, err
		}
		if a.tokens == nil {
			a.tokens = make(map[rid]*cardToken)
		}
		a.tokens[t.id] = t
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
func tokenFromRecord(raw []byte) (*cardToken, error) {
	var rec tokenRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reading a token record from the data file: %w", err)
	}
	id, ok := parseRID(rec.ID, wire.TokenIDPrefix)
	cd, month := cardFromRecord(rec.Token, rec.Last4, rec.ExpMonth)
	if !ok || cd == nil {
		return nil, fmt.Errorf("data file: token %q is malformed", rec.ID)
	}
	return &cardToken{id: id, card: cd, expMonth: month, expYear: rec.ExpYear,
		fingerprint: rec.Fingerprint, used: rec.Used, created: rec.Created}, nil
}

// customerFromRecord decodes a customer's record, its sources with it.
func customerFromRecord(raw []byte) (*customer, error) {
	var rec customerRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reading a customer record from the data file: %w", err)
	}
	id, ok := parseRID(rec.ID, wire.CustomerIDPrefix)
	if !ok {
		return nil, fmt.Errorf("data file: customer id %q is malformed", rec.ID)
	}
	cu := &customer{id: id, seq: rec.Seq, created: rec.Created, email: rec.Email, name: rec.Name, phone: rec.Phone, meta: metaFromRecord(rec.Meta)}
	if cu.clock, ok = parseOptID(rec.Clock, wire.TestClockIDPrefix); !ok {
		return nil, fmt.Errorf("data file: customer %s has a malformed test clock %q", rec.ID, rec.Clock)
	}
	for _, sr := range rec.Sources {
		sid, ok := parseRID(sr.ID, wire.SourceIDPrefix)
		cd, month := cardFromRecord(sr.Token, sr.Last4, sr.ExpMonth)
		if !ok || cd == nil {
			return nil, fmt.Errorf("data file: source %q of customer %s is malformed", sr.ID, rec.ID)
		}
		src := &source{id: sid, card: cd, expMonth: month, expYear: sr.ExpYear}
		cu.sources = append(cu.sources, src)
		if sr.ID == rec.Default {
			cu.defaultSource = src
		}
	}
	return cu, nil
}

// paymentFromRecord decodes a payment's record.
func paymentFromRecord(raw []byte) (*payment, error) {
	var rec paymentRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reading a payment record from the data file: %w", err)
	}
	id, ok1 := parseRID(rec.ID, wire.PaymentIDPrefix)
	sid, ok2 := parseRID(rec.SourceID, wire.SourceIDPrefix)
	cd, month := cardFromRecord(rec.Token, rec.Last4, rec.ExpMonth)
	cur, okCur := intern(wire.Currencies, rec.Currency)
	if !ok1 || !ok2 || cd == nil || !okCur || !slices.Contains(wire.PaymentStatuses, rec.Status) {
		return nil, fmt.Errorf("data file: payment %q is malformed", rec.ID)
	}
	p := &payment{
		id: id, seq: rec.Seq, created: rec.Created, amount: rec.Amount, refunded: rec.Refunded,
		currency: cur, captured: rec.Captured, captureRequested: rec.CaptureRequested,
		authCode: rec.AuthCode, sourceID: sid, card: cd, expMonth: month, expYear: rec.ExpYear,
		description: rec.Description, meta: metaFromRecord(rec.Meta),
	}
	// Interned like a fresh payment's, so that statuses compare as constants.
	p.status = wire.PaymentStatuses[slices.Index(wire.PaymentStatuses, rec.Status)]
	if rec.Customer != "" {
		if p.customer, ok1 = parseRID(rec.Customer, wire.CustomerIDPrefix); !ok1 {
			return nil, fmt.Errorf("data file: payment %s has a malformed customer %q", rec.ID, rec.Customer)
		}
	}
	if p.invoice, ok1 = parseOptID(rec.Invoice, wire.InvoiceIDPrefix); !ok1 {
		return nil, fmt.Errorf("data file: payment %s has a malformed invoice %q", rec.ID, rec.Invoice)
	}
	return p, nil
}
