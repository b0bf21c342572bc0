package sandbox

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The webhook endpoints (api/openapi.yaml, tag webhook_endpoints). An
// endpoint's secret signs every delivery to it; the answers of create and
// roll_secret are the only ones that show it.

type webhookEndpoint struct {
	id          rid
	seq         uint64
	created     int64
	url         string
	events      []string // as sent, without duplicates
	description string
	disabled    bool
	meta        metadata
	secret      string
	counted     int64 // bytes charged to the account, see bounds.go
}

// wants reports whether the endpoint is sent events of type typ.
func (ep *webhookEndpoint) wants(typ string) bool {
	if ep.disabled {
		return false
	}
	for _, e := range ep.events {
		if e == typ || e == wire.EventTypeAll {
			return true
		}
	}
	return false
}

// webhookState is an account's endpoints, events and deliveries, guarded
// by the account's mu. Its maps are made on first write, so that an
// account that never uses webhooks costs nothing.
type webhookState struct {
	endpoints     map[rid]*webhookEndpoint
	endpointOrder []*webhookEndpoint // by seq, oldest first
	events        map[rid]*event
	eventOrder    []*event // by seq, oldest first
	// book is the pending deliveries and the delivery log, under a lock
	// of their own (see delivery.go).
	book deliveryBook
	// seq orders endpoints and events; it only grows.
	seq uint64
}

func (w *webhookState) ensure() {
	if w.endpoints == nil {
		w.endpoints = make(map[rid]*webhookEndpoint)
		w.events = make(map[rid]*event)
	}
}

// clear forgets everything but the sequences (POST /_sandbox/reset).
// Deliveries already scheduled find themselves gone from pending and stop.
func (w *webhookState) clear(c *call) {
	w.endpoints, w.endpointOrder = nil, nil
	w.events, w.eventOrder = nil, nil
	c.undoBook(w.book.reset(c.s.hooks, c.a))
}

func newWebhookSecret() string {
	b := make([]byte, len(wire.WebhookSecretPrefix)+wire.WebhookSecretRandomLength)
	copy(b, wire.WebhookSecretPrefix)
	fillAlnum(b[len(wire.WebhookSecretPrefix):])
	return string(b)
}

// allowPolicy is where the sandbox may deliver (-webhook-allow and the
// listening addresses); the API assumptions guide states the rules for
// users. Every check is of an address, after name resolution, and one
// function makes it, at endpoint creation and again at each connection.
type allowPolicy struct {
	rules []allowRule
	// self are the listening addresses; local, when one of them is a
	// wildcard, are the host's own addresses, which it also listens on.
	self  []netip.AddrPort
	local map[netip.Addr]bool
	// shared is set when the sandbox listens beyond loopback: others
	// reach it, so loopback is no longer theirs to call.
	shared bool
}

// allowRule is one -webhook-allow entry: a host name, an address or a
// network, the first two with an optional port (0: any).
type allowRule struct {
	name string // lower case, without a trailing dot
	addr netip.Addr
	net  netip.Prefix
	port uint16
}

// metadataV6 is the cloud metadata service's IPv6 address (AWS); its IPv4
// address, 169.254.169.254, is link-local.
var metadataV6 = netip.MustParseAddr("fd00:ec2::254")

func newAllowPolicy(entries []string, listen []netip.AddrPort) (*allowPolicy, error) {
	p := &allowPolicy{}
	for _, e := range entries {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		r, err := parseAllowRule(e)
		if err != nil {
			return nil, err
		}
		p.rules = append(p.rules, r)
	}
	for _, ap := range listen {
		ap = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
		p.self = append(p.self, ap)
		if !ap.Addr().IsLoopback() {
			p.shared = true
		}
		if ap.Addr().IsUnspecified() && p.local == nil {
			p.local = make(map[netip.Addr]bool)
			addrs, err := net.InterfaceAddrs()
			if err != nil {
				return nil, fmt.Errorf("listing the host's addresses, which a wildcard listener listens on: %w", err)
			}
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok {
					if ip, ok := netip.AddrFromSlice(n.IP); ok {
						p.local[ip.Unmap()] = true
					}
				}
			}
		}
	}
	return p, nil
}

