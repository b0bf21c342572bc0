package provider

import (
	"cmp"
	"context"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// testPaymentState is an approved payment of 1000 USD charged with tok_visa.
func testPaymentState() paymentResourceModel {
	return paymentResourceModel{
		paymentFields: paymentFields{
			ID:                types.StringValue("pay_" + strings.Repeat("a", wire.IDRandomLength)),
			Amount:            types.Int64Value(1000),
			Currency:          types.StringValue("USD"),
			Customer:          types.StringNull(),
			Description:       types.StringNull(),
			Metadata:          types.MapNull(types.StringType),
			AmountRefunded:    types.Int64Value(0),
			Status:            types.StringValue(wire.PaymentStatusApproved),
			Captured:          types.BoolValue(true),
			AuthorizationCode: types.StringValue("123456"),
			CreatedAt:         timetypes.NewRFC3339ValueMust("2026-11-22T10:00:00Z"),
			Livemode:          types.BoolValue(false),
		},
		Source:          types.StringValue(sandbox.TokenVisa),
		Capture:         types.BoolValue(true),
		RefundOnDestroy: types.BoolValue(false),
		Brand:           types.StringValue("visa"),
		Last4:           types.StringValue("4242"),
		Timeouts: timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{
			"create": types.StringType, "read": types.StringType, "update": types.StringType, "delete": types.StringType,
		})},
	}
}

// modifyPaymentPlan runs the resource's ModifyPlan from state to plan (nil
// for a create or a destroy); the configuration is the plan.
func modifyPaymentPlan(t *testing.T, data *providerData, state, plan *paymentResourceModel) fwresource.ModifyPlanResponse {
	t.Helper()
	ctx := context.Background()
	r := &paymentResource{resourceBase{name: "payment"}}
	if data != nil {
		r.providerData = *data
	}
	var sresp fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &sresp)
	null := tftypes.NewValue(sresp.Schema.Type().TerraformType(ctx), nil)
	req := fwresource.ModifyPlanRequest{
		State:  tfsdk.State{Schema: sresp.Schema, Raw: null},
		Plan:   tfsdk.Plan{Schema: sresp.Schema, Raw: null},
		Config: tfsdk.Config{Schema: sresp.Schema, Raw: null},
	}
	var diags diag.Diagnostics
	if state != nil {
		diags.Append(req.State.Set(ctx, state)...)
	}
	if plan != nil {
		diags.Append(req.Plan.Set(ctx, plan)...)
		req.Config.Raw = req.Plan.Raw.Copy()
	}
	if diags.HasError() {
		t.Fatalf("building the request: %v", diags)
	}
	resp := fwresource.ModifyPlanResponse{Plan: req.Plan}
	r.ModifyPlan(ctx, req, &resp)
	return resp
}

