// Package examples tests the files under examples/ that are not Terraform
// configuration, the way their users run them: the fleet's HAProxy
// configuration with Debian's haproxy in front of real payments-sandbox
// programs, the CI recipes (a GitHub Actions workflow, a GitLab CI job,
// a Kubernetes manifest) against their tools' own rules, and the Stripe
// examples with Stripe's own libraries against a sandbox: stripe-node's
// lifecycle script, installed with npm ci from its package-lock.json,
// and the stripe-go program, a module of its own. It has no
// code of its own: only tests, in this module so that the provider's
// go.mod carries none of their dependencies.
package examples
