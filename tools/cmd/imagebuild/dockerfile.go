package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"
)

// recipe is what a Dockerfile says, in the subset this builder reads.
type recipe struct {
	labels      map[string]string
	env         []string
	copies      []copyStep
	user        string
	volumes     []string
	ports       []string
	stopSignal  string
	health      *healthConfig
	entrypoint  []string
	cmd         []string
	args        map[string]string
	argDeclared map[string]bool
}

type copyStep struct {
	src, dest string
	chown     string // "uid:gid", or "" for root
	chmod     int64  // 0 keeps the source's mode
}

// healthConfig is the image config's Healthcheck, durations in
// nanoseconds as Docker writes them.
type healthConfig struct {
	Test          []string      `json:"Test"`
	Interval      time.Duration `json:"Interval,omitempty"`
	Timeout       time.Duration `json:"Timeout,omitempty"`
	StartPeriod   time.Duration `json:"StartPeriod,omitempty"`
	StartInterval time.Duration `json:"StartInterval,omitempty"`
	Retries       int           `json:"Retries,omitempty"`
}

// parseDockerfile reads the instructions of a FROM scratch image:
// FROM, ARG, LABEL, ENV, COPY, USER, VOLUME, EXPOSE, STOPSIGNAL,
// HEALTHCHECK, ENTRYPOINT and CMD. Anything else is an error naming the
// line, so that the file never says more than this builder does.
func parseDockerfile(path string, buildArgs map[string]string) (*recipe, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := &recipe{labels: map[string]string{}, args: map[string]string{}, argDeclared: map[string]bool{}}
	lines := strings.Split(string(b), "\n")
	sawFrom := false
	for i := 0; i < len(lines); i++ {
		lineNo := i + 1
		line := strings.TrimSpace(lines[i])
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			next := strings.TrimSpace(lines[i])
			if strings.HasPrefix(next, "#") {
				continue
			}
			line = strings.TrimSuffix(line, "\\") + " " + next
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		instr, rest, _ := strings.Cut(line, " ")
		instr = strings.ToUpper(instr)
		rest = strings.TrimSpace(rest)
		fail := func(format string, a ...any) error {
			return fmt.Errorf("%s line %d (%s): %s", path, lineNo, instr, fmt.Sprintf(format, a...))
		}
		if !sawFrom && instr != "FROM" && instr != "ARG" {
			return nil, fail("comes before FROM")
		}
		switch instr {
		case "FROM":
			if rest != "scratch" {
				return nil, fail("only FROM scratch is supported: nothing can be pulled")
			}
			sawFrom = true
		case "ARG":
			name, def, hasDef := strings.Cut(rest, "=")
			r.argDeclared[name] = true
			if v, ok := buildArgs[name]; ok {
				r.args[name] = v
			} else if hasDef {
				r.args[name] = unquote(def)
			}
		case "LABEL", "ENV":
			words, err := splitWords(rest)
			if err != nil {
				return nil, fail("%v", err)
			}
			for _, w := range words {
				k, v, ok := strings.Cut(w, "=")
				if !ok {
					return nil, fail("%q is not key=value", w)
				}
				v = r.expand(v)
				if instr == "LABEL" {
					r.labels[k] = v
				} else {
					r.env = append(r.env, k+"="+v)
				}
			}
		case "COPY":
			words, err := splitWords(rest)
			if err != nil {
				return nil, fail("%v", err)
			}
			var c copyStep
			for len(words) > 0 && strings.HasPrefix(words[0], "--") {
				opt, val, _ := strings.Cut(strings.TrimPrefix(words[0], "--"), "=")
				switch opt {
				case "chown":
					c.chown = val
				case "chmod":
					if _, err := fmt.Sscanf(val, "%o", &c.chmod); err != nil {
						return nil, fail("--chmod=%s is not an octal mode", val)
					}
				default:
					return nil, fail("option --%s is not supported; use --chown or --chmod", opt)
				}
				words = words[1:]
			}
			if len(words) != 2 {
				return nil, fail("give one source and one destination")
			}
			c.src, c.dest = r.expand(words[0]), r.expand(words[1])
			r.copies = append(r.copies, c)
		case "USER":
			r.user = r.expand(rest)
		case "VOLUME":
			v, err := jsonOrWords(rest)
			if err != nil {
				return nil, fail("%v", err)
			}
			r.volumes = append(r.volumes, v...)
		case "EXPOSE":
			for _, p := range strings.Fields(rest) {
				if !strings.Contains(p, "/") {
					p += "/tcp"
				}
				r.ports = append(r.ports, p)
			}
		case "STOPSIGNAL":
			r.stopSignal = rest
		case "HEALTHCHECK":
			h, err := parseHealthcheck(rest)
			if err != nil {
				return nil, fail("%v", err)
			}
			r.health = h
		case "ENTRYPOINT", "CMD":
			var v []string
			if err := json.Unmarshal([]byte(rest), &v); err != nil {
				return nil, fail("give the exec form, a JSON array: the image has no shell")
			}
			if instr == "ENTRYPOINT" {
				r.entrypoint = v
			} else {
				r.cmd = v
			}
		default:
			return nil, fail("not supported by this builder")
		}
	}
	if !sawFrom {
		return nil, fmt.Errorf("%s has no FROM scratch", path)
	}
	for name := range buildArgs {
		if !r.argDeclared[name] {
			return nil, fmt.Errorf("-build-arg %s: %s declares no ARG %[1]s", name, path)
		}
	}
	return r, nil
}