func newTestClient(t *testing.T, key string) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:1", SecretKey: key})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestPaymentResource_ModifyPlan(t *testing.T) {
	t.Parallel()
	sandboxData := &providerData{client: newTestClient(t, wire.SecretKeySandboxPrefix+"abcdefgh1234")}
	live := newTestClient(t, wire.SecretKeyLivePrefix+"abcdefgh1234")
	liveDenied := &providerData{client: live}
	liveAllowed := &providerData{client: live, allowLivePayments: true}
	type change func(state, plan *paymentResourceModel)
	for _, tc := range []struct {
		name          string
		data          *providerData
		create        bool // no prior state
		destroy       bool // no plan
		change        change
		wantReplace   []string
		wantError     []string // summary, then phrases of the detail
		wantWarning   []string
		wantUnknown   []string
		wantNoWarning bool
	}{
		{
			name: "description in place", data: sandboxData,
			change:        func(_, p *paymentResourceModel) { p.Description = types.StringValue("new") },
			wantNoWarning: true,
		},
		{
			name: "amount replaces with a warning", data: sandboxData,
			change:      func(_, p *paymentResourceModel) { p.Amount = types.Int64Value(1500) },
			wantReplace: []string{"amount"},
			wantWarning: []string{"Replacing Payment Makes A New Charge", "amount 1000 -> 1500", "charges 15.00 USD again", "not refunded", "refund_on_destroy = true"},
		},
		{
			name: "currency and source replace; refund on destroy said", data: sandboxData,
			change: func(s, p *paymentResourceModel) {
				s.RefundOnDestroy = types.BoolValue(true)
				p.Currency, p.Source = types.StringValue("EUR"), types.StringValue(sandbox.TokenAmex)
			},
			wantReplace: []string{"currency", "source"},
			wantWarning: []string{"Replacing Payment Makes A New Charge", `currency "USD" -> "EUR"`, `source "tok_visa" -> "tok_amex"`, "is refunded"},
		},
		{
			name: "customer replaces", data: sandboxData,
			change:      func(_, p *paymentResourceModel) { p.Customer = types.StringValue("cus_" + strings.Repeat("b", 24)) },
			wantReplace: []string{"customer"},
			wantWarning: []string{"Replacing Payment Makes A New Charge", "customer null -> "},
		},
		{
			name: "unknown amount replaces", data: sandboxData,
			change:      func(_, p *paymentResourceModel) { p.Amount = types.Int64Unknown() },
			wantReplace: []string{"amount"},
			wantWarning: []string{"(known after apply)"},
		},
		{
			name: "source after import is filled in place", data: sandboxData,
			change:        func(s, _ *paymentResourceModel) { s.Source = types.StringNull() },
			wantNoWarning: true,
		},
		{
			name: "uncapture refused", data: sandboxData,
			change:    func(_, p *paymentResourceModel) { p.Capture = types.BoolValue(false) },
			wantError: []string{"Cannot Uncapture Payment", "cannot change to false"},
		},
		{
			name: "capture an authorized payment", data: sandboxData,
			change: func(s, p *paymentResourceModel) {
				s.Capture, s.Captured, s.Status = types.BoolValue(false), types.BoolValue(false), types.StringValue(wire.PaymentStatusAuthorized)
				p.Capture = types.BoolValue(true)
			},
			wantUnknown: []string{"status", "captured"},
		},
		{
			name: "capture a pending payment refused", data: sandboxData,
			change: func(s, p *paymentResourceModel) {
				s.Capture, s.Status = types.BoolValue(false), types.StringValue(wire.PaymentStatusPending)
				p.Capture = types.BoolValue(true)
			},
			wantError: []string{"Payment Cannot Be Captured", "is pending", "only an authorized payment"},
		},
		{
			name: "raise refund", data: sandboxData,
			change:      func(_, p *paymentResourceModel) { p.AmountRefunded = types.Int64Value(300) },
			wantUnknown: []string{"status"},
		},
		{
			name: "lower refund refused", data: sandboxData,
			change: func(s, p *paymentResourceModel) {
				s.AmountRefunded, s.Status = types.Int64Value(500), types.StringValue(wire.PaymentStatusPartiallyRefunded)
				p.AmountRefunded = types.Int64Value(400)
			},
			wantError: []string{"Cannot Lower Amount Refunded", "has 5.00 USD refunded", "down to 400"},
		},
		{
			name: "refund a disputed payment refused", data: sandboxData,
			change: func(s, p *paymentResourceModel) {
				s.Status = types.StringValue(wire.PaymentStatusDisputed)
				p.AmountRefunded = types.Int64Value(100)
			},
			wantError: []string{"Payment Cannot Be Refunded", "is disputed"},
		},
		{
			name: "capture and refund together", data: sandboxData,
			change: func(s, p *paymentResourceModel) {
				s.Capture, s.Status = types.BoolValue(false), types.StringValue(wire.PaymentStatusAuthorized)
				p.Capture, p.AmountRefunded = types.BoolValue(true), types.Int64Value(100)
			},
			wantUnknown: []string{"status", "captured"},
		},
		{
			name: "live create refused", data: liveDenied, create: true,
			wantError: []string{"Live Payments Not Allowed", "Creating a payment", "allow_livemode = true", "allow_live_payments = true"},
		},
		{name: "live create allowed", data: liveAllowed, create: true, wantNoWarning: true},
		{name: "sandbox create", data: sandboxData, create: true, wantNoWarning: true},
		{
			name: "live capture refused", data: liveDenied,
			change: func(s, p *paymentResourceModel) {
				s.Capture, s.Status = types.BoolValue(false), types.StringValue(wire.PaymentStatusAuthorized)
				p.Capture = types.BoolValue(true)
			},
			wantError: []string{"Live Payments Not Allowed", "Capturing payment pay_", "allow_live_payments = true"},
		},
		{
			name: "live refund refused", data: liveDenied,
			change:    func(_, p *paymentResourceModel) { p.AmountRefunded = types.Int64Value(1) },
			wantError: []string{"Live Payments Not Allowed", "Refunding 0.01 USD of payment", "allow_live_payments = true"},
		},
		{
			name: "live description change allowed", data: liveDenied,
			change:        func(_, p *paymentResourceModel) { p.Description = types.StringValue("x") },
			wantNoWarning: true,
		},
		{
			name: "live refund on destroy refused", data: liveDenied, destroy: true,
			change:    func(s, _ *paymentResourceModel) { s.RefundOnDestroy = types.BoolValue(true) },
			wantError: []string{"Live Payments Not Allowed", "on destroy", "allow_live_payments = true"},
		},
		{name: "live destroy without refund", data: liveDenied, destroy: true, wantNoWarning: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			state, plan := testPaymentState(), testPaymentState()
			if tc.change != nil {
				tc.change(&state, &plan)
			}
			sp, pp := &state, &plan
			if tc.create {
				sp = nil
			}
			if tc.destroy {
				pp = nil
			}
			resp := modifyPaymentPlan(t, tc.data, sp, pp)

			var replace []string
			for _, p := range resp.RequiresReplace {
				replace = append(replace, p.String())
			}
			if strings.Join(replace, ",") != strings.Join(tc.wantReplace, ",") {
				t.Errorf("RequiresReplace = %v, want %v", replace, tc.wantReplace)
			}
			checkDiag := func(sev diag.Severity, want []string) {
				t.Helper()
				var got []string
				for _, d := range resp.Diagnostics {
					if d.Severity() == sev {
						got = append(got, d.Summary()+": "+d.Detail())
					}
				}
				if len(want) == 0 {
					if len(got) > 0 && (sev == diag.SeverityError || tc.wantNoWarning) {
						t.Errorf("unexpected diagnostics: %v", got)
					}
					return
				}
				if len(got) != 1 || !containsInOrder(got[0], want) {
					t.Errorf("diagnostics %v, want one holding %q", got, want)
				}
			}
			checkDiag(diag.SeverityError, tc.wantError)
			checkDiag(diag.SeverityWarning, tc.wantWarning)
			for _, name := range tc.wantUnknown {
				var v attr.Value
				if name == "captured" {
					var b types.Bool
					resp.Plan.GetAttribute(context.Background(), path.Root(name), &b)
					v = b
				} else {
					var s types.String
					resp.Plan.GetAttribute(context.Background(), path.Root(name), &s)
					v = s
				}
				if !v.IsUnknown() {
					t.Errorf("planned %s = %v, want unknown", name, v)
				}
			}
		})
	}
}

