// lifecycle.mjs drives a subscription's whole lifecycle against
// payments-sandbox with stripe-node, configured as for Stripe but for where
// it connects: a test clock, a customer on it with a card, a product and a
// monthly price found by its lookup_key, a subscription with a trial, the
// clock advanced through the trial's end and a renewal, a card that
// declines and the renewal it fails, a declined and then a successful
// invoices.pay, the events listed page by page, and a webhook delivery
// verified with stripe.webhooks.constructEvent.
//
//   PAYMENTS_BASE_URL=http://127.0.0.1:12111 \
//   PAYMENTS_SECRET_KEY=sk_sandbox_example1 node lifecycle.mjs
//
// Every step checks what it got and throws on a mismatch; the script exits
// 1 on any failure and prints one line per step. The guide "Testing
// Stripe-based billing code against the sandbox" explains what differs
// from Stripe.
import http from 'node:http';
import Stripe from 'stripe';

const DAY = 24 * 60 * 60;
const HOUR = 60 * 60;
const TRIAL_DAYS = 14;
const PRICE_CENTS = 1500;
// How long the script waits for a test clock or a webhook delivery.
const WAIT_MS = 30_000;

function env(name) {
  const v = process.env[name];
  if (!v) {
    throw new Error(`${name} is not set: export the sandbox's URL as PAYMENTS_BASE_URL and an account's key as PAYMENTS_SECRET_KEY`);
  }
  return v;
}

const base = new URL(env('PAYMENTS_BASE_URL'));
const protocol = base.protocol.replace(/:$/, '');

// Only where it connects changes: retries, Bearer auth, idempotency keys
// and the API version stay stripe-node's defaults.
const stripe = new Stripe(env('PAYMENTS_SECRET_KEY'), {
  host: base.hostname,
  port: base.port || (protocol === 'https' ? '443' : '80'),
  protocol,
});
const apiVersion = stripe.getApiField('version');

const summary = [];
function step(line) {
  summary.push(line);
  console.log(`ok   ${line}`);
}

function check(cond, what, got) {
  if (!cond) {
    throw new Error(`${what}; got ${JSON.stringify(got)}`);
  }
}

// unix reads a time from an answer. Stripe writes Unix seconds; the
// sandbox writes RFC 3339 strings. Code that reads times both ways runs
// against either.
function unix(t) {
  if (typeof t === 'number') {
    return t;
  }
  const ms = Date.parse(t);
  check(!Number.isNaN(ms), 'a time as Unix seconds or RFC 3339', t);
  return Math.floor(ms / 1000);
}

function day(t) {
  return new Date(unix(t) * 1000).toISOString().slice(0, 10);
}

// rejects runs fn and returns the error it throws, which must be an
// instance of cls; it throws when fn succeeds or throws something else.
async function rejects(what, fn, cls) {
  try {
    await fn();
  } catch (err) {
    check(err instanceof cls, `${what}: a ${cls.name}`, err.type || String(err));
    return err;
  }
  throw new Error(`${what} succeeded`);
}

// waitUntil calls poll until it returns a value, failing after WAIT_MS.
async function waitUntil(what, poll) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const v = await poll();
    if (v) {
      return v;
    }
    if (Date.now() > deadline) {
      throw new Error(`waited ${WAIT_MS} ms for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

// startReceiver listens on a loopback port for webhook deliveries and
// keeps each one's raw body and signature header, as a receiver must:
// the signature is over the bytes sent, not over re-serialized JSON.
function startReceiver() {
  const deliveries = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({body: Buffer.concat(chunks), signature: req.headers['payments-signature']});
      res.writeHead(200).end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address();
      resolve({url: `http://127.0.0.1:${port}/webhooks`, deliveries, close: () => server.close()});
    });
  });
}

// verified waits for a delivery of an event of type about object id and
// returns it as stripe.webhooks.constructEvent verified it.
async function verified(receiver, secret, type, id) {
  return waitUntil(`a ${type} delivery about ${id}`, async () => {
    for (const d of receiver.deliveries) {
      const event = stripe.webhooks.constructEvent(d.body, d.signature, secret);
      if (event.type === type && event.data.object.id === id) {
        return event;
      }
    }
    return null;
  });
}

