package main

// The image in a real container runtime: Debian's podman, as CI installs
// it (.ci/run). TestMain builds the image once with `make image`; every
// test runs the service definition of examples/compose/compose.yaml, so
// the example users copy is the one tested. Podman runs with the cgroupfs
// manager and runc, and with ulimits at or below the machine's: its
// defaults fail on CI machines without systemd.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/paymentsdev/terraform-provider-payments/internal/tfcli"
)

const (
	// healthyWithin is how soon a started container must report healthy.
	healthyWithin = 10 * time.Second
	// imageLimit is the most the image may weigh, in bytes.
	imageLimit = 25_000_000
)

var (
	// testImage is the tag of this run's image, its own so that runs
	// sharing a machine never run each other's image; removed at the end.
	testImage string
	repoRoot  string
	// prefix makes the names of this run's containers and volumes unique
	// on a machine other runs share.
	prefix string
	// builtID is the image ID make image printed.
	builtID string
)

func TestMain(m *testing.M) {
	os.Exit(podmanMain(m))
}

func podmanMain(m *testing.M) int {
	for _, tool := range []string{"podman", "runc", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			fmt.Fprintf(os.Stderr, "FAIL: %s is not on PATH; the image's tests need Debian's podman and runc (apt-get install podman runc; .ci/run installs them). They are never skipped.\n", tool)
			return 1
		}
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	repoRoot = root
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	prefix = "pstest-" + hex.EncodeToString(b)
	testImage = "localhost/payments-sandbox:" + prefix
	dir, err := os.MkdirTemp("", "payments-sandbox-image")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	id, err := makeImage(dir, "first", testImage)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	builtID = id
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := podman(ctx, "rmi", "-f", testImage); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}()
	return m.Run()
}