func containsInOrder(s string, phrases []string) bool {
	for _, p := range phrases {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return true
}

// TestPaymentResource_FromAPI checks the resource's view of each status
// through the one mapping of payment_model.go.
func TestPaymentResource_FromAPI(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	for _, tc := range []struct {
		status       string
		captured     *bool
		prevCapture  types.Bool
		wantCapture  types.Bool
		wantCaptured bool
	}{
		{wire.PaymentStatusApproved, &yes, types.BoolNull(), types.BoolValue(true), true},
		{wire.PaymentStatusAuthorized, &no, types.BoolNull(), types.BoolValue(false), false},
		{wire.PaymentStatusPending, &no, types.BoolValue(false), types.BoolValue(false), false},
		{wire.PaymentStatusPending, &no, types.BoolNull(), types.BoolNull(), false},
		{wire.PaymentStatusDeclined, &no, types.BoolUnknown(), types.BoolNull(), false},
		// captured left out by the service: told by the status.
		{wire.PaymentStatusRefunded, nil, types.BoolNull(), types.BoolValue(true), true},
		{wire.PaymentStatusAuthorized, nil, types.BoolValue(true), types.BoolValue(false), false},
	} {
		m := paymentResourceModel{Capture: tc.prevCapture}
		m.Metadata = types.MapValueMust(types.StringType, map[string]attr.Value{})
		diags := m.fromAPI(&client.Payment{ID: "pay_x", Amount: 10, Currency: "USD", Status: tc.status, Captured: tc.captured,
			Source: &client.PaymentSource{Brand: "visa", Last4: "4242"}})
		if diags.HasError() {
			t.Fatal(diags)
		}
		if !m.Capture.Equal(tc.wantCapture) || m.Captured.ValueBool() != tc.wantCaptured {
			t.Errorf("%s (captured %v, capture was %v): capture %v captured %v, want %v %v",
				tc.status, tc.captured, tc.prevCapture, m.Capture, m.Captured, tc.wantCapture, tc.wantCaptured)
		}
		if m.AmountRefunded.ValueInt64() != 0 || m.AmountRefunded.IsNull() || m.Brand.ValueString() != "visa" {
			t.Errorf("%s: amount_refunded %v brand %v", tc.status, m.AmountRefunded, m.Brand)
		}
		if m.Metadata.IsNull() || len(m.Metadata.Elements()) != 0 {
			t.Errorf("%s: empty metadata written as {} became %v", tc.status, m.Metadata)
		}
	}
}

func TestPaymentSchemas_Descriptions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	isSentence := func(what, s string) {
		t.Helper()
		if s == "" || strings.ToUpper(s[:1]) != s[:1] || !strings.HasSuffix(s, ".") {
			t.Errorf("%s: description %q is not a full sentence", what, s)
		}
	}
	r := NewPaymentResource()
	var resp fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &resp)
	if diags := resp.Schema.ValidateImplementation(ctx); diags.HasError() {
		t.Fatal(diags)
	}
	isSentence("payments_payment", resp.Schema.MarkdownDescription)
	for name, a := range resp.Schema.Attributes {
		isSentence("payments_payment."+name, a.GetMarkdownDescription())
	}
	if b, ok := resp.Schema.Blocks["timeouts"].(rschema.SingleNestedBlock); !ok {
		t.Error("payments_payment has no timeouts block")
	} else {
		for name, a := range b.Attributes {
			isSentence("payments_payment.timeouts."+name, cmp.Or(a.GetMarkdownDescription(), a.GetDescription()))
		}
	}
	for _, newAction := range []func() action.Action{NewPaymentCaptureAction, NewPaymentRefundAction} {
		a := newAction()
		var m action.MetadataResponse
		a.Metadata(ctx, action.MetadataRequest{ProviderTypeName: "payments"}, &m)
		var s action.SchemaResponse
		a.Schema(ctx, action.SchemaRequest{}, &s)
		if diags := s.Schema.ValidateImplementation(ctx); diags.HasError() {
			t.Fatalf("%s: %v", m.TypeName, diags)
		}
		isSentence(m.TypeName, s.Schema.MarkdownDescription)
		for name, attr := range s.Schema.Attributes {
			isSentence(m.TypeName+"."+name, attr.GetMarkdownDescription())
		}
	}
}

