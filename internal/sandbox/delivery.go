package sandbox

import (
	"bytes"
	"cmp"
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Delivery: every event goes to each matching endpoint as a signed POST,
// retried with exponential backoff. One scheduler goroutine keeps the due
// attempts in a heap; each endpoint has its own lane of at most
// laneWorkers concurrent attempts, so a slow or dead receiver holds up
// only its own lane, and requests never wait for a delivery: they only
// push onto the heap. Every attempt also takes one of Concurrency slots,
// shared by all accounts, so that a storm of deliveries cannot open
// connections without bound. Attempts are recorded in the account's
// deliveryBook, under its own lock, and written to the store by one
// flusher in batches: the account's lock is never held for a delivery.

// WebhookOptions configure webhook delivery. The zero value is the
// payments-sandbox program's defaults.
type WebhookOptions struct {
	// Allow names the hosts (by name), addresses and CIDR networks the
	// sandbox may deliver to besides loopback (-webhook-allow); a name or
	// an address may carry a :port, and then allows that port only.
	Allow []string
	// Listen are the addresses the sandbox listens on, known once it
	// listens (payments-sandbox sets them after net.Listen). Deliveries
	// never go there, and a listener beyond loopback makes loopback a
	// target only when Allow names it. Empty: a loopback listener of
	// unknown port.
	Listen []netip.AddrPort
	// Attempts is the most attempts per event and endpoint; 0 is
	// DefaultWebhookAttempts.
	Attempts int
	// RetryBase is the wait before the first retry, doubled for each
	// further one; 0 is DefaultWebhookRetryBase. Tests shorten it.
	RetryBase time.Duration
	// Timeout bounds one attempt, answer included; 0 is
	// wire.DeliveryTimeout. Tests shorten it.
	Timeout time.Duration
	// Concurrency is the most attempts in flight at once, all accounts
	// and endpoints together (-webhook-concurrency); more wait their turn
	// in their endpoint's order. 0 is DefaultWebhookConcurrency.
	Concurrency int
}

// Delivery defaults of the sandbox program. A real service retries over
// about three days; the sandbox retries quickly, for tests.
const (
	DefaultWebhookAttempts    = 5
	DefaultWebhookRetryBase   = time.Second
	DefaultWebhookConcurrency = 64
)

const (
	// laneWorkers is how many attempts one endpoint may have in flight.
	laneWorkers = 4
	// maxDeliveryLog bounds the attempts /_sandbox/deliveries keeps per
	// account; the oldest go first.
	maxDeliveryLog = 1000
	// maxReceiverAnswer is how much of an answer is read (and ignored).
	maxReceiverAnswer = 64 << 10
	deliveryUserAgent = "payments-sandbox-webhooks/1"
	// flushInterval is how often the flusher writes the attempts recorded
	// since its last write: one commit for many attempts, so that a storm
	// of deliveries does not queue other accounts' writes behind its own.
	flushInterval = 100 * time.Millisecond
)

// delivery is one event still to be delivered to one endpoint. Its fields
// are guarded by its account's deliveryBook; the pointer in the book's
// pending is its identity: a delivery no longer there is cancelled.
type delivery struct {
	a        *account
	key      string
	event    rid
	endpoint rid
	attempts int       // made so far
	due      time.Time // of the next attempt
}

func deliveryKey(ev, ep rid) string {
	return ev.format(wire.EventIDPrefix) + "/" + ep.format(wire.WebhookEndpointIDPrefix)
}

// deliveryAttempt is one line of /_sandbox/deliveries.
type deliveryAttempt struct {
	seq      uint64
	event    rid
	endpoint rid
	attempt  int
	status   int // 0 when no answer came
	err      string
	at       int64
	duration time.Duration // from sending to the end of the answer
	retryMS  int64         // when the next attempt is due, unix ms; 0 when none
}

// addDelivery schedules the first attempt of an event to an endpoint. The
// attempt waits for the account's lock, so the request's store write of
// the delivery lands before the attempt's.
func (c *call) addDelivery(ev, ep rid) {
	d := &delivery{a: c.a, key: deliveryKey(ev, ep), event: ev, endpoint: ep, due: c.now}
	c.putDelivery(d)
	bk := &c.a.wh.book
	bk.mu.Lock()
	bk.ensure()
	prev := bk.pending[d.key]
	bk.pending[d.key] = d
	bk.mu.Unlock()
	c.undoBook(func(bk *deliveryBook) {
		if bk.pending[d.key] == d {
			delete(bk.pending, d.key)
			if prev != nil {
				bk.pending[d.key] = prev
			}
		}
	})
	c.s.hooks.schedule(d, d.due)
}

// deliveryBook is an account's pending deliveries and delivery log. It
// has its own lock, taken after the account's when both are: the
// deliverer records attempts under it alone, so that creates never wait
// for a delivery's bookkeeping, let alone its store write.
type deliveryBook struct {
	mu sync.Mutex
	// pending are the deliveries still to be attempted, by deliveryKey.
	pending map[string]*delivery
	// attempts is the delivery log, oldest first, at most maxDeliveryLog.
	// Entries never change, and trimming makes a new slice, so a reader
	// may range over the slice it took under mu after releasing it.
	attempts []*deliveryAttempt
	// seq orders the attempts; it only grows, across resets too.
	seq uint64
	// ops are the store writes of attempts not yet flushed; dirty is set
	// while the account is in the deliverer's flush list.
	ops   []storage.Op
	dirty bool
	// flushing is held while the book's ops are being written, so that
	// a request that must write after them (deleting an endpoint,
	// resetting) can wait for them.
	flushing sync.Mutex
}

func (bk *deliveryBook) ensure() {
	if bk.pending == nil {
		bk.pending = make(map[string]*delivery)
	}
}

// takeOps waits for a flush in progress and returns the ops not yet
// written, with mu held: the caller cancels deliveries before unlocking,
// so that no write of theirs can follow its own.
func (bk *deliveryBook) takeOps() []storage.Op {
	bk.flushing.Lock()
	bk.mu.Lock()
	bk.flushing.Unlock()
	ops := bk.ops
	bk.ops = nil
	return ops
}

// cancelEndpoint stops the deliveries to an endpoint being deleted; the
// attempts recorded but not yet flushed are written by the request first.
func (c *call) cancelEndpoint(ep rid) {
	bk := &c.a.wh.book
	taken := bk.takeOps()
	c.ops = append(c.ops, taken...)
	var cancelled []*delivery
	for key, d := range bk.pending {
		if d.endpoint == ep {
			delete(bk.pending, key)
			cancelled = append(cancelled, d)
			c.deleteDeliveryRecord(key)
		}
	}
	bk.mu.Unlock()
	c.undoBook(func(bk *deliveryBook) {
		bk.ensure()
		for _, d := range cancelled {
			bk.pending[d.key] = d
		}
		c.s.hooks.requeue(c.a, taken)
	})
}

// idle reports whether no delivery of the account is pending nor being
// written, for an account about to be dropped whole, whose queued writes
// it then discards. It never waits: the caller holds the server's lock.
func (bk *deliveryBook) idle() bool {
	if !bk.flushing.TryLock() {
		return false
	}
	defer bk.flushing.Unlock()
	bk.mu.Lock()
	defer bk.mu.Unlock()
	if len(bk.pending) > 0 {
		return false
	}
	bk.ops = nil
	return true
}

// reset forgets the deliveries and the log but not seq (POST
// /_sandbox/reset, which drops every record of the account). It returns
// how to take that back, should the reset's write fail.
func (bk *deliveryBook) reset(hooks *deliverer, a *account) func(*deliveryBook) {
	ops := bk.takeOps()
	pending, attempts := bk.pending, bk.attempts
	bk.pending = nil
	bk.attempts = nil
	bk.mu.Unlock()
	return func(bk *deliveryBook) {
		bk.pending, bk.attempts = pending, attempts
		hooks.requeue(a, ops)
	}
}

type laneKey struct {
	account  [32]byte
	endpoint rid
}

type lane struct {
	queue   []*delivery
	running int
}

type dueItem struct {
	due time.Time
	d   *delivery
}

type dueHeap []dueItem

func (h dueHeap) Len() int           { return len(h) }
func (h dueHeap) Less(i, j int) bool { return h[i].due.Before(h[j].due) }
func (h dueHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *dueHeap) Push(x any) {
	if it, ok := x.(dueItem); ok {
		*h = append(*h, it)
	}
}

func (h *dueHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// deliverer runs the deliveries of one Server.
type deliverer struct {
	s        *Server
	allow    *allowPolicy
	http     *http.Client
	attempts int
	base     time.Duration
	timeout  time.Duration

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// lookup resolves a host name; tests replace it.
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)

	mu    sync.Mutex
	due   dueHeap
	lanes map[laneKey]*lane
	wake  chan struct{}
	// slots bound the attempts in flight, all lanes together.
	slots chan struct{}

	// flushMu guards dirty, the accounts whose books have ops to write.
	flushMu  sync.Mutex
	dirty    []*account
	flushNow chan struct{}
}

func newDeliverer(s *Server, o WebhookOptions) (*deliverer, error) {
	allow, err := newAllowPolicy(o.Allow, o.Listen)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultWebhookConcurrency
	}
	d := &deliverer{
		s: s, allow: allow,
		attempts: o.Attempts, base: o.RetryBase, timeout: o.Timeout,
		lanes:    make(map[laneKey]*lane),
		wake:     make(chan struct{}, 1),
		slots:    make(chan struct{}, o.Concurrency),
		flushNow: make(chan struct{}, 1),
		lookup: func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		},
	}
	if d.attempts <= 0 {
		d.attempts = DefaultWebhookAttempts
	}
	if d.base <= 0 {
		d.base = DefaultWebhookRetryBase
	}
	if d.timeout <= 0 {
		d.timeout = wire.DeliveryTimeout
	}
	d.ctx, d.cancel = context.WithCancel(context.Background())
	dialer := &net.Dialer{Timeout: d.timeout, KeepAlive: 30 * time.Second}
	d.http = &http.Client{
		Transport: &http.Transport{
			Proxy: nil, // a proxy would dial for us, past the allow policy
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				return d.dial(ctx, dialer, network, addr)
			},
			MaxIdleConnsPerHost: o.Concurrency,
			IdleConnTimeout:     30 * time.Second,
			TLSHandshakeTimeout: d.timeout,
		},
		// A redirect is not a delivery, and following one could leave
		// the allowed hosts.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return d, nil
}

