package logmask_test

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/logmask"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Every level and every kind of attribute is masked: strings, errors,
// groups, a log.Logger line's []any, attributes set with With.
func TestWrap_MasksEveryAttribute(t *testing.T) {
	t.Parallel()
	const key = "sk_sandbox_handlerkey1234"
	var buf bytes.Buffer
	log := slog.New(logmask.Wrap(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))).With("with", "w "+key)
	log.Debug("debug "+key, "path", "/x/"+key)
	log.Info("info", "err", errors.New("failed for "+key))
	log.Warn("warn", slog.Group("g", slog.String("inner", key)), "v", []any{"http:", key})
	log.WithGroup("grp").Error("error", "n", 1, "m", map[string]string{"k": key})
	slog.NewLogLogger(logmask.Wrap(slog.NewTextHandler(&buf, nil)), slog.LevelWarn).Printf("http: bad request %s", key)
	if strings.Contains(buf.String(), "handlerkey1234") {
		t.Errorf("the log holds the key:\n%s", buf.String())
	}
	if n := strings.Count(buf.String(), wire.RedactedKey); n != 11 {
		t.Errorf("%d keys masked, want 11:\n%s", n, buf.String())
	}
}

// Wrapping a masking handler again keeps one layer.
func TestWrap_Twice(t *testing.T) {
	t.Parallel()
	h := logmask.Wrap(slog.NewTextHandler(&bytes.Buffer{}, nil))
	if again := logmask.Wrap(h); again != h {
		t.Errorf("Wrap(Wrap(h)) = %T %v, want the same handler", again, again)
	}
}
