package sandbox

import (
	"bytes"
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Delivery: every event goes to each matching endpoint as a signed POST,
// retried with exponential backoff. One scheduler goroutine keeps the due
// attempts in a heap; each endpoint has its own lane of at most
// laneWorkers concurrent attempts, so a slow or dead receiver holds up
// only its own lane, and requests never wait for a delivery: they only
// push onto the heap.

// WebhookOptions configure webhook delivery. The zero value is the
// payments-sandbox program's defaults.
type WebhookOptions struct {
	// Allow names the hosts (by name), addresses and CIDR networks the
	// sandbox may deliver to besides loopback (-webhook-allow).
	Allow []string
	// Attempts is the most attempts per event and endpoint; 0 is
	// DefaultWebhookAttempts.
	Attempts int
	// RetryBase is the wait before the first retry, doubled for each
	// further one; 0 is DefaultWebhookRetryBase. Tests shorten it.
	RetryBase time.Duration
	// Timeout bounds one attempt, answer included; 0 is
	// wire.DeliveryTimeout. Tests shorten it.
	Timeout time.Duration
}

// Delivery defaults of the sandbox program. A real service retries over
// about three days; the sandbox retries quickly, for tests.
const (
	DefaultWebhookAttempts  = 5
	DefaultWebhookRetryBase = time.Second
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
)

// delivery is one event still to be delivered to one endpoint. Its fields
// are guarded by the account's mu; the pointer in webhookState.pending is
// its identity: a delivery no longer there is cancelled.
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

// addDelivery schedules the first attempt of an event to an endpoint.
func (c *call) addDelivery(ev, ep rid) {
	d := &delivery{a: c.a, key: deliveryKey(ev, ep), event: ev, endpoint: ep, due: time.Now()}
	c.a.wh.pending[d.key] = d
	c.putDelivery(d)
	c.s.hooks.schedule(d, d.due)
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

	mu    sync.Mutex
	due   dueHeap
	lanes map[laneKey]*lane
	wake  chan struct{}
}

func newDeliverer(s *Server, o WebhookOptions) (*deliverer, error) {
	allow, err := newAllowPolicy(o.Allow)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	d := &deliverer{
		s: s, allow: allow,
		attempts: o.Attempts, base: o.RetryBase, timeout: o.Timeout,
		lanes: make(map[laneKey]*lane),
		wake:  make(chan struct{}, 1),
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
			MaxIdleConnsPerHost: laneWorkers,
			IdleConnTimeout:     30 * time.Second,
			TLSHandshakeTimeout: d.timeout,
		},
		// A redirect is not a delivery, and following one could leave
		// the allowed hosts.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return d, nil
}

// dial connects only to allowed addresses, checked after name resolution,
// so that a name cannot be made to resolve into a private network.
func (d *deliverer) dial(ctx context.Context, dialer *net.Dialer, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if d.allow.nameAllowed(host) {
		return dialer.DialContext(ctx, network, addr)
	}
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	lastErr := fmt.Errorf("%s resolves to %v: not a loopback address, and not allowed by -webhook-allow", host, ips)
	for _, ip := range ips {
		if !d.allow.addrAllowed(ip) {
			continue
		}
		conn, err := dialer.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return conn, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

// start runs the scheduler, with the deliveries loaded from the store.
func (d *deliverer) start() {
	now := time.Now()
	d.mu.Lock()
	for _, a := range d.s.accounts {
		for _, dl := range a.wh.pending {
			// A restart resumes pending deliveries at once: whoever
			// restarts the sandbox is waiting for them.
			dl.due = now
			heap.Push(&d.due, dueItem{due: dl.due, d: dl})
		}
	}
	d.mu.Unlock()
	d.wg.Add(1)
	go d.run()
}

// stop ends the scheduler and every attempt in flight, and waits for
// them. An attempt cut short is not recorded: it is made again after a
// restart, as its delivery is still pending in the store.
func (d *deliverer) stop() {
	d.cancel()
	d.wg.Wait()
}

// schedule queues an attempt of dl at due.
func (d *deliverer) schedule(dl *delivery, due time.Time) {
	d.mu.Lock()
	heap.Push(&d.due, dueItem{due: due, d: dl})
	first := d.due[0].d == dl
	d.mu.Unlock()
	if first {
		select {
		case d.wake <- struct{}{}:
		default:
		}
	}
}

func (d *deliverer) run() {
	defer d.wg.Done()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		d.mu.Lock()
		now := time.Now()
		for len(d.due) > 0 && !d.due[0].due.After(now) {
			it, _ := heap.Pop(&d.due).(dueItem)
			d.dispatchLocked(it.d)
		}
		wait := time.Hour
		if len(d.due) > 0 {
			wait = d.due[0].due.Sub(now)
		}
		d.mu.Unlock()
		timer.Reset(wait)
		select {
		case <-d.ctx.Done():
			return
		case <-d.wake:
		case <-timer.C:
		}
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

func (d *deliverer) work(key laneKey, l *lane) {
	defer d.wg.Done()
	for {
		d.mu.Lock()
		if len(l.queue) == 0 || d.ctx.Err() != nil {
			l.running--
			if l.running == 0 && len(l.queue) == 0 {
				delete(d.lanes, key)
			}
			d.mu.Unlock()
			return
		}
		dl := l.queue[0]
		l.queue[0] = nil
		l.queue = l.queue[1:]
		d.mu.Unlock()
		d.attempt(dl)
	}
}

// attempt makes one attempt of dl and records it.
func (d *deliverer) attempt(dl *delivery) {
	a := dl.a
	a.mu.Lock()
	wh := &a.wh
	if wh.pending[dl.key] != dl {
		a.mu.Unlock()
		return // delivered, given up, its endpoint deleted, or reset
	}
	ep, ev := wh.endpoints[dl.endpoint], wh.events[dl.event]
	if ep == nil || ev == nil || ep.disabled {
		// Disabled since: the contract sends nothing to a disabled endpoint.
		c := &call{s: d.s, a: a}
		delete(wh.pending, dl.key)
		c.deleteDeliveryRecord(dl.key)
		d.s.commitBackground(a, c.ops)
		a.mu.Unlock()
		return
	}
	target, secret, body := ep.url, ep.secret, ev.body
	a.mu.Unlock()

	at := d.s.now()
	sent := time.Now()
	status, errText := d.post(target, secret, body, at)
	took := time.Since(sent)
	if d.ctx.Err() != nil {
		return // shutting down: left pending, made again after a restart
	}

	a.mu.Lock()
	if wh.pending[dl.key] != dl {
		a.mu.Unlock()
		return
	}
	c := &call{s: d.s, a: a}
	dl.attempts++
	wh.seq++
	retry := errText != "" && dl.attempts < d.attempts
	rec := &deliveryAttempt{
		seq: wh.seq, event: dl.event, endpoint: dl.endpoint, attempt: dl.attempts,
		status: status, err: errText, at: at.Unix(), duration: took,
	}
	if retry {
		dl.due = time.Now().Add(d.backoff(dl.attempts))
		rec.retryMS = d.s.now().Add(time.Until(dl.due)).UnixMilli()
	}
	wh.attempts = append(wh.attempts, rec)
	c.putDeliveryAttempt(rec)
	if n := len(wh.attempts) - maxDeliveryLog; n > 0 {
		for _, old := range wh.attempts[:n] {
			c.deleteDeliveryAttemptRecord(old.seq)
		}
		wh.attempts = append(wh.attempts[:0:0], wh.attempts[n:]...)
	}
	if retry {
		c.putDelivery(dl)
	} else {
		delete(wh.pending, dl.key)
		c.deleteDeliveryRecord(dl.key)
	}
	d.s.commitBackground(a, c.ops)
	due := dl.due
	a.mu.Unlock()
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
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return status, fmt.Sprintf("no complete answer within %s", d.timeout)
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

// commitBackground writes changes made outside a request. A failure puts
// the server in the same refusing state as a failed request write.
func (s *Server) commitBackground(a *account, ops []op) {
	if len(ops) == 0 || s.storeErr.Load() != nil {
		return
	}
	if err := s.store.commit(a.hash, ops); err != nil {
		s.storeErr.CompareAndSwap(nil, &err)
		s.log.Error("writing the data file failed; refusing every request from now on", "error", err)
	}
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
	var page []*deliveryAttempt // newest first
	for _, at := range slices.Backward(c.a.wh.attempts) {
		if (evID == "" || at.event == evR) && (epID == "" || at.endpoint == epR) {
			page = append(page, at)
		}
	}
	return ok(appendList(nil, wire.PathSandboxDeliveries, page, false, func(b []byte, at *deliveryAttempt) []byte {
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
	}))
}
