package main

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// entry is one file or directory of the image's single layer.
type entry struct {
	name     string // without a leading slash; directories end in /
	mode     int64
	uid, gid int
	data     []byte
}

// files is the layer's content: every COPY, in order, later ones
// replacing earlier ones, with the directories they create.
func (r *recipe) files(context string) ([]entry, error) {
	byName := map[string]entry{}
	addDir := func(name string, uid, gid int) {
		for d := name; d != "" && d != "."; d = path.Dir(d) {
			if _, ok := byName[d+"/"]; !ok {
				byName[d+"/"] = entry{name: d + "/", mode: 0o755, uid: uid, gid: gid}
			}
		}
	}
	for _, c := range r.copies {
		uid, gid, err := owner(c.chown)
		if err != nil {
			return nil, err
		}
		src := filepath.Join(context, filepath.FromSlash(c.src))
		info, err := os.Stat(src)
		if err != nil {
			return nil, fmt.Errorf("COPY %s: %w", c.src, err)
		}
		dest := strings.TrimPrefix(path.Clean(c.dest), "/")
		put := func(name, file string, info fs.FileInfo) error {
			b, err := os.ReadFile(file)
			if err != nil {
				return err
			}
			mode := int64(0o644)
			if info.Mode()&0o111 != 0 {
				mode = 0o755 // modes of a checkout follow the umask; keep only git's two
			}
			if c.chmod != 0 {
				mode = c.chmod
			}
			addDir(path.Dir(name), uid, gid)
			byName[name] = entry{name: name, mode: mode, uid: uid, gid: gid, data: b}
			return nil
		}
		if !info.IsDir() {
			name := dest
			if strings.HasSuffix(c.dest, "/") {
				name = path.Join(dest, path.Base(filepath.ToSlash(c.src)))
			}
			if err := put(name, src, info); err != nil {
				return nil, err
			}
			continue
		}
		addDir(dest, uid, gid)
		err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == src {
				return err
			}
			rel, err := filepath.Rel(src, p)
			if err != nil {
				return err
			}
			name := path.Join(dest, filepath.ToSlash(rel))
			if d.IsDir() {
				addDir(name, uid, gid)
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			return put(name, p, info)
		})
		if err != nil {
			return nil, fmt.Errorf("COPY %s: %w", c.src, err)
		}
	}
	out := make([]entry, 0, len(byName))
	for _, e := range byName {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

func owner(chown string) (uid, gid int, err error) {
	if chown == "" {
		return 0, 0, nil
	}
	u, g, ok := strings.Cut(chown, ":")
	if !ok {
		g = u
	}
	uid, err1 := strconv.Atoi(u)
	gid, err2 := strconv.Atoi(g)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("--chown=%s: give numeric uid:gid, the image has no /etc/passwd", chown)
	}
	return uid, gid, nil
}

// tarLayer writes entries as an uncompressed tar, every header fixed but
// for name, mode, owner and size.
func tarLayer(entries []entry, when time.Time) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, Uid: e.uid, Gid: e.gid, ModTime: when, Format: tar.FormatPAX}
		if strings.HasSuffix(e.name, "/") {
			h.Typeflag = tar.TypeDir
		} else {
			h.Typeflag = tar.TypeReg
			h.Size = int64(len(e.data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// containerConfig is the config section of a Docker image config.
type containerConfig struct {
	User         string              `json:"User,omitempty"`
	ExposedPorts map[string]struct{} `json:"ExposedPorts,omitempty"`
	Env          []string            `json:"Env,omitempty"`
	Entrypoint   []string            `json:"Entrypoint,omitempty"`
	Cmd          []string            `json:"Cmd,omitempty"`
	Volumes      map[string]struct{} `json:"Volumes,omitempty"`
	Labels       map[string]string   `json:"Labels,omitempty"`
	StopSignal   string              `json:"StopSignal,omitempty"`
	Healthcheck  *healthConfig       `json:"Healthcheck,omitempty"`
}

// dockerArchive is the image as `docker save` writes it: manifest.json
// naming the config and the layer, kept under blobs/sha256/. It returns
// the image ID, the config's digest.
func dockerArchive(r *recipe, layer []byte, goos, goarch string, when time.Time, tag string) (string, []byte, error) {
	cc := containerConfig{User: r.user, Env: r.env, Entrypoint: r.entrypoint, Cmd: r.cmd,
		Labels: r.labels, StopSignal: r.stopSignal, Healthcheck: r.health}
	if len(r.ports) > 0 {
		cc.ExposedPorts = map[string]struct{}{}
		for _, p := range r.ports {
			cc.ExposedPorts[p] = struct{}{}
		}
	}
	if len(r.volumes) > 0 {
		cc.Volumes = map[string]struct{}{}
		for _, v := range r.volumes {
			cc.Volumes[v] = struct{}{}
		}
	}
	created := when.Format(time.RFC3339)
	layerDigest := digest(layer)
	config, err := json.Marshal(map[string]any{
		"architecture": goarch,
		"os":           goos,
		"created":      created,
		"config":       cc,
		// Podman reads the health check from here when it runs the image.
		"container_config": cc,
		"rootfs":           map[string]any{"type": "layers", "diff_ids": []string{layerDigest}},
		"history":          []map[string]string{{"created": created, "created_by": "tools/cmd/imagebuild"}},
	})
	if err != nil {
		return "", nil, err
	}
	configDigest := digest(config)
	blob := func(d string) string { return "blobs/sha256/" + strings.TrimPrefix(d, "sha256:") }
	manifest, err := json.Marshal([]map[string]any{{
		"Config":   blob(configDigest),
		"RepoTags": []string{tag},
		"Layers":   []string{blob(layerDigest)},
	}})
	if err != nil {
		return "", nil, err
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range []struct {
		name string
		data []byte
	}{
		{"blobs/", nil}, {"blobs/sha256/", nil},
		{blob(configDigest), config}, {blob(layerDigest), layer},
		{"manifest.json", manifest},
	} {
		h := &tar.Header{Name: f.name, Mode: 0o644, ModTime: when, Typeflag: tar.TypeReg, Size: int64(len(f.data)), Format: tar.FormatPAX}
		if strings.HasSuffix(f.name, "/") {
			h.Typeflag, h.Mode, h.Size = tar.TypeDir, 0o755, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			return "", nil, err
		}
		if _, err := tw.Write(f.data); err != nil {
			return "", nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return "", nil, err
	}
	return configDigest, buf.Bytes(), nil
}
