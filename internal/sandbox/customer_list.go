package sandbox

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The customer list (GET /v1/customers) is newest first by creation
// order, like every list: customers carry a sequence number of their own
// (account.customerSeq), kept in the data file, because created_at has
// whole seconds and many customers share one.

// indexCustomer gives a new customer the next sequence number and puts it
// at the end of the account's creation order.
func (a *account) indexCustomer(cu *model.Customer) {
	a.customerSeq++
	cu.Seq = a.customerSeq
	a.customerOrder = append(a.customerOrder, cu)
}

// unindexCustomer takes a deleted customer out of the creation order.
func (a *account) unindexCustomer(cu *model.Customer) {
	a.customerOrder = model.RemoveBySeq(a.customerOrder, cu.Seq, func(x *model.Customer) uint64 { return x.Seq })
}

// orderCustomers builds the creation order of the customers loaded from the
// data file. Records written before customers had a sequence number (seq
// 0) come first, oldest first by created_at then id, and every customer is
// then numbered afresh and written back, so that the order is the same
// after every later restart.
func (s *Server) orderCustomers(a *account) error {
	order := make([]*model.Customer, 0, len(a.customers))
	legacy := false
	for _, cu := range a.customers {
		order = append(order, cu)
		legacy = legacy || cu.Seq == 0
		a.customerSeq = max(a.customerSeq, cu.Seq)
	}
	slices.SortFunc(order, func(x, y *model.Customer) int {
		if c := cmp.Compare(x.Seq, y.Seq); c != 0 {
			return c
		}
		if c := cmp.Compare(x.Created, y.Created); c != 0 {
			return c
		}
		return strings.Compare(string(x.ID[:]), string(y.ID[:]))
	})
	a.customerOrder = order
	if !legacy {
		return nil
	}
	c := &call{s: s, a: a}
	for i, cu := range order {
		cu.Seq = uint64(i) + 1
		c.putCustomer(cu)
	}
	a.customerSeq = uint64(len(order))
	if len(c.ops) == 0 {
		return nil
	}
	if err := s.store.Commit(a.hash, c.ops); err != nil {
		return fmt.Errorf("numbering the customers of the data file in creation order: %w", err)
	}
	return nil
}

// customerFilter reads the customer filter of a list of payments,
// invoices or subscriptions: the zero rid when none is given, else an
// existing customer's id.
func (c *call) customerFilter() (rid, *apierr.Error) {
	v, _ := c.f.Get(wire.ParamCustomer)
	if v == "" {
		return rid{}, nil
	}
	if r, ok := parseRID(v, wire.CustomerIDPrefix); ok && c.a.customers[r] != nil {
		return r, nil
	}
	return rid{}, apierr.MissingRef(wire.ParamCustomer, "customer %q does not exist.", apierr.Clip(v))
}

// listCustomers is GET /v1/customers: the account's customers, newest
// first, optionally only those whose e-mail address is email, ignoring
// case (an empty email filters nothing, as the other lists' filters), and
// those created in a range (form.CreatedRange).
func (c *call) listCustomers() response {
	if e := listing.Check(c.f, append(form.Created, wire.ParamEmail)...); e != nil {
		return errResponse(e)
	}
	// A filter that no customer's address could equal is a mistake worth
	// naming, not an empty page.
	email, _ := c.f.Get(wire.ParamEmail)
	if email != "" {
		if e := form.CheckEmail(email); e != nil {
			return errResponse(e)
		}
	}
	from, to, e := form.CreatedRange(c.f)
	if e != nil {
		return errResponse(e)
	}
	match := func(cu *model.Customer) bool {
		return (email == "" || strings.EqualFold(cu.Email, email)) && cu.Created >= from && cu.Created <= to
	}
	l := listing.List[*model.Customer]{
		URL: wire.PathCustomers, Noun: "customer",
		Seq: func(cu *model.Customer) uint64 { return cu.Seq },
		Find: func(id string) (*model.Customer, bool) {
			r, ok := parseRID(id, wire.CustomerIDPrefix)
			cu := c.a.customers[r]
			return cu, ok && cu != nil
		},
		Every: func() []*model.Customer { return c.a.customerOrder },
		Write: func(b []byte, cu *model.Customer) []byte { return model.CustomerJSON(b, cu) },
	}
	return serveList(c, &l, c.a.customerOrder, match)
}
