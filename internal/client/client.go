// Package client is the payments service's API client. It is the only code
// in the project that knows the wire: paths, form encoding, headers, error
// bodies, retries and idempotency. It imports nothing from Terraform.
package client

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-cleanhttp"
	"github.com/hashicorp/go-retryablehttp"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Defaults for Config fields left zero.
const (
	DefaultMaxRetries   = 10
	DefaultRetryWaitMin = 100 * time.Millisecond
	DefaultRetryWaitMax = 5 * time.Second
	DefaultUserAgent    = "terraform-provider-payments-client"

	// maxConnsPerHost sizes the idle pool above Terraform's default
	// parallelism of 10, so that concurrent operations reuse connections
	// instead of opening one per request.
	maxConnsPerHost = 32
	// RecoveryTimeout bounds the extra time a POST whose context ended
	// after it was sent may take to learn its outcome.
	RecoveryTimeout = 30 * time.Second

	// maxResponseBytes bounds what is read of any answer.
	maxResponseBytes = 8 << 20
)

// Config configures a Client.
type Config struct {
	// BaseURL is the service's address, for example https://api.example.com
	// or the sandbox's http://127.0.0.1:12111. Paths begin with /v1.
	BaseURL string
	// SecretKey authenticates every request. It is never logged nor put in an error.
	SecretKey string
	// UserAgent is sent on every request.
	UserAgent string
	// MaxRetries is how many times a request is retried after the first
	// attempt; 0 means DefaultMaxRetries, a negative value disables retries.
	MaxRetries int
	// RetryWaitMin and RetryWaitMax bound the exponential backoff.
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
	// HTTPClient replaces the pooled default client (for tests).
	HTTPClient *http.Client
	// RequestTimeout bounds each attempt, answer included; 0 means
	// DefaultRequestTimeout, a negative value none. A timed-out attempt is
	// retried like a network error.
	RequestTimeout time.Duration
	// MaxRequestsPerSecond caps the rate of attempts; 0 means no cap (the
	// client still slows down when the service answers 429).
	MaxRequestsPerSecond float64
	// Log, when set, receives one entry per attempt and per outcome. Fields
	// never hold the key or request bodies.
	Log func(ctx context.Context, msg string, fields map[string]any)
}

// Client calls the payments API. It is safe for concurrent use.
type Client struct {
	base *url.URL
	// authorization is the Authorization header of every request, the
	// key as basic auth's user (the documented default; the service takes
	// a Bearer token too): encoded once rather than per request.
	authorization string
	userAgent     string
	livemode      bool
	http          *retryablehttp.Client
	log           func(ctx context.Context, msg string, fields map[string]any)
	// priceTerms maps a price's id to its PriceTerms, which never change.
	priceTerms sync.Map
}

// New returns a Client. It checks the configuration but makes no request.
func New(cfg Config) (*Client, error) {
	// ParseBaseURL's errors never echo the raw URL: it may hold
	// credentials (user info, or a key in the query) that must not reach logs.
	base, err := ParseBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.SecretKey == "" {
		return nil, errors.New("secret key is empty")
	}
	if err := checkKeyTransport(base, cfg.SecretKey); err != nil {
		return nil, err
	}
	if cfg.MaxRequestsPerSecond < 0 || math.IsNaN(cfg.MaxRequestsPerSecond) {
		return nil, errors.New("max requests per second must be positive, or 0 for no limit")
	}
	c := &Client{
		base:          base,
		authorization: wire.BasicAuthorization(cfg.SecretKey),
		userAgent:     cfg.UserAgent,
		livemode:      wire.ClassifyKey(cfg.SecretKey) == wire.KeySecretLive,
		log:           cfg.Log,
	}
	if c.userAgent == "" {
		c.userAgent = DefaultUserAgent
	}

	hc := cfg.HTTPClient
	if hc == nil {
		hc = cleanhttp.DefaultPooledClient()
		if t, ok := hc.Transport.(*http.Transport); ok {
			t.MaxIdleConnsPerHost = maxConnsPerHost
			t.MaxIdleConns = 4 * maxConnsPerHost
		}
	}
	rc := retryablehttp.NewClient()
	rc.HTTPClient = c.wrapTransport(hc, cfg)
	rc.Logger = nil
	rc.RetryMax = cfg.MaxRetries
	switch {
	case cfg.MaxRetries == 0:
		rc.RetryMax = DefaultMaxRetries
	case cfg.MaxRetries < 0:
		rc.RetryMax = 0
	}
	rc.RetryWaitMin, rc.RetryWaitMax = cfg.RetryWaitMin, cfg.RetryWaitMax
	if rc.RetryWaitMin <= 0 {
		rc.RetryWaitMin = DefaultRetryWaitMin
	}
	if rc.RetryWaitMax < rc.RetryWaitMin {
		rc.RetryWaitMax = max(DefaultRetryWaitMax, rc.RetryWaitMin)
	}
	rc.CheckRetry = c.checkRetry
	rc.Backoff = Backoff
	rc.ErrorHandler = retryablehttp.PassthroughErrorHandler
	rc.RequestLogHook = func(_ retryablehttp.Logger, r *http.Request, attempt int) {
		if c.log != nil {
			c.log(r.Context(), "payments API request", map[string]any{
				"method": r.Method, "path": r.URL.Path, "attempt": attempt + 1,
			})
		}
	}
	c.http = rc
	return c, nil
}

