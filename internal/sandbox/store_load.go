package sandbox

// Reading the store back: the records of every account, decoded into the
// objects the handlers serve, when the sandbox starts or after a failed
// commit.

import (
	"cmp"
	"slices"
	"sync/atomic"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
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
		if a.sum.rebuilt {
			// Written once, so that the next start reads them rather than
			// counting again; should that fail, it counts again.
			if err := s.store.Commit(hash, a.summaryOps()); err != nil {
				s.log.Error("writing an account's summary, counted from its objects, to the data file failed; it is counted again at the next start", "error", err)
			}
			a.sum.rebuilt = false
		}
	}
	return nil
}

// buildAccount turns one account's stored records into an account.
func (s *Server) buildAccount(hash [32]byte, sa *storedAccount, now time.Time, total *atomic.Int64) (*account, error) {
	a := newAccount(hash, total)
	a.seq = sa.seq
	for _, raw := range sa.customers {
		cu, err := model.CustomerFromRecord(raw)
		if err != nil {
			return nil, err
		}
		a.customers[cu.ID] = cu
		a.sources += len(cu.Sources)
	}
	if err := s.orderCustomers(a); err != nil {
		return nil, err
	}
	ps := make([]*model.Payment, 0, len(sa.payments))
	for _, raw := range sa.payments {
		p, err := model.PaymentFromRecord(raw)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
		a.seq = max(a.seq, p.Seq)
	}
	slices.SortFunc(ps, func(x, y *model.Payment) int { return cmp.Compare(x.Seq, y.Seq) })
	for _, p := range ps {
		a.addPayment(p)
	}
	if err := a.loadWebhooks(sa.webhooks, now); err != nil {
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
	if err := a.loadBillingSettings(sa.billing); err != nil {
		return nil, err
	}
	var err error
	if a.sum.rebuilt, err = a.loadSummary(sa.summary); err != nil {
		return nil, err
	}
	a.scheduleRenewals()
	for _, raw := range sa.tokens {
		t, err := model.TokenFromRecord(raw)
		if err != nil {
			return nil, err
		}
		if a.tokens == nil {
			a.tokens = make(map[rid]*model.CardToken)
		}
		a.tokens[t.ID] = t
	}
	if err := a.idem.Load(sa.idem, now); err != nil {
		return nil, err
	}
	a.countLoaded(now)
	return a, nil
}
