package sandbox

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Store keeps a sandbox's state across restarts. Open one with OpenStore.
// Its other methods are unexported: the server is its only user.
type Store interface {
	// Close flushes and releases the store.
	Close() error

	// load returns every account's records.
	load() (map[[32]byte]*storedAccount, error)
	// commit writes one request's changes to one account, durably, in one
	// transaction: all of them or none.
	commit(account [32]byte, ops []op) error
}

// storedAccount is one account's records as the store holds them.
type storedAccount struct {
	customers [][]byte
	payments  [][]byte
	idem      map[string][]byte
	seq       uint64
	webhooks  map[string][][]byte // by bucket name, see webhookBuckets
}

type opKind uint8

const (
	opPut opKind = iota
	opDelete
	opDropAccount // every record of the account (POST /_sandbox/reset)
)

// op is one change to an account's records. bucket "" is the account's
// own bucket (it holds the sequence).
type op struct {
	kind   opKind
	bucket string
	key    string
	val    []byte
}

// Bucket layout: accounts/<hex SHA-256 of the key>/{customers,payments,idem}
// plus the key "seq". The secret key itself is never written.
var (
	bucketAccounts  = []byte("accounts")
	bucketCustomers = "customers"
	bucketPayments  = "payments"
	bucketIdem      = "idem"
	keySeq          = "seq"
)

type boltStore struct {
	db   *bolt.DB
	path string
}

// OpenStore opens, or creates, the data file at path. Every write is
// synced to disk before the request is answered, so no answered write is
// lost, even to kill -9 or a power cut.
//
// A file that is truncated, partly overwritten or not a data file at all
// is refused with an error naming it and what to do: it is opened
// read-only first and checked page by page (bbolt's tx.Check), with bbolt's
// panics and memory faults on damaged pages turned into that error, so
// the sandbox never crashes on it, never writes to it and never serves
// half of it.
func OpenStore(path string) (Store, error) {
	if info, err := os.Stat(path); err == nil && info.Size() > 0 {
		if err := checkFile(path); err != nil {
			return nil, err
		}
	}
	var db *bolt.DB
	err := guard(func() (err error) {
		db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second})
		return err
	})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("opening data file %s: it is locked by another process; stop the other payments-sandbox or use another -data file", path)
	}
	if err != nil {
		return nil, fmt.Errorf("opening data file %s: %w", path, err)
	}
	// A file that has its layout is not written to until a request
	// changes something: a file refused later, at load, stays as it was.
	var initialised bool
	_ = db.View(func(tx *bolt.Tx) error { initialised = tx.Bucket(bucketAccounts) != nil; return nil })
	if initialised {
		return &boltStore{db: db, path: path}, nil
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(bucketAccounts)
		return err
	}); err != nil {
		db.Close()
		return nil, fmt.Errorf("initialising data file %s: %w", path, err)
	}
	return &boltStore{db: db, path: path}, nil
}

// checkFile opens an existing data file read-only and checks it whole.
func checkFile(path string) error {
	var db *bolt.DB
	err := guard(func() (err error) {
		db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second, ReadOnly: true})
		return err
	})
	if errors.Is(err, berrors.ErrTimeout) {
		return fmt.Errorf("opening data file %s: it is locked by another process; stop the other payments-sandbox or use another -data file", path)
	}
	if err != nil {
		return damaged(path, err)
	}
	err = guard(func() error {
		return db.View(func(tx *bolt.Tx) error {
			// Pages past the end of a truncated file are mapped but not
			// backed: reading one is a fault, so the size comes first.
			info, err := os.Stat(path)
			if err != nil {
				return err
			}
			if info.Size() < tx.Size() {
				return fmt.Errorf("the file is %d bytes long but its pages need %d: it is truncated", info.Size(), tx.Size())
			}
			// The first problem is enough to refuse the file; the rest are
			// drained so that the checker's goroutine ends.
			var first error
			for err := range tx.Check() {
				if first == nil {
					first = err
				}
			}
			if first != nil {
				return first
			}
			if tx.Bucket(bucketAccounts) == nil {
				return errors.New("it holds no sandbox data")
			}
			return nil
		})
	})
	if cerr := guard(db.Close); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return damaged(path, err)
	}
	return nil
}