// invokePaymentAction runs an action's Invoke against data and returns its
// diagnostics and progress messages.
func invokePaymentAction(t *testing.T, newAction func() action.Action, data *providerData, id string, amount *int64) (diag.Diagnostics, []string) {
	t.Helper()
	ctx := context.Background()
	a := newAction()
	var s action.SchemaResponse
	a.Schema(ctx, action.SchemaRequest{}, &s)
	var cresp action.ConfigureResponse
	a.(action.ActionWithConfigure).Configure(ctx, action.ConfigureRequest{ProviderData: data}, &cresp)
	amt := tftypes.NewValue(tftypes.Number, nil)
	if amount != nil {
		amt = tftypes.NewValue(tftypes.Number, new(big.Float).SetInt64(*amount))
	}
	raw := tftypes.NewValue(s.Schema.Type().TerraformType(ctx), map[string]tftypes.Value{
		"payment": tftypes.NewValue(tftypes.String, id), "amount": amt,
	})
	var progress []string
	resp := action.InvokeResponse{SendProgress: func(e action.InvokeProgressEvent) { progress = append(progress, e.Message) }}
	a.Invoke(ctx, action.InvokeRequest{Config: tfsdk.Config{Schema: s.Schema, Raw: raw}}, &resp)
	return resp.Diagnostics, progress
}

