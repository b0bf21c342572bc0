package dashboard

import (
	"math"
	"sort"
	"strconv"
	"time"
)

// The home page's charts, drawn by the server: this file computes each
// chart's geometry as numbers, and templates/home.html writes them as
// inline SVG, so that a chart is markup of this origin like the rest of the
// page (no script, no inline style; the CSP holds). A series is told by
// its fill, a pattern as well as a colour, by its name in the legend with
// its total, and by a table of every figure beside the picture.

// The drawing's box, in SVG user units: it scales to its column's width.
// Tick labels sit inside the plot, above their grid line, so that no
// margin has to fit the longest amount.
const (
	chartW     = 640
	chartH     = 240
	plotLeft   = 8
	plotRight  = chartW - 8
	plotTop    = 24
	plotBottom = chartH - 30
	// chartTicks is about how many steps the value axis has.
	chartTicks = 4
)

// Fills, the same in the drawing and its legend. The patterns are defined
// once per page (templates/home.html, "chartDefs").
const (
	fillOK   = "#2da44e"
	fillBad  = "url(#pat-bad)"
	fillBack = "url(#pat-back)"
	fillWarn = "url(#pat-warn)"
)

// chart is one chart ready for the template.
type chart struct {
	// ID prefixes the ids of the chart's elements; unique on the page.
	ID, Title, Desc string
	Series          []chartSeries
	Rects           []chartRect
	// Path is a line chart's line (an SVG path), "" for a bar chart.
	Path    string
	Ticks   []chartTick
	XLabels []chartLabel
	Table   chartTable
	// Link is the list the chart summarizes, filtered, named LinkText.
	Link, LinkText string
}

// chartSeries is a series in the legend: its name, fill, total and the
// list of its objects.
type chartSeries struct {
	Name, Fill, Total, Link string
}

// chartRect is one bar, or one series' part of a stacked bar.
type chartRect struct {
	X, Y, W, H  float64
	Fill, Title string
}

// chartTick is a grid line of the value axis.
type chartTick struct {
	Y     float64
	Label string
	Zero  bool
	// Minor is every other tick but the zero line's: a phone, whose
	// drawing is half as wide, leaves out their labels.
	Minor bool
}

// chartLabel is a label of the time axis.
type chartLabel struct {
	X             float64
	Label, Anchor string
}

// chartTable is a chart's figures as a table: a row per period, the
// period linking to its objects when it can.
type chartTable struct {
	Caption string
	Head    []string
	Rows    []chartRow
}

type chartRow struct {
	Label, Link string
	Cells       []chartCell
}

// chartCell is a figure of a row, with its column's heading (a phone
// shows each cell on a line of its own, labelled).
type chartCell struct{ Label, Value string }

// addRow adds row with its figures, one a column after the first.
func (t *chartTable) addRow(row chartRow, figures ...string) {
	for i, f := range figures {
		row.Cells = append(row.Cells, chartCell{Label: t.Head[i+1], Value: f})
	}
	t.Rows = append(t.Rows, row)
}

// Period units of the time axis.
const (
	unitDay   = "day"
	unitWeek  = "week"
	unitMonth = "month"
)

// period is one bar's span of days: From to Until, Until excluded.
type period struct {
	Label       string
	From, Until time.Time
}

// periodsOf splits the days from..until (both included, UTC midnights)
// into periods of unit: days; weeks from Monday; calendar months. The
// first and last periods are cut to the span.
func periodsOf(from, until time.Time, unit string) []period {
	end := until.AddDate(0, 0, 1)
	var out []period
	for start := from; start.Before(end); {
		var next time.Time
		label := start.Format(time.DateOnly)
		switch unit {
		case unitWeek:
			back := (int(start.Weekday()) + 6) % 7 // days since Monday
			next = start.AddDate(0, 0, 7-back)
		case unitMonth:
			next = time.Date(start.Year(), start.Month()+1, 1, 0, 0, 0, 0, time.UTC)
			label = start.Format("2006-01")
		default:
			next = start.AddDate(0, 0, 1)
		}
		if next.After(end) {
			next = end
		}
		out = append(out, period{Label: label, From: start, Until: next})
		start = next
	}
	return out
}

// periodIndex is the index of the period holding day, -1 for none.
func periodIndex(ps []period, day time.Time) int {
	i := sort.Search(len(ps), func(i int) bool { return ps[i].Until.After(day) })
	if i == len(ps) || day.Before(ps[i].From) {
		return -1
	}
	return i
}