// Livemode reports whether the client's key is a live key.
func (c *Client) Livemode() bool { return c.livemode }

func (c *Client) logf(ctx context.Context, msg string, fields map[string]any) {
	if c.log != nil {
		c.log(ctx, msg, fields)
	}
}

// checkRetry decides whether an attempt is retried: transport errors, 429,
// 5xx, and 409 idempotency_key_in_use (the first attempt is still running
// at the service; its stored answer will be replayed). A key reused with
// other parameters (400, or 409, idempotency_key_reused) is not: this
// request changed nothing, and a retry could only meet the same refusal.
func (c *Client) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		if noRetry(err) {
			return false, nil
		}
		c.logf(ctx, "payments API transport error, retrying if attempts remain", map[string]any{"error": err.Error()})
		return true, nil
	}
	if c.log != nil {
		// Built only when someone listens: this runs once per attempt.
		fields := map[string]any{
			"method":     resp.Request.Method,
			"path":       resp.Request.URL.Path,
			"status":     resp.StatusCode,
			"request_id": resp.Header.Get(wire.HeaderRequestID),
		}
		if resp.Header.Get(wire.HeaderIdempotentReplayed) == "true" {
			fields["idempotent_replayed"] = true
		}
		c.log(ctx, "payments API response", fields)
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests, resp.StatusCode >= 500:
		return true, nil
	case resp.StatusCode == http.StatusConflict:
		body, rerr := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if rerr != nil {
			return true, nil
		}
		return decodeError(resp.StatusCode, resp.Header, body).Code == wire.ErrorCodeIdempotencyKeyInUse, nil
	}
	return false, nil
}

// Backoff is the wait before retry attemptNum (0 for the first retry): the
// service's Retry-After when it sends one, else exponential backoff from min,
// capped at max, with equal jitter so that parallel clients spread out.
func Backoff(minWait, maxWait time.Duration, attemptNum int, resp *http.Response) time.Duration {
	if resp != nil {
		if d, ok := parseRetryAfter(resp.Header, time.Now()); ok {
			return d
		}
	}
	d := float64(minWait) * math.Pow(2, float64(attemptNum))
	if d > float64(maxWait) || math.IsInf(d, 0) {
		d = float64(maxWait)
	}
	half := time.Duration(d / 2)
	return half + mrand.N(half+1)
}

// newIdempotencyKey returns a fresh random key for one logical POST.
func newIdempotencyKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// call performs one logical API call with retries and decodes a 200 answer
// into out. A POST carries one Idempotency-Key reused across its retries,
// so a retried create can never make two objects.
func (c *Client) call(ctx context.Context, method, path string, query, form url.Values, out any) error {
	if strings.Contains(path, "//") || strings.HasSuffix(path, "/") {
		// Only an empty id makes an empty segment. Sent, it would address
		// another route (servers clean // away) or none, and any answer
		// would be about something else than the object asked for.
		return fmt.Errorf("%s %s: an object id in the path is empty", method, path)
	}
	u := *c.base
	u.Path = c.base.Path + path
	if len(query) > 0 {
		u.RawQuery = query.Encode()
	}
	var body any
	if method == http.MethodPost {
		body = []byte(form.Encode())
	}
	req, err := retryablehttp.NewRequestWithContext(context.WithValue(ctx, sentKey{}, new(atomic.Bool)), method, u.String(), body)
	if err != nil {
		return fmt.Errorf("building %s %s: %w", method, path, err)
	}
	req.Header.Set(wire.HeaderAuthorization, c.authorization)
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", "application/json")
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set(wire.HeaderIdempotencyKey, idempotencyKey(ctx, path))
	}

	status, header, raw, err := c.do(ctx, req)
	if err != nil && ctx.Err() != nil && method == http.MethodPost && attempted(req) {
		// The caller gave up after the request left: the service may have
		// acted. Finish the call with the same Idempotency-Key on a detached,
		// bounded context, so its outcome (the object it made, say) is known
		// and nothing is orphaned.
		c.logf(ctx, "payments API call interrupted after it was sent; recovering its outcome with the same idempotency key", map[string]any{"method": method, "path": path})
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), RecoveryTimeout)
		status, header, raw, err = c.do(rctx, req.WithContext(rctx))
		cancel()
	}
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return fmt.Errorf("%s %s: %w", method, path, ctxErr)
		}
		return attemptsFailed(method, path, c.http.RetryMax+1, err)
	}
	if status != http.StatusOK {
		e := decodeError(status, header, raw)
		if status >= 300 && status < 400 {
			e.Message = redirectMessage(method, u, status, header.Get("Location"))
		}
		if status == http.StatusNotFound && e.Code != wire.ErrorCodeResourceMissing {
			e.Message = misroutedMessage(method, u, e)
		}
		return e
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s %s: decoding answer (request %s): %w", method, path, header.Get(wire.HeaderRequestID), err)
	}
	if lm, ok := livemodeOf(out); ok && lm != c.livemode {
		return &LivemodeMismatchError{Path: path, KeyLivemode: c.livemode, RequestID: header.Get(wire.HeaderRequestID)}
	}
	return nil
}