// dial connects only to allowed addresses, checked after name resolution
// and dialled as checked, so that no name can be made to resolve into the
// sandbox itself, a metadata service or a network it may not call. An
// address refused is never connected to: its refusal says nothing of
// what listens there.
func (d *deliverer) dial(ctx context.Context, dialer *net.Dialer, network, addr string) (net.Conn, error) {
	host, ps, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.ParseUint(ps, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("port %q is not a port", ps)
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else if ips, err = d.lookup(ctx, host); err != nil {
		return nil, err
	}
	var refused, lastErr error
	for _, ip := range ips {
		if r := d.allow.check(host, ip, uint16(port)); r != nil {
			refused = cmp.Or(refused, error(r))
			continue
		}
		conn, err := dialer.DialContext(ctx, network, netip.AddrPortFrom(ip.Unmap(), uint16(port)).String())
		if err == nil {
			return conn, nil
		}
		lastErr = err
	}
	if lastErr == nil && refused == nil {
		return nil, fmt.Errorf("%s resolves to no address", host)
	}
	return nil, cmp.Or(lastErr, refused)
}

// start runs the scheduler, with the deliveries loaded from the store.
func (d *deliverer) start() {
	now := d.s.now()
	d.mu.Lock()
	for _, a := range d.s.accounts {
		for _, dl := range a.wh.book.pending {
			// A restart resumes pending deliveries at once: whoever
			// restarts the sandbox is waiting for them.
			dl.due = now
			heap.Push(&d.due, dueItem{due: dl.due, d: dl})
		}
	}
	d.mu.Unlock()
	d.wg.Add(2)
	go d.run()
	go d.flusher()
}

// stop ends the scheduler and every attempt in flight, waits for them,
// and writes what they recorded. An attempt cut short is not recorded: it
// is made again after a restart, as its delivery is still pending in the
// store.
func (d *deliverer) stop() {
	d.cancel()
	d.wg.Wait()
	d.flush()
}

// queue adds an attempt's store writes to its account's book, whose mu
// the caller holds, for the flusher.
func (d *deliverer) queue(a *account, ops []storage.Op) {
	bk := &a.wh.book
	if len(ops) == 0 {
		return
	}
	bk.ops = append(bk.ops, ops...)
	d.markDirty(a)
}

// requeue puts ops that could not be written back in front of the book's,
// for the flusher to try again; the caller holds the book's mu.
func (d *deliverer) requeue(a *account, ops []storage.Op) {
	bk := &a.wh.book
	if len(ops) == 0 {
		return
	}
	bk.ops = append(slices.Clip(ops), bk.ops...)
	d.markDirty(a)
}

// markDirty puts the account in the flush list; the caller holds its
// book's mu.
func (d *deliverer) markDirty(a *account) {
	bk := &a.wh.book
	if bk.dirty {
		return
	}
	bk.dirty = true
	d.flushMu.Lock()
	d.dirty = append(d.dirty, a)
	d.flushMu.Unlock()
	select {
	case d.flushNow <- struct{}{}:
	default:
	}
}

// flusher writes the queued attempts at most every flushInterval.
func (d *deliverer) flusher() {
	defer d.wg.Done()
	for {
		select {
		case <-d.ctx.Done():
			return
		case <-d.flushNow:
		}
		d.flush()
		select {
		case <-d.ctx.Done():
			return
		case <-time.After(flushInterval):
		}
	}
}

// flush writes every account's queued attempts, one commit per account.
func (d *deliverer) flush() {
	d.flushMu.Lock()
	dirty := d.dirty
	d.dirty = nil
	d.flushMu.Unlock()
	for _, a := range dirty {
		bk := &a.wh.book
		bk.flushing.Lock()
		bk.mu.Lock()
		ops := bk.ops
		bk.ops, bk.dirty = nil, false
		bk.mu.Unlock()
		if !d.s.commitBackground(a, ops) {
			// Kept for the next flush: the book is ahead of the file
			// anyway, and a full disk may take them later.
			bk.mu.Lock()
			d.requeue(a, ops)
			bk.mu.Unlock()
		}
		bk.flushing.Unlock()
	}
}

// schedule queues an attempt of dl at due.
func (d *deliverer) schedule(dl *delivery, due time.Time) {
	d.mu.Lock()
	heap.Push(&d.due, dueItem{due: due, d: dl})
	first := d.due[0].d == dl
	d.mu.Unlock()
	if first {
		d.poke()
	}
}

// run dispatches the attempts as they fall due on the server's clock: it
// sleeps on a timer of that clock set for the earliest, or until schedule
// wakes it for an earlier one.
func (d *deliverer) run() {
	defer d.wg.Done()
	var timer clock.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		d.mu.Lock()
		now := d.s.now()
		for len(d.due) > 0 && !d.due[0].due.After(now) {
			it, _ := heap.Pop(&d.due).(dueItem)
			d.dispatchLocked(it.d)
		}
		var next time.Time
		if len(d.due) > 0 {
			next = d.due[0].due
		}
		d.mu.Unlock()
		if timer != nil {
			timer.Stop()
			timer = nil
		}
		if !next.IsZero() {
			timer = d.s.clock.AfterFunc(next.Sub(now), d.poke)
		}
		select {
		case <-d.ctx.Done():
			return
		case <-d.wake:
		}
	}
}

