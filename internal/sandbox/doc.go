// Package sandbox is a stateful stand-in for the payments service. It
// serves every endpoint of the API contract (api/openapi.yaml) over HTTP,
// for tests, demos, benchmarks and users without network access. The facts
// of the wire come from package wire, which the API client imports too;
// the sandbox imports nothing of the client, so the client's tests against
// it check the contract, not a shared constant. The rules only a server
// enforces (test tokens, payment transitions, idempotency retention) are
// in rules.go.
//
// State lives in memory, one account per secret key, each behind its own
// lock; with Options.Store it is also written to disk before any answer.
//
// Where the payment APIs this one resembles leave a choice open, the
// sandbox decides as follows (marked [own decision] in api/openapi.yaml;
// the tests pin each one; the API assumptions guide lists them for users):
//
//   - Request pipeline: authentication (401/403), then the account's
//     faults (/v1 only: rate limit 429, latency, error_rate 500/503), then
//     the Idempotency-Key, then the handler, then the disk, then the answer.
//     A drop happens last: the request acted and its answer is stored.
//   - Idempotency applies to POSTs under /v1; the /_sandbox controls ignore
//     the header. A replay gets a fresh Request-Id and the stored body.
//   - A form field given twice, a malformed bracket name, invalid
//     percent-encoding or invalid UTF-8 is 400 parameter_invalid. A POST
//     body in another Content-Type is 400; query parameters of a POST count.
//     A list is x[]=a&x[]=b or, as Stripe's libraries send it, x[0]=a&x[1]=b
//     (indexes from 0, no gap); both forms at once, a gap or a malformed
//     index is 400 naming the list, and under one Idempotency-Key the two
//     forms of one list are the same request (package form).
//   - An Idempotency-Key reused with another request is 400
//     idempotency_error (Stripe's answer, not retried by its clients); one
//     whose request still runs is 409.
//   - A time a request sends is Unix seconds or RFC 3339, within the
//     same bounds in both forms (form.ParseTime); answers write RFC 3339.
//   - Stripe's expand[] is served nowhere: any form of it is 400
//     parameter_unknown, param expand, saying so (form.Check), since
//     answers refer to other objects by id only.
//   - Missing required fields are parameter_missing; bad values are
//     parameter_invalid; unknown fields are parameter_unknown, checked
//     before the object in the path is looked up.
//   - source=src_… without customer is 400 parameter_missing, param
//     customer; neither source nor customer is parameter_missing, param
//     source; customer without a default source is missing_source, param
//     source. A charged token becomes a one-off src_ id on the payment.
//   - The key comes by HTTP Basic or as a Bearer token (auth.go), under the
//     same rules. A live secret key gets 403 permission_error, code
//     livemode_mismatch. A Basic password that is not empty is 401
//     invalid_api_key.
//   - A declined charge is 402 card_error naming the declined payment,
//     which exists: a payment's create, and an invoice's pay, whose attempt
//     is kept (the invoice unpaid, its attempt counted).
//   - Capture only from authorized (pending -> approved is the bank's
//     move, made with /_sandbox/…/complete). Complete only from pending;
//     without outcome it ends approved, or authorized for capture=false.
//   - Lists page alike (package listing): limit is 1 to 100 in plain digits (05,
//     +5 or 1e1 is 400), cursors must be objects of the list in the
//     account, and starting_after with ending_before is 400. An answer
//     over 32 KiB streams, a part at a time, the account read again for
//     each part (a deleted object is left out; has_more stays). The
//     payments' customer filter naming a deleted
//     customer is 400 resource_missing. The created filters
//     ([gte], [gt], [lte], [lt]; every /v1 list but the test clocks' and
//     webhook endpoints', as Stripe's) take a
//     time in either form and compare with whole seconds
//     (form.CreatedRange). The customer list's
//     email filter must be an address (else 400 parameter_invalid) and
//     matches ignoring case; customers keep their creation order in the
//     data file (customer_list.go). A subscription's items, an
//     invoice's lines and a customer's sources are list objects of every
//     entry (has_more false) inside their object, and page alike at their
//     url, in their embedded order (listSubscriptionItems,
//     listInvoiceLines, listSources); a
//     line's il_ id is derived from its invoice's and its item's
//     (model.LineID), never stored.
//   - Stats count every /v1 request on a known route, including those
//     answered 429 or 5xx by faults; unknown paths and methods are 404
//     unrecognized_url and not counted.
//   - Fault settings are validated all at once (a refused POST changes
//     nothing): rates 0 to 1, latency_ms 0 to 60000, rate_limit 0 to
//     100000. An empty value sets 0. They are kept in memory only.
//   - Fault decisions come from a PCG source per account, seeded by
//     Options.FaultSeed (-fault-seed) or at random, reseeded by POST
//     /_sandbox/faults seed=N and shown by GET: a seed replays a run.
//   - Cleared optional fields are null in answers, not "".
//   - Webhooks (webhooks.go, events.go, deliveries.go, package delivery):
//     events are recorded in the request that makes the change, and
//     delivered after it, by a scheduler with one lane per endpoint under
//     a global cap, only to addresses the allow policy accepts; the
//     decisions are listed in the
//     API assumptions guide, section "Webhooks and events", the design in
//     ARCHITECTURE.md, "Webhook delivery".
//   - The summary (GET /_sandbox/summary, summary.go) is kept, never
//     computed from the objects per request: counts by status move where
//     each payment, subscription and invoice is put (store_records.go),
//     each object remembering what was counted of it, and each day's
//     figures are a record (model.SummaryDay) written in the commit of
//     the change that moved them, charged to the account, read back with
//     the account after a restart or a failed commit, dropped by a reset
//     or an idle account's removal; a renewal step reserves room for a
//     new day. Days are on the objects' time (a test clock's for its
//     customers' objects), UTC: a payment counts made (approved or
//     declined) on its creation's day once decided, a refund and a
//     dispute on their own; deliveries count in the delivery book by
//     real-time day (delivery.BucketDays). MRR counts active and past_due
//     subscriptions, as Stripe's billing analytics do (model.MRR). An
//     account stored before the summary was kept has its days counted
//     once from its objects at start and written: its refunds and
//     disputes then count on their payment's day, its revenue from each
//     counting subscription's creation, and only the deliveries its
//     delivery log still holds.
//   - The request log (requestlog.go) keeps each account's last
//     wire.RequestLogSize requests in memory, without keys or bodies;
//     requests made through Server.Internal (the dashboard's) are neither
//     logged, counted in stats nor given faults. A resend
//     (resend.go) is a new delivery, its attempts counted from 1.
//   - POST /v1/payments/{id} changes description and metadata only, in
//     any status (declined and refunded payments included); an empty
//     description clears it.
//   - Limits (bounds.go): what accounts keep is counted as it changes.
//     A write (any POST but /_sandbox/reset and /_sandbox/faults) to a
//     full account or sandbox drops the account's oldest events when that
//     makes room, else (dropping none) is refused with 403
//     account_limit_exceeded or sandbox_limit_exceeded, not stored under
//     its Idempotency-Key; a key that would need an account past
//     Limits.MaxAccounts is refused every request. A renewal step must
//     find room for the most it can keep before it runs (renewals.go), so
//     billing never takes an account past its limit. Idle accounts made on
//     first use are removed, never those of Options.Keys.
//   - GET /healthz and GET /metrics (metrics.go) need no key and are
//     counted nowhere in /_sandbox/stats: they are for the operator. The
//     metrics sit on a registry per Server; their labels are route names,
//     statuses, outcomes and limits, never an account, key or id.
//   - The catalog (products.go, prices.go): a product with prices, active
//     or not, cannot be deleted (400 product_has_prices; archive it with
//     active=false), since prices cannot be. A price's product, currency,
//     unit_amount and recurring[…] are fixed: an update naming one is 400
//     parameter_unknown naming it. A lookup_key is unique among the
//     account's active prices; transfer_lookup_key=true moves it from the
//     active price holding it, which gets price.updated first. A price
//     list's product filter naming no product of the account is 400
//     resource_missing. Periods are at most wire.RecurringMaxYears.
//   - Subscriptions and invoices (subscriptions.go, invoices.go): a create
//     invoices and charges the first period at once, through a payment of
//     the payments API with its invoice set (makePayment), so that
//     declines, 3-D Secure and disputes are a payment's. Items are
//     items[N][price] and items[N][quantity] (package form's one indexed
//     form), of one currency and period. error_if_incomplete refuses a
//     first charge that would not succeed at once before anything is
//     made; customer.subscription.created follows the first invoice's
//     events. Updates apply from the next period, without proration;
//     DELETE cancels and keeps the subscription; deleting a customer
//     cancels its subscriptions. An invoice whose payment waits for 3-D
//     Secure can be neither paid again nor voided, so that nothing is
//     charged twice; completing it settles the invoice.
//   - Renewals (renewals.go, package billing) run on Options.Clock: at each
//     due moment the runner does every account's due steps in time order,
//     each with the time it was due, and commits an account's run in
//     parts of whole steps (about a MiB each), letting the account's lock
//     go between them; a failed commit reads the account back and the
//     steps not written run again later; a step without room stops the
//     run, which looks again each minute. Each period's invoice id is made
//     from the subscription and the period. Dunning retries 3, 5 and 7
//     days apart, then ends in
//     the status /_sandbox/billing or -dunning-end chooses. Renewals are
//     not use: they do not keep an idle account.
//   - Test clocks (testclocks.go): a customer is put on one at creation,
//     for life; its objects take their times from the clock and its
//     subscriptions renew only in an advance, which runs the engine's
//     steps within the request, written in the same parts, the clock put
//     at each part's moment; without room for its next step it stops
//     there and says so in status_details, or, with no step done, is
//     refused whole. A clock's time is the objects' only
//     (call.now: created and period fields, events' created_at); what
//     runs on real time runs on Options.Clock (call.wall) whatever clock
//     a request touches: keys' and events' retention, deliveries (due at
//     once, signed at sending), idle accounts, faults, the request log.
//   - No time after wire.MaxTime (9999-12-31T23:59:59Z) is written: a
//     clock's time, a first period or trial, and an advance that would
//     renew a subscription into a period ending after it, or with
//     retries that could run past it, are refused up front naming the
//     parameter (the handlers' frozenTime, Subscription.CheckStart,
//     TestClock.CheckAdvance), and so is a renewal's 3-D Secure ended
//     declined when its retry would fall after it (Invoice.CheckRetry).
//     Real time cannot get there: an offset clock moves at most 292
//     years.
//   - A data file that is truncated, overwritten or foreign is refused at
//     open (read-only, checked whole with bbolt's tx.Check), with one
//     error naming it and what to do; nothing of it is served.
//   - A write the data file refuses (full or read-only disk, I/O error) is
//     503 storage_unavailable, its message naming the cause but not the
//     path; the account is read back from the file, so the request changed
//     nothing, in memory either. Reads go on; writes work again as soon as
//     the disk takes them (store_records.go, storeFailed).
//   - The storage engine, package storage, keeps records by account,
//     bucket and key, knowing nothing of what they mean; the objects
//     (package model) are its Records. Without a data file the store is
//     storage.NoCopy: memory is the only copy, since a second would
//     double what the sandbox keeps, uncounted, and nothing is encoded.
//   - The data file records its format (storage, dataFormat). A file of
//     an older format is copied to <file>.v<N>.bak, then upgraded in
//     place, and the log says so; one of a newer format is refused at open
//     with both versions, rather than misread.
//   - A write is answered once it is on disk in the write-ahead log beside
//     the data file; concurrent writes share a record of it and its sync
//     (group commit, storage). A request holds its account's
//     lock until then, so requests of one account are written one after
//     another, and those of many accounts together. A checkpointer applies
//     the log to the data file in the background.
package sandbox
