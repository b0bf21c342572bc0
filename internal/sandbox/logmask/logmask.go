// Package logmask keeps keys out of the sandbox's logs: Wrap wraps a
// slog.Handler so that what looks like a key (wire.MaskKeys) is masked in
// every message and attribute, at every level. It knows nothing of the
// sandbox's handlers.
package logmask

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Wrap wraps h so that every message and every attribute it handles,
// at every level, has what looks like a key replaced (wire.MaskKeys): a
// key pasted into a path, a query or a header must not reach a log by any
// log line, those of net/http included. sandbox.New wraps the Logger it
// is given; payments-sandbox wraps its own too. Wrapping twice is wrapping
// once.
func Wrap(h slog.Handler) slog.Handler {
	if m, ok := h.(maskingHandler); ok {
		return m
	}
	return maskingHandler{h}
}

type maskingHandler struct{ h slog.Handler }

func (m maskingHandler) Enabled(ctx context.Context, l slog.Level) bool { return m.h.Enabled(ctx, l) }

func (m maskingHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, wire.MaskKeys(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(maskAttr(a))
		return true
	})
	return m.h.Handle(ctx, out)
}

func (m maskingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	masked := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		masked[i] = maskAttr(a)
	}
	return maskingHandler{m.h.WithAttrs(masked)}
}

func (m maskingHandler) WithGroup(name string) slog.Handler {
	return maskingHandler{m.h.WithGroup(name)}
}

// maskAttr masks a string, the attributes of a group, and any other value
// whose printed form (an error, the []any of a log.Logger line) holds a
// key.
func maskAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, wire.MaskKeys(v.String()))
	case slog.KindGroup:
		g := v.Group()
		masked := make([]any, len(g))
		for i, ga := range g {
			masked[i] = maskAttr(ga)
		}
		return slog.Group(a.Key, masked...)
	case slog.KindAny:
		// Kept as it is (a handler may print a map or a struct its own
		// way) unless its printed form holds a key.
		if s := fmt.Sprint(v.Any()); wire.KeyPattern.MatchString(s) {
			return slog.String(a.Key, wire.MaskKeys(s))
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