// makeImage runs make image with its own context and archive under dir,
// and returns the image ID it printed.
func makeImage(dir, name, tag string) (string, error) {
	cmd := exec.Command("make", "-s", "-C", repoRoot, "image", "IMAGE="+tag,
		"IMAGE_ARCHIVE="+filepath.Join(dir, name+".tar"), "IMAGE_CONTEXT="+filepath.Join(dir, name+"-context"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("make image: %v\n%s", err, out)
	}
	id := regexp.MustCompile(`(?m)^sha256:[0-9a-f]{64}$`).Find(out)
	if id == nil {
		return "", fmt.Errorf("make image printed no image ID:\n%s", out)
	}
	return string(id), nil
}

// podman runs podman with the flags these machines need; the error
// carries its output.
func podman(ctx context.Context, args ...string) (string, error) {
	full := append([]string{"--cgroup-manager=cgroupfs", "--runtime=runc"}, args...)
	cmd := exec.CommandContext(ctx, "podman", full...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		return stdout.String(), fmt.Errorf("podman %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(stdout.String()), nil
}

// logs is what the container wrote, standard output and error together:
// podman logs replays each on its own stream.
func logs(name string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "podman", "logs", name).CombinedOutput()
	if err != nil {
		return fmt.Sprintf("podman logs %s: %v\n%s", name, err, out)
	}
	return string(out)
}

func mustPodman(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := podman(ctx, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// service is the sandbox's service of examples/compose/compose.yaml,
// decoded strictly: a key this translation does not know fails the test.
type service struct {
	Image           string   `yaml:"image"`
	EnvFile         string   `yaml:"env_file"`
	Ports           []string `yaml:"ports"`
	Volumes         []string `yaml:"volumes"`
	ReadOnly        bool     `yaml:"read_only"`
	CapDrop         []string `yaml:"cap_drop"`
	SecurityOpt     []string `yaml:"security_opt"`
	StopGracePeriod string   `yaml:"stop_grace_period"`
	// Restart is not passed on: the tests stop and kill the container
	// themselves and must see it stay down.
	Restart string   `yaml:"restart"`
	Command []string `yaml:"command"`
}

type composeFile struct {
	Name     string              `yaml:"name"`
	Services map[string]service  `yaml:"services"`
	Volumes  map[string]struct{} `yaml:"volumes"`
}

// composeService reads the example's service and writes its env file
// from sandbox.env.example, as its comment tells users to.
func composeService(t *testing.T) (svc service, envFile, key string) {
	t.Helper()
	dir := filepath.Join(repoRoot, "examples", "compose")
	b, err := os.ReadFile(filepath.Join(dir, "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var cf composeFile
	if err := dec.Decode(&cf); err != nil {
		t.Fatalf("examples/compose/compose.yaml: %v", err)
	}
	svc, ok := cf.Services["sandbox"]
	if !ok || len(cf.Services) != 1 {
		t.Fatalf("examples/compose/compose.yaml: want one service, sandbox; have %v", cf.Services)
	}
	if !strings.HasPrefix(svc.Image, "ghcr.io/paymentsdev/payments-sandbox:") {
		t.Errorf("the service's image is %q, want the published ghcr.io/paymentsdev/payments-sandbox", svc.Image)
	}
	example, err := os.ReadFile(filepath.Join(dir, "sandbox.env.example"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^PAYMENTS_SANDBOX_KEYS=([^,\n]+)`).FindSubmatch(example)
	if m == nil {
		t.Fatal("sandbox.env.example sets no PAYMENTS_SANDBOX_KEYS")
	}
	envFile = filepath.Join(t.TempDir(), svc.EnvFile)
	if err := os.WriteFile(envFile, example, 0o600); err != nil {
		t.Fatal(err)
	}
	return svc, envFile, string(m[1])
}

// container is one started container of the service.
type container struct {
	name, url string
}

var seq struct {
	sync.Mutex
	n int
}

func uniqueName(what string) string {
	seq.Lock()
	defer seq.Unlock()
	seq.n++
	return fmt.Sprintf("%s-%s-%d", prefix, what, seq.n)
}

// runArgs translates the service into podman run flags. Its volumes get
// volume's name prefix, and its ports a free host port on the same host
// address: the machine may be running a sandbox on 12111.
func (s service) runArgs(t *testing.T, name, volume, envFile string) []string {
	t.Helper()
	args := []string{"run", "-d", "--name", name,
		"--ulimit", "nofile=1024:1024", "--ulimit", "nproc=4096:4096"}
	if envFile != "" {
		args = append(args, "--env-file", envFile)
	}
	for _, p := range s.Ports {
		parts := strings.Split(p, ":")
		if len(parts) != 3 {
			t.Fatalf("port %q: the example publishes host-address:host-port:container-port", p)
		}
		args = append(args, "-p", parts[0]+"::"+parts[2])
	}
	for _, v := range s.Volumes {
		args = append(args, "-v", volume+"-"+v)
	}
	if s.ReadOnly {
		args = append(args, "--read-only")
	}
	for _, c := range s.CapDrop {
		args = append(args, "--cap-drop", c)
	}
	for _, o := range s.SecurityOpt {
		args = append(args, "--security-opt", o)
	}
	if s.StopGracePeriod != "" {
		d, err := time.ParseDuration(s.StopGracePeriod)
		if err != nil {
			t.Fatalf("stop_grace_period %q: %v", s.StopGracePeriod, err)
		}
		args = append(args, "--stop-timeout", strconv.Itoa(int(d.Seconds())))
	}
	return args
}

// start runs the service (with testImage for its image) on volume, with
// podmanFlags added to podman run's and extra flags after the service's
// command, and removes the container at the end of the test.
func (s service) start(t *testing.T, volume, envFile string, podmanFlags []string, extra ...string) *container {
	t.Helper()
	name := uniqueName("sandbox")
	args := append(append(s.runArgs(t, name, volume, envFile), podmanFlags...), testImage)
	args = append(args, s.Command...)
	args = append(args, extra...)
	mustPodman(t, args...)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if t.Failed() {
			t.Logf("logs of %s:\n%s", name, logs(name))
		}
		_, _ = podman(ctx, "rm", "-f", "-t", "0", name)
	})
	port := mustPodman(t, "port", name, "12111/tcp")
	if !strings.HasPrefix(port, "127.0.0.1:") {
		t.Fatalf("podman port: %q, want a port on 127.0.0.1", port)
	}
	return &container{name: name, url: "http://" + port}
}

// volumeFor names a test's volumes and removes them at its end.
func volumeFor(t *testing.T, svc service) string {
	v := uniqueName("vol")
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		for _, spec := range svc.Volumes {
			src, _, _ := strings.Cut(spec, ":")
			_, _ = podman(ctx, "volume", "rm", "-f", v+"-"+src)
		}
	})
	return v
}

// waitHealthy runs the image's health check (podman healthcheck run) until
// it reports healthy, and fails past healthyWithin.
func (c *container) waitHealthy(t *testing.T) time.Duration {
	t.Helper()
	start := time.Now()
	var last error
	for time.Since(start) < healthyWithin {
		ctx, cancel := context.WithTimeout(context.Background(), healthyWithin)
		out, err := podman(ctx, "healthcheck", "run", c.name)
		cancel()
		if err == nil && !strings.Contains(out, "unhealthy") {
			return time.Since(start)
		}
		last = err
		time.Sleep(100 * time.Millisecond) // poll interval, not an assertion
	}
	t.Fatalf("%s is not healthy %s after it started: %v", c.name, healthyWithin, last)
	return 0
}

// api makes one request to the sandbox with key; form, when not nil, is
// the POST body.
func (c *container) api(key, method, path string, form url.Values) (int, map[string]any, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, c.url+path, body)
	if err != nil {
		return 0, nil, err
	}
	req.SetBasicAuth(key, "")
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var v map[string]any
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, nil, err
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return resp.StatusCode, nil, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	return resp.StatusCode, v, nil
}

func (c *container) createCustomer(key, email string) (string, error) {
	st, v, err := c.api(key, http.MethodPost, "/v1/customers", url.Values{"email": {email}})
	if err != nil {
		return "", err
	}
	id, _ := v["id"].(string)
	if st != http.StatusOK || id == "" {
		return "", fmt.Errorf("POST /v1/customers: %d %v", st, v)
	}
	return id, nil
}

// TestImage_Reproducible: a second make image of the same commit, from
// another context directory, gives the same image ID; the image is at
// most imageLimit bytes.
func TestImage_Reproducible(t *testing.T) {
	again, err := makeImage(t.TempDir(), "second", testImage+"-again")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = podman(context.Background(), "rmi", testImage+"-again") })
	if again != builtID {
		t.Errorf("two builds of one commit: image IDs %s and %s", builtID, again)
	}
	for _, tag := range []string{testImage, testImage + "-again"} {
		if id := mustPodman(t, "image", "inspect", "--format", "sha256:{{.Id}}", tag); id != builtID {
			t.Errorf("podman has %s as %s, want %s", tag, id, builtID)
		}
	}
	size, err := strconv.ParseInt(mustPodman(t, "image", "inspect", "--format", "{{.Size}}", testImage), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("image %s: %d bytes", builtID, size)
	if size > imageLimit {
		t.Errorf("the image is %d bytes, more than %d", size, imageLimit)
	}
}

// TestImage_ComposeService_Lifecycle runs the compose example's service:
// healthy in time, as uid 65532 with a read-only root and no capabilities;
// the quick start applies and destroys against it with the real CLI;
// podman stop ends it with 0 and its shutdown line; a new container on the
// same volume has every object.
func TestImage_ComposeService_Lifecycle(t *testing.T) {
	svc, envFile, key := composeService(t)
	vol := volumeFor(t, svc)
	c := svc.start(t, vol, envFile, nil)
	took := c.waitHealthy(t)
	t.Logf("healthy after %s", took.Round(time.Millisecond))

	// The process, seen from the host: uid 65532, no capabilities.
	pid := mustPodman(t, "inspect", "--format", "{{.State.Pid}}", c.name)
	status, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Uid:\t65532\t65532\t65532\t65532", "Gid:\t65532\t65532\t65532\t65532", "CapEff:\t0000000000000000"} {
		if !strings.Contains(string(status), want) {
			t.Errorf("/proc/%s/status lacks %q:\n%s", pid, want, status)
		}
	}
	if ro := mustPodman(t, "inspect", "--format", "{{.HostConfig.ReadonlyRootfs}}", c.name); ro != "true" {
		t.Errorf("ReadonlyRootfs = %s, want true", ro)
	}

	quickstart(t, c.url, key)

	var ids []string
	for i := range 5 {
		id, err := c.createCustomer(key, fmt.Sprintf("keep%d@example.com", i))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}

	before := c.customerIDs(t, key)
	if len(before) < len(ids) {
		t.Fatalf("the account lists %d customers, fewer than the %d just created", len(before), len(ids))
	}
	start := time.Now()
	mustPodman(t, "stop", "-t", "10", c.name)
	stopped := time.Since(start)
	if code := mustPodman(t, "inspect", "--format", "{{.State.ExitCode}}", c.name); code != "0" {
		t.Errorf("exit code after podman stop: %s, want 0", code)
	}
	if out := logs(c.name); !strings.Contains(out, `msg="shutting down"`) {
		t.Errorf("the logs lack the shutdown line:\n%s", out)
	}
	t.Logf("podman stop took %s", stopped.Round(time.Millisecond))
	if stopped > 10*time.Second {
		t.Errorf("podman stop took %s, want under 10s", stopped)
	}

	again := svc.start(t, vol, envFile, nil)
	again.waitHealthy(t)
	for _, id := range ids {
		if st, v, err := again.api(key, http.MethodGet, "/v1/customers/"+id, nil); err != nil || st != http.StatusOK {
			t.Errorf("after a restart on the same volume, GET %s: %d %v %v", id, st, v, err)
		}
	}
	if after := again.customerIDs(t, key); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Errorf("customers before the restart %v, after %v", before, after)
	}
}

// customerIDs lists the account's customers, in the API's order.
func (c *container) customerIDs(t *testing.T, key string) []string {
	t.Helper()
	st, v, err := c.api(key, http.MethodGet, "/v1/customers?limit=100", nil)
	if err != nil || st != http.StatusOK {
		t.Fatalf("GET /v1/customers: %d %v %v", st, v, err)
	}
	if more, _ := v["has_more"].(bool); more {
		t.Fatal("GET /v1/customers?limit=100 has more; the test expects fewer customers")
	}
	data, _ := v["data"].([]any)
	var ids []string
	for _, d := range data {
		if m, ok := d.(map[string]any); ok {
			id, _ := m["id"].(string)
			ids = append(ids, id)
		}
	}
	return ids
}

// quickstart applies examples/quickstart against the sandbox at base with
// the Terraform CLI and the provider built from this tree, then destroys
// it and checks that nothing is left in the state.
func quickstart(t *testing.T, base, key string) {
	t.Helper()
	tf, err := tfcli.Binary("")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "terraform-provider-payments"), ".")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, out)
	}
	work := filepath.Join(dir, "quickstart")
	if err := os.CopyFS(work, os.DirFS(filepath.Join(repoRoot, "examples", "quickstart"))); err != nil {
		t.Fatal(err)
	}
	cliConfig := filepath.Join(dir, "terraformrc")
	if err := tfcli.WriteCLIConfig(cliConfig, tfcli.Override{Source: "paymentsdev/payments", Dir: bin}); err != nil {
		t.Fatal(err)
	}
	r := &tfcli.Runner{Bin: tf, Dir: work,
		Env: tfcli.Env(os.Environ(), cliConfig, "PAYMENTS_BASE_URL="+base, "PAYMENTS_SECRET_KEY="+key)}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if res, err := r.Apply(ctx); err != nil {
		t.Fatalf("terraform apply of the quick start: %v\n%s", err, tfcli.Tail(resOutput(res), 30))
	}
	state, err := r.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(state) == 0 {
		t.Fatal("the quick start applied but its state is empty")
	}
	t.Logf("the quick start applied %d objects", len(state))
	if res, err := r.Destroy(ctx); err != nil {
		t.Fatalf("terraform destroy of the quick start: %v\n%s", err, tfcli.Tail(resOutput(res), 30))
	}
	if state, err := r.State(ctx); err != nil || len(state) != 0 {
		t.Fatalf("after destroy the state holds %d objects (%v)", len(state), err)
	}
}

func resOutput(r *tfcli.Result) string {
	if r == nil {
		return ""
	}
	return r.Output
}

// TestImage_KillLosesNoAcknowledgedWrite kills the container (SIGKILL)
// under concurrent writers; a new container on the same volume has every
// customer whose creation was answered.
func TestImage_KillLosesNoAcknowledgedWrite(t *testing.T) {
	svc, envFile, key := composeService(t)
	vol := volumeFor(t, svc)
	c := svc.start(t, vol, envFile, nil)
	c.waitHealthy(t)

	const writers, killAfter = 4, 60
	var (
		mu    sync.Mutex
		acked []string
		wg    sync.WaitGroup
	)
	enough := make(chan struct{})
	var once sync.Once
	stop := make(chan struct{})
	for w := range writers {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				id, err := c.createCustomer(key, fmt.Sprintf("w%d-%d@example.com", w, i))
				if err != nil {
					return // the container is gone; this write was not acknowledged
				}
				mu.Lock()
				acked = append(acked, id)
				if len(acked) >= killAfter {
					once.Do(func() { close(enough) })
				}
				mu.Unlock()
			}
		})
	}
	select {
	case <-enough:
	case <-time.After(30 * time.Second):
		close(stop)
		wg.Wait()
		t.Fatalf("only %d writes answered in 30s", len(acked))
	}
	mustPodman(t, "kill", "--signal", "KILL", c.name)
	close(stop)
	wg.Wait()
	t.Logf("%d writes acknowledged before and while the container was killed", len(acked))

	again := svc.start(t, vol, envFile, nil)
	again.waitHealthy(t)
	lost := 0
	for _, id := range acked {
		if st, _, err := again.api(key, http.MethodGet, "/v1/customers/"+id, nil); err != nil || st != http.StatusOK {
			lost++
			t.Errorf("acknowledged customer %s is gone after kill -9: %d %v", id, st, err)
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d acknowledged writes lost", lost, len(acked))
	}
}

// TestImage_BadInputEndsAtOnce: a container that cannot work ends at
// once, with a message that names the fix.
func TestImage_BadInputEndsAtOnce(t *testing.T) {
	svc, envFile, _ := composeService(t)
	rootDir := t.TempDir() // root's, 0700: uid 65532 can neither write nor read it
	if err := os.Chmod(rootDir, 0o755); err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(keyFile, []byte("sk_sandbox_unreadable_key_1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		envFile string
		flags   []string // podman run flags
		args    []string // the sandbox's flags
		want    []string
	}{
		{name: "no keys", want: []string{"no keys", "PAYMENTS_SANDBOX_KEYS", "-open"}},
		{name: "unwritable data", envFile: envFile, flags: []string{"-v", rootDir + ":/data"},
			want: []string{"/data/sandbox.db", "permission denied", "uid 65532"}},
		{name: "unreadable key file", flags: []string{"-v", keyFile + ":/keys/keys:ro"}, args: []string{"-key-file", "/keys/keys"},
			want: []string{"-key-file", "/keys/keys", "permission denied", "uid 65532"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := uniqueName("bad")
			vol := volumeFor(t, svc)
			args := svc.runArgs(t, name, vol, tc.envFile)
			if len(tc.flags) > 0 {
				// The mount replaces the service's volume at /data.
				args = slicesDeleteVolume(args)
			}
			args = append(append(append(args, tc.flags...), testImage), tc.args...)
			t.Cleanup(func() { _, _ = podman(context.Background(), "rm", "-f", "-t", "0", name) })
			start := time.Now()
			mustPodman(t, args...)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			code, err := podman(ctx, "wait", name)
			if err != nil {
				t.Fatalf("the container did not end within 10s: %v", err)
			}
			t.Logf("ended with %s after %s", code, time.Since(start).Round(time.Millisecond))
			if code == "0" {
				t.Errorf("exit code 0, want a failure")
			}
			out := logs(name)
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("the message lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// slicesDeleteVolume drops the -v flags of the service from podman run
// arguments.
func slicesDeleteVolume(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if args[i] == "-v" {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// TestImage_WebhookReachesTheHost: the sandbox in the container delivers
// an event to a receiver on the host, named host.containers.internal and
// allowed with -webhook-allow. Its key comes from a mounted keys file.
func TestImage_WebhookReachesTheHost(t *testing.T) {
	svc, _, _ := composeService(t)
	const key = "sk_sandbox_from_a_mounted_file"
	keyFile := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(keyFile, []byte("# the team's keys\n"+key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The sandbox's user must own it: others may not read a keys file.
	if err := os.Chown(keyFile, 65532, 65532); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 16)
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		select {
		case got <- r.Header.Get("Payments-Signature") + " " + string(b):
		default:
		}
	}), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)

	c := svc.start(t, volumeFor(t, svc), "", []string{"-v", keyFile + ":/etc/payments-sandbox/keys:ro"},
		"-key-file", "/etc/payments-sandbox/keys", "-webhook-allow", "host.containers.internal:"+port)
	c.waitHealthy(t)
	st, v, err := c.api(key, http.MethodPost, "/v1/webhook_endpoints", url.Values{
		"url": {"http://host.containers.internal:" + port + "/hooks"}, "enabled_events[]": {"customer.created"}})
	if err != nil || st != http.StatusOK {
		t.Fatalf("creating the webhook endpoint: %d %v %v", st, v, err)
	}
	id, err := c.createCustomer(key, "hook@example.com")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case d := <-got:
		if !strings.Contains(d, `"customer.created"`) || !strings.Contains(d, id) {
			t.Errorf("the receiver got %q, want the customer.created event of %s", d, id)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("no delivery reached the host's receiver within 15s; logs:\n%s", logs(c.name))
	}
}