// TestPaymentActions_Invoke runs both actions against a sandbox: each
// reports its progress, moves the payment once, and refuses what the
// payment's state does not allow before sending anything.
func TestPaymentActions_Invoke(t *testing.T) {
	t.Parallel()
	sb := sandboxtest.Start(t)
	key := sandboxtest.NewKey(t)
	c, err := client.New(client.Config{BaseURL: sb.URL, SecretKey: key})
	if err != nil {
		t.Fatal(err)
	}
	data := &providerData{client: c}
	ctx := context.Background()
	authorized, err := c.CreatePayment(ctx, &client.PaymentParams{Amount: 1000, Currency: "USD", Source: sandbox.TokenVisa, Capture: ptrTo(false)})
	if err != nil {
		t.Fatal(err)
	}
	approved, err := c.CreatePayment(ctx, &client.PaymentParams{Amount: 800, Currency: "EUR", Source: sandbox.TokenVisa})
	if err != nil {
		t.Fatal(err)
	}
	missing := "pay_" + strings.Repeat("Z", wire.IDRandomLength)
	for _, tc := range []struct {
		name         string
		action       func() action.Action
		id           string
		amount       *int64
		wantError    []string
		wantProgress []string
		check        func(p *client.Payment) bool
	}{
		{name: "refund of an authorized payment", action: NewPaymentRefundAction, id: authorized.ID,
			wantError: []string{"Error Refunding Payment", "is authorized", "approved or partially_refunded", "Nothing was changed"}},
		{name: "capture more than authorized", action: NewPaymentCaptureAction, id: authorized.ID, amount: ptrTo[int64](1001),
			wantError: []string{"Error Capturing Payment", "amount is 1001", "at most 1000"}},
		{name: "partial capture", action: NewPaymentCaptureAction, id: authorized.ID, amount: ptrTo[int64](600),
			wantProgress: []string{"Reading payment " + authorized.ID, "Capturing 6.00 USD of payment " + authorized.ID + " (status authorized)", "is now approved: amount 6.00 USD"},
			check:        func(p *client.Payment) bool { return p.Status == wire.PaymentStatusApproved && p.Amount == 600 }},
		{name: "capture again", action: NewPaymentCaptureAction, id: authorized.ID,
			wantError: []string{"Error Capturing Payment", "is approved", "only a payment that is authorized can be captured"}},
		{name: "partial refund", action: NewPaymentRefundAction, id: approved.ID, amount: ptrTo[int64](300),
			wantProgress: []string{"Reading payment", "Refunding 3.00 EUR", "is now partially_refunded: amount 8.00 EUR, 3.00 EUR refunded"},
			check:        func(p *client.Payment) bool { return *p.AmountRefunded == 300 }},
		{name: "refund more than left", action: NewPaymentRefundAction, id: approved.ID, amount: ptrTo[int64](501),
			wantError: []string{"amount is 501 (5.01 EUR)", "at most 5.00 EUR", "can be refunded"}},
		{name: "refund the rest", action: NewPaymentRefundAction, id: approved.ID,
			wantProgress: []string{"Reading payment", "Refunding 5.00 EUR", "is now refunded"},
			check: func(p *client.Payment) bool {
				return p.Status == wire.PaymentStatusRefunded && *p.AmountRefunded == 800
			}},
		{name: "missing payment", action: NewPaymentRefundAction, id: missing,
			wantError: []string{"Error Refunding Payment", "No payment " + missing}},
	} {
		// Sequential: each case builds on the payment the previous left.
		diags, progress := invokePaymentAction(t, tc.action, data, tc.id, tc.amount)
		var errs []string
		for _, d := range diags.Errors() {
			errs = append(errs, d.Summary()+": "+d.Detail())
		}
		if len(tc.wantError) > 0 {
			if len(errs) != 1 || !containsInOrder(errs[0], tc.wantError) {
				t.Errorf("%s: errors %v, want one holding %q", tc.name, errs, tc.wantError)
			}
			continue
		}
		if len(errs) > 0 {
			t.Errorf("%s: %v", tc.name, errs)
			continue
		}
		if !containsInOrder(strings.Join(progress, "\n"), tc.wantProgress) {
			t.Errorf("%s: progress %q, want %q", tc.name, progress, tc.wantProgress)
		}
		p, err := c.GetPayment(ctx, tc.id)
		if err != nil || !tc.check(p) {
			t.Errorf("%s: payment after the action: %+v %v", tc.name, p, err)
		}
	}
	st, err := sandboxclient.New(c).Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The refused invocations sent no write: one capture and two refunds.
	if n := st.Requests.ByRoute["POST /v1/payments/:id/capture"] + st.Requests.ByRoute["POST /v1/payments/:id/refund"]; n != 3 {
		t.Errorf("the actions sent %d captures and refunds, want 3: %v", n, st.Requests.ByRoute)
	}

	// A live key without allow_live_payments: refused before any request.
	liveData := &providerData{client: newTestClient(t, wire.SecretKeyLivePrefix+"abcdefgh1234")}
	diags, progress := invokePaymentAction(t, NewPaymentRefundAction, liveData, approved.ID, nil)
	if !diags.HasError() || !containsInOrder(diags.Errors()[0].Detail(), []string{"allow_livemode = true", "allow_live_payments = true"}) || len(progress) != 0 {
		t.Errorf("live refund: %v, progress %v", diags, progress)
	}
}

