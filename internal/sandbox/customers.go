package sandbox

import (
	"slices"
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// customerFields are the optional scalars of a customer, validated alike
// on create and update.
var customerFields = []struct {
	name  string
	check func(string) *apierr.Error
	field func(*customer) *string
}{
	{wire.ParamEmail, form.CheckEmail, func(c *customer) *string { return &c.email }},
	{wire.ParamName, form.CheckName, func(c *customer) *string { return &c.name }},
	{wire.ParamPhone, form.CheckPhone, func(c *customer) *string { return &c.phone }},
}

// setCustomerFields validates the scalar fields of f and writes them to
// dst. An empty value clears the field.
func (c *call) setCustomerFields(dst *customer) *apierr.Error {
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

func (c *call) newSource(cd *card) *source {
	return &source{id: newRID(), card: cd, expMonth: expMonth, expYear: int32(c.now.UTC().Year() + expYearsAhead)}
}

// attach adds src to cu, the default if cu has none.
func (c *call) attach(cu *customer, src *source) {
	cu.sources = append(cu.sources, src)
	if cu.defaultSource == nil {
		cu.defaultSource = src
	}
	c.a.sources++
}

// pathCustomer is the customer named by the path's {id}, or a 404.
func (c *call) pathCustomer() (*customer, *apierr.Error) {
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
	cu := &customer{created: c.unix, clock: clk}
	if k := c.a.clocks.byID[clk]; k != nil {
		c.unix, c.now, cu.created = k.frozen, time.Unix(k.frozen, 0), k.frozen
	}
	if e := c.setCustomerFields(cu); e != nil {
		return errResponse(e)
	}
	meta, e := applyMetadata(nil, c.f)
	if e != nil {
		return errResponse(e)
	}
	cu.meta = meta
	var src *source
	if v, ok := c.f.Get(wire.ParamSource); ok && v != "" {
		if src, e = c.tokenSource(wire.ParamSource, v); e != nil {
			return errResponse(e)
		}
	}
	cu.id = newRID()
	for c.a.customers[cu.id] != nil {
		cu.id = newRID()
	}
	c.a.customers[cu.id] = cu
	c.a.indexCustomer(cu)
	if src != nil {
		c.attach(cu, src)
	}
	c.putCustomer(cu)
	b := c.customerJSON(cu)
	c.emit(wire.EventCustomerCreated, b)
	if src != nil {
		c.emit(wire.EventCustomerSourceCreated, sourceJSON(nil, cu, cu.sources[0]))
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
	return ok(c.customerJSON(cu))
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
	c.onClock(cu.id)
	// Validate everything on a copy, so that a rejected update changes nothing.
	next := *cu
	if e := c.setCustomerFields(&next); e != nil {
		return errResponse(e)
	}
	if next.meta, e = applyMetadata(cu.meta, c.f); e != nil {
		return errResponse(e)
	}
	if v, ok := c.f.Get(wire.ParamDefaultSource); ok {
		if v == "" {
			return errResponse(apierr.Invalid(wire.ParamDefaultSource, "default_source cannot be empty: a default can be replaced by another attached source (%s...), not removed.", wire.SourceIDPrefix))
		}
		var src *source
		if r, ok := parseRID(v, wire.SourceIDPrefix); ok {
			_, src = cu.source(r)
		}
		if src == nil {
			return errResponse(apierr.MissingRef(wire.ParamDefaultSource, "default_source %q is not a source attached to customer %s; attach it first with POST /v1/customers/%s/sources.",
				apierr.Clip(v), cu.id.format(wire.CustomerIDPrefix), cu.id.format(wire.CustomerIDPrefix)))

		}
		next.defaultSource = src
	}
	*cu = next
	c.putCustomer(cu)
	b := c.customerJSON(cu)
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
func (c *call) removeCustomer(cu *customer) []byte {
	c.onClock(cu.id)
	c.cancelCustomerSubscriptions(cu.id)
	delete(c.a.customers, cu.id)
	c.a.unindexCustomer(cu)
	delete(c.a.byCustomer, cu.id)
	c.a.sources -= len(cu.sources)
	c.a.charge(-cu.counted)
	c.deleteCustomerRecord(cu)
	b := deletedJSON(wire.CustomerIDPrefix, cu.id, "customer")
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
	c.onClock(cu.id)
	v, _ := c.f.Get(wire.ParamSource)
	if v == "" {
		return errResponse(apierr.MissingParam(wire.ParamSource, "source is required: send a sandbox test token such as %s.", TokenVisa))
	}
	src, e := c.tokenSource(wire.ParamSource, v)
	if e != nil {
		return errResponse(e)
	}
	hadDefault := cu.defaultSource != nil
	c.attach(cu, src)
	c.putCustomer(cu)
	b := sourceJSON(nil, cu, src)
	c.emit(wire.EventCustomerSourceCreated, b)
	if !hadDefault {
		c.emit(wire.EventCustomerUpdated, c.customerJSON(cu)) // default_source changed
	}
	return ok(b)
}

// pathSource is the source {src} of the customer {id}, or a 404.
func (c *call) pathSource() (*customer, int, *apierr.Error) {
	cu, e := c.pathCustomer()
	if e != nil {
		return nil, 0, e
	}
	id := c.r.PathValue("src")
	if r, ok := parseRID(id, wire.SourceIDPrefix); ok {
		if i, _ := cu.source(r); i >= 0 {
			return cu, i, nil
		}
	}
	return nil, 0, apierr.NotFound("source", id)
}

func (c *call) retrieveSource() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	cu, i, e := c.pathSource()
	if e != nil {
		return errResponse(e)
	}
	return ok(sourceJSON(nil, cu, cu.sources[i]))
}

func (c *call) removeSource() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	cu, i, e := c.pathSource()
	if e != nil {
		return errResponse(e)
	}
	c.onClock(cu.id)
	src := cu.sources[i]
	prevDefault := cu.defaultSource
	cu.sources = slices.Delete(cu.sources, i, i+1)
	if cu.defaultSource == src {
		cu.defaultSource = nil
		if n := len(cu.sources); n > 0 {
			cu.defaultSource = cu.sources[n-1] // the most recently added
		}
	}
	c.a.sources--
	c.putCustomer(cu)
	b := deletedJSON(wire.SourceIDPrefix, src.id, "source")
	c.emit(wire.EventCustomerSourceDeleted, b)
	if cu.defaultSource != src && src == prevDefault {
		c.emit(wire.EventCustomerUpdated, c.customerJSON(cu)) // default_source changed
	}
	return ok(b)
}

func (c *call) customerJSON(cu *customer) []byte {
	b := make([]byte, 0, 320+80*len(cu.sources))
	b = append(b, `{"id":`...)
	b = appendID(b, wire.CustomerIDPrefix, cu.id)
	b = append(b, `,"object":"customer","email":`...)
	b = appendOptString(b, cu.email)
	b = append(b, `,"name":`...)
	b = appendOptString(b, cu.name)
	b = append(b, `,"phone":`...)
	b = appendOptString(b, cu.phone)
	b = append(b, `,"default_source":`...)
	if cu.defaultSource != nil {
		b = appendID(b, wire.SourceIDPrefix, cu.defaultSource.id)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"sources":{"object":"list","data":[`...)
	for i, s := range cu.sources {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = appendID(b, wire.SourceIDPrefix, s.id)
		b = append(b, `,"brand":`...)
		b = appendString(b, s.card.brand)
		b = append(b, `,"last4":`...)
		b = appendString(b, s.card.last4)
		b = append(b, '}')
	}
	b = append(b, "]}"...)
	if !cu.clock.isZero() {
		b = append(b, `,"test_clock":`...)
		b = appendID(b, wire.TestClockIDPrefix, cu.clock)
	}
	return appendMetadataTail(b, cu.meta, cu.created)
}

func sourceJSON(b []byte, cu *customer, s *source) []byte {
	b = append(b, `{"id":`...)
	b = appendID(b, wire.SourceIDPrefix, s.id)
	b = append(b, `,"object":"source","customer":`...)
	b = appendID(b, wire.CustomerIDPrefix, cu.id)
	b = append(b, `,"brand":`...)
	b = appendString(b, s.card.brand)
	b = append(b, `,"last4":`...)
	b = appendString(b, s.card.last4)
	b = append(b, `,"exp_month":`...)
	b = appendInt(b, int64(s.expMonth))
	b = append(b, `,"exp_year":`...)
	b = appendInt(b, int64(s.expYear))
	return append(b, `,"livemode":false}`...)
}

func deletedJSON(prefix string, id rid, object string) []byte {
	b := make([]byte, 0, 80)
	b = append(b, `{"id":`...)
	b = appendID(b, prefix, id)
	b = append(b, `,"object":`...)
	b = appendString(b, object)
	return append(b, `,"deleted":true}`...)
}