async function lifecycle(cleanup) {
  const receiver = await startReceiver();
  cleanup.push(() => receiver.close());

  // Webhook endpoint, pinned to the library's API version as Stripe's
  // docs recommend; the sandbox writes it in the events it delivers.
  const endpoint = await stripe.webhookEndpoints.create({
    url: receiver.url,
    enabled_events: ['invoice.paid', 'invoice.payment_failed'],
    api_version: apiVersion,
  });
  cleanup.push(() => stripe.webhookEndpoints.del(endpoint.id));
  check(endpoint.secret?.startsWith('whsec_'), 'the endpoint has a whsec_ secret', endpoint.secret);
  check(endpoint.api_version === apiVersion, `the endpoint's api_version is ${apiVersion}`, endpoint.api_version);
  step(`webhook endpoint ${endpoint.id} at ${receiver.url}, api_version ${apiVersion}`);

  // Test clock, at the present second.
  const start = Math.floor(Date.now() / 1000);
  const clock = await stripe.testHelpers.testClocks.create({frozen_time: start, name: 'stripe-node lifecycle'});
  cleanup.push(() => stripe.testHelpers.testClocks.del(clock.id));
  check(unix(clock.frozen_time) === start, `the clock is frozen at ${start}`, clock.frozen_time);
  step(`test clock ${clock.id} frozen at ${day(clock.frozen_time)}`);

  const advance = async (to) => {
    await stripe.testHelpers.testClocks.advance(clock.id, {frozen_time: to});
    // Stripe advances in the background: poll until ready, as against
    // Stripe (the sandbox answers once the advance is done).
    const c = await waitUntil(`clock ${clock.id} to be ready`, async () => {
      const c = await stripe.testHelpers.testClocks.retrieve(clock.id);
      return c.status === 'ready' ? c : null;
    });
    check(unix(c.frozen_time) === to, `the clock reached ${to}`, c.frozen_time);
  };

  // Customer on the clock, paying with a test card.
  const customer = await stripe.customers.create({
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    source: 'tok_visa',
    test_clock: clock.id,
  });
  const visa = customer.default_source;
  check(typeof visa === 'string' && visa !== '', 'the customer has a default source', customer.default_source);
  check(customer.test_clock === clock.id, 'the customer is on the clock', customer.test_clock);
  step(`customer ${customer.id} on the clock, default source ${visa} (tok_visa)`);

  // Catalog: a product created with an Idempotency-Key of our own, sent
  // twice, then reused with other parameters.
  const idempotencyKey = `lifecycle-product-${clock.id}`;
  const product = await stripe.products.create({name: 'Pro'}, {idempotencyKey});
  const again = await stripe.products.create({name: 'Pro'}, {idempotencyKey});
  check(again.id === product.id, 'a repeated key answers the first product', again.id);
  await rejects('the key reused with other parameters',
    () => stripe.products.create({name: 'Other'}, {idempotencyKey}), Stripe.errors.StripeIdempotencyError);
  const lookupKey = `pro-monthly-${clock.id}`;
  const price = await stripe.prices.create({
    product: product.id,
    unit_amount: PRICE_CENTS,
    currency: 'USD', // the sandbox takes upper case only; Stripe writes usd
    recurring: {interval: 'month'},
    lookup_key: lookupKey,
  });
  const found = await stripe.prices.list({lookup_keys: [lookupKey]});
  check(found.data.length === 1 && found.data[0].id === price.id, `prices.list finds ${price.id} by its lookup_key`, found.data.map((p) => p.id));
  step(`product ${product.id} (idempotent create, reuse refused), price ${price.id} found by lookup_key`);

  // Subscription with a trial.
  const sub = await stripe.subscriptions.create({
    customer: customer.id,
    items: [{price: price.id}],
    trial_period_days: TRIAL_DAYS,
  });
  check(sub.status === 'trialing', 'the subscription is trialing', sub.status);
  check(unix(sub.trial_end) === start + TRIAL_DAYS * DAY, `the trial ends after ${TRIAL_DAYS} days`, sub.trial_end);
  const items = await stripe.subscriptionItems.list({subscription: sub.id});
  check(items.data.length === 1 && items.data[0].price.id === price.id, 'the subscription has one item of the price', items.data);
  step(`subscription ${sub.id} trialing until ${day(sub.trial_end)}`);

  // Through the trial's end: the first charge.
  await advance(unix(sub.trial_end) + HOUR);
  let s = await stripe.subscriptions.retrieve(sub.id);
  check(s.status === 'active', 'the subscription is active after the trial', s.status);
  let inv = await stripe.invoices.retrieve(s.latest_invoice);
  check(inv.status === 'paid' && inv.amount_paid === PRICE_CENTS, `the first invoice paid ${PRICE_CENTS}`, {status: inv.status, paid: inv.amount_paid});
  const lines = await stripe.invoices.listLineItems(inv.id);
  check(lines.data.length === 1 && lines.data[0].amount === PRICE_CENTS, 'the invoice has one line of the price', lines.data);
  step(`trial ended: ${inv.id} paid ${inv.amount_paid} ${inv.currency}, active until ${day(s.current_period_end)}`);

  // A renewal.
  await advance(unix(s.current_period_end) + HOUR);
  s = await stripe.subscriptions.retrieve(sub.id);
  inv = await stripe.invoices.retrieve(s.latest_invoice);
  check(s.status === 'active' && inv.status === 'paid', 'the renewal was paid', {sub: s.status, invoice: inv.status});
  const renewal = await verified(receiver, endpoint.secret, 'invoice.paid', inv.id);
  check(renewal.api_version === apiVersion, `the delivered event carries api_version ${apiVersion}`, renewal.api_version);
  step(`renewed: ${inv.id} paid; its invoice.paid delivery verified by constructEvent`);

  // A card that declines becomes the default: the next renewal fails.
  const declining = await stripe.customers.createSource(customer.id, {source: 'tok_declined'});
  await stripe.customers.update(customer.id, {default_source: declining.id});
  const sources = await stripe.customers.listSources(customer.id);
  check(sources.data.length === 2 && sources.data.some((x) => x.id === declining.id), 'the customer has both cards', sources.data.map((x) => x.id));
  await advance(unix(s.current_period_end) + HOUR);
  s = await stripe.subscriptions.retrieve(sub.id);
  const failed = await stripe.invoices.retrieve(s.latest_invoice);
  check(s.status === 'past_due', 'the subscription is past_due after a declined renewal', s.status);
  check(failed.status === 'open' && failed.amount_paid === 0, 'the failed invoice is open and unpaid', {status: failed.status, paid: failed.amount_paid});
  const failure = await verified(receiver, endpoint.secret, 'invoice.payment_failed', failed.id);
  step(`declined renewal: ${failed.id} open, subscription past_due; ${failure.type} ${failure.id} verified`);

  // Paying it with the declining card is a 402 card_error.
  const declined = await rejects(`invoices.pay of ${failed.id} with a declining card`,
    () => stripe.invoices.pay(failed.id), Stripe.errors.StripeCardError);
  check(declined.statusCode === 402 && declined.code === 'card_declined', 'a 402 card_declined', {status: declined.statusCode, code: declined.code});
  step(`invoices.pay with the declining card: 402 card_declined (StripeCardError)`);

  // Back to the good card, and pay.
  await stripe.customers.update(customer.id, {default_source: visa});
  const paid = await stripe.invoices.pay(failed.id);
  check(paid.status === 'paid' && paid.amount_paid === PRICE_CENTS, 'the invoice is paid', {status: paid.status, paid: paid.amount_paid});
  s = await stripe.subscriptions.retrieve(sub.id);
  check(s.status === 'active', 'the subscription is active again', s.status);
  await verified(receiver, endpoint.secret, 'invoice.paid', failed.id);
  step(`paid ${failed.id} with the good card: subscription active`);

  // A delivery whose body was changed does not verify.
  const d = receiver.deliveries[0];
  await rejects('constructEvent of a changed body',
    () => stripe.webhooks.constructEvent(Buffer.concat([d.body, Buffer.from(' ')]), d.signature, endpoint.secret),
    Stripe.errors.StripeSignatureVerificationError);

  // Events since the clock's start, page by page (two to a page).
  const paidEvents = [];
  for await (const ev of stripe.events.list({type: 'invoice.paid', created: {gte: start}, limit: 2})) {
    if (ev.data.object.subscription === sub.id && ev.data.object.amount_paid > 0) {
      paidEvents.push(ev.data.object.id);
    }
  }
  check(paidEvents.length === 3, 'three invoice.paid events of charged invoices (trial end, renewal, pay)', paidEvents);
  const invoices = await stripe.invoices.list({subscription: sub.id, limit: 2}).autoPagingToArray({limit: 100});
  check(invoices.filter((i) => i.status === 'paid' && i.amount_paid > 0).length === 3, 'three charged invoices', invoices.map((i) => [i.id, i.status]));
  step(`events listed with auto-pagination since ${day(start)}: ${paidEvents.length} invoice.paid; ${invoices.length} invoices`);
}

const cleanup = [];
try {
  await lifecycle(cleanup);
  console.log(`stripe-node ${stripe.VERSION} (API ${apiVersion}) against ${base.origin}: ${summary.length} steps passed`);
} catch (err) {
  process.exitCode = 1;
  console.error(`FAIL after ${summary.length} steps: ${err.stack || err}`);
} finally {
  for (const undo of cleanup.reverse()) {
    try {
      await undo();
    } catch (err) {
      process.exitCode = 1;
      console.error(`cleanup: ${err.message}`);
    }
  }
}
