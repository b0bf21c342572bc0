package examples_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// gitlabCI is the part of GitLab CI's .gitlab-ci.yml the recipe uses,
// decoded strictly: a keyword it does not declare, misspelt or not, fails
// the test (declare it here when the recipe needs it).
type gitlabCI struct {
	Stages []string
	Jobs   map[string]gitlabJob
}

type gitlabJob struct {
	Stage        string            `json:"stage"`
	Image        gitlabImage       `json:"image"`
	Services     []gitlabService   `json:"services"`
	Variables    map[string]string `json:"variables"`
	BeforeScript []string          `json:"before_script"`
	Script       []string          `json:"script"`
}

// gitlabImage is a job's image: a name, or a name with an entrypoint.
type gitlabImage struct {
	Name       string    `json:"name"`
	Entrypoint *[]string `json:"entrypoint"`
}

func (i *gitlabImage) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &i.Name)
	}
	type plain gitlabImage
	return decodeJSONStrict(b, (*plain)(i))
}

// gitlabService is one of a job's services: a name, or a name with more.
type gitlabService struct {
	Name       string            `json:"name"`
	Alias      string            `json:"alias"`
	Variables  map[string]string `json:"variables"`
	Entrypoint []string          `json:"entrypoint"`
	Command    []string          `json:"command"`
}

func (s *gitlabService) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &s.Name)
	}
	type plain gitlabService
	return decodeJSONStrict(b, (*plain)(s))
}

// gitlabGlobal are GitLab's top-level keywords, which are not jobs.
var gitlabGlobal = []string{"default", "include", "stages", "variables", "workflow", "image", "services", "cache", "before_script", "after_script"}

// decodeGitLabCI decodes a .gitlab-ci.yml: stages, then every other key
// as a job.
func decodeGitLabCI(b []byte) (*gitlabCI, error) {
	var top map[string]json.RawMessage
	if err := decodeStrict(b, &top); err != nil {
		return nil, err
	}
	ci := &gitlabCI{Jobs: map[string]gitlabJob{}}
	for key, raw := range top {
		switch {
		case key == "stages":
			if err := decodeJSONStrict(raw, &ci.Stages); err != nil {
				return nil, fmt.Errorf("stages: %w", err)
			}
		case slices.Contains(gitlabGlobal, key) || strings.HasPrefix(key, "."):
			return nil, fmt.Errorf("%s: a global keyword or hidden job the test does not read; declare it in gitlabCI", key)
		default:
			var job gitlabJob
			if err := decodeJSONStrict(raw, &job); err != nil {
				return nil, fmt.Errorf("job %s: %w", key, err)
			}
			ci.Jobs[key] = job
		}
	}
	return ci, nil
}

// chdirCommand matches a script's terraform commands run in a module.
var chdirCommand = regexp.MustCompile(`^terraform -chdir=(\S+) (init|apply|test)\b`)

// TestGitLabCI_Job checks examples/ci/gitlab-ci.yml: GitLab's keywords,
// spelt right and of the right shapes, and a job that runs the sandbox's
// image as a service, waits for its /healthz, then runs terraform apply
// and terraform test against it.
func TestGitLabCI_Job(t *testing.T) {
	_, content := readExample(t, "gitlab-ci.yml")
	ci, err := decodeGitLabCI(content)
	if err != nil {
		t.Fatal(err)
	}
	if len(ci.Jobs) != 1 {
		t.Fatalf("want one job, have %d", len(ci.Jobs))
	}
	for name, job := range ci.Jobs {
		if !slices.Contains(ci.Stages, job.Stage) {
			t.Errorf("job %s: stage %q is not among the stages %v", name, job.Stage, ci.Stages)
		}
		// The terraform image's entrypoint is terraform: GitLab needs a shell.
		if !strings.HasPrefix(job.Image.Name, "hashicorp/terraform:") || job.Image.Entrypoint == nil || !slices.Equal(*job.Image.Entrypoint, []string{""}) {
			t.Errorf("job %s: image %q with entrypoint %v, want hashicorp/terraform with the entrypoint [\"\"]", name, job.Image.Name, job.Image.Entrypoint)
		}
		if len(job.Services) != 1 {
			t.Fatalf("job %s: want one service, the sandbox; have %d", name, len(job.Services))
		}
		svc := job.Services[0]
		if !imageTag.MatchString(svc.Name) {
			t.Errorf("the service's image is %q, want %s with a tag", svc.Name, sandboxImage)
		}
		if svc.Alias == "" {
			t.Fatal("the service has no alias for the job to reach it by")
		}
		if got, want := job.Variables["PAYMENTS_BASE_URL"], "http://"+svc.Alias+":"+sandboxPort; got != want {
			t.Errorf("PAYMENTS_BASE_URL is %q, want %q, the service's alias and port", got, want)
		}
		checkKeys(t, "the service", svc.Variables["PAYMENTS_SANDBOX_KEYS"], job.Variables["PAYMENTS_SECRET_KEY"])
		if !slices.ContainsFunc(job.BeforeScript, func(s string) bool { return strings.Contains(s, "/healthz") }) {
			t.Errorf("before_script does not wait for the sandbox's /healthz: %q", job.BeforeScript)
		}

		inited := map[string]bool{}
		var applied, tested string
		for _, line := range job.Script {
			m := chdirCommand.FindStringSubmatch(line)
			if m == nil {
				t.Errorf("script line %q is not terraform -chdir=DIR init, apply or test", line)
				continue
			}
			dir, cmd := m[1], m[2]
			switch {
			case cmd == "init":
				inited[dir] = true
			case !inited[dir]:
				t.Errorf("terraform %s in %s before terraform init there", cmd, dir)
			case cmd == "apply":
				applied = dir
				checkModuleDir(t, "the apply", dir, false)
			case cmd == "test":
				tested = dir
				checkModuleDir(t, "the test", dir, true)
				if applied == "" {
					t.Error("terraform test runs before terraform apply")
				}
			}
		}
		if applied == "" || tested == "" {
			t.Errorf("want a terraform apply and a terraform test; have apply in %q, test in %q", applied, tested)
		}
	}
}

// TestGitLabCI_DecodeCatches checks that the decoding is strict: each
// mutation of the recipe fails it.
func TestGitLabCI_DecodeCatches(t *testing.T) {
	_, content := readExample(t, "gitlab-ci.yml")
	for _, m := range []mutation{
		{name: "a misspelt service key", old: "      alias: sandbox\n", new: "      alais: sandbox\n", want: `unknown field "alais"`},
		{name: "a misspelt job key", old: "  script:\n", new: "  scripts:\n", want: `unknown field "scripts"`},
		{name: "a variable that is not a string", old: "    TF_INPUT: \"0\"\n", new: "    TF_INPUT: [\"0\"]\n", want: "cannot unmarshal"},
		{name: "a key in the wrong case", old: "  variables:\n    PAYMENTS_BASE_URL", new: "  Variables:\n    PAYMENTS_BASE_URL", want: "Variables"},
		{name: "a duplicate key", old: "  stage: test\n", new: "  stage: test\n  stage: build\n", want: "already set"},
		{name: "a global keyword left unread", old: "stages:\n", new: "workflow:\n  name: x\nstages:\n", want: "workflow"},
	} {
		t.Run(m.name, func(t *testing.T) {
			_, err := decodeGitLabCI(mutate(t, content, m))
			if err == nil || !strings.Contains(err.Error(), m.want) {
				t.Errorf("got %v, want an error with %q", err, m.want)
			}
		})
	}
}
