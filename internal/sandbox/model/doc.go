// Package model is the sandbox's object model: what an account holds,
// each object as a type of its own (customers and their sources, card
// tokens, payments, products, prices, subscriptions, invoices, test
// clocks, webhook endpoints and events, metadata), the containers that
// keep the catalog, the subscriptions with their invoices and the test
// clocks in creation order, and for each object its store record, its
// size as the account is charged for it, and, for most, its JSON.
//
// Beside each kind are its rules: the state transitions and invariants of
// subscriptions, invoices, payments, cards and tokens, test clocks, the
// catalog, customers' sources and webhook endpoints (the *_rules.go
// files, filters.go, and methods beside the types). A rule that refuses
// returns a *Refusal, which the handlers answer as an error without
// changing its words.
//
// It knows nothing of HTTP, of the account's lock or of a request: the
// handlers in package sandbox read the request, take the lock, and change
// these objects. An object is a storage.Record (RecordKey, RecordValue)
// without importing the storage engine, and each kind decodes its record
// in one function (CustomerFromRecord, …) or one Load; the records' JSON
// and their buckets are the data file's format, which a change here must
// not alter without an upgrade step.
package model
