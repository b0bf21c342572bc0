// Command demo-seed does what `make demo` cannot do with Terraform: the
// quick start makes its payments with payments_payment, and between two
// applies this program completes the 3-D Secure payments Terraform made
// (a sandbox control: the bank's move) and makes a declined charge (which
// a configuration cannot keep: a decline fails the apply). It also reads
// the sandbox's counters at the end.
//
// It talks plain HTTP with the standard library, as any integrator's code
// would, and reads the key and address from the same environment variables
// as the provider: PAYMENTS_SECRET_KEY and PAYMENTS_BASE_URL.
//
//	terraform output -json | demo-seed payments
//	demo-seed destroyed   # fails if destroy left anything live behind
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: terraform output -json | demo-seed payments\n       demo-seed destroyed")
		os.Exit(2)
	}
	api, err := newAPIFromEnv()
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		switch os.Args[1] {
		case "payments":
			err = seedPayments(ctx, api, os.Stdin, os.Stdout)
		case "destroyed":
			err = checkDestroyed(ctx, api, os.Stdout)
		default:
			err = fmt.Errorf("unknown command %q", os.Args[1])
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "demo-seed:", err)
		os.Exit(1)
	}
}

// api is the little of the payments API the demo needs.
type api struct {
	baseURL string
	key     string
	http    *http.Client
}

func newAPIFromEnv() (*api, error) {
	key := os.Getenv("PAYMENTS_SECRET_KEY")
	base := strings.TrimRight(os.Getenv("PAYMENTS_BASE_URL"), "/")
	if key == "" || base == "" {
		return nil, errors.New("PAYMENTS_SECRET_KEY and PAYMENTS_BASE_URL must both be set")
	}
	if !strings.HasPrefix(key, "sk_sandbox_") {
		// The demo charges cards and calls /_sandbox/ controls: never on a live account.
		return nil, errors.New("PAYMENTS_SECRET_KEY must be a sandbox key (sk_sandbox_...)")
	}
	return &api{baseURL: base, key: key, http: &http.Client{Timeout: 30 * time.Second}}, nil
}

// apiError is an answer other than 200. The payment of a declined charge
// (402) is kept in it, since the API stores declined payments.
type apiError struct {
	Status int
	Body   string
}

func (e *apiError) Error() string {
	return fmt.Sprintf("HTTP %d: %s", e.Status, strings.TrimSpace(e.Body))
}

// do sends one request and decodes a JSON answer into out.
func (a *api) do(ctx context.Context, method, path string, form url.Values, out any) error {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, a.baseURL+path, body)
	if err != nil {
		return err
	}
	req.SetBasicAuth(a.key, "")
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if method == http.MethodPost {
		// A fresh key per request, as the service's published examples do.
		req.Header.Set("Idempotency-Key", randomHex(16))
	}
	resp, err := a.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %w", method, path, &apiError{Status: resp.StatusCode, Body: string(raw)})
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s %s: decoding the answer: %w", method, path, err)
	}
	return nil
}

// payment holds the fields of a payment the demo prints.
type payment struct {
	ID       string `json:"id"`
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
	Status   string `json:"status"`
	Customer string `json:"customer"`
}

// charge describes one payment the demo makes.
type charge struct {
	customer    string // key in the customer_ids output
	amount      int64
	currency    string
	source      string // "" charges the customer's default source
	description string
	then        string // "" | "complete" | "refund"
}

// charges are the payments the demo makes itself: a decline of Alan's
// default card, so the data sources have a declined payment to show.
// Terraform makes every other payment.
var charges = []charge{
	{customer: "alan", amount: 900, currency: "GBP", description: "Trial conversion, first attempt"},
}

