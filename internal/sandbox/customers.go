package sandbox

import (
	"slices"
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// customerFields are the optional scalars of a customer, validated alike
// on create and update.
var customerFields = []struct {
	name  string
	check func(string) *apierr.Error
	field func(*model.Customer) *string
}{
	{wire.ParamEmail, form.CheckEmail, func(c *model.Customer) *string { return &c.Email }},
	{wire.ParamName, form.CheckName, func(c *model.Customer) *string { return &c.Name }},
	{wire.ParamPhone, form.CheckPhone, func(c *model.Customer) *string { return &c.Phone }},
}

// setCustomerFields validates the scalar fields of f and writes them to
// dst. An empty value clears the field.
func (c *call) setCustomerFields(dst *model.Customer) *apierr.Error {
	for _, cf := range customerFields {
		v, ok := c.f.Get(cf.name)
		if !ok {
			continue
		}
		if v != "" {
			if e := cf.check(v); e != nil {
				return e
			}
		}
		// Clone: v points into the request body, which must not stay pinned.
		*cf.field(dst) = strings.Clone(v)
	}
	return nil
}

func (c *call) newSource(cd *model.Card) *model.Source {
	return &model.Source{ID: newRID(), Card: cd, ExpMonth: model.ExpMonth, ExpYear: model.TestCardExpYear(c.now)}
}

// attach adds src to cu, the default if cu has none, and reports that.
func (c *call) attach(cu *model.Customer, src *model.Source) bool {
	c.a.sources++
	return cu.Attach(src)
}

// pathCustomer is the customer named by the path's {id}, or a 404.
func (c *call) pathCustomer() (*model.Customer, *apierr.Error) {
	id := c.r.PathValue("id")
	if r, ok := parseRID(id, wire.CustomerIDPrefix); ok {
		if cu := c.a.customers[r]; cu != nil {
			return cu, nil
		}
	}
	return nil, apierr.NotFound("customer", id)
}

func (c *call) createCustomer() response {
	if e := c.f.Check(wire.ParamEmail, wire.ParamName, wire.ParamPhone, wire.ParamMetadata, form.MetadataKeys, wire.ParamSource, wire.ParamTestClock); e != nil {
		return errResponse(e)
	}
	clk, e := c.customerClockParam()
	if e != nil {
		return errResponse(e)
	}
	cu := &model.Customer{Created: c.unix, Clock: clk}
	if k := c.a.clocks.ByID[clk]; k != nil {
		c.unix, c.now, cu.Created = k.Frozen, time.Unix(k.Frozen, 0), k.Frozen
	}
	if e := c.setCustomerFields(cu); e != nil {
		return errResponse(e)
	}
	meta, e := form.ApplyMetadata(nil, c.f)
	if e != nil {
		return errResponse(e)
	}
	cu.Meta = meta
	var src *model.Source
	if v, ok := c.f.Get(wire.ParamSource); ok && v != "" {
		if src, e = c.tokenSource(wire.ParamSource, v); e != nil {
			return errResponse(e)
		}
	}
	cu.ID = newRID()
	for c.a.customers[cu.ID] != nil {
		cu.ID = newRID()
	}
	c.a.customers[cu.ID] = cu
	c.a.indexCustomer(cu)
	if src != nil {
		c.attach(cu, src)
	}
	c.putCustomer(cu)
	b := model.CustomerJSON(nil, cu)
	c.emit(wire.EventCustomerCreated, b)
	if src != nil {
		c.emit(wire.EventCustomerSourceCreated, model.SourceJSON(nil, cu, cu.Sources[0]))
	}
	return ok(b)
}

func (c *call) retrieveCustomer() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	cu, e := c.pathCustomer()
	if e != nil {
		return errResponse(e)
	}
	return ok(model.CustomerJSON(nil, cu))
}

func (c *call) updateCustomer() response {
	if e := c.f.Check(wire.ParamEmail, wire.ParamName, wire.ParamPhone, wire.ParamMetadata, form.MetadataKeys, wire.ParamDefaultSource, wire.ParamTestClock); e != nil {
		return errResponse(e)
	}
	if _, ok := c.f.Get(wire.ParamTestClock); ok {
		return errResponse(apierr.Invalid(wire.ParamTestClock, "test_clock is set when a customer is created and fixed for its life; create a new customer with test_clock to put one on a clock."))
	}
	cu, e := c.pathCustomer()
	if e != nil {
		return errResponse(e)
	}
	c.onClock(cu.ID)
	// Validate everything on a copy, so that a rejected update changes nothing.
	next := *cu
	if e := c.setCustomerFields(&next); e != nil {
		return errResponse(e)
	}
	if next.Meta, e = form.ApplyMetadata(cu.Meta, c.f); e != nil {
		return errResponse(e)
	}
	if v, ok := c.f.Get(wire.ParamDefaultSource); ok {
		if e := refused(next.SetDefaultSource(v)); e != nil {
			return errResponse(e)
		}
	}
	*cu = next
	c.putCustomer(cu)
	b := model.CustomerJSON(nil, cu)
	c.emit(wire.EventCustomerUpdated, b)
	return ok(b)
}

