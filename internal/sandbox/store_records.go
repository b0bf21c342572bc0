package sandbox

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sync/atomic"
	"syscall"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The buckets of an account's records in the store, beside the webhooks'
// (webhooks_store.go).
const (
	BucketCustomers = "customers"
	BucketPayments  = "payments"
	bucketIdem      = "idem"
	BucketTokens    = "tokens"
)

// storedAccount is one account's records, each bucket's in key order.
type storedAccount struct {
	customers [][]byte
	payments  [][]byte
	idem      map[string][]byte
	seq       uint64
	webhooks  map[string][][]byte // by bucket name, see webhookBuckets
	tokens    [][]byte
	catalog   map[string][][]byte // by bucket name, see catalogBuckets and billingBuckets
}

// storedFrom sorts an account's records from the store by bucket, each
// bucket's in key order, as the file keeps them.
func storedFrom(acct *storage.Account) *storedAccount {
	sa := &storedAccount{seq: acct.Seq, idem: acct.Buckets[bucketIdem], webhooks: make(map[string][][]byte), catalog: make(map[string][][]byte)}
	if sa.idem == nil {
		sa.idem = make(map[string][]byte)
	}
	inOrder := func(m map[string][]byte) [][]byte {
		var out [][]byte
		for _, k := range slices.Sorted(maps.Keys(m)) {
			out = append(out, m[k])
		}
		return out
	}
	sa.customers = inOrder(acct.Buckets[BucketCustomers])
	sa.payments = inOrder(acct.Buckets[BucketPayments])
	sa.tokens = inOrder(acct.Buckets[BucketTokens])
	for _, name := range webhookBuckets {
		if m := acct.Buckets[name]; len(m) > 0 {
			sa.webhooks[name] = inOrder(m)
		}
	}
	for _, name := range append(CatalogBuckets, BillingBuckets...) {
		if m := acct.Buckets[name]; len(m) > 0 {
			sa.catalog[name] = inOrder(m)
		}
	}
	return sa
}

// The records, as JSON. Sources live inside their customer's record, in
// attach order, so that a customer and its sources change together.
type (
	CustomerRecord struct {
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
	SourceRecord struct {
		ID      string `json:"id"`
		Token   string `json:"token"`
		ExpYear int32  `json:"exp_year"`
		// A minted token's card: its own last 4 and expiry month. Empty
		// and 0 for a test token's card (and in older files).
		Last4    string `json:"last4,omitempty"`
		ExpMonth int32  `json:"exp_month,omitempty"`
	}
	TokenRecord struct {
		ID          string `json:"id"`
		Token       string `json:"token"` // the test token whose behaviour the card has
		Last4       string `json:"last4"`
		ExpMonth    int32  `json:"exp_month"`
		ExpYear     int32  `json:"exp_year"`
		Fingerprint string `json:"fingerprint"`
		Used        bool   `json:"used,omitempty"`
		Created     int64  `json:"created"`
	}
	PaymentRecord struct {
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
	idemStored struct {
		FP      []byte `json:"fp"`
		Created int64  `json:"created"`
		Status  int    `json:"status"`
		Body    []byte `json:"body"`
	}
)

func MetaRecord(m Metadata) [][2]string {
	out := make([][2]string, len(m))
	for i, e := range m {
		out[i] = [2]string{e.K, e.V}
	}
	return out
}

func MetaFromRecord(r [][2]string) Metadata {
	if len(r) == 0 {
		return nil
	}
	m := make(Metadata, len(r))
	for i, e := range r {
		m[i] = Kv{e[0], e[1]}
	}
	slices.SortFunc(m, func(a, b Kv) int { return cmp.Compare(a.K, b.K) })
	return m
}

// addOp stages a change for the call's commit, if the store keeps it,
// which encodes the records it names at commit (see storage.NoCopy).
func (c *call) addOp(o storage.Op) { c.ops = c.s.store.Stage(c.ops, o) }

// marshal encodes a record's JSON.
func Marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("sandbox: encoding a record: %v", err)) // plain structs cannot fail
	}
	return b
}

func (c *call) putCustomer(cu *Customer) {
	c.a.recount(&cu.Counted, cu.MemBytes())
	c.addOp(storage.PutRecord(BucketCustomers, cu))
}

func (cu *Customer) RecordKey() string { return cu.ID.Format(wire.CustomerIDPrefix) }

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

func (c *call) deleteCustomerRecord(cu *Customer) {
	c.addOp(storage.DeleteRecord(BucketCustomers, cu))
}

func (c *call) putPayment(p *Payment) {
	c.a.recount(&p.Counted, p.MemBytes())
	c.addOp(storage.PutRecord(BucketPayments, p))
}

func (p *Payment) RecordKey() string { return p.ID.Format(wire.PaymentIDPrefix) }

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

func (c *call) putToken(t *CardToken) {
	c.a.recount(&t.Counted, TokenBytes)
	c.addOp(storage.PutRecord(BucketTokens, t))
}

func (t *CardToken) RecordKey() string { return t.ID.Format(wire.TokenIDPrefix) }

func (t *CardToken) RecordValue() []byte {
	return Marshal(TokenRecord{
		ID: t.ID.Format(wire.TokenIDPrefix), Token: t.Card.Token, Last4: t.Card.Last4,
		ExpMonth: t.ExpMonth, ExpYear: t.ExpYear, Fingerprint: t.Fingerprint, Used: t.Used, Created: t.Created,
	})
}

