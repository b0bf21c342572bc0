package sandbox

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The account's billing settings (GET and POST /_sandbox/billing): the
// status dunning ends its subscriptions in, the account's choice over the
// sandbox's -dunning-end. They are one record of the data file, and stay
// through /_sandbox/reset as fault settings do.

// bucketSettings holds the account's settings, one record each.
const bucketSettings = "settings"

// keyBilling is the billing settings' record.
const keyBilling = "billing"

type billingSettingsRecord struct {
	DunningEnd string `json:"dunning_end"`
}

// dunningEnd is the status dunning ends the account's subscriptions in.
func (c *call) dunningEnd() string {
	if c.a.dunningEnd != "" {
		return c.a.dunningEnd
	}
	return c.s.dunningEnd
}

func (c *call) getBilling() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	return ok(c.billingJSON())
}

// setBilling changes the settings named and leaves the others; an empty
// dunning_end goes back to the sandbox's default.
func (c *call) setBilling() response {
	if e := c.f.Check(wire.ParamDunningEnd); e != nil {
		return errResponse(e)
	}
	if v, given := c.f.Get(wire.ParamDunningEnd); given {
		i := slices.Index(wire.DunningEnds, v)
		if v != "" && i < 0 {
			return errResponse(apierr.Invalid(wire.ParamDunningEnd, "dunning_end %q is not valid; use %s, or send it empty for the sandbox's default (%s).",
				apierr.Clip(v), strings.Join(wire.DunningEnds, ", "), c.s.dunningEnd))
		}
		c.a.dunningEnd = ""
		if i >= 0 {
			c.a.dunningEnd = wire.DunningEnds[i] // not a view into the body
		}
		c.putBillingSettings()
	}
	return ok(c.billingJSON())
}

// putBillingSettings writes the settings' record, or deletes it when they
// are the sandbox's defaults. A reset writes it again after dropping the
// account's records.
func (c *call) putBillingSettings() {
	if c.a.dunningEnd == "" {
		c.addOp(storage.Delete(bucketSettings, keyBilling))
		return
	}
	b, _ := json.Marshal(billingSettingsRecord{DunningEnd: c.a.dunningEnd}) // cannot fail
	c.addOp(storage.Put(bucketSettings, keyBilling, b))
}

// loadBillingSettings reads the settings' record, if any.
func (a *account) loadBillingSettings(raw []byte) error {
	if raw == nil {
		return nil
	}
	var rec billingSettingsRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return fmt.Errorf("reading the billing settings from the data file: %w", err)
	}
	i := slices.Index(wire.DunningEnds, rec.DunningEnd)
	if i < 0 {
		return fmt.Errorf("data file: the billing settings' dunning_end %q is not one of %s", rec.DunningEnd, strings.Join(wire.DunningEnds, ", "))
	}
	a.dunningEnd = wire.DunningEnds[i]
	return nil
}

func (c *call) billingJSON() []byte {
	b := make([]byte, 0, 96)
	b = append(b, `{"object":"sandbox_billing","dunning_end":`...)
	b = appendString(b, c.dunningEnd())
	b = append(b, `,"dunning_end_default":`...)
	b = appendString(b, c.s.dunningEnd)
	return append(b, '}')
}
