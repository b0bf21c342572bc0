package listing

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func parse(t *testing.T, raw string) form.Form {
	t.Helper()
	f, e := form.Parse(nil, raw)
	if e != nil {
		t.Fatal(e)
	}
	return f
}

func TestParseParams_Limit(t *testing.T) {
	for _, tc := range []struct {
		raw   string
		limit int
		param string // the refusal's param, "" when accepted
	}{
		{"", wire.ListLimitDefault, ""},
		{"limit=", wire.ListLimitDefault, ""},
		{"limit=1", 1, ""},
		{"limit=" + strconv.Itoa(wire.ListLimitMax), wire.ListLimitMax, ""},
		{"limit=" + strconv.Itoa(wire.ListLimitMax+1), 0, wire.ParamLimit},
		{"limit=0", 0, wire.ParamLimit},
		{"limit=05", 0, wire.ParamLimit},
		{"limit=%2B5", 0, wire.ParamLimit},
		{"limit=5%20", 0, wire.ParamLimit},
		{"limit=1e1", 0, wire.ParamLimit},
		{"starting_after=a&ending_before=b", 0, wire.ParamEndingBefore},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			p, e := ParseParams(parse(t, tc.raw))
			if tc.param != "" {
				if e == nil || e.Param != tc.param {
					t.Fatalf("got %+v, %v; want a refusal naming %s", p, e, tc.param)
				}
				return
			}
			if e != nil || p.Limit != tc.limit {
				t.Fatalf("got %+v, %v; want limit %d", p, e, tc.limit)
			}
		})
	}
}

func TestCheck_PagingAndFilters(t *testing.T) {
	f := parse(t, "limit=3&starting_after=x&email=a")
	if e := Check(f, wire.ParamEmail); e != nil {
		t.Errorf("Check(email): %v", e)
	}
	if e := Check(f); e == nil || e.Param != wire.ParamEmail || e.Code != wire.ErrorCodeParameterUnknown {
		t.Errorf("Check(): %+v, want email unknown", e)
	}
}

// obj is a listed object: its id is "o" and its sequence number.
type obj struct{ seq uint64 }

func list(all []obj) *List[obj] {
	return &List[obj]{
		URL: "/v1/objs", Noun: "obj",
		Seq: func(o obj) uint64 { return o.seq },
		Find: func(id string) (obj, bool) {
			n, err := strconv.ParseUint(strings.TrimPrefix(id, "o"), 10, 64)
			i, found := model.BySeq(all, n, func(o obj) uint64 { return o.seq })
			if err != nil || !found {
				return obj{}, false
			}
			return all[i], true
		},
		Every: func() []obj { return all },
		Write: func(b []byte, o obj) []byte { return append(b, fmt.Sprintf(`"o%d"`, o.seq)...) },
	}
}

// TestList_Page: a page is newest first from the cursor on, and has_more
// says whether matching objects are left past it.
func TestList_Page(t *testing.T) {
	var all []obj
	for s := uint64(1); s <= 10; s++ {
		if s != 4 { // a gap, as after a delete
			all = append(all, obj{s})
		}
	}
	even := func(o obj) bool { return o.seq%2 == 0 }
	for _, tc := range []struct {
		name  string
		p     Params
		match func(obj) bool
		want  []uint64
		more  bool
		param string
	}{
		{"first page", Params{Limit: 3}, nil, []uint64{10, 9, 8}, true, ""},
		{"all", Params{Limit: 20}, nil, []uint64{10, 9, 8, 7, 6, 5, 3, 2, 1}, false, ""},
		{"starting after", Params{Limit: 3, StartingAfter: "o6"}, nil, []uint64{5, 3, 2}, true, ""},
		{"last page", Params{Limit: 3, StartingAfter: "o3"}, nil, []uint64{2, 1}, false, ""},
		{"ending before", Params{Limit: 3, EndingBefore: "o3"}, nil, []uint64{7, 6, 5}, true, ""},
		{"ending before the newest", Params{Limit: 3, EndingBefore: "o10"}, nil, []uint64{}, false, ""},
		{"matched", Params{Limit: 2}, even, []uint64{10, 8}, true, ""},
		{"matched after", Params{Limit: 2, StartingAfter: "o6"}, even, []uint64{2}, false, ""},
		{"unknown cursor", Params{Limit: 2, StartingAfter: "o4"}, nil, nil, false, wire.ParamStartingAfter},
		{"unknown ending", Params{Limit: 2, EndingBefore: "zz"}, nil, nil, false, wire.ParamEndingBefore},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page, more, e := list(all).Page(tc.p, all, tc.match)
			if tc.param != "" {
				if e == nil || e.Param != tc.param || e.Code != wire.ErrorCodeResourceMissing || !strings.Contains(e.Message, "is not a obj of this account") {
					t.Fatalf("got %v, %+v; want resource_missing naming %s", page, e, tc.param)
				}
				return
			}
			got := []uint64{}
			for _, o := range page {
				got = append(got, o.seq)
			}
			if e != nil || !slices.Equal(got, tc.want) || more != tc.more {
				t.Errorf("got %v more %v (%v), want %v more %v", got, more, e, tc.want, tc.more)
			}
		})
	}
}