// cardRecord is what a record keeps of a card beyond its test token: the
// last 4 and expiry month of a minted token's card, none for a test token.
func CardRecord(cd *Card, month int32) (string, int32) {
	if base := CardByToken(cd.Token); base != nil && base.Last4 == cd.Last4 && month == ExpMonth {
		return "", 0
	}
	return cd.Last4, month
}

// cardFromRecord is the card a record names: its test token's, with a
// minted token's own last 4 when the record has one.
func CardFromRecord(token, last4 string, month int32) (*Card, int32) {
	cd := CardByToken(token)
	if cd == nil {
		return nil, 0
	}
	if month == 0 {
		month = ExpMonth
	}
	if last4 != "" && last4 != cd.Last4 {
		cd = &Card{Token: cd.Token, Brand: cd.Brand, Last4: last4, Behaviour: cd.Behaviour}
	}
	return cd, month
}

func (c *call) putSeq() {
	c.addOp(storage.SetSeq(c.a.seq))
}

func (c *call) putIdem(rec *idemRecord) { c.addOp(storage.PutRecord(bucketIdem, rec)) }

func (rec *idemRecord) RecordKey() string { return rec.key }

func (rec *idemRecord) RecordValue() []byte {
	return Marshal(idemStored{FP: rec.fp[:], Created: rec.created, Status: rec.status, Body: rec.body})
}

func (c *call) deleteIdem(rec *idemRecord) { c.addOp(storage.DeleteRecord(bucketIdem, rec)) }

func (c *call) dropAccount() { c.addOp(storage.DropAccount()) }

// loadStore rebuilds the accounts from the store.
func (s *Server) loadStore() error {
	stored, err := s.store.Load()
	if err != nil {
		return err
	}
	if err := s.buildAccounts(stored); err != nil {
		return s.store.Unusable(err)
	}
	return nil
}

// rollback puts the account back to what the store holds, after a commit
// of c's changes failed: memory then has nothing the disk lacks, and the
// next write starts from what is durable. The account is write-locked.
func (s *Server) rollback(c *call) error {
	a := c.a
	stored, err := s.store.LoadAccount(a.hash)
	if err != nil {
		return err
	}
	// Counted apart: restore charges the server's total the difference.
	var scratch atomic.Int64
	fresh := newAccount(a.hash, &scratch)
	if stored != nil {
		if fresh, err = s.buildAccount(a.hash, storedFrom(stored), s.now(), &scratch); err != nil {
			return err
		}
	}
	a.restore(fresh, c.undo)
	return nil
}

// storeFailed answers a request whose changes could not be written. Its
// account goes back to the disk's state, so the request changed nothing
// and a retry runs it again. Only when that read fails too, or when the
// store cannot tell whether the changes are on disk, is the server left
// refusing every request until a restart: memory may then hold what the
// disk does not. The account is write-locked.
func (s *Server) storeFailed(c *call, err error) *apierr.Error {
	if errors.Is(err, storage.ErrOutcomeUnknown) {
		s.storeErr.CompareAndSwap(nil, &err)
		s.log.Error("writing the data file failed and the write could not be erased: the request's outcome is unknown; refusing every request until a restart", "error", err)
		return outcomeUnknown(err)
	}
	s.log.Error("writing the data file failed; the request changed nothing and is answered 503", "error", err)
	if rerr := s.rollback(c); rerr != nil {
		s.storeErr.CompareAndSwap(nil, &rerr)
		s.log.Error("reading the data file back after a failed write failed too; refusing every request until a restart", "error", rerr)
	}
	return storageUnavailable(err)
}

// storageUnavailable is the 503 of a write the disk refused. Its message
// names the cause (no space left on device, read-only file system…) but
// never the file's path: answers reach clients, the path is the
// operator's business and is in the log.
func storageUnavailable(err error) *apierr.Error {
	return &apierr.Error{
		Status: http.StatusServiceUnavailable, Type: wire.ErrorTypeAPI, Code: wire.ErrorCodeStorageUnavailable,
		Message: fmt.Sprintf("The sandbox could not write its data file (%s), so this request changed nothing. Retry it, with the same Idempotency-Key, once the disk takes writes again.", storageCause(err)),
	}
}

// outcomeUnknown is the 503 of a write that may or may not be on disk:
// its sync failed and so did erasing it. The sandbox then stops.
func outcomeUnknown(err error) *apierr.Error {
	e := storageUnavailable(err)
	e.Message = fmt.Sprintf("The sandbox could not write its data file (%s) nor erase the failed write, so the outcome of this request is unknown: it may or may not have changed anything. The sandbox answers no more requests until it is restarted; then read the objects back, or retry with the same Idempotency-Key.", storageCause(err))
	return e
}

// storageCause is the system's word for a store error (no space left on
// device…), which names no path.
func storageCause(err error) string {
	var errno syscall.Errno
	switch {
	case errors.As(err, &errno):
		return errno.Error()
	case errors.Is(err, storage.ErrLogFull):
		return "its write-ahead log is full and the data file did not take its records in time"
	}
	return "see the sandbox's log"
}
