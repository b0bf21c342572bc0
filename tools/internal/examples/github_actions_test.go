package examples_test

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	"sigs.k8s.io/yaml"
)

// lintWorkflow runs actionlint on a workflow and returns its findings.
func lintWorkflow(t *testing.T, path string, content []byte) []*actionlint.Error {
	t.Helper()
	l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{WorkingDir: repoRoot(t)})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.Lint(path, content, nil)
	if err != nil {
		t.Fatal(err)
	}
	return errs
}

// githubWorkflow is what the test reads of the workflow; actionlint
// checks the rest.
type githubWorkflow struct {
	Jobs map[string]struct {
		Services map[string]struct {
			Image   string            `json:"image"`
			Ports   []string          `json:"ports"`
			Env     map[string]string `json:"env"`
			Options string            `json:"options"`
		} `json:"services"`
		Env   map[string]string `json:"env"`
		Steps []struct {
			Uses             string         `json:"uses"`
			With             map[string]any `json:"with"`
			WorkingDirectory string         `json:"working-directory"`
			Run              string         `json:"run"`
		} `json:"steps"`
	} `json:"jobs"`
}

// TestGitHubActions_Workflow checks examples/ci/github-actions.yml with
// actionlint, and that it runs the sandbox's image as a service with the
// image's health check, then terraform apply and terraform test against
// it.
func TestGitHubActions_Workflow(t *testing.T) {
	path, content := readExample(t, "github-actions.yml")
	for _, e := range lintWorkflow(t, path, content) {
		t.Errorf("actionlint: %s:%d:%d: %s [%s]", path, e.Line, e.Column, e.Message, e.Kind)
	}

	var wf githubWorkflow
	if err := yaml.Unmarshal(content, &wf); err != nil {
		t.Fatal(err)
	}
	if len(wf.Jobs) != 1 {
		t.Fatalf("want one job, have %d", len(wf.Jobs))
	}
	for name, job := range wf.Jobs {
		svc, ok := job.Services["sandbox"]
		if !ok || len(job.Services) != 1 {
			t.Fatalf("job %s: want one service, sandbox; have %v", name, job.Services)
		}
		if !imageTag.MatchString(svc.Image) {
			t.Errorf("the service's image is %q, want %s with a tag", svc.Image, sandboxImage)
		}
		if !slices.Contains(svc.Ports, sandboxPort+":"+sandboxPort) {
			t.Errorf("the service publishes %v, want %s:%[2]s, the port the steps reach", svc.Ports, sandboxPort)
		}
		if got, want := job.Env["PAYMENTS_BASE_URL"], "http://127.0.0.1:"+sandboxPort; got != want {
			t.Errorf("PAYMENTS_BASE_URL is %q, want %q, the service's published port", got, want)
		}
		checkKeys(t, "the service", svc.Env["PAYMENTS_SANDBOX_KEYS"], job.Env["PAYMENTS_SECRET_KEY"])
		// The image has no shell: --health-cmd would replace its own
		// check with one that cannot run. The timing may change.
		opts := strings.Fields(svc.Options)
		if slices.Contains(opts, "--health-cmd") || !slices.Contains(opts, "--health-interval") {
			t.Errorf("the service's options are %q: keep the image's health check (no --health-cmd) and set --health-interval so that the steps wait for it", svc.Options)
		}

		var apply, test int
		for i, s := range job.Steps {
			switch {
			case strings.Contains(s.Run, "terraform apply"):
				apply = i
				checkModuleDir(t, "the apply step", s.WorkingDirectory, false)
			case strings.Contains(s.Run, "terraform test"):
				test = i
				checkModuleDir(t, "the test step", s.WorkingDirectory, true)
			case strings.HasPrefix(s.Uses, "hashicorp/setup-terraform@"):
				if s.With["terraform_wrapper"] != false {
					t.Errorf("setup-terraform keeps its wrapper, which garbles terraform's output and exit codes in scripts; set terraform_wrapper: false")
				}
			}
			if s.Run != "" && strings.Contains(s.Run, "terraform ") && !strings.Contains(s.Run, "terraform init") {
				t.Errorf("step %d runs terraform in %s without terraform init", i, s.WorkingDirectory)
			}
		}
		if apply == 0 || test == 0 || apply > test {
			t.Errorf("want a terraform apply step, then a terraform test step; have them at %d and %d", apply, test)
		}
	}
}

// TestGitHubActions_LintCatches checks that the workflow's check would
// catch mistakes: each mutation of it draws an actionlint finding.
func TestGitHubActions_LintCatches(t *testing.T) {
	path, content := readExample(t, "github-actions.yml")
	for _, m := range []mutation{
		{name: "a misspelt job key", old: "runs-on: ubuntu-latest", new: "run-on: ubuntu-latest", want: "run-on"},
		{name: "a misspelt service key", old: "        ports:\n", new: "        port:\n", want: "port"},
		{name: "an unknown context", old: "job.services.sandbox.id", new: "job.service.sandbox.id", want: "service"},
		{name: "an unknown input of checkout", old: "      - uses: actions/checkout@v4\n", new: "      - uses: actions/checkout@v4\n        with:\n          fetch-depht: 1\n", want: "fetch-depht"},
		{name: "a key the sandbox's service cannot have", old: "        options: >-\n", new: "        option: >-\n", want: "option"},
		{name: "a missing step key", old: "      - uses: actions/checkout@v4\n", new: "      - name: checkout\n", want: "step"},
	} {
		t.Run(m.name, func(t *testing.T) {
			errs := lintWorkflow(t, path, mutate(t, content, m))
			found := false
			for _, e := range errs {
				found = found || strings.Contains(e.Message, m.want)
			}
			if !found {
				t.Errorf("actionlint found no error naming %q; it found %d: %v", m.want, len(errs), errs)
			}
		})
	}
}