// TestAnswer_Streams: a long answer is written in parts of about
// PartBytes, each under the lock, and reads as one JSON envelope; objects
// gone meanwhile leave no comma behind.
func TestAnswer_Streams(t *testing.T) {
	for _, tc := range []struct {
		name      string
		n         int
		size      int // bytes of each object
		gone      func(i int) bool
		wantParts int // parts written after the first
	}{
		{"short", 3, 10, nil, 0},
		{"empty", 0, 0, nil, 0},
		{"long", 100, 1000, nil, 3},
		{"long with gaps", 100, 1000, func(i int) bool { return i%7 == 0 || i == 99 }, 2},
		{"first gone", 2, 10, func(i int) bool { return i == 0 }, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			locks := 0
			put := func(b []byte, i int) []byte {
				if tc.gone != nil && tc.gone(i) {
					return b
				}
				return strconv.AppendQuote(b, fmt.Sprintf("%d:%s", i, strings.Repeat("x", tc.size)))
			}
			first, rest := Answer("/v1/x", true, tc.n, put, func() func() { locks++; return func() {} })
			var buf bytes.Buffer
			buf.Write(first)
			if (rest == nil) != (tc.wantParts == 0) {
				t.Fatalf("rest %v, want %d parts", rest != nil, tc.wantParts)
			}
			if rest != nil {
				if err := rest(&buf); err != nil {
					t.Fatal(err)
				}
			}
			if locks != tc.wantParts {
				t.Errorf("%d parts under the lock, want %d", locks, tc.wantParts)
			}
			var env struct {
				Object  string   `json:"object"`
				Data    []string `json:"data"`
				HasMore bool     `json:"has_more"`
				URL     string   `json:"url"`
			}
			if err := json.Unmarshal(buf.Bytes(), &env); err != nil {
				t.Fatalf("%v in %.200s", err, buf.String())
			}
			want := 0
			for i := range tc.n {
				if tc.gone == nil || !tc.gone(i) {
					if !strings.HasPrefix(env.Data[want], strconv.Itoa(i)+":") {
						t.Fatalf("data[%d] = %.20s, want object %d", want, env.Data[want], i)
					}
					want++
				}
			}
			if env.Object != "list" || len(env.Data) != want || !env.HasMore || env.URL != "/v1/x" {
				t.Errorf("envelope %s %d objects %v %s, want list %d true /v1/x", env.Object, len(env.Data), env.HasMore, env.URL, want)
			}
		})
	}
}

func TestRemove_BySeq(t *testing.T) {
	seq := func(o obj) uint64 { return o.seq }
	order := []obj{{1}, {3}, {5}}
	if got := model.RemoveBySeq(slices.Clone(order), 3, seq); !slices.Equal(got, []obj{{1}, {5}}) {
		t.Errorf("Remove(3) = %v", got)
	}
	if got := model.RemoveBySeq(slices.Clone(order), 4, seq); !slices.Equal(got, order) {
		t.Errorf("Remove(4) = %v, want it unchanged", got)
	}
}
