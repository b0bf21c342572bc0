// Package wire holds the facts of the payments API that both sides of the
// wire share: paths, parameter and header names, error types and codes,
// the JSON shapes of objects and errors, key classification, limits and
// identifier formats. The API client (internal/client) and the sandbox
// server (internal/sandbox) both import it, and neither imports the other,
// so a fact lives once and the client's tests against the sandbox test the
// contract rather than a shared mistake. Rules only the server enforces
// (payment transitions, test tokens, idempotency retention) live in the
// sandbox. It imports nothing from Terraform.
//
// The contract itself is the OpenAPI document api/openapi.yaml, and the
// decisions of ours where the service's published interface is silent are
// listed in the API assumptions guide (docs/guides/api-assumptions.md).
// Items marked [spec] here are that published interface; items marked
// [assumed] are our decisions: each is one constant, so that aligning the
// project with the real service is a one-line change.
package wire