// seedPayments reads `terraform output -json` from in and makes the charges.
func seedPayments(ctx context.Context, a *api, in io.Reader, out io.Writer) error {
	var outputs map[string]struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.NewDecoder(in).Decode(&outputs); err != nil {
		return fmt.Errorf("reading terraform output -json: %w", err)
	}
	ids := map[string]string{}
	if o, ok := outputs["customer_ids"]; ok {
		if err := json.Unmarshal(o.Value, &ids); err != nil {
			return fmt.Errorf("output customer_ids is not a map of strings: %w", err)
		}
	}
	var pending []string
	if o, ok := outputs["pending_payment_ids"]; ok {
		if err := json.Unmarshal(o.Value, &pending); err != nil {
			return fmt.Errorf("output pending_payment_ids is not a list of strings: %w", err)
		}
	}
	for _, id := range pending {
		var p payment
		if err := a.do(ctx, http.MethodPost, "/_sandbox/payments/"+id+"/complete", url.Values{"outcome": {"approved"}}, &p); err != nil {
			return err
		}
		fmt.Fprintf(out, "  %-18s %s %s: 3-D Secure completed by the sandbox\n", p.Status, p.ID, wire.FormatMoney(p.Amount, p.Currency))
	}
	for _, c := range charges {
		id, ok := ids[c.customer]
		if !ok {
			return fmt.Errorf("output customer_ids has no %q", c.customer)
		}
		form := url.Values{
			"customer":    {id},
			"amount":      {fmt.Sprint(c.amount)},
			"currency":    {c.currency},
			"description": {c.description},
		}
		if c.source != "" {
			form.Set("source", c.source)
		}
		var p payment
		err := a.do(ctx, http.MethodPost, "/v1/payments", form, &p)
		var apiErr *apiError
		if errors.As(err, &apiErr) && apiErr.Status == http.StatusPaymentRequired {
			// A decline is an outcome, not a failure: the payment exists,
			// and the error names it.
			var body struct {
				Error struct {
					Code    string `json:"code"`
					Payment string `json:"payment"`
				} `json:"error"`
			}
			_ = json.Unmarshal([]byte(apiErr.Body), &body)
			fmt.Fprintf(out, "  %-18s %s %s (%s): %s\n", "declined", body.Error.Payment, wire.FormatMoney(c.amount, c.currency), c.customer, body.Error.Code)
			continue
		}
		if err != nil {
			return err
		}
		switch c.then {
		case "complete":
			fmt.Fprintf(out, "  %-18s %s %s (%s): the sandbox completes it\n", p.Status, p.ID, wire.FormatMoney(p.Amount, p.Currency), c.customer)
			err = a.do(ctx, http.MethodPost, "/_sandbox/payments/"+p.ID+"/complete", url.Values{"outcome": {"approved"}}, &p)
		case "refund":
			fmt.Fprintf(out, "  %-18s %s %s (%s): refunding %s\n", p.Status, p.ID, wire.FormatMoney(p.Amount, p.Currency), c.customer, wire.FormatMoney(1000, p.Currency))
			err = a.do(ctx, http.MethodPost, "/v1/payments/"+p.ID+"/refund", url.Values{"amount": {"1000"}}, &p)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "  %-18s %s %s (%s)\n", p.Status, p.ID, wire.FormatMoney(p.Amount, p.Currency), c.customer)
	}
	return nil
}

// checkDestroyed prints the sandbox account's object counts and fails when
// `terraform destroy` left a customer or a source behind. Payments stay:
// the API has no way to delete them.
func checkDestroyed(ctx context.Context, a *api, out io.Writer) error {
	var s struct {
		Customers int `json:"customers"`
		Sources   int `json:"sources"`
		Payments  int `json:"payments"`
	}
	if err := a.do(ctx, http.MethodGet, "/_sandbox/stats", nil, &s); err != nil {
		return err
	}
	fmt.Fprintf(out, "sandbox account now holds: %d customers, %d sources, %d payments\n", s.Customers, s.Sources, s.Payments)
	if s.Customers != 0 || s.Sources != 0 {
		return errors.New("terraform destroy left customers or sources behind")
	}
	// Destroy cancels subscriptions and archives prices and products (or
	// deletes a product without prices): none may be left live.
	for _, l := range []struct{ what, path string }{
		{"subscriptions not canceled", "/v1/subscriptions?limit=100"},
		{"active products", "/v1/products?active=true&limit=100"},
		{"active prices", "/v1/prices?active=true&limit=100"},
	} {
		var page struct {
			Data []struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		if err := a.do(ctx, http.MethodGet, l.path, nil, &page); err != nil {
			return err
		}
		if len(page.Data) != 0 {
			return fmt.Errorf("terraform destroy left %d %s behind, such as %s", len(page.Data), l.what, page.Data[0].ID)
		}
	}
	fmt.Fprintln(out, "no subscription left live, no product or price left active")
	return nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b)
}