// poke wakes the scheduler.
func (d *deliverer) poke() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// dispatchLocked hands a due attempt to its endpoint's lane.
func (d *deliverer) dispatchLocked(dl *delivery) {
	key := laneKey{account: dl.a.hash, endpoint: dl.endpoint}
	l := d.lanes[key]
	if l == nil {
		l = &lane{}
		d.lanes[key] = l
	}
	l.queue = append(l.queue, dl)
	if l.running < laneWorkers {
		l.running++
		d.wg.Add(1)
		go d.work(key, l)
	}
}

// work makes the attempts of one lane. It takes a slot before it takes
// the lane's next delivery, so that waiting for a slot never reorders a
// lane: the first to get a slot sends the oldest.
func (d *deliverer) work(key laneKey, l *lane) {
	defer d.wg.Done()
	for {
		slot := false
		select {
		case d.slots <- struct{}{}:
			slot = true
		case <-d.ctx.Done():
		}
		d.mu.Lock()
		if len(l.queue) == 0 || d.ctx.Err() != nil {
			l.running--
			if l.running == 0 && len(l.queue) == 0 {
				delete(d.lanes, key)
			}
			d.mu.Unlock()
			if slot {
				<-d.slots
			}
			return
		}
		dl := l.queue[0]
		l.queue[0] = nil
		l.queue = l.queue[1:]
		d.mu.Unlock()
		d.attempt(dl)
		<-d.slots
	}
}