func parseAllowRule(e string) (allowRule, error) {
	if strings.Contains(e, "/") {
		pfx, err := netip.ParsePrefix(e)
		if err != nil {
			return allowRule{}, fmt.Errorf("webhook allow entry %q is not a CIDR network such as 10.0.0.0/8: %w", e, err)
		}
		return allowRule{net: pfx.Masked()}, nil
	}
	if ip, err := netip.ParseAddr(strings.Trim(e, "[]")); err == nil {
		return allowRule{addr: ip.Unmap()}, nil
	}
	host, port := e, uint16(0)
	if h, ps, err := net.SplitHostPort(e); err == nil {
		n, err := strconv.ParseUint(ps, 10, 16)
		if err != nil || n == 0 {
			return allowRule{}, fmt.Errorf("webhook allow entry %q has port %q; use a port from 1 to 65535", e, ps)
		}
		host, port = h, uint16(n)
		if ip, err := netip.ParseAddr(host); err == nil {
			return allowRule{addr: ip.Unmap(), port: port}, nil
		}
	}
	if host == "" || strings.ContainsAny(host, " :@?#[]") {
		return allowRule{}, fmt.Errorf("webhook allow entry %q is neither a host name, an IP address, either with :port, nor a CIDR network", e)
	}
	return allowRule{name: hostKey(host), port: port}, nil
}

func hostKey(host string) string { return strings.ToLower(strings.TrimSuffix(host, ".")) }

// named reports whether an entry names host (a name, as in the URL) on
// port: such a host is trusted whatever it resolves to.
func (p *allowPolicy) named(host string, port uint16) bool {
	h := hostKey(host)
	for _, r := range p.rules {
		if r.name != "" && r.name == h && (r.port == 0 || r.port == port) {
			return true
		}
	}
	return false
}

// refusal is a target the policy refuses; its text is the whole error an
// attempt records, and tells nothing the policy did not decide itself.
type refusal struct {
	host string // as in the URL
	ap   netip.AddrPort
	why  string
}

func (r *refusal) Error() string {
	if r.host == r.ap.Addr().String() {
		return fmt.Sprintf("target address not allowed: %s is %s", r.ap, r.why)
	}
	return fmt.Sprintf("target address not allowed: %s resolves to %s, %s", r.host, r.ap, r.why)
}

// check decides whether the sandbox may connect to ip:port for a URL
// naming host: never its own listening address; a host named by an entry
// (with its port, if the entry has one), or an address an entry is;
// never an unspecified, link-local or metadata address otherwise;
// loopback unless the sandbox listens beyond it; an allowed network.
func (p *allowPolicy) check(host string, ip netip.Addr, port uint16) *refusal {
	ip = ip.WithZone("").Unmap()
	ap := netip.AddrPortFrom(ip, port)
	if p.isSelf(ap) {
		return &refusal{host, ap, "the sandbox's own listening address"}
	}
	if p.named(host, port) {
		return nil
	}
	for _, r := range p.rules {
		if r.addr.IsValid() && r.addr == ip && (r.port == 0 || r.port == port) {
			return nil
		}
	}
	switch {
	case ip.IsUnspecified() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip == metadataV6:
		return &refusal{host, ap, "an unspecified, link-local or cloud metadata address, called only when -webhook-allow names it exactly"}
	case ip.IsLoopback() && p.shared:
		return &refusal{host, ap, "a loopback address, which a sandbox listening beyond loopback calls only when -webhook-allow names it (host or host:port)"}
	case ip.IsLoopback():
		return nil
	}
	for _, r := range p.rules {
		if r.net.IsValid() && r.net.Contains(ip) {
			return nil
		}
	}
	return &refusal{host, ap, "not a loopback address, and -webhook-allow does not allow it"}
}

