package model

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
)

// The buckets of an account's records in the store, one per kind of
// object, each record keyed by the object's id. Sources live inside their
// customer's record; the delivery engine keeps buckets of its own.
const (
	BucketCustomers        = "customers"
	BucketPayments         = "payments"
	BucketTokens           = "tokens"
	BucketProducts         = "products"
	BucketPrices           = "prices"
	BucketSubscriptions    = "subscriptions"
	BucketInvoices         = "invoices"
	BucketTestClocks       = "test_clocks"
	BucketWebhookEndpoints = "webhook_endpoints"
	BucketEvents           = "events"
)

// CatalogBuckets are the catalog's buckets, loaded first (Catalog.Load).
var CatalogBuckets = []string{BucketProducts, BucketPrices}

// BillingBuckets are loaded after the catalog's: subscriptions name
// prices.
var BillingBuckets = []string{BucketSubscriptions, BucketInvoices, BucketTestClocks}

// Marshal encodes a record's JSON.
func Marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("model: encoding a record: %v", err)) // plain structs cannot fail
	}
	return b
}

// OptID formats r, or "" for the zero RID.
func OptID(prefix string, r ids.RID) string {
	if r.IsZero() {
		return ""
	}
	return r.Format(prefix)
}

// ParseOptID parses an id that may be "", the zero RID.
func ParseOptID(s, prefix string) (ids.RID, bool) {
	if s == "" {
		return ids.RID{}, true
	}
	return ids.Parse(s, prefix)
}

// Intern returns the entry of list equal to s, so that statuses compare
// as the constants they are; ok is false when s is none of them.
func Intern(list []string, s string) (string, bool) {
	if i := slices.Index(list, s); i >= 0 {
		return list[i], true
	}
	return "", false
}

// decodeBucket decodes a bucket's records of type R into objects with
// from, and orders them by seq, their creation order: what every Load
// does before it indexes them. what names the record in an error ("a
// price").
func decodeBucket[R, T any](raws [][]byte, what string, from func(R) (T, error), seq func(T) uint64) ([]T, error) {
	out := make([]T, 0, len(raws))
	for _, raw := range raws {
		var rec R
		if err := json.Unmarshal(raw, &rec); err != nil {
			return nil, fmt.Errorf("reading %s record from the data file: %w", what, err)
		}
		v, err := from(rec)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	slices.SortFunc(out, func(x, y T) int { return cmp.Compare(seq(x), seq(y)) })
	return out, nil
}

// BySeq finds the position of seq in an order kept by seq (objects in
// creation order), or where it would be.
func BySeq[T any](order []T, seq uint64, seqOf func(T) uint64) (int, bool) {
	return slices.BinarySearchFunc(order, seq, func(x T, s uint64) int { return cmp.Compare(seqOf(x), s) })
}

// RemoveBySeq takes the object of sequence number seq out of an order
// kept by seq, if it is there.
func RemoveBySeq[T any](order []T, seq uint64, seqOf func(T) uint64) []T {
	if i, found := BySeq(order, seq, seqOf); found {
		return slices.Delete(order, i, i+1)
	}
	return order
}