// expand replaces $NAME and ${NAME} by the ARG's value.
func (r *recipe) expand(s string) string {
	return os.Expand(s, func(name string) string { return r.args[name] })
}

func parseHealthcheck(rest string) (*healthConfig, error) {
	h := &healthConfig{}
	for strings.HasPrefix(rest, "--") {
		opt, after, _ := strings.Cut(rest, " ")
		rest = strings.TrimSpace(after)
		name, val, _ := strings.Cut(strings.TrimPrefix(opt, "--"), "=")
		if name == "retries" {
			if _, err := fmt.Sscanf(val, "%d", &h.Retries); err != nil {
				return nil, fmt.Errorf("--retries=%s is not a number", val)
			}
			continue
		}
		d, err := time.ParseDuration(val)
		if err != nil {
			return nil, fmt.Errorf("--%s=%s is not a duration", name, val)
		}
		switch name {
		case "interval":
			h.Interval = d
		case "timeout":
			h.Timeout = d
		case "start-period":
			h.StartPeriod = d
		case "start-interval":
			h.StartInterval = d
		default:
			return nil, fmt.Errorf("option --%s is not supported", name)
		}
	}
	cmd, ok := strings.CutPrefix(rest, "CMD ")
	if !ok {
		return nil, fmt.Errorf("give CMD and a JSON array")
	}
	var v []string
	if err := json.Unmarshal([]byte(strings.TrimSpace(cmd)), &v); err != nil || len(v) == 0 {
		return nil, fmt.Errorf("give CMD the exec form, a JSON array: the image has no shell")
	}
	h.Test = append([]string{"CMD"}, v...)
	return h, nil
}

func jsonOrWords(s string) ([]string, error) {
	if strings.HasPrefix(s, "[") {
		var v []string
		err := json.Unmarshal([]byte(s), &v)
		return v, err
	}
	return strings.Fields(s), nil
}

// splitWords splits at spaces outside double quotes and drops the quotes.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			quoted = !quoted
			inWord = true
		case c == '\\' && quoted && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
		case (c == ' ' || c == '\t') && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("a double quote is not closed")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

func unquote(s string) string {
	if w, err := splitWords(s); err == nil && len(w) == 1 {
		return w[0]
	}
	return s
}