// isSelf reports whether ap reaches one of the sandbox's listeners.
func (p *allowPolicy) isSelf(ap netip.AddrPort) bool {
	for _, s := range p.self {
		if s.Port() != ap.Port() {
			continue
		}
		if s.Addr() == ap.Addr() {
			return true
		}
		if s.Addr().IsUnspecified() && (ap.Addr().IsLoopback() || ap.Addr().IsUnspecified() || p.local[ap.Addr()]) {
			return true
		}
	}
	return false
}

// checkURLHost is the check at create and update, for the URL's host and
// port. An address is checked as at delivery; a name must be named by an
// entry or be localhost (checked as its loopback addresses); other names
// are refused, as they would be called only on loopback anyway.
func (p *allowPolicy) checkURLHost(host string, port uint16) (refused *refusal, known bool) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return p.check(host, ip, port), true
	}
	h := hostKey(host)
	localhost := h == "localhost" || strings.HasSuffix(h, ".localhost")
	if localhost {
		for _, ip := range []netip.Addr{netip.IPv6Loopback(), netip.AddrFrom4([4]byte{127, 0, 0, 1})} {
			if r := p.check(host, ip, port); r != nil {
				return r, true
			}
		}
		return nil, true
	}
	return nil, p.named(host, port)
}

// checkWebhookURL validates an endpoint's url.
func (c *call) checkWebhookURL(v string) *apiError {
	if v == "" {
		return missingParam(wire.ParamURL, "url is required: the absolute https or http URL the events are posted to, such as http://127.0.0.1:4242/webhooks.")
	}
	if len(v) > wire.WebhookURLMaxLength {
		return invalid(wire.ParamURL, "url is %d bytes long; use at most %d.", len(v), wire.WebhookURLMaxLength)
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" || u.Opaque != "" {
		return invalid(wire.ParamURL, "url %q is not an absolute https or http URL; use one such as https://example.com/webhooks.", clip(v))
	}
	if u.Fragment != "" || strings.Contains(v, "#") {
		return invalid(wire.ParamURL, "url %q has a fragment (#...), which is never sent to a server; remove it.", clip(v))
	}
	port := urlPort(u)
	if port == 0 {
		return invalid(wire.ParamURL, "url %q has port %q; use a port from 1 to 65535, or none.", clip(v), clip(u.Port()))
	}
	refused, known := c.s.hooks.allow.checkURLHost(u.Hostname(), port)
	if refused != nil || !known {
		c.s.metrics.refused(limitWebhookTarget)
	}
	if refused != nil {
		return invalid(wire.ParamURL, "url %q: %v.", clip(v), refused)
	}
	if !known {
		return invalid(wire.ParamURL, "url %q names host %s, which this sandbox does not call: it delivers only to loopback "+
			"addresses (localhost, 127.0.0.1, ::1) unless started with -webhook-allow naming the host or its network.",
			clip(v), clip(u.Hostname()))
	}
	return nil
}

// urlPort is the port a URL is called on; 0 when it is not a valid one.
func urlPort(u *url.URL) uint16 {
	ps := u.Port()
	if ps == "" {
		if u.Scheme == "https" {
			return 443
		}
		return 80
	}
	n, err := strconv.ParseUint(ps, 10, 16)
	if err != nil {
		return 0
	}
	return uint16(n)
}