// damaged is the one-line error for a data file that cannot be used.
func damaged(path string, cause error) error {
	// bbolt's checker reports its recovered assertions as "panic: ...";
	// nothing panicked here, so that word would only alarm.
	reason := strings.ReplaceAll(strings.Join(strings.Fields(cause.Error()), " "), "panic: ", "")
	if len(reason) > 200 {
		reason = strings.ToValidUTF8(reason[:200], "") + "..."
	}
	return fmt.Errorf("data file %s is damaged or is not a sandbox data file (%s); restore it from a copy, or start without -data or with a new -data file", path, reason)
}

// guard runs f, turning a panic, or a memory fault on a damaged page
// (bbolt trusts its pages and reads them through mmap), into an error.
func guard(f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("bbolt failed reading it: %v", r)
		}
	}()
	return f()
}

func (st *boltStore) Close() error { return st.db.Close() }

func (st *boltStore) commit(account [32]byte, ops []op) error {
	name := []byte(hex.EncodeToString(account[:]))
	return st.db.Update(func(tx *bolt.Tx) error {
		root := tx.Bucket(bucketAccounts)
		for _, o := range ops {
			if o.kind == opDropAccount {
				if err := root.DeleteBucket(name); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
					return err
				}
				continue
			}
			acct, err := root.CreateBucketIfNotExists(name)
			if err != nil {
				return err
			}
			b := acct
			if o.bucket != "" {
				if b, err = acct.CreateBucketIfNotExists([]byte(o.bucket)); err != nil {
					return err
				}
			}
			if o.kind == opDelete {
				err = b.Delete([]byte(o.key))
			} else {
				err = b.Put([]byte(o.key), o.val)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

func (st *boltStore) load() (map[[32]byte]*storedAccount, error) {
	out := make(map[[32]byte]*storedAccount)
	err := guard(func() error { return st.db.View(st.loadTx(out)) })
	if err != nil {
		return nil, damaged(st.path, err)
	}
	return out, nil
}

func (st *boltStore) loadTx(out map[[32]byte]*storedAccount) func(*bolt.Tx) error {
	return func(tx *bolt.Tx) error {
		return tx.Bucket(bucketAccounts).ForEachBucket(func(name []byte) error {
			var hash [32]byte
			if n, err := hex.Decode(hash[:], name); err != nil || n != len(hash) {
				return fmt.Errorf("account bucket %q is not a hex SHA-256", name)
			}
			acct := tx.Bucket(bucketAccounts).Bucket(name)
			sa := &storedAccount{idem: make(map[string][]byte)}
			if v := acct.Get([]byte(keySeq)); len(v) == 8 {
				sa.seq = binary.BigEndian.Uint64(v)
			}
			// bbolt's bytes are only valid inside the transaction: copy.
			if b := acct.Bucket([]byte(bucketCustomers)); b != nil {
				_ = b.ForEach(func(_, v []byte) error { sa.customers = append(sa.customers, slices.Clone(v)); return nil })
			}
			if b := acct.Bucket([]byte(bucketPayments)); b != nil {
				_ = b.ForEach(func(_, v []byte) error { sa.payments = append(sa.payments, slices.Clone(v)); return nil })
			}
			if b := acct.Bucket([]byte(bucketIdem)); b != nil {
				_ = b.ForEach(func(k, v []byte) error { sa.idem[string(k)] = slices.Clone(v); return nil })
			}
			sa.webhooks = make(map[string][][]byte)
			for _, name := range webhookBuckets {
				if b := acct.Bucket([]byte(name)); b != nil {
					_ = b.ForEach(func(_, v []byte) error { sa.webhooks[name] = append(sa.webhooks[name], slices.Clone(v)); return nil })
				}
			}
			out[hash] = sa
			return nil
		})
	}
}

// The records, as JSON. Sources live inside their customer's record, in
// attach order, so that a customer and its sources change together.
type (
	customerRecord struct {
		ID      string         `json:"id"`
		Seq     uint64         `json:"seq,omitempty"` // 0 in files written before the customer list
		Created int64          `json:"created"`
		Email   string         `json:"email,omitempty"`
		Name    string         `json:"name,omitempty"`
		Phone   string         `json:"phone,omitempty"`
		Meta    [][2]string    `json:"meta,omitempty"`
		Sources []sourceRecord `json:"sources,omitempty"`
		Default string         `json:"default,omitempty"`
	}
	sourceRecord struct {
		ID      string `json:"id"`
		Token   string `json:"token"`
		ExpYear int32  `json:"exp_year"`
	}
	paymentRecord struct {
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
		Customer         string      `json:"customer,omitempty"`
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

func metaRecord(m metadata) [][2]string {
	out := make([][2]string, len(m))
	for i, e := range m {
		out[i] = [2]string{e.k, e.v}
	}
	return out
}

func metaFromRecord(r [][2]string) metadata {
	if len(r) == 0 {
		return nil
	}
	m := make(metadata, len(r))
	for i, e := range r {
		m[i] = kv{e[0], e[1]}
	}
	slices.SortFunc(m, func(a, b kv) int {
		switch {
		case a.k < b.k:
			return -1
		case a.k > b.k:
			return 1
		}
		return 0
	})
	return m
}

func (c *call) addOp(o op) {
	if c.s.store != nil {
		c.ops = append(c.ops, o)
	}
}

func (c *call) marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("sandbox: encoding a record: %v", err)) // plain structs cannot fail
	}
	return b
}

func (c *call) putCustomer(cu *customer) {
	if c.s.store == nil {
		return
	}
	rec := customerRecord{
		ID: cu.id.format(wire.CustomerIDPrefix), Seq: cu.seq, Created: cu.created,
		Email: cu.email, Name: cu.name, Phone: cu.phone, Meta: metaRecord(cu.meta),
	}
	for _, s := range cu.sources {
		rec.Sources = append(rec.Sources, sourceRecord{ID: s.id.format(wire.SourceIDPrefix), Token: s.card.token, ExpYear: s.expYear})
	}
	if cu.defaultSource != nil {
		rec.Default = cu.defaultSource.id.format(wire.SourceIDPrefix)
	}
	c.addOp(op{kind: opPut, bucket: bucketCustomers, key: rec.ID, val: c.marshal(rec)})
}

func (c *call) deleteCustomerRecord(id rid) {
	c.addOp(op{kind: opDelete, bucket: bucketCustomers, key: id.format(wire.CustomerIDPrefix)})
}

func (c *call) putPayment(p *payment) {
	if c.s.store == nil {
		return
	}
	rec := paymentRecord{
		ID: p.id.format(wire.PaymentIDPrefix), Seq: p.seq, Created: p.created,
		Amount: p.amount, Refunded: p.refunded, Currency: p.currency, Status: p.status,
		Captured: p.captured, CaptureRequested: p.captureRequested, AuthCode: p.authCode,
		SourceID: p.sourceID.format(wire.SourceIDPrefix), Token: p.card.token, ExpYear: p.expYear,
		Description: p.description, Meta: metaRecord(p.meta),
	}
	if !p.customer.isZero() {
		rec.Customer = p.customer.format(wire.CustomerIDPrefix)
	}
	c.addOp(op{kind: opPut, bucket: bucketPayments, key: rec.ID, val: c.marshal(rec)})
}

func (c *call) putSeq() {
	var v [8]byte
	binary.BigEndian.PutUint64(v[:], c.a.seq)
	c.addOp(op{kind: opPut, key: keySeq, val: v[:]})
}

func (c *call) putIdem(rec *idemRecord) {
	if c.s.store == nil {
		return
	}
	c.addOp(op{kind: opPut, bucket: bucketIdem, key: rec.key, val: c.marshal(idemStored{
		FP: rec.fp[:], Created: rec.created, Status: rec.status, Body: rec.body,
	})})
}

func (c *call) deleteIdem(key string) {
	c.addOp(op{kind: opDelete, bucket: bucketIdem, key: key})
}

func (c *call) dropAccount() { c.addOp(op{kind: opDropAccount}) }

// loadStore rebuilds the accounts from the store.
func (s *Server) loadStore() error {
	stored, err := s.store.load()
	if err != nil {
		return err
	}
	if err := s.buildAccounts(stored); err != nil {
		if bs, ok := s.store.(*boltStore); ok {
			return damaged(bs.path, err)
		}
		return fmt.Errorf("reading the data file: %w", err)
	}
	return nil
}

// buildAccounts turns the stored records into accounts; a record that does
// not decode fails it whole, so that no half-read state is ever served.
func (s *Server) buildAccounts(stored map[[32]byte]*storedAccount) error {
	now := s.now()
	for hash, sa := range stored {
		a := newAccount(hash)
		a.seq = sa.seq
		for _, raw := range sa.customers {
			var rec customerRecord
			if err := json.Unmarshal(raw, &rec); err != nil {
				return fmt.Errorf("reading a customer record from the data file: %w", err)
			}
			cu, err := customerFromRecord(rec)
			if err != nil {
				return err
			}
			a.customers[cu.id] = cu
			a.sources += len(cu.sources)
		}
		if err := s.orderCustomers(a); err != nil {
			return err
		}
		ps := make([]*payment, 0, len(sa.payments))
		for _, raw := range sa.payments {
			var rec paymentRecord
			if err := json.Unmarshal(raw, &rec); err != nil {
				return fmt.Errorf("reading a payment record from the data file: %w", err)
			}
			p, err := paymentFromRecord(rec)
			if err != nil {
				return err
			}
			ps = append(ps, p)
			a.seq = max(a.seq, p.seq)
		}
		slices.SortFunc(ps, func(x, y *payment) int {
			switch {
			case x.seq < y.seq:
				return -1
			case x.seq > y.seq:
				return 1
			}
			return 0
		})
		for _, p := range ps {
			a.addPayment(p)
		}
		if err := a.loadWebhooks(sa.webhooks); err != nil {
			return err
		}
		for key, raw := range sa.idem {
			var st idemStored
			if err := json.Unmarshal(raw, &st); err != nil {
				return fmt.Errorf("reading an idempotency record from the data file: %w", err)
			}
			if len(st.FP) != 32 {
				return fmt.Errorf("data file: idempotency record %q has a %d-byte fingerprint, want 32", key, len(st.FP))
			}
			rec := &idemRecord{key: key, created: st.Created, done: true, status: st.Status, body: st.Body}
			copy(rec.fp[:], st.FP)
			if rec.expired(now) {
				continue // deleted from the file by a later sweep or overwrite
			}
			a.idem[key] = rec
			a.idemQueue = append(a.idemQueue, rec)
		}
		slices.SortFunc(a.idemQueue, func(x, y *idemRecord) int {
			switch {
			case x.created < y.created:
				return -1
			case x.created > y.created:
				return 1
			}
			return 0
		})
		s.accounts[hash] = a
	}
	return nil
}

func customerFromRecord(rec customerRecord) (*customer, error) {
	id, ok := parseRID(rec.ID, wire.CustomerIDPrefix)
	if !ok {
		return nil, fmt.Errorf("data file: customer id %q is malformed", rec.ID)
	}
	cu := &customer{id: id, seq: rec.Seq, created: rec.Created, email: rec.Email, name: rec.Name, phone: rec.Phone, meta: metaFromRecord(rec.Meta)}
	for _, sr := range rec.Sources {
		sid, ok := parseRID(sr.ID, wire.SourceIDPrefix)
		cd := cardByToken(sr.Token)
		if !ok || cd == nil {
			return nil, fmt.Errorf("data file: source %q of customer %s is malformed", sr.ID, rec.ID)
		}
		src := &source{id: sid, card: cd, expYear: sr.ExpYear}
		cu.sources = append(cu.sources, src)
		if sr.ID == rec.Default {
			cu.defaultSource = src
		}
	}
	return cu, nil
}

func paymentFromRecord(rec paymentRecord) (*payment, error) {
	id, ok1 := parseRID(rec.ID, wire.PaymentIDPrefix)
	sid, ok2 := parseRID(rec.SourceID, wire.SourceIDPrefix)
	cd := cardByToken(rec.Token)
	cur, cerr := currency(rec.Currency)
	if !ok1 || !ok2 || cd == nil || cerr != nil || !slices.Contains(wire.PaymentStatuses, rec.Status) {
		return nil, fmt.Errorf("data file: payment %q is malformed", rec.ID)
	}
	p := &payment{
		id: id, seq: rec.Seq, created: rec.Created, amount: rec.Amount, refunded: rec.Refunded,
		currency: cur, captured: rec.Captured, captureRequested: rec.CaptureRequested,
		authCode: rec.AuthCode, sourceID: sid, card: cd, expYear: rec.ExpYear,
		description: rec.Description, meta: metaFromRecord(rec.Meta),
	}
	// Interned like a fresh payment's, so that statuses compare as constants.
	p.status = wire.PaymentStatuses[slices.Index(wire.PaymentStatuses, rec.Status)]
	if rec.Customer != "" {
		if p.customer, ok1 = parseRID(rec.Customer, wire.CustomerIDPrefix); !ok1 {
			return nil, fmt.Errorf("data file: payment %s has a malformed customer %q", rec.ID, rec.Customer)
		}
	}
	return p, nil
}