// attempt makes one attempt of dl and records it. It reads the endpoint
// and the event under the account's read lock, for as long as copying
// three fields takes; it records the result under the book's lock only.
func (d *deliverer) attempt(dl *delivery) {
	a := dl.a
	bk := &a.wh.book
	a.mu.RLock()
	bk.mu.Lock()
	if bk.pending[dl.key] != dl {
		bk.mu.Unlock()
		a.mu.RUnlock()
		return // delivered, given up, its endpoint deleted, or reset
	}
	ep, ev := a.wh.endpoints[dl.endpoint], a.wh.events[dl.event]
	if ep == nil || ev == nil || ep.disabled {
		// Disabled since: the contract sends nothing to a disabled endpoint.
		c := &call{s: d.s, a: a}
		delete(bk.pending, dl.key)
		c.deleteDeliveryRecord(dl.key)
		d.queue(a, c.ops)
		bk.mu.Unlock()
		a.mu.RUnlock()
		return
	}
	target, secret, body := ep.url, ep.secret, ev.body
	bk.mu.Unlock()
	a.mu.RUnlock()

	at := d.s.now()
	sent := time.Now()
	status, errText := d.post(target, secret, body, at)
	took := time.Since(sent)
	if d.ctx.Err() != nil {
		return // shutting down: left pending, made again after a restart
	}
	d.s.metrics.delivered(status, errText)

	bk.mu.Lock()
	if bk.pending[dl.key] != dl {
		bk.mu.Unlock()
		return
	}
	c := &call{s: d.s, a: a}
	dl.attempts++
	bk.seq++
	retry := errText != "" && dl.attempts < d.attempts
	rec := &deliveryAttempt{
		seq: bk.seq, event: dl.event, endpoint: dl.endpoint, attempt: dl.attempts,
		status: status, err: errText, at: at.Unix(), duration: took,
	}
	if retry {
		dl.due = d.s.now().Add(d.backoff(dl.attempts))
		rec.retryMS = dl.due.UnixMilli()
	}
	bk.attempts = append(bk.attempts, rec)
	c.putDeliveryAttempt(rec)
	if n := len(bk.attempts) - maxDeliveryLog; n > 0 {
		for _, old := range bk.attempts[:n] {
			c.deleteDeliveryAttemptRecord(old.seq)
		}
		bk.attempts = append(bk.attempts[:0:0], bk.attempts[n:]...)
	}
	if retry {
		c.putDelivery(dl)
	} else {
		delete(bk.pending, dl.key)
		c.deleteDeliveryRecord(dl.key)
	}
	d.queue(a, c.ops)
	due := dl.due
	bk.mu.Unlock()
	if retry {
		d.schedule(dl, due)
	}
}