// TestPaymentResource_DeleteWarnings destroys payments against a sandbox
// and reads the warning each gets: what was refunded, or why nothing was,
// in the currency's major units.
func TestPaymentResource_DeleteWarnings(t *testing.T) {
	t.Parallel()
	sb := sandboxtest.Start(t)
	c, err := client.New(client.Config{BaseURL: sb.URL, SecretKey: sandboxtest.NewKey(t)})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name          string
		amount        int64
		currency      string
		refundFirst   int64 // refunded before the destroy; 0 for none
		refundDestroy bool
		want          []string
	}{
		{name: "refund of a whole GBP payment", amount: 900, currency: "GBP", refundDestroy: true,
			want: []string{"Payment Refunded And Kept At The Service", "was refunded (9.00 GBP, what was left)", "refund_on_destroy = true"}},
		{name: "refund of what is left", amount: 1000, currency: "USD", refundFirst: 250, refundDestroy: true,
			want: []string{"Payment Refunded And Kept At The Service", "was refunded (7.50 USD, what was left)"}},
		{name: "refund in a currency without decimals", amount: 1200, currency: "JPY", refundDestroy: true,
			want: []string{"was refunded (1200 JPY, what was left)"}},
		{name: "nothing left to refund", amount: 500, currency: "EUR", refundFirst: 500, refundDestroy: true,
			want: []string{"Payment Kept At The Service, Not Refunded", "is refunded with 5.00 EUR of 5.00 EUR refunded"}},
		{name: "kept without refund_on_destroy", amount: 900, currency: "GBP",
			want: []string{"Payment Kept At The Service", "removed from Terraform's state only"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pay, err := c.CreatePayment(ctx, &client.PaymentParams{Amount: tc.amount, Currency: tc.currency, Source: sandbox.TokenVisa})
			if err != nil {
				t.Fatal(err)
			}
			if tc.refundFirst > 0 {
				if _, err := c.RefundPayment(ctx, pay.ID, &tc.refundFirst); err != nil {
					t.Fatal(err)
				}
			}
			state := testPaymentState()
			state.ID = types.StringValue(pay.ID)
			state.Amount, state.Currency = types.Int64Value(tc.amount), types.StringValue(tc.currency)
			state.RefundOnDestroy = types.BoolValue(tc.refundDestroy)
			diags := deletePayment(t, &providerData{client: c}, &state)
			if diags.HasError() || len(diags.Warnings()) != 1 {
				t.Fatalf("want one warning, got %v", diags)
			}
			w := diags.Warnings()[0]
			if got := w.Summary() + ": " + w.Detail(); !containsInOrder(got, tc.want) {
				t.Errorf("the warning is %q, want it to hold %q", got, tc.want)
			}
		})
	}
}

// deletePayment runs the resource's Delete on state.
func deletePayment(t *testing.T, data *providerData, state *paymentResourceModel) diag.Diagnostics {
	t.Helper()
	ctx := context.Background()
	r := &paymentResource{resourceBase{name: "payment"}}
	r.providerData = *data
	var sresp fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &sresp)
	req := fwresource.DeleteRequest{State: tfsdk.State{Schema: sresp.Schema, Raw: tftypes.NewValue(sresp.Schema.Type().TerraformType(ctx), nil)}}
	if diags := req.State.Set(ctx, state); diags.HasError() {
		t.Fatalf("building the request: %v", diags)
	}
	resp := fwresource.DeleteResponse{State: req.State}
	r.Delete(ctx, req, &resp)
	return resp.Diagnostics
}