func (c *call) deleteCustomer() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	cu, e := c.pathCustomer()
	if e != nil {
		return errResponse(e)
	}
	return ok(c.removeCustomer(cu))
}

// removeCustomer deletes cu and answers its deletion. Payments,
// subscriptions and invoices keep the customer's id; only its sources go
// with it, and its subscriptions end: nobody is left to bill.
func (c *call) removeCustomer(cu *model.Customer) []byte {
	c.onClock(cu.ID)
	c.cancelCustomerSubscriptions(cu.ID)
	delete(c.a.customers, cu.ID)
	c.a.unindexCustomer(cu)
	delete(c.a.byCustomer, cu.ID)
	c.a.sources -= len(cu.Sources)
	c.a.charge(-cu.Counted)
	c.deleteCustomerRecord(cu)
	b := deletedJSON(wire.CustomerIDPrefix, cu.ID, "customer")
	c.emit(wire.EventCustomerDeleted, b)
	return b
}

func (c *call) addSource() response {
	if e := c.f.Check(wire.ParamSource); e != nil {
		return errResponse(e)
	}
	cu, e := c.pathCustomer()
	if e != nil {
		return errResponse(e)
	}
	c.onClock(cu.ID)
	v, _ := c.f.Get(wire.ParamSource)
	if v == "" {
		return errResponse(apierr.MissingParam(wire.ParamSource, "source is required: send a sandbox test token such as %s.", model.TokenVisa))
	}
	src, e := c.tokenSource(wire.ParamSource, v)
	if e != nil {
		return errResponse(e)
	}
	defaulted := c.attach(cu, src)
	c.putCustomer(cu)
	b := model.SourceJSON(nil, cu, src)
	c.emit(wire.EventCustomerSourceCreated, b)
	if defaulted {
		c.emit(wire.EventCustomerUpdated, model.CustomerJSON(nil, cu)) // default_source changed
	}
	return ok(b)
}

// pathSource is the source {src} of the customer {id}, or a 404.
func (c *call) pathSource() (*model.Customer, int, *apierr.Error) {
	cu, e := c.pathCustomer()
	if e != nil {
		return nil, 0, e
	}
	id := c.r.PathValue("src")
	if r, ok := parseRID(id, wire.SourceIDPrefix); ok {
		if i, _ := cu.Source(r); i >= 0 {
			return cu, i, nil
		}
	}
	return nil, 0, apierr.NotFound("source", id)
}

// listSources pages the customer's sources in the order of its
// `sources` (attachment order), like an invoice's lines. The page is of
// the sources attached when the request arrived; a part of a long answer
// leaves out those detached since (a source's card never changes).
func (c *call) listSources() response {
	if e := listing.Check(c.f); e != nil {
		return errResponse(e)
	}
	cu, e := c.pathCustomer()
	if e != nil {
		return errResponse(e)
	}
	id := cu.ID.Format(wire.CustomerIDPrefix)
	srcs := slices.Clone(cu.Sources)
	n := len(srcs)
	l := listing.List[int]{
		URL: wire.PathCustomers + "/" + id + "/sources", Noun: "source of customer " + id,
		Seq: func(i int) uint64 { return uint64(n - i) },
		Find: func(id string) (int, bool) {
			for i, s := range srcs {
				if s.ID.Format(wire.SourceIDPrefix) == id {
					return i, true
				}
			}
			return 0, false
		},
		Every: func() []int {
			return slices.DeleteFunc(backwards(n), func(i int) bool { j, _ := cu.Source(srcs[i].ID); return j < 0 })
		},
		Write: func(b []byte, i int) []byte { return model.SourceJSON(b, cu, srcs[i]) },
	}
	return serveList(c, &l, backwards(n), nil)
}

func (c *call) retrieveSource() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	cu, i, e := c.pathSource()
	if e != nil {
		return errResponse(e)
	}
	return ok(model.SourceJSON(nil, cu, cu.Sources[i]))
}

func (c *call) removeSource() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	cu, i, e := c.pathSource()
	if e != nil {
		return errResponse(e)
	}
	c.onClock(cu.ID)
	src, defaultChanged := cu.Detach(i)
	c.a.sources--
	c.putCustomer(cu)
	b := deletedJSON(wire.SourceIDPrefix, src.ID, "source")
	c.emit(wire.EventCustomerSourceDeleted, b)
	if defaultChanged {
		c.emit(wire.EventCustomerUpdated, model.CustomerJSON(nil, cu)) // default_source changed
	}
	return ok(b)
}

func deletedJSON(prefix string, id rid, object string) []byte {
	b := make([]byte, 0, 80)
	b = append(b, `{"id":`...)
	b = appendID(b, prefix, id)
	b = append(b, `,"object":`...)
	b = appendString(b, object)
	return append(b, `,"deleted":true}`...)
}
