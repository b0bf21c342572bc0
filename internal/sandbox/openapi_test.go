package sandbox_test

import (
	"net/http"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/api/apitest"
)

// checked returns hc with every exchange checked against api/openapi.yaml:
// env.doRaw sends every request of these tests through it, so a request
// the document refuses must be refused, and an answer that leaves the
// document fails the test, naming the operation, the status and the fault.
func checked(tb testing.TB, hc *http.Client) *http.Client {
	c := *hc
	c.Transport = apitest.Transport(tb, hc.Transport)
	return &c
}
