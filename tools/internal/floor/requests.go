package floor

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// EnvAPIURL and EnvAPIKey, when both are set, make the floor send one
// request per resource and operation to the payments API at EnvAPIURL
// (the sandbox) with the secret key EnvAPIKey: Create makes a customer
// (POST /v1/customers), Read fetches it (GET /v1/customers/{id}) and
// Delete deletes it (DELETE /v1/customers/{id}). Every resource, whatever
// its type, stands for one customer, whose random part its own id carries
// behind its type's prefix (prod_<part> for customer cus_<part>), so that
// references between the floor's resources still pass the schemas'
// validators. The answer is read and its status and id checked, nothing
// more. Timed beside the do-nothing floor, this request floor is the
// least any provider that makes one request per resource can cost on the
// machine: the request, its answer and the server's work, on the same
// cores as Terraform. The client is net/http's, with nothing of the
// payments client (no retries, rate limit or breaker).
const (
	EnvAPIURL = "FLOOR_API_URL"
	EnvAPIKey = "FLOOR_API_KEY"
)

// requester sends the request floor's requests; a nil requester sends none.
type requester struct {
	base string // no trailing slash
	auth string // the Authorization header's value
	hc   *http.Client
}

// newRequesterFromEnv returns the requester EnvAPIURL and EnvAPIKey ask
// for, or nil when either is unset.
func newRequesterFromEnv() *requester {
	return newRequester(os.Getenv(EnvAPIURL), os.Getenv(EnvAPIKey))
}

func newRequester(base, key string) *requester {
	if base == "" || key == "" {
		return nil
	}
	return &requester{
		base: strings.TrimSuffix(base, "/"),
		auth: "Basic " + base64.StdEncoding.EncodeToString([]byte(key+":")),
		// Terraform's default parallelism is 10: keep that many
		// connections and more, as the payments client does.
		hc: &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 32}},
	}
}

// customerPrefix begins every customer id.
const customerPrefix = "cus_"

// create makes a customer and returns the random part of its id.
func (r *requester) create(ctx context.Context) (string, error) {
	id, err := r.do(ctx, http.MethodPost, "/v1/customers", url.Values{"name": {"floor"}})
	if err != nil {
		return "", err
	}
	part, ok := strings.CutPrefix(id, customerPrefix)
	if !ok {
		return "", fmt.Errorf("POST /v1/customers: the answer's id %q is not a customer's", id)
	}
	return part, nil
}

// read fetches the customer whose id's random part the resource id id
// carries.
func (r *requester) read(ctx context.Context, id string) error {
	_, err := r.do(ctx, http.MethodGet, "/v1/customers/"+customerPrefix+randomPart(id), nil)
	return err
}

// remove deletes it.
func (r *requester) remove(ctx context.Context, id string) error {
	_, err := r.do(ctx, http.MethodDelete, "/v1/customers/"+customerPrefix+randomPart(id), nil)
	return err
}

// randomPart is what follows an id's prefix: "1a2b" of "prod_1a2b".
func randomPart(id string) string {
	_, part, _ := strings.Cut(id, "_")
	return part
}

// do sends one request (form, when not nil, as its body) and returns the
// id of the object in a 200 answer.
func (r *requester) do(ctx context.Context, method, path string, form url.Values) (string, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, r.base+path, body)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", r.auth)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := r.hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, raw)
	}
	var obj struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil || obj.ID == "" {
		return "", fmt.Errorf("%s %s: the answer has no id: %s", method, path, raw)
	}
	return obj.ID, nil
}
