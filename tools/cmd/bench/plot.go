package main

import (
	"fmt"
	"image/color"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// writePlot draws seconds against N for each provider timed, one panel
// per operation, into a PNG at path.
func writePlot(path string, rows []row) error {
	lines := []struct {
		name  string
		color color.Color
		value func(row) float64
	}{
		{paymentsLocal, color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}, func(r row) float64 { return r.Payments }},
		{floorLocal + " (do-nothing)", color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, func(r row) float64 { return r.Floor }},
		{"request floor (one request per resource)", color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, func(r row) float64 { return r.RequestFloor }},
	}
	var panels []*plot.Plot
	for _, op := range operations {
		p := plot.New()
		p.Title.Text = op
		if op == opPlan {
			p.Title.Text = "refresh plan"
		}
		p.X.Label.Text = "N customers (2N resources, 5N with -mix subscriptions)"
		p.Y.Label.Text = "seconds (median)"
		// Both axes start at 0, and the top leaves room for the legend.
		p.X.Min, p.Y.Min = 0, 0
		top := 0.0
		for _, r := range rows {
			if r.Op == op {
				top = max(top, r.Payments, r.Floor, r.RequestFloor)
			}
		}
		p.Y.Max = 1.3 * top
		p.Legend.Top, p.Legend.Left = true, true
		for _, l := range lines {
			var xys plotter.XYs
			for _, r := range rows {
				if r.Op == op && l.value(r) > 0 {
					xys = append(xys, plotter.XY{X: float64(r.N), Y: l.value(r)})
				}
			}
			if len(xys) == 0 {
				continue
			}
			line, points, err := plotter.NewLinePoints(xys)
			if err != nil {
				return fmt.Errorf("plot %s: %w", op, err)
			}
			line.Color, points.Color = l.color, l.color
			p.Add(line, points)
			p.Legend.Add(l.name, line, points)
		}
		panels = append(panels, p)
	}

	return writePanels(path, panels, vg.Length(len(panels))*4*vg.Inch)
}

// writePanels draws plots side by side, each width/len(plots) wide, into
// the PNG file at path.
func writePanels(path string, plots []*plot.Plot, width vg.Length) error {
	img := vgimg.New(width, 3.5*vg.Inch)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Centimeter, PadY: vg.Centimeter,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align([][]*plot.Plot{plots}, tiles, dc)
	for i, p := range plots {
		p.Draw(canvases[0][i])
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}