// enabledEvents reads and validates enabled_events[].
func (c *call) enabledEvents() ([]string, bool, *apiError) {
	vals, found := c.f.all(wire.ParamEnabledEventsItem)
	if !found {
		return nil, false, nil
	}
	var out []string
	for _, v := range vals {
		if v == "" {
			continue
		}
		if v != wire.EventTypeAll && !wire.IsEventType(v) {
			return nil, true, invalid(wire.ParamEnabledEvents, "enabled_events has %q, which is not an event type; use %s, or %s for every type.",
				clip(v), strings.Join(wire.EventTypes, ", "), wire.EventTypeAll)
		}
		if !slices.Contains(out, v) {
			out = append(out, strings.Clone(v))
		}
	}
	if len(out) == 0 {
		return nil, true, invalid(wire.ParamEnabledEvents, "enabled_events is empty; send at least one event type as enabled_events[]=payment.approved, or %s for every type.", wire.EventTypeAll)
	}
	return out, true, nil
}

// setWebhookFields applies the optional fields of a create or update.
func (c *call) setWebhookFields(ep *webhookEndpoint) *apiError {
	if v, ok := c.f.get(wire.ParamURL); ok {
		if e := c.checkWebhookURL(v); e != nil {
			return e
		}
		ep.url = strings.Clone(v)
	}
	events, found, e := c.enabledEvents()
	if e != nil {
		return e
	}
	if found {
		ep.events = events
	}
	if v, ok := c.f.get(wire.ParamDescription); ok {
		if n := utf8.RuneCountInString(v); n > wire.WebhookDescriptionMaxLength {
			return invalid(wire.ParamDescription, "description is %d characters long; use at most %d.", n, wire.WebhookDescriptionMaxLength)
		}
		ep.description = strings.Clone(v)
	}
	if v, ok := c.f.get(wire.ParamDisabled); ok {
		switch v {
		case "true":
			ep.disabled = true
		case "false", "":
			ep.disabled = false
		default:
			return invalid(wire.ParamDisabled, "disabled %q is not valid; use true or false.", clip(v))
		}
	}
	meta, e := applyMetadata(ep.meta, c.f)
	if e != nil {
		return e
	}
	ep.meta = meta
	return nil
}

var webhookEndpointParams = []string{
	wire.ParamURL, wire.ParamEnabledEventsItem, wire.ParamDescription, wire.ParamDisabled, wire.ParamMetadata, paramMetadataKeys,
}

func (c *call) createWebhookEndpoint() response {
	if e := c.f.check(webhookEndpointParams...); e != nil {
		return e.response()
	}
	ep := &webhookEndpoint{created: c.unix}
	if v, _ := c.f.get(wire.ParamURL); v == "" {
		return c.checkWebhookURL("").response()
	}
	if _, found := c.f.all(wire.ParamEnabledEventsItem); !found {
		return missingParam(wire.ParamEnabledEvents, "enabled_events is required: send one or more event types as enabled_events[]=payment.approved, or %s for every type.", wire.EventTypeAll).response()
	}
	if e := c.setWebhookFields(ep); e != nil {
		return e.response()
	}
	wh := &c.a.wh
	if len(wh.endpoints) >= wire.MaxWebhookEndpoints {
		return invalid(wire.ParamURL, "This account already has %d webhook endpoints, the most it may have; delete one first, or subscribe an existing endpoint to more events.",
			wire.MaxWebhookEndpoints).response()
	}
	wh.ensure()
	ep.id = newRID()
	for wh.endpoints[ep.id] != nil {
		ep.id = newRID()
	}
	ep.secret = newWebhookSecret()
	wh.seq++
	ep.seq = wh.seq
	wh.endpoints[ep.id] = ep
	wh.endpointOrder = append(wh.endpointOrder, ep)
	c.putWebhookEndpoint(ep)
	return ok(webhookEndpointJSON(nil, ep, true))
}

// pathWebhookEndpoint is the endpoint named by the path's {id}, or a 404.
func (c *call) pathWebhookEndpoint() (*webhookEndpoint, *apiError) {
	id := c.r.PathValue("id")
	if r, ok := parseRID(id, wire.WebhookEndpointIDPrefix); ok {
		if ep := c.a.wh.endpoints[r]; ep != nil {
			return ep, nil
		}
	}
	return nil, notFound("webhook endpoint", id)
}