// backoff is the wait after the n-th failed attempt: base, 2×base, 4×base…
func (d *deliverer) backoff(n int) time.Duration {
	return d.base << min(n-1, 20)
}

// post sends one signed attempt. errText is "" when it was delivered.
func (d *deliverer) post(target, secret string, body []byte, at time.Time) (status int, errText string) {
	ctx, cancel := context.WithTimeout(d.ctx, d.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", deliveryUserAgent)
	req.Header.Set(wire.HeaderSignature, wire.Sign(secret, at, body))
	resp, err := d.http.Do(req)
	if err == nil {
		// The answer counts only once read in full within the timeout.
		_, err = io.Copy(io.Discard, io.LimitReader(resp.Body, maxReceiverAnswer))
		resp.Body.Close()
		if err == nil {
			status = resp.StatusCode
		}
	}
	var refused *refusal
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return status, fmt.Sprintf("no complete answer within %s", d.timeout)
	case errors.As(err, &refused):
		return 0, refused.Error()
	case err != nil:
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL, which may carry credentials
		}
		return status, err.Error()
	case status < 200 || status > 299:
		return status, fmt.Sprintf("the receiver answered HTTP %d; only a 2xx answer counts as delivered", status)
	}
	return status, ""
}

// commitBackground writes changes made outside a request (delivery
// records, an idle account's removal), and reports whether they were
// written; on failure the caller keeps them to try again.
func (s *Server) commitBackground(a *account, ops []storage.Op) bool {
	if len(ops) == 0 {
		return true
	}
	if err := s.store.Commit(a.hash, ops); err != nil {
		if !s.backgroundFailing.Swap(true) {
			s.log.Error("writing the data file failed; delivery records are kept in memory and written once it takes writes again", "error", err)
		}
		return false
	}
	if s.backgroundFailing.Swap(false) {
		s.log.Info("the data file takes writes again")
	}
	return true
}