// do sends req with retries and reads the whole answer.
func (c *Client) do(ctx context.Context, req *retryablehttp.Request) (int, http.Header, []byte, error) {
	resp, err := c.http.Do(req)
	if err != nil {
		// The passthrough error handler returns the last answer with the
		// error (a context that ended as it arrived): close it, or its
		// connection leaks.
		if resp != nil {
			resp.Body.Close()
		}
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	raw, err := bodyBytes(resp.Body, resp.ContentLength)
	if err != nil {
		if ctx.Err() != nil {
			return 0, nil, nil, ctx.Err()
		}
		return 0, nil, nil, fmt.Errorf("reading answer: %w", err)
	}
	return resp.StatusCode, resp.Header, raw, nil
}

// sentKey marks, in a request's context, whether an attempt of it was sent.
type sentKey struct{}

func markSent(r *http.Request) {
	// An attempt that starts with its context already done is never sent
	// (the transport refuses it), so there is nothing to recover: without
	// this check a POST whose caller had already given up would be sent by
	// the recovery anyway.
	if r.Context().Err() != nil {
		return
	}
	if sent, ok := r.Context().Value(sentKey{}).(*atomic.Bool); ok {
		sent.Store(true)
	}
}

func attempted(req *retryablehttp.Request) bool {
	sent, ok := req.Context().Value(sentKey{}).(*atomic.Bool)
	return ok && sent.Load()
}

// scrub removes URL user info from transport errors, a second line of
// defence behind New's refusal of such URLs.
func scrub(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil && u.User != nil {
			return &url.Error{Op: ue.Op, URL: u.Redacted(), Err: ue.Err}
		}
	}
	return err
}

// LivemodeMismatchError is returned when an answer's livemode disagrees with
// the key's: a sandbox key answered by the live service or the reverse.
type LivemodeMismatchError struct {
	Path        string
	KeyLivemode bool
	RequestID   string
}

func (e *LivemodeMismatchError) Error() string {
	key, got := "sandbox", "live"
	if e.KeyLivemode {
		key, got = "live", "sandbox"
	}
	return fmt.Sprintf("refusing the answer to %s: the key is a %s key but the answer is a %s-mode object (request %s); check base_url", e.Path, key, got, e.RequestID)
}

// livemodeOf returns the livemode of an answer that is an object.
func livemodeOf(out any) (livemode, ok bool) {
	switch v := out.(type) {
	case *wire.Customer:
		return v.Livemode, true
	case *wire.Source:
		return v.Livemode, true
	case *wire.Payment:
		return v.Livemode, true
	case *wire.WebhookEndpoint:
		return v.Livemode, true
	case *wire.Event:
		return v.Livemode, true
	}
	return false, false
}

// expand fills a wire path template with ids, each escaped by pathID.
func expand(template string, ids ...string) string {
	return wire.ExpandPath(template, pathID, ids...)
}

// Call performs one request to an endpoint the client has no method for,
// such as the sandbox's controls, with the retries, idempotency and error
// decoding of every other call. path is a wire path template whose {name}
// segments are filled with ids, in order, escaped; params are the query of
// a GET or DELETE and the form of a POST. A 200 answer is decoded into
// out, unless out is nil.
func (c *Client) Call(ctx context.Context, method, path string, ids []string, params url.Values, out any) error {
	if method == http.MethodPost {
		if params == nil {
			params = url.Values{}
		}
		return c.call(ctx, method, expand(path, ids...), nil, params, out)
	}
	return c.call(ctx, method, expand(path, ids...), params, nil, out)
}

// pathID escapes an identifier for use as a path segment, so that an id
// taken from user input can never address another route. PathEscape leaves
// the dot segments "." and ".." as they are, and servers resolve them (Go's
// ServeMux answers /v1/customers/. with a 307 to /v1/customers, which the
// HTTP client follows: an update of customer "." created a customer), so
// their dots are escaped too.
func pathID(id string) string {
	if id == "." || id == ".." {
		return strings.ReplaceAll(id, ".", "%2E")
	}
	return url.PathEscape(id)
}
