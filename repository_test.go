package main

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// trackedFiles lists the files git tracks, or skips the test outside a
// checkout.
func trackedFiles(t *testing.T, patterns ...string) []string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"ls-files", "-z", "--"}, patterns...)...).Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout)", err)
	}
	return strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
}

// standAloneRefs matches what a file of a repository that stands alone
// never says: names of planning documents kept outside it, paths out of
// it, and references to the project's issues by number. Each piece is
// split so that this file does not match itself.
var standAloneRefs = regexp.MustCompile(strings.Join([]string{
	`CON` + `TRACT\.md`,
	`SP` + `EC\.md`,
	`\.\./sha` + `red\b`,
	`/work/sha` + `red\b`,
	`beyond[ -]con` + `tract`,
	`\b[Ii]ss` + `ues? #?[0-9]+\b`,
	`\b[Bb]ri` + `ef #?[0-9]+\b`,
	`\[#[0-9]+\]`,
	`/iss` + `ues/[0-9]+`,
}, "|"))

// TestRepository_StandsAlone keeps every tracked file free of references
// to documents outside the repository and to issue numbers: what those
// decided is written where a reader finds it (api/openapi.yaml, the API
// assumptions guide, ARCHITECTURE.md).
func TestRepository_StandsAlone(t *testing.T) {
	files := trackedFiles(t)
	if len(files) < 50 {
		t.Fatalf("git ls-files listed %d files; want the whole repository", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			if os.IsNotExist(err) {
				continue // deleted in the work tree, not yet committed
			}
			t.Fatal(err)
		}
		if bytes.IndexByte(data, 0) >= 0 {
			continue // binary
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := standAloneRefs.FindString(line); m != "" {
				t.Errorf("%s:%d: %q: the repository stands alone; state the decision here (api/openapi.yaml, a guide, ARCHITECTURE.md) instead of citing it", f, i+1, m)
			}
		}
	}
}

// TestRepository_StandsAlonePattern shows that the pattern bites on each
// kind of reference and spares ordinary prose.
func TestRepository_StandsAlonePattern(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"// as " + "CON" + "TRACT.md says", true},
		{"fields " + "SP" + "EC.md promises", true},
		{"runs with ../sha" + "red beside it", true},
		{"[beyond con" + "tract] Code", true},
		{"x-beyond-con" + "tract: true", true},
		{"the targets of iss" + "ue 13", true},
		{"Iss" + "ue #6 fixed", true},
		{"per bri" + "ef 11", true},
		{"([#" + "12](https://example.com))", true},
		{"https://github.com/o/r/iss" + "ues/4", true},
		{"the issuer's authorization code", false},
		{"an issue with the plan", false},
		{"Description: \"Order #1001\"", false},
		{"api/openapi.yaml is the contract", false},
		{"color: #1a2b3c", false},
	} {
		if got := standAloneRefs.MatchString(tc.line); got != tc.want {
			t.Errorf("match %q = %v, want %v", tc.line, got, tc.want)
		}
	}
}

var (
	testFunc = regexp.MustCompile(`(?m)^func (Test\w*)\(`)
	// testName is Test<Unit>_<Case>, each part capitalised; TestAcc
	// names are TestAcc<Type>_<Scenario> by the same rule.
	testName = regexp.MustCompile(`^Test[A-Z][A-Za-z0-9]*(_[A-Z0-9][A-Za-z0-9]*)+$`)
	// runsTerraform is a test body that runs Terraform: through
	// terraform-plugin-testing, or behind the acceptance pre-check or the
	// provider's CLI helper.
	runsTerraform = regexp.MustCompile(`\bresource\.(Test|ParallelTest)\(|\btestAccPreCheck\(|\btestCLI\(`)
)

// TestRepository_TestNames keeps one naming scheme for tests (see
// ARCHITECTURE.md, "How we work"): Test<Unit>_<Case> for unit tests and
// TestAcc<Type>_<Scenario> for those that run Terraform, so that
// `-run '^TestAcc'` selects exactly the acceptance tests.
func TestRepository_TestNames(t *testing.T) {
	files := trackedFiles(t, "*_test.go")
	if len(files) < 20 {
		t.Fatalf("git ls-files listed %d test files; want the whole repository", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			t.Fatal(err)
		}
		src := string(data)
		for _, loc := range testFunc.FindAllStringSubmatchIndex(src, -1) {
			name := src[loc[2]:loc[3]]
			if name == "TestMain" {
				continue
			}
			if !testName.MatchString(name) {
				t.Errorf("%s: %s: name tests Test<Unit>_<Case> (unit tests) or TestAcc<Type>_<Scenario> (acceptance tests), each part capitalised", f, name)
			}
			body, _, _ := strings.Cut(src[loc[1]:], "\n}\n")
			if runsTerraform.MatchString(body) && !strings.HasPrefix(name, "TestAcc") {
				t.Errorf("%s: %s runs Terraform: name it TestAcc<Type>_<Scenario> so that ^TestAcc selects it", f, name)
			}
		}
	}
}

// TestRepository_TestNamePattern shows which names the scheme admits.
func TestRepository_TestNamePattern(t *testing.T) {
	for name, want := range map[string]bool{
		"TestClassifyKey_LiveKeys":            true,
		"TestAccCustomer_CreateImportUpdate":  true,
		"TestAccProvider_Faults_ServerErrors": true,
		"TestPaymentDataSource_Read_NotFound": true,
		"TestRunner_JSON":                     true,
		"TestClassifyKey":                     false,
		"TestWebhooks_allowList":              false,
		"Test_snake_case":                     false,
		"TestAccCustomer":                     false,
		"TestCustomer_":                       false,
	} {
		if got := testName.MatchString(name); got != want {
			t.Errorf("%s: admitted %v, want %v", name, got, want)
		}
	}
}

// maxFileLines is the most lines a non-test Go file may have: past it, a
// file holds more than one topic, and is split by topic.
const maxFileLines = 500

// TestRepository_FileLength keeps every tracked non-test Go file, in both
// modules, at most maxFileLines long.
func TestRepository_FileLength(t *testing.T) {
	files := trackedFiles(t, "*.go")
	if len(files) < 50 {
		t.Fatalf("git ls-files listed %d Go files; want the whole repository", len(files))
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			t.Fatal(err)
		}
		if n := strings.Count(string(data), "\n"); n > maxFileLines {
			t.Errorf("%s has %d lines, over %d: split it by topic", f, n, maxFileLines)
		}
	}
}