func (c *call) listDeliveries() response {
	if e := c.f.check(wire.ParamEvent, wire.ParamEndpoint); e != nil {
		return e.response()
	}
	evID, _ := c.f.get(wire.ParamEvent)
	epID, _ := c.f.get(wire.ParamEndpoint)
	var evR, epR rid
	if evID != "" {
		var ok bool
		if evR, ok = parseRID(evID, wire.EventIDPrefix); !ok {
			return invalid(wire.ParamEvent, "event %q is not an event id (%s…).", clip(evID), wire.EventIDPrefix).response()
		}
	}
	if epID != "" {
		var ok bool
		if epR, ok = parseRID(epID, wire.WebhookEndpointIDPrefix); !ok {
			return invalid(wire.ParamEndpoint, "endpoint %q is not a webhook endpoint id (%s…).", clip(epID), wire.WebhookEndpointIDPrefix).response()
		}
	}
	bk := &c.a.wh.book
	bk.mu.Lock()
	list := bk.attempts
	bk.mu.Unlock()
	var page []*deliveryAttempt // newest first
	for _, at := range slices.Backward(list) {
		if (evID == "" || at.event == evR) && (epID == "" || at.endpoint == epR) {
			page = append(page, at)
		}
	}
	return answerList(wire.PathSandboxDeliveries, false, len(page), func(b []byte, i int) []byte {
		at := page[i]
		b = append(b, `{"event":`...)
		b = appendID(b, wire.EventIDPrefix, at.event)
		b = append(b, `,"endpoint":`...)
		b = appendID(b, wire.WebhookEndpointIDPrefix, at.endpoint)
		b = append(b, `,"attempt":`...)
		b = appendInt(b, int64(at.attempt))
		b = append(b, `,"status":`...)
		b = appendInt(b, int64(at.status))
		b = append(b, `,"error":`...)
		b = appendOptString(b, at.err)
		b = append(b, `,"at":`...)
		b = appendTime(b, at.at)
		b = append(b, `,"duration_ms":`...)
		b = appendMillis(b, at.duration)
		b = append(b, `,"next_retry_at":`...)
		if at.retryMS == 0 {
			b = append(b, "null"...)
		} else {
			b = append(b, '"')
			b = time.UnixMilli(at.retryMS).UTC().AppendFormat(b, time.RFC3339)
			b = append(b, '"')
		}
		return append(b, '}')
	}, noLock)
}

// undoBook records how to take back a change to the delivery book, should
// the request's write fail (see account.restore). Without a store there
// is no write to fail.
func (c *call) undoBook(f func(*deliveryBook)) {
	if c.s.store != nil {
		c.undo = append(c.undo, f)
	}
}
