// Command stripe-go drives payments-sandbox with stripe-go, through the
// calls whose answers stripe-go's typed structs can decode: customers and
// their sources, products and prices, webhook endpoints, events, errors
// (a reused Idempotency-Key, a declined invoice pay), and a webhook
// delivery verified by webhook.ConstructEvent with its API-version check.
//
//	PAYMENTS_BASE_URL=http://127.0.0.1:12111 \
//	PAYMENTS_SECRET_KEY=sk_sandbox_example1 go run .
//
// The sandbox writes times as RFC 3339 strings where Stripe writes Unix
// seconds, so stripe-go cannot decode the objects that carry times under
// Stripe's names: test clocks, subscriptions with a trial, invoices. The
// program calls one of those through the backend's RawRequest and decodes
// it into a type of its own, and checks that the typed call still fails,
// so that the guide "Testing Stripe-based billing code against the
// sandbox" stays true. It exits 1 on the first failure.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"
)

// wait bounds how long the program waits for a webhook delivery.
const wait = 30 * time.Second

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		os.Exit(1)
	}
}

// delivery is one webhook delivery as a receiver must keep it: the raw
// body, which the signature covers, and the signature header.
type delivery struct {
	body      []byte
	signature string
}

func run(ctx context.Context) error {
	base, key := os.Getenv("PAYMENTS_BASE_URL"), os.Getenv("PAYMENTS_SECRET_KEY")
	if base == "" || key == "" {
		return errors.New("export the sandbox's URL as PAYMENTS_BASE_URL and an account's key as PAYMENTS_SECRET_KEY")
	}
	// Only the URL changes: retries, Bearer auth, Idempotency-Keys and
	// the API version stay stripe-go's defaults.
	backends := stripe.NewBackendsWithConfig(&stripe.BackendConfig{URL: stripe.String(base)})
	sc := stripe.NewClient(key, stripe.WithBackends(backends))
	steps := 0
	ok := func(format string, args ...any) {
		steps++
		fmt.Printf("ok   "+format+"\n", args...)
	}

	// A receiver for webhook deliveries on a loopback port.
	deliveries := make(chan delivery, 64)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		deliveries <- delivery{body: body, signature: r.Header.Get("Payments-Signature")}
	})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	// A webhook endpoint pinned to stripe-go's API version, which
	// webhook.ConstructEvent checks in every event.
	we, err := sc.V1WebhookEndpoints.Create(ctx, &stripe.WebhookEndpointCreateParams{
		URL:           stripe.String("http://" + ln.Addr().String() + "/webhooks"),
		EnabledEvents: stripe.StringSlice([]string{"customer.created"}),
		APIVersion:    stripe.String(stripe.APIVersion),
	})
	if err != nil {
		return fmt.Errorf("creating a webhook endpoint: %w", err)
	}
	defer func() { _, _ = sc.V1WebhookEndpoints.Delete(ctx, we.ID, nil) }()
	if !strings.HasPrefix(we.Secret, "whsec_") || we.APIVersion != stripe.APIVersion {
		return fmt.Errorf("webhook endpoint %s: secret %.6s…, api_version %q; want whsec_… and %s", we.ID, we.Secret, we.APIVersion, stripe.APIVersion)
	}
	ok("webhook endpoint %s, api_version %s", we.ID, we.APIVersion)

	// Customers and their sources.
	start := time.Now().Unix()
	cus, err := sc.V1Customers.Create(ctx, &stripe.CustomerCreateParams{
		Name: stripe.String("Grace Hopper"), Email: stripe.String("grace@example.com"),
		Source: stripe.String("tok_visa"),
	})
	if err != nil {
		return fmt.Errorf("creating a customer: %w", err)
	}
	if cus.DefaultSource == nil || cus.Sources == nil || len(cus.Sources.Data) != 1 || cus.Sources.Data[0].ID != cus.DefaultSource.ID {
		return fmt.Errorf("customer %s: default source %+v, sources %+v; want its one card", cus.ID, cus.DefaultSource, cus.Sources)
	}
	cus, err = sc.V1Customers.Update(ctx, cus.ID, &stripe.CustomerUpdateParams{Metadata: map[string]string{"plan": "pro"}})
	if err != nil || cus.Metadata["plan"] != "pro" {
		return fmt.Errorf("updating customer metadata: %v (metadata %v)", err, cus)
	}
	if _, err := sc.V1PaymentSources.Create(ctx, &stripe.PaymentSourceCreateParams{Customer: stripe.String(cus.ID), Source: &stripe.PaymentSourceSourceParams{Token: stripe.String("tok_mastercard")}}); err != nil {
		return fmt.Errorf("adding a source: %w", err)
	}
	var sources []string
	for src, err := range sc.V1PaymentSources.List(ctx, &stripe.PaymentSourceListParams{Customer: stripe.String(cus.ID)}) {
		if err != nil {
			return fmt.Errorf("listing sources: %w", err)
		}
		sources = append(sources, src.ID)
	}
	if len(sources) != 2 || sources[0] != cus.DefaultSource.ID {
		return fmt.Errorf("customer %s lists sources %v; want its two cards, %s first", cus.ID, sources, cus.DefaultSource.ID)
	}
	ok("customer %s: created with tok_visa, updated, %d sources listed", cus.ID, len(sources))

	// Catalog, with an Idempotency-Key of our own sent twice, then
	// reused with other parameters: 400 idempotency_error.
	idem := "stripe-go-product-" + cus.ID
	pp := &stripe.ProductCreateParams{Name: stripe.String("Pro")}
	pp.SetIdempotencyKey(idem)
	prod, err := sc.V1Products.Create(ctx, pp)
	if err != nil {
		return fmt.Errorf("creating a product: %w", err)
	}
	pp = &stripe.ProductCreateParams{Name: stripe.String("Pro")}
	pp.SetIdempotencyKey(idem)
	if again, err := sc.V1Products.Create(ctx, pp); err != nil || again.ID != prod.ID {
		return fmt.Errorf("repeating a create with its key: %v; want product %s again", err, prod.ID)
	}
	pp = &stripe.ProductCreateParams{Name: stripe.String("Other")}
	pp.SetIdempotencyKey(idem)
	_, err = sc.V1Products.Create(ctx, pp)
	var se *stripe.Error
	if !errors.As(err, &se) || se.Type != stripe.ErrorTypeIdempotency || se.HTTPStatusCode != http.StatusBadRequest {
		return fmt.Errorf("reusing a key with other parameters: %v; want a 400 %s", err, stripe.ErrorTypeIdempotency)
	}
	lookup := "pro-monthly-" + prod.ID
	price, err := sc.V1Prices.Create(ctx, &stripe.PriceCreateParams{
		Product: stripe.String(prod.ID), UnitAmount: stripe.Int64(1500),
		Currency:  stripe.String("USD"), // the sandbox takes upper case only
		Recurring: &stripe.PriceCreateRecurringParams{Interval: stripe.String("month")},
		LookupKey: stripe.String(lookup),
	})
	if err != nil {
		return fmt.Errorf("creating a price: %w", err)
	}
	var found []string
	for p, err := range sc.V1Prices.List(ctx, &stripe.PriceListParams{LookupKeys: stripe.StringSlice([]string{lookup})}) {
		if err != nil {
			return fmt.Errorf("listing prices by lookup_key: %w", err)
		}
		found = append(found, p.ID)
	}
	if len(found) != 1 || found[0] != price.ID {
		return fmt.Errorf("prices with lookup_key %s: %v; want %s", lookup, found, price.ID)
	}
	ok("product %s (key reuse: %s %d), price %s found by lookup_key", prod.ID, se.Type, se.HTTPStatusCode, price.ID)

	// A subscription without a trial decodes; its first charge, on a card
	// that declines, leaves it incomplete and its invoice open, and
	// paying that invoice is a 402 card_error.
	declining, err := sc.V1Customers.Create(ctx, &stripe.CustomerCreateParams{Name: stripe.String("Declined"), Source: stripe.String("tok_declined")})
	if err != nil {
		return fmt.Errorf("creating a customer with a declining card: %w", err)
	}
	sub, err := sc.V1Subscriptions.Create(ctx, &stripe.SubscriptionCreateParams{
		Customer: stripe.String(declining.ID),
		Items:    []*stripe.SubscriptionCreateItemParams{{Price: stripe.String(price.ID)}},
	})
	if err != nil {
		return fmt.Errorf("creating a subscription: %w", err)
	}
	if sub.Status != stripe.SubscriptionStatusIncomplete || sub.LatestInvoice == nil || len(sub.Items.Data) != 1 || sub.Items.Data[0].Price.ID != price.ID {
		return fmt.Errorf("subscription %s: status %s, latest invoice %+v, items %+v; want incomplete, an invoice, one item of %s", sub.ID, sub.Status, sub.LatestInvoice, sub.Items, price.ID)
	}
	_, err = sc.V1Invoices.Pay(ctx, sub.LatestInvoice.ID, nil)
	if !errors.As(err, &se) || se.Type != stripe.ErrorTypeCard || se.Code != stripe.ErrorCodeCardDeclined || se.HTTPStatusCode != http.StatusPaymentRequired {
		return fmt.Errorf("paying %s with a declining card: %v; want a 402 card_error card_declined", sub.LatestInvoice.ID, err)
	}
	ok("subscription %s %s; invoice %s pay: %d %s %s", sub.ID, sub.Status, sub.LatestInvoice.ID, se.HTTPStatusCode, se.Type, se.Code)

	// Events since the start, two to a page.
	var created []string
	for ev, err := range sc.V1Events.List(ctx, &stripe.EventListParams{
		Type:         stripe.String("customer.created"),
		CreatedRange: &stripe.RangeQueryParams{GreaterThanOrEqual: start},
		ListParams:   stripe.ListParams{Limit: stripe.Int64(2)},
	}) {
		if err != nil {
			return fmt.Errorf("listing events: %w", err)
		}
		var c stripe.Customer
		if err := json.Unmarshal(ev.Data.Raw, &c); err != nil {
			return fmt.Errorf("decoding event %s's customer: %w", ev.ID, err)
		}
		created = append(created, c.ID)
	}
	if len(created) != 2 || created[0] != declining.ID || created[1] != cus.ID {
		return fmt.Errorf("customer.created events since %d are about %v; want %s then %s", start, created, declining.ID, cus.ID)
	}
	ok("events listed page by page: %d customer.created", len(created))

	// The delivery of the first customer's customer.created, verified.
	deadline := time.After(wait)
	for verified := false; !verified; {
		select {
		case d := <-deliveries:
			ev, err := webhook.ConstructEvent(d.body, d.signature, we.Secret)
			if err != nil {
				return fmt.Errorf("webhook.ConstructEvent: %w", err)
			}
			var c stripe.Customer
			if err := json.Unmarshal(ev.Data.Raw, &c); err != nil {
				return fmt.Errorf("decoding delivered event %s's customer: %w", ev.ID, err)
			}
			if c.ID == cus.ID {
				ok("delivery of %s %s verified by webhook.ConstructEvent (api_version %s)", ev.Type, ev.ID, ev.APIVersion)
				verified = true
			}
		case <-deadline:
			return fmt.Errorf("no customer.created delivery about %s within %s", cus.ID, wait)
		}
	}

	// Objects with times under Stripe's names: a test clock, called raw
	// and decoded into a type of our own; the typed call cannot decode it.
	raw, isRaw := backends.API.(stripe.RawRequestBackend)
	if !isRaw {
		return errors.New("the API backend does not implement RawRequest")
	}
	frozen := time.Now().Truncate(time.Second)
	resp, err := raw.RawRequest(http.MethodPost, "/v1/test_helpers/test_clocks", key,
		url.Values{"frozen_time": {strconv.FormatInt(frozen.Unix(), 10)}}.Encode(), nil)
	if err != nil {
		return fmt.Errorf("creating a test clock: %w", err)
	}
	var clock struct {
		ID         string    `json:"id"`
		FrozenTime time.Time `json:"frozen_time"`
	}
	if err := json.Unmarshal(resp.RawJSON, &clock); err != nil || !clock.FrozenTime.Equal(frozen) {
		return fmt.Errorf("test clock %s: %v; frozen at %s, want %s", resp.RawJSON, err, clock.FrozenTime, frozen)
	}
	defer func() { _, _ = sc.V1TestHelpersTestClocks.Delete(ctx, clock.ID, nil) }()
	if _, err := sc.V1TestHelpersTestClocks.Retrieve(ctx, clock.ID, nil); err == nil || !strings.Contains(err.Error(), "deserialize") {
		return fmt.Errorf("retrieving test clock %s with stripe-go: %v; want a decoding error, as the guide says", clock.ID, err)
	}
	ok("test clock %s frozen at %s, read raw; the typed retrieve does not decode it", clock.ID, clock.FrozenTime.Format(time.RFC3339))

	fmt.Printf("stripe-go %s (API %s) against %s: %d steps passed\n", stripe.ClientVersion, stripe.APIVersion, base, steps)
	return nil
}