// niceScale is a value axis from lo to hi (lo ≤ 0 ≤ hi) in about
// chartTicks steps of 1, 2 or 5 times a power of ten, never less than 1
// (the figures are counts and minor units).
func niceScale(lo, hi float64) (minV, maxV, step float64) {
	if hi-lo <= 0 {
		hi = lo + 1
	}
	raw := (hi - lo) / chartTicks
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step = 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	step = max(step, 1)
	return math.Floor(lo/step) * step, math.Ceil(hi/step) * step, step
}

// toInt64 is v as an int64, held within int64's range.
func toInt64(v float64) int64 {
	switch {
	case v >= math.MaxInt64:
		return math.MaxInt64
	case v <= math.MinInt64:
		return math.MinInt64
	}
	return int64(math.Round(v))
}

// addSat adds without wrapping: a total past int64's range stays at its
// end rather than turning negative.
func addSat(a, b int64) int64 {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && s >= 0:
		return math.MinInt64
	}
	return s
}

// round2 keeps two decimals of a coordinate, for short markup.
func round2(v float64) float64 { return math.Round(v*100) / 100 }

// axis maps values of lo..hi onto the plot's height and lists its ticks.
type axis struct{ lo, hi, step float64 }

func newAxis(lo, hi float64) axis {
	a := axis{}
	a.lo, a.hi, a.step = niceScale(min(lo, 0), max(hi, 0))
	return a
}

func (a axis) y(v float64) float64 {
	return round2(plotBottom - (v-a.lo)/(a.hi-a.lo)*(plotBottom-plotTop))
}

func (a axis) ticks(label func(int64) string) []chartTick {
	var out []chartTick
	n := int(math.Round((a.hi - a.lo) / a.step))
	for i := 0; i <= n; i++ {
		v := a.lo + float64(i)*a.step
		out = append(out, chartTick{Y: a.y(v), Label: label(toInt64(v)), Zero: v == 0, Minor: i%2 == 1 && v != 0})
	}
	return out
}

// xLabels labels the first, middle and last of n slots of the time axis.
func xLabels(labels []string) []chartLabel {
	n := len(labels)
	if n == 0 {
		return nil
	}
	slot := float64(plotRight-plotLeft) / float64(n)
	mid := func(i int) float64 { return round2(plotLeft + (float64(i)+0.5)*slot) }
	out := []chartLabel{{X: plotLeft, Label: labels[0], Anchor: "start"}}
	if n >= 3 {
		out = append(out, chartLabel{X: mid(n / 2), Label: labels[n/2], Anchor: "middle"})
	}
	if n >= 2 {
		out = append(out, chartLabel{X: plotRight, Label: labels[n-1], Anchor: "end"})
	}
	return out
}

// stack draws stacked bars: values[p][s] is series s in period p (a
// negative value draws nothing); title names a part for its tooltip.
func stack(c *chart, periods []period, values [][]int64, fills []string, label func(int64) string, title func(p, s int) string) {
	top := 0.0
	for _, row := range values {
		sum := 0.0
		for _, v := range row {
			sum += math.Max(float64(v), 0)
		}
		top = math.Max(top, sum)
	}
	a := newAxis(0, top)
	c.Ticks = a.ticks(label)
	slot := float64(plotRight-plotLeft) / float64(len(periods))
	w := math.Max(slot*0.8, 1)
	labels := make([]string, len(periods))
	for p, row := range values {
		labels[p] = periods[p].Label
		x := round2(plotLeft + float64(p)*slot + (slot-w)/2)
		base := 0.0
		for s, v := range row {
			if v <= 0 {
				continue
			}
			y0, y1 := a.y(base), a.y(base+float64(v))
			base += float64(v)
			c.Rects = append(c.Rects, chartRect{X: x, Y: y1, W: round2(w), H: round2(math.Max(y0-y1, 0.5)), Fill: fills[s], Title: title(p, s)})
		}
	}
	c.XLabels = xLabels(labels)
}

// step draws a step line through one value a day.
func step(c *chart, days []string, values []int64, label func(int64) string) {
	lo, hi := 0.0, 0.0
	for _, v := range values {
		lo, hi = math.Min(lo, float64(v)), math.Max(hi, float64(v))
	}
	a := newAxis(lo, hi)
	c.Ticks = a.ticks(label)
	slot := float64(plotRight-plotLeft) / float64(len(values))
	var b []byte
	for i, v := range values {
		x0, x1, y := round2(plotLeft+float64(i)*slot), round2(plotLeft+float64(i+1)*slot), a.y(float64(v))
		if i == 0 {
			b = append(b, 'M')
			b = strconv.AppendFloat(b, x0, 'f', -1, 64)
		} else {
			b = append(b, " V"...)
		}
		if i == 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendFloat(b, y, 'f', -1, 64)
		b = append(b, " H"...)
		b = strconv.AppendFloat(b, x1, 'f', -1, 64)
	}
	c.Path = string(b)
	c.XLabels = xLabels(days)
}
