package main

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// writeRateLimitPlot draws the rate-limit table as two bar panels, apply
// time ÷ bound and the share of requests refused, one group per limit and
// one bar per mode, with the rate-limit targets as lines, into a PNG at path.
func writeRateLimitPlot(path string, rows []rateLimitRun) error {
	var limits []int64
	seen := map[int64]bool{}
	for _, r := range rows {
		if r.Limit > 0 && !seen[r.Limit] {
			seen[r.Limit] = true
			limits = append(limits, r.Limit)
		}
	}
	if len(limits) == 0 {
		return nil
	}
	modes := []struct {
		name   string
		capped bool
		color  color.Color
	}{
		{"default settings", false, color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}},
		{"max_requests_per_second = limit", true, color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}},
	}
	panels := []struct {
		title   string
		value   func(rateLimitRun) float64
		targets [2]float64 // default, capped
	}{
		{"apply time ÷ bound (useful requests ÷ limit)", rateLimitRun.Ratio, [2]float64{maxRateLimitRatio, maxRateLimitRatioCapped}},
		{"share of requests refused (429), %", func(r rateLimitRun) float64 { return 100 * r.RefusedShare() },
			[2]float64{100 * maxRateLimitRefused, 100 * maxRateLimitRefusedCapped}},
	}
	names := make([]string, len(limits))
	for i, l := range limits {
		names[i] = fmt.Sprintf("%d/s", l)
	}
	var plots []*plot.Plot
	for _, pn := range panels {
		p := plot.New()
		p.Title.Text = pn.title
		p.Legend.Top = true
		p.NominalX(names...)
		width := vg.Points(18)
		for i, m := range modes {
			vals := make(plotter.Values, len(limits))
			for j, l := range limits {
				for _, r := range rows {
					if r.Limit == l && (r.MaxRPS > 0) == m.capped {
						vals[j] = pn.value(r)
					}
				}
			}
			bars, err := plotter.NewBarChart(vals, width)
			if err != nil {
				return fmt.Errorf("rate-limit plot: %w", err)
			}
			bars.Color = m.color
			bars.LineStyle.Width = 0
			bars.Offset = vg.Length(float64(i)-0.5) * width
			p.Add(bars)
			p.Legend.Add(m.name, bars)
			target := plotter.NewFunction(func(float64) float64 { return pn.targets[i] })
			target.Color = m.color
			target.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			p.Add(target)
		}
		p.Y.Min = 0
		p.Y.Max = 1.4 * max(pn.targets[0], pn.targets[1])
		for _, r := range rows {
			p.Y.Max = max(p.Y.Max, 1.2*pn.value(r))
		}
		plots = append(plots, p)
	}
	return writePanels(path, plots, 2*5*vg.Inch)
}
