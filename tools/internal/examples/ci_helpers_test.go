package examples_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// sandboxImage is the published image of payments-sandbox that the
// recipes run.
const sandboxImage = "ghcr.io/paymentsdev/payments-sandbox"

// sandboxPort is the port the image listens on.
const sandboxPort = "12111"

// imageTag matches a pinned image of the sandbox: its name and a tag.
var imageTag = regexp.MustCompile(`^` + regexp.QuoteMeta(sandboxImage) + `:[0-9A-Za-z][0-9A-Za-z._-]*$`)

// readExample reads a file under examples/ci.
func readExample(t *testing.T, name string) (path string, content []byte) {
	t.Helper()
	path = filepath.Join(repoRoot(t), "examples", "ci", name)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, b
}

// mutation is a change to an example that its checker must refuse: it
// shows that the checker reads what the test says it does.
type mutation struct {
	name     string
	old, new string
	want     string // in the error
}

// mutate applies m to content, failing the test if m.old is not there
// exactly once, so that a mutation never silently stops applying.
func mutate(t *testing.T, content []byte, m mutation) []byte {
	t.Helper()
	if n := bytes.Count(content, []byte(m.old)); n != 1 {
		t.Fatalf("mutation %q: %q occurs %d times in the example, want once", m.name, m.old, n)
	}
	return bytes.Replace(content, []byte(m.old), []byte(m.new), 1)
}

// decodeStrict decodes YAML into v, refusing duplicate keys and any field
// v does not declare (decodeJSONStrict).
func decodeStrict(b []byte, v any) error {
	j, err := yaml.YAMLToJSONStrict(b)
	if err != nil {
		return err
	}
	return decodeJSONStrict(j, v)
}

// decodeJSONStrict decodes JSON into v as Kubernetes' API server does
// with strict field validation: field names match case-sensitively, and
// an unknown or duplicate field is an error.
func decodeJSONStrict(j []byte, v any) error {
	strict, err := kjson.UnmarshalStrict(j, v)
	if err != nil {
		return err
	}
	return errors.Join(strict...)
}

// checkKeys checks that keys, comma-separated as PAYMENTS_SANDBOX_KEYS
// takes them, are all sandbox secret keys, and that it admits want.
func checkKeys(t *testing.T, where, keys, want string) {
	t.Helper()
	admitted := false
	for i, k := range strings.Split(keys, ",") {
		k = strings.TrimSpace(k)
		if wire.ClassifyKey(k) != wire.KeySecretSandbox {
			t.Errorf("%s: key number %d is not a sandbox secret key", where, i+1)
		}
		admitted = admitted || k == want
	}
	if want != "" && !admitted {
		t.Errorf("%s: PAYMENTS_SANDBOX_KEYS does not admit the job's PAYMENTS_SECRET_KEY", where)
	}
}

// checkModuleDir checks that dir, relative to the repository's root, is
// a Terraform module, with tests when withTests.
func checkModuleDir(t *testing.T, where, dir string, withTests bool) {
	t.Helper()
	root := repoRoot(t)
	tf, _ := filepath.Glob(filepath.Join(root, dir, "*.tf"))
	if len(tf) == 0 {
		t.Errorf("%s: %s holds no .tf file", where, dir)
	}
	if withTests {
		tests, _ := filepath.Glob(filepath.Join(root, dir, "tests", "*.tftest.hcl"))
		if len(tests) == 0 {
			t.Errorf("%s: %s has no tests/*.tftest.hcl for terraform test", where, dir)
		}
	}
}
