package main

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// buildContext lays out a build context as make image and goreleaser do:
// the binary under TARGETPLATFORM/, the /data README under image/data/.
func buildContext(t *testing.T, binary string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{
		"linux/amd64/payments-sandbox": binary,
		"image/data/README":            "the volume\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func build(t *testing.T, ctx string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "image.tar")
	err := run([]string{"-dockerfile", "../../../image/Dockerfile", "-context", ctx, "-platform", "linux/amd64",
		"-created", "1767225600", "-tag", "localhost/payments-sandbox:test", "-o", out,
		"-build-arg", "VERSION=v1.2.3", "-build-arg", "REVISION=0123abcd"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestImagebuild_Reproducible: two builds of the same inputs, from two
// contexts made at different times with other modes, are the same bytes;
// a different binary is a different image.
func TestImagebuild_Reproducible(t *testing.T) {
	a := build(t, buildContext(t, "binary one"))
	ctx := buildContext(t, "binary one")
	old := time.Unix(1000, 0)
	if err := os.Chtimes(filepath.Join(ctx, "image/data/README"), old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(ctx, "image/data/README"), 0o664); err != nil {
		t.Fatal(err)
	}
	if b := build(t, ctx); !bytes.Equal(a, b) {
		t.Error("two builds of the same inputs differ")
	}
	if c := build(t, buildContext(t, "binary two")); bytes.Equal(a, c) {
		t.Error("a different binary gave the same image")
	}
}

// TestImagebuild_Image: the archive holds what the Dockerfile says: the
// binary executable by all, /data owned by the sandbox's user, the
// health check, labels, user, volume, port and stop signal.
func TestImagebuild_Image(t *testing.T) {
	files := untar(t, build(t, buildContext(t, "the binary")))
	var manifest []struct {
		Config   string
		RepoTags []string
		Layers   []string
	}
	if err := json.Unmarshal(files["manifest.json"].data, &manifest); err != nil || len(manifest) != 1 || len(manifest[0].Layers) != 1 {
		t.Fatalf("manifest.json: %v %s", err, files["manifest.json"].data)
	}
	var config struct {
		Architecture, OS, Created string
		Config                    containerConfig
	}
	if err := json.Unmarshal(files[manifest[0].Config].data, &config); err != nil {
		t.Fatal(err)
	}
	c := config.Config
	want := map[string]string{
		"architecture": config.Architecture + "/" + config.OS, "created": config.Created, "user": c.User,
		"stop": c.StopSignal, "entrypoint": strings.Join(c.Entrypoint, " "), "health": strings.Join(c.Healthcheck.Test, " "),
		"version": c.Labels["org.opencontainers.image.version"], "revision": c.Labels["org.opencontainers.image.revision"],
		"licenses": c.Labels["org.opencontainers.image.licenses"],
	}
	for k, v := range map[string]string{
		"architecture": "amd64/linux", "created": "2026-01-01T00:00:00Z", "user": "65532:65532", "stop": "SIGTERM",
		"entrypoint": "/payments-sandbox -addr 0.0.0.0:12111 -data /data/sandbox.db",
		"health":     "CMD /payments-sandbox healthcheck", "version": "v1.2.3", "revision": "0123abcd", "licenses": "MPL-2.0",
	} {
		if want[k] != v {
			t.Errorf("%s = %q, want %q", k, want[k], v)
		}
	}
	for _, l := range []string{"source", "title", "description"} {
		if c.Labels["org.opencontainers.image."+l] == "" {
			t.Errorf("label org.opencontainers.image.%s is missing", l)
		}
	}
	if _, ok := c.Volumes["/data"]; !ok {
		t.Errorf("volumes %v, want /data", c.Volumes)
	}
	if _, ok := c.ExposedPorts["12111/tcp"]; !ok {
		t.Errorf("ports %v, want 12111/tcp", c.ExposedPorts)
	}
	layer := untar(t, files[manifest[0].Layers[0]].data)
	for name, w := range map[string]struct {
		mode     int64
		uid      int
		contents string
	}{
		"payments-sandbox": {0o755, 0, "the binary"},
		"data/":            {0o755, 65532, ""},
		"data/README":      {0o644, 65532, "the volume\n"},
	} {
		got, ok := layer[name]
		if !ok {
			t.Errorf("the layer has no %s; it has %v", name, keys(layer))
			continue
		}
		if got.mode != w.mode || got.uid != w.uid || string(got.data) != w.contents {
			t.Errorf("%s: mode %o uid %d %q, want %o %d %q", name, got.mode, got.uid, got.data, w.mode, w.uid, w.contents)
		}
	}
}

// TestParseDockerfile_Refuses: what this builder cannot do is an error
// naming the line, never ignored.
func TestParseDockerfile_Refuses(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"base image", "FROM debian\n", "only FROM scratch"},
		{"RUN", "FROM scratch\nRUN true\n", "line 2 (RUN): not supported"},
		{"shell form", "FROM scratch\nENTRYPOINT /x\n", "exec form"},
		{"copy option", "FROM scratch\nCOPY --link a /a\n", "--link is not supported"},
		{"no FROM", "LABEL a=b\n", "comes before FROM"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "Dockerfile")
			if err := os.WriteFile(p, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := parseDockerfile(p, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

type file struct {
	mode int64
	uid  int
	data []byte
}

func untar(t *testing.T, b []byte) map[string]file {
	t.Helper()
	out := map[string]file{}
	tr := tar.NewReader(bytes.NewReader(b))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = file{mode: h.Mode, uid: h.Uid, data: data}
	}
}

func keys(m map[string]file) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	return k
}

// TestGoreleaser_BuildsTheImage: the release builds this Dockerfile for
// both platforms, tagged with the version and latest, with build
// arguments the Dockerfile declares and extra files that exist; `make
// release-check` checks the rest of the configuration.
func TestGoreleaser_BuildsTheImage(t *testing.T) {
	b, err := os.ReadFile("../../../.goreleaser.yml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		DockersV2 []struct {
			IDs        []string          `yaml:"ids"`
			Dockerfile string            `yaml:"dockerfile"`
			Images     []string          `yaml:"images"`
			Tags       []string          `yaml:"tags"`
			Platforms  []string          `yaml:"platforms"`
			BuildArgs  map[string]string `yaml:"build_args"`
			ExtraFiles []string          `yaml:"extra_files"`
		} `yaml:"dockers_v2"`
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.DockersV2) != 1 {
		t.Fatalf("dockers_v2 has %d images, want 1", len(cfg.DockersV2))
	}
	d := cfg.DockersV2[0]
	if d.Dockerfile != "image/Dockerfile" || strings.Join(d.IDs, ",") != "sandbox" {
		t.Errorf("dockerfile %q from builds %v, want image/Dockerfile from the sandbox build", d.Dockerfile, d.IDs)
	}
	if strings.Join(d.Images, ",") != "ghcr.io/paymentsdev/payments-sandbox" {
		t.Errorf("images %v, want ghcr.io/paymentsdev/payments-sandbox", d.Images)
	}
	if got := strings.Join(d.Platforms, ","); got != "linux/amd64,linux/arm64" {
		t.Errorf("platforms %s, want linux/amd64,linux/arm64", got)
	}
	tags := strings.Join(d.Tags, " ")
	if !strings.Contains(tags, "{{ .Version }}") || !strings.Contains(tags, "latest") {
		t.Errorf("tags %v, want the version and latest", d.Tags)
	}
	args := map[string]string{}
	for k := range d.BuildArgs {
		args[k] = "x"
	}
	if _, err := parseDockerfile("../../../"+d.Dockerfile, args); err != nil {
		t.Errorf("the release's build_args: %v", err)
	}
	for _, f := range d.ExtraFiles {
		if _, err := os.Stat("../../../" + f); err != nil {
			t.Errorf("extra file: %v", err)
		}
	}
}
