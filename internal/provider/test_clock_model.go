package provider

import (
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// testClockModel is one test clock as payments_test_clock describes it.
// Name is null when the clock has none.
type testClockModel struct {
	ID         types.String      `tfsdk:"id"`
	Name       types.String      `tfsdk:"name"`
	FrozenTime timetypes.RFC3339 `tfsdk:"frozen_time"`
	Status     types.String      `tfsdk:"status"`
	CreatedAt  timetypes.RFC3339 `tfsdk:"created_at"`
	Livemode   types.Bool        `tfsdk:"livemode"`
}

// testClockIDRegexp and testClockIDShape are a test clock's id shape.
var (
	testClockIDRegexp = idRegexp(wire.TestClockIDPrefix)
	testClockIDShape  = idShape(wire.TestClockIDPrefix)
)

// fromAPI sets every attribute of m from the service's clock. A
// frozen_time equal to m's, spelled in another offset, keeps m's spelling.
func (m *testClockModel) fromAPI(k *client.TestClock) diag.Diagnostics {
	var diags, d diag.Diagnostics
	m.ID = types.StringValue(k.ID)
	m.Name = nullableString(k.Name)
	m.Status = types.StringValue(k.Status)
	m.Livemode = types.BoolValue(k.Livemode)
	m.CreatedAt, d = rfc3339Value("created_at", k.CreatedAt)
	diags.Append(d...)
	frozen, d := rfc3339Value("frozen_time", k.FrozenTime)
	diags.Append(d...)
	if !sameInstant(m.FrozenTime, frozen) {
		m.FrozenTime = frozen
	}
	return diags
}

// sameInstant reports whether two known timestamps name the same instant.
func sameInstant(a, b timetypes.RFC3339) bool {
	if a.IsNull() || a.IsUnknown() || b.IsNull() || b.IsUnknown() {
		return false
	}
	at, d1 := a.ValueRFC3339Time()
	bt, d2 := b.ValueRFC3339Time()
	return !d1.HasError() && !d2.HasError() && at.Equal(bt)
}

// frozenTimeValidator refuses at plan time a time the service refuses:
// one with a fraction of a second (the service keeps whole seconds, so
// the state could never match it) or outside the years it accepts.
var frozenTimeValidator = stringCheck{
	markdown: fmt.Sprintf("value must be an RFC 3339 time in whole seconds, from the year %d to %d", wire.TestClockMinYear, wire.TestClockMaxYear),
	check: func(p path.Path, v string, diags *diag.Diagnostics) {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return // the RFC 3339 type says so
		}
		switch {
		case t.Nanosecond() != 0:
			diags.AddAttributeError(p, "Invalid Test Clock Time",
				fmt.Sprintf("%s has a fraction of a second, but a test clock keeps whole seconds. Remove the fraction, "+
					"as in %s.", quoteForError(v), t.Truncate(time.Second).Format(time.RFC3339)))
		case t.UTC().Year() < wire.TestClockMinYear || t.UTC().Year() > wire.TestClockMaxYear:
			diags.AddAttributeError(p, "Invalid Test Clock Time",
				fmt.Sprintf("%s is outside the years a test clock accepts, %d to %d in UTC.", quoteForError(v), wire.TestClockMinYear, wire.TestClockMaxYear))
		}
	},
}

// testClockDescriptions say what each attribute is.
var testClockDescriptions = struct {
	ID, Name, FrozenTime, Status, CreatedAt, Livemode string
}{
	ID:   fmt.Sprintf("The test clock's identifier: %s.", testClockIDShape),
	Name: "A name for the clock, shown in the sandbox's dashboard.",
	FrozenTime: "The clock's time, as an RFC 3339 timestamp in whole seconds (`2026-01-01T00:00:00Z`): the time its " +
		"customers' subscriptions live in.",
	Status:    fmt.Sprintf("`%s` once every renewal due by `frozen_time` has run; `%s` while the clock moves.", wire.TestClockStatusReady, wire.TestClockStatusAdvancing),
	CreatedAt: "When the clock was created (in real time), as an RFC 3339 UTC timestamp with second precision.",
	Livemode:  "Always `false`: test clocks exist only for sandbox keys.",
}

// testClockResourceAttributes is the payments_test_clock resource's schema.
func testClockResourceAttributes() map[string]rschema.Attribute {
	d := testClockDescriptions
	return map[string]rschema.Attribute{
		// Required.
		"frozen_time": rschema.StringAttribute{
			MarkdownDescription: d.FrozenTime + " Moving it forward advances the clock in place: every renewal, " +
				"payment retry, trial end and expiry due in between runs, and the apply waits, within the `update` " +
				"timeout, until the clock is ready. One advance crosses at most " +
				fmt.Sprintf("%d periods of the shortest subscription on the clock; ", wire.TestClockAdvancePeriods) +
				"go further in several applies. Moving it backwards is an error at plan time, since a clock only " +
				"moves forward; to start again earlier, change `name` in the same apply, which replaces the clock.",
			Required:   true,
			CustomType: timetypes.RFC3339Type{},
			Validators: []validator.String{frozenTimeValidator},
		},
		// Optional.
		"name": rschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("%s From 1 to %d characters, without control characters other than tab "+
				"and newline nor bidirectional controls. Changing it replaces the clock.", d.Name, wire.NameMaxLength),
			Optional:      true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			Validators: []validator.String{
				stringvalidator.UTF8LengthBetween(1, wire.NameMaxLength),
				stringvalidator.RegexMatches(noControlRegexp, noControlMessage),
			},
		},
		// Computed.
		"id":         keptString(d.ID),
		"status":     keptString(d.Status),
		"created_at": keptTime(d.CreatedAt),
		"livemode":   keptBool(d.Livemode),
	}
}
