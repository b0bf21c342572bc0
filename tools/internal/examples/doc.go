// Package examples tests the files under examples/ that are not Terraform
// configuration, the way their users run them: the fleet's HAProxy
// configuration with Debian's haproxy in front of real payments-sandbox
// programs, and the CI recipes (a GitHub Actions workflow, a GitLab CI
// job, a Kubernetes manifest) against their tools' own rules. It has no
// code of its own: only tests, in this module so that the provider's
// go.mod carries none of their dependencies.
package examples