func (c *call) retrieveWebhookEndpoint() response {
	if e := c.f.check(); e != nil {
		return e.response()
	}
	ep, e := c.pathWebhookEndpoint()
	if e != nil {
		return e.response()
	}
	return ok(webhookEndpointJSON(nil, ep, false))
}

func (c *call) updateWebhookEndpoint() response {
	if e := c.f.check(webhookEndpointParams...); e != nil {
		return e.response()
	}
	ep, e := c.pathWebhookEndpoint()
	if e != nil {
		return e.response()
	}
	// On a copy, so that a rejected update changes nothing.
	next := *ep
	if e := c.setWebhookFields(&next); e != nil {
		return e.response()
	}
	*ep = next
	c.putWebhookEndpoint(ep)
	return ok(webhookEndpointJSON(nil, ep, false))
}

func (c *call) deleteWebhookEndpoint() response {
	if e := c.f.check(); e != nil {
		return e.response()
	}
	ep, e := c.pathWebhookEndpoint()
	if e != nil {
		return e.response()
	}
	wh := &c.a.wh
	delete(wh.endpoints, ep.id)
	wh.endpointOrder = slices.DeleteFunc(wh.endpointOrder, func(x *webhookEndpoint) bool { return x == ep })
	// Its deliveries stop: a scheduled attempt finds itself gone.
	c.cancelEndpoint(ep.id)
	c.a.charge(-ep.counted)
	c.deleteWebhookEndpointRecord(ep.id)
	return ok(deletedJSON(wire.WebhookEndpointIDPrefix, ep.id, "webhook_endpoint"))
}

func (c *call) rollWebhookEndpointSecret() response {
	if e := c.f.check(); e != nil {
		return e.response()
	}
	ep, e := c.pathWebhookEndpoint()
	if e != nil {
		return e.response()
	}
	// Deliveries read the secret when they are sent: from now on, only
	// the new one signs, retries of older events included.
	ep.secret = newWebhookSecret()
	c.putWebhookEndpoint(ep)
	return ok(webhookEndpointJSON(nil, ep, true))
}

func (c *call) listWebhookEndpoints() response {
	if e := c.checkList(); e != nil {
		return e.response()
	}
	l := listOf[*webhookEndpoint]{
		url: wire.PathWebhookEndpoints, noun: "webhook endpoint",
		seq: func(ep *webhookEndpoint) uint64 { return ep.seq },
		find: func(id string) (*webhookEndpoint, bool) {
			r, ok := parseRID(id, wire.WebhookEndpointIDPrefix)
			ep := c.a.wh.endpoints[r]
			return ep, ok && ep != nil
		},
		every: func() []*webhookEndpoint { return c.a.wh.endpointOrder },
		write: func(b []byte, ep *webhookEndpoint) []byte { return webhookEndpointJSON(b, ep, false) },
	}
	return l.serve(c, c.a.wh.endpointOrder, nil)
}

func webhookEndpointJSON(b []byte, ep *webhookEndpoint, withSecret bool) []byte {
	if b == nil {
		b = make([]byte, 0, 384+len(ep.url)+len(ep.description))
	}
	b = append(b, `{"id":`...)
	b = appendID(b, wire.WebhookEndpointIDPrefix, ep.id)
	b = append(b, `,"object":"webhook_endpoint","url":`...)
	b = appendString(b, ep.url)
	b = append(b, `,"enabled_events":[`...)
	for i, e := range ep.events {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, e)
	}
	b = append(b, `],"description":`...)
	b = appendOptString(b, ep.description)
	b = append(b, `,"disabled":`...)
	b = appendBool(b, ep.disabled)
	if withSecret {
		b = append(b, `,"secret":`...)
		b = appendString(b, ep.secret)
	}
	return appendMetadataTail(b, ep.meta, ep.created)
}
