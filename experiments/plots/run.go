// Package plots draws qcnlab's figures: a run's queue and rates, a sweep's
// metrics against its swept key, the queue's distribution, each laid out by
// Figure (legends outside the axes, titles that wrap) as PNG, SVG or PDF;
// and Render, the plain renderer of the reproduction report's figures.
package plots

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"qcnlab/algos"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/outdir"
	"qcnlab/model"
	"qcnlab/units"
)

const (
	plotBins = 1000 // time bins per figure: memory does not grow with the run
	// MaxSourceLines is the most sources a rate chart draws one line each,
	// in a figure and in the workbench; more are summed up by PickSources.
	MaxSourceLines = 8
)

// runSize is a run figure's default size: matplotlib's 6.4 x 4.8 in.
var runSize = Size{W: 6.4 * vg.Inch, H: 4.8 * vg.Inch}

// RunFigure collects one run's time series into fixed time bins: the
// queue's minimum and maximum in each bin (so oscillations keep their
// envelope) and each source's mean rate. Its memory does not grow with the
// run.
type RunFigure struct {
	title    string
	width    algos.Time // of a bin
	duration algos.Time
	warmup   algos.Time
	target   float64 // the scheme's queue target, bytes
	buffer   float64
	share    float64     // the fair share of a dumbbell, bits/s; 0 on a parking lot
	qmin     [][]float64 // [link][bin]
	qmax     [][]float64
	rates    [][]float64 // [bin][source] sums
	capacity [][]float64 // [link][bin] sums of the capacity in force
	counts   []int
	nsources int
	ports    []string // the queues' port names, from the samples
	// held is, with PFC, the share of each bin a tier's ports or its hosts'
	// links (a chain's ports) were paused by the next hop: [line][bin] sums.
	held      [][]float64
	heldNames []string
	flows     []int // a fabric's watched flows, column by column; nil on a chain
	pinned    int   // the first watched flows always drawn (PickPinned)
	// delivered draws what the flows deliver rather than what reaches
	// their first port: on a fabric, where the first port is seldom the
	// bottleneck (Sample.Delivered).
	delivered bool
}

// NewRunFigure starts the figure of a run of cfg.
func NewRunFigure(title string, cfg *model.Config) *RunFigure {
	f := &RunFigure{
		title:    title,
		width:    max(1, cfg.Duration/plotBins),
		duration: cfg.Duration,
		warmup:   cfg.Warmup,
		target:   cfg.Scheme.QueueTarget(cfg.Params),
		buffer:   float64(cfg.Buffer),
		counts:   make([]int, plotBins+1),
	}
	f.delivered = cfg.Fabric != nil
	if cfg.Fabric != nil {
		f.pinned = len(cfg.Fabric.Watch)
	}
	if cfg.Fabric == nil && len(cfg.Links) <= 1 && len(cfg.Sources) > 0 {
		f.share = cfg.Capacity / float64(len(cfg.Sources))
	}
	return f
}

// shape sizes the figure to the samples: every port and source of a
// chain, the watched ones of a fabric.
func (f *RunFigure) shape(x *model.Sample) {
	f.nsources = len(x.Rates)
	f.rates = make([][]float64, plotBins+1)
	for i := range f.rates {
		f.rates[i] = make([]float64, f.nsources)
	}
	for range max(1, len(x.Queues)) {
		f.qmin = append(f.qmin, make([]float64, plotBins+1))
		f.qmax = append(f.qmax, make([]float64, plotBins+1))
		f.capacity = append(f.capacity, make([]float64, plotBins+1))
	}
	f.ports = slices.Clone(x.Ports)
	f.flows = slices.Clone(x.Flows)
	switch {
	case len(x.TierHeld) > 0:
		f.heldNames = slices.Clone(x.TierNames)
	case len(x.Held) > 0:
		f.heldNames = slices.Clone(x.Ports)
	}
	for range f.heldNames {
		f.held = append(f.held, make([]float64, plotBins+1))
	}
}

// heldOf is a sample's PFC values, one per line of held.
func (f *RunFigure) heldOf(x *model.Sample) []float64 {
	if len(x.TierHeld) > 0 {
		return x.TierHeld
	}
	return x.Held
}

// Add takes one sample of the run.
func (f *RunFigure) Add(x *model.Sample) {
	if f.rates == nil {
		f.shape(x)
	}
	b := min(int(x.Time/f.width), plotBins)
	for j, q := range x.Queues {
		if j >= len(f.qmin) {
			break
		}
		if f.counts[b] == 0 || float64(q) < f.qmin[j][b] {
			f.qmin[j][b] = float64(q)
		}
		if f.counts[b] == 0 || float64(q) > f.qmax[j][b] {
			f.qmax[j][b] = float64(q)
		}
	}
	rates := x.Rates
	if f.delivered && len(x.Delivered) == len(x.Rates) {
		rates = x.Delivered
	}
	for i, r := range rates {
		if i < f.nsources {
			f.rates[b][i] += r
		}
	}
	for j, c := range x.Capacity {
		if j < len(f.capacity) {
			f.capacity[j][b] += c
		}
	}
	for k, h := range f.heldOf(x) {
		if k < len(f.held) {
			f.held[k][b] += h
		}
	}
	f.counts[b]++
}

// PickSources chooses the sources a rate chart draws one line each, the
// same in a run's figure and in the workbench: all of them up to
// MaxSourceLines; above, the MaxSourceLines most different by their
// throughput after warm-up (throughput_bps): the slowest, the fastest and
// evenly spaced ranks between, in id order. agg says the mean of all is
// drawn too.
func PickSources(throughputs []float64) (ids []int, agg bool) {
	n := len(throughputs)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if n <= MaxSourceLines {
		return order, false
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case throughputs[a] < throughputs[b]:
			return -1
		case throughputs[a] > throughputs[b]:
			return 1
		}
		return 0
	})
	for k := range MaxSourceLines {
		ids = append(ids, order[int(math.Round(float64(k*(n-1))/float64(MaxSourceLines-1)))])
	}
	slices.Sort(ids)
	return slices.Compact(ids), true
}

// PickPinned is PickSources with the first pinned sources always drawn
// (a fabric's explicit flows, what the experiment is about: the victims
// of an incast), the others picked among the rest as PickSources does,
// in the room left. The workbench and a run's figure pick alike.
func PickPinned(throughputs []float64, pinned int) (ids []int, agg bool) {
	n := len(throughputs)
	pinned = min(max(pinned, 0), n, MaxSourceLines)
	if pinned == 0 {
		return PickSources(throughputs)
	}
	for k := range pinned {
		ids = append(ids, k)
	}
	rest := throughputs[pinned:]
	picked, _ := PickSources(rest)
	if room := MaxSourceLines - pinned; len(picked) > room {
		// The room left, spread over the rest's ranks: the slowest and
		// the fastest first.
		order := make([]int, len(rest))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rest[a], rest[b]) })
		picked = picked[:0]
		for k := range room {
			if room == 1 {
				picked = append(picked, order[0])
				break
			}
			picked = append(picked, order[k*(len(order)-1)/(room-1)])
		}
		slices.Sort(picked)
		picked = slices.Compact(picked)
	}
	for _, k := range picked {
		ids = append(ids, pinned+k)
	}
	return ids, len(ids) < n
}

// runPlots are a run figure's panels and legends, before they are drawn.
type runPlots struct {
	queue, rates      *plot.Plot
	queueKey, rateKey Legend
	pfc               *plot.Plot // with PFC: the share of the time paused; nil without
	pfcKey            Legend
	time              unit
}

// pfcPanel draws, with PFC, the share of each bin the tiers' ports (a
// chain's ports) were paused by the next switch.
func (f *RunFigure) pfcPanel(r *runPlots) error {
	if len(f.held) == 0 {
		return nil
	}
	tu := r.time
	r.pfc = NewPanel(fmt.Sprintf("time (%s)", tu.name), "paused (share)")
	for k, name := range f.heldNames {
		line, err := plotter.NewLine(f.binLine(tu, func(b int) float64 { return f.held[k][b] }))
		if err != nil {
			return err
		}
		line.Color, line.Dashes = colour(k), dashes(k)
		r.pfc.Add(line)
		r.pfcKey.Add(name, line)
	}
	r.pfc.Y.Min, r.pfc.Y.Max = 0, 1
	r.pfc.X.Min, r.pfc.X.Max = 0, f.duration.Seconds()/tu.scale
	return nil
}

// build makes the panels from the bins and the run's summary (nil: the
// sources are picked by index).
func (f *RunFigure) build(s *batch.RunSummary) (*runPlots, error) {
	tu := timeUnit(f.duration.Seconds())
	end := f.duration.Seconds() / tu.scale
	r := &runPlots{time: tu}
	bu := bytesUnit(math.Max(f.buffer, f.qTop()))
	r.queue = NewPanel("", fmt.Sprintf("queue (%s)", bu.name))
	for j := range f.qmin {
		var envelope plotter.XYs
		for b, n := range f.counts {
			if n == 0 {
				continue
			}
			t := f.binStart(b) / tu.scale
			envelope = append(envelope, plotter.XY{X: t, Y: f.qmin[j][b] / bu.scale}, plotter.XY{X: t, Y: f.qmax[j][b] / bu.scale})
		}
		if len(envelope) == 0 {
			continue
		}
		line, err := plotter.NewLine(envelope)
		if err != nil {
			return nil, err
		}
		line.Color, line.Width = colour(j), vg.Points(0.8)
		r.queue.Add(line)
		name := "queue"
		if len(f.qmin) > 1 && j < len(f.ports) {
			name = "queue " + f.ports[j]
		} else if len(f.qmin) > 1 {
			name = fmt.Sprintf("queue sw%d", j)
		}
		r.queueKey.Add(name, line)
	}
	for _, h := range []struct {
		name  string
		value float64
		style func(*plotter.Line)
	}{
		{"target " + units.FormatBytes(f.target), f.target, func(l *plotter.Line) { l.LineStyle = dashed(palette[3], 4, 3) }},
		{"buffer " + units.FormatBytes(f.buffer), f.buffer, func(l *plotter.Line) { l.LineStyle = dashed(grey, 1.5, 1.5) }},
	} {
		if h.value <= 0 {
			continue
		}
		line, err := plotter.NewLine(plotter.XYs{{X: 0, Y: h.value / bu.scale}, {X: end, Y: h.value / bu.scale}})
		if err != nil {
			return nil, err
		}
		h.style(line)
		r.queue.Add(line)
		r.queueKey.Add(h.name, line)
	}
	fitFromZero(&r.queue.Y, math.Max(f.buffer, f.qTop())/bu.scale)

	// The rates: the sources PickSources chooses, their mean if it leaves
	// some out, and the fair share and capacity where they fall within the
	// axis, which rises to the highest rate drawn.
	throughputs := make([]float64, f.nsources)
	switch {
	case s != nil && f.delivered && len(f.flows) == f.nsources: // a fabric: column i is flow f.flows[i]
		for i, id := range f.flows {
			if id < len(s.Sources) {
				throughputs[i] = s.Sources[id].ThroughputBps
			}
		}
	case s != nil && len(s.Sources) == f.nsources:
		for i, src := range s.Sources {
			throughputs[i] = src.ThroughputBps
		}
	}
	ids, agg := PickPinned(throughputs, f.pinned)
	type rateLine struct {
		name string
		xys  plotter.XYs
	}
	var lines []rateLine
	for _, i := range ids {
		name := fmt.Sprintf("source %d", i)
		if f.delivered && len(f.flows) == f.nsources {
			name = fmt.Sprintf("flow %d", f.flows[i])
		}
		lines = append(lines, rateLine{name, f.binLine(tu, func(b int) float64 { return f.rates[b][i] })})
	}
	if agg {
		lines = append(lines, rateLine{fmt.Sprintf("mean of %d", f.nsources), f.binLine(tu, func(b int) float64 {
			sum := 0.0
			for _, x := range f.rates[b] {
				sum += x
			}
			return sum / float64(f.nsources)
		})})
	}
	top := f.share
	capacities := make([]plotter.XYs, len(f.capacity))
	changes := false
	for j, c := range f.capacity {
		capacities[j] = f.binLine(tu, func(b int) float64 { return c[b] })
		for _, p := range capacities[j] {
			changes = changes || p.Y != capacities[j][0].Y
		}
	}
	if changes {
		for _, c := range capacities {
			for _, p := range c {
				top = max(top, p.Y)
			}
		}
	}
	for _, l := range lines {
		for _, p := range l.xys {
			top = max(top, p.Y)
		}
	}
	ru := rateUnit(top)
	what := "rate"
	if f.delivered {
		what = "delivered"
	}
	r.rates = NewPanel(fmt.Sprintf("time (%s)", tu.name), fmt.Sprintf("%s (%s)", what, ru.name))
	for k, l := range lines {
		for i := range l.xys {
			l.xys[i].Y /= ru.scale
		}
		line, err := plotter.NewLine(l.xys)
		if err != nil {
			return nil, err
		}
		line.Color, line.Dashes = colour(k), dashes(k)
		if agg && k == len(lines)-1 {
			line.Color, line.Width = color.Black, vg.Points(1.5)
		}
		r.rates.Add(line)
		r.rateKey.Add(l.name, line)
	}
	fitFromZero(&r.rates.Y, math.Max(top*1.05, 1)/ru.scale)
	yMax := r.rates.Y.Max * ru.scale
	within := func(xys plotter.XYs) (lo, now float64, ok bool) {
		lo = math.Inf(1)
		for _, p := range xys {
			lo = min(lo, p.Y)
		}
		if len(xys) == 0 || !(lo > 0) || lo > yMax {
			return 0, 0, false
		}
		return lo, xys[len(xys)-1].Y, true
	}
	if f.share > 0 {
		share := plotter.XYs{}
		if len(capacities) > 0 {
			for _, p := range capacities[0] {
				share = append(share, plotter.XY{X: p.X, Y: p.Y / float64(f.nsources)})
			}
		}
		if _, now, ok := within(share); ok {
			line, err := f.refLine(share, ru, dashed(palette[3], 1, 2))
			if err != nil {
				return nil, err
			}
			r.rates.Add(line)
			name := "fair share"
			if !changes {
				name += " " + units.FormatRate(now)
			}
			r.rateKey.Add(name, line)
		}
	}
	// Ports of the same capacity all along share one line and one entry
	// (eight "capacity swN" of 10 Gbps are one "capacity 10Gbps").
	distinct := map[string]bool{}
	for _, c := range capacities {
		distinct[fmt.Sprint(c)] = true
	}
	drawn := map[string]bool{}
	for j, c := range capacities {
		if drawn[fmt.Sprint(c)] {
			continue
		}
		drawn[fmt.Sprint(c)] = true
		if _, now, ok := within(c); ok {
			line, err := f.refLine(c, ru, dashed(grey, 5, 2))
			if err != nil {
				return nil, err
			}
			r.rates.Add(line)
			name := "capacity"
			switch {
			case len(distinct) > 1 && j < len(f.ports) && f.ports[j] != "":
				name = "capacity " + f.ports[j]
			case len(distinct) > 1:
				name = fmt.Sprintf("capacity sw%d", j)
			}
			if !changes {
				name += " " + units.FormatRate(now)
			}
			r.rateKey.Add(name, line)
		}
	}
	fitFromZero(&r.rates.Y, math.Max(top*1.05, 1)/ru.scale) // Add widened it to the capacity
	// The end of the warm-up, where the summary's statistics start.
	if w := f.warmup.Seconds() / tu.scale; w > 0 {
		for _, p := range []*plot.Plot{r.queue, r.rates} {
			line, err := plotter.NewLine(plotter.XYs{{X: w, Y: p.Y.Min}, {X: w, Y: p.Y.Max}})
			if err != nil {
				return nil, err
			}
			line.LineStyle = dashed(lightGrey, 1, 3)
			p.Add(line)
			if p == r.queue {
				r.queueKey.Add("end of warm-up", line)
			}
		}
	}
	for _, p := range []*plot.Plot{r.queue, r.rates} {
		p.X.Min, p.X.Max = 0, end
	}
	return r, nil
}

// refLine is a reference line (capacity, fair share) in the rate axis'
// unit, clipped to the axis by the plotter.
func (f *RunFigure) refLine(xys plotter.XYs, ru unit, style draw.LineStyle) (*plotter.Line, error) {
	scaled := make(plotter.XYs, len(xys))
	for i, p := range xys {
		scaled[i] = plotter.XY{X: p.X, Y: p.Y / ru.scale}
	}
	line, err := plotter.NewLine(scaled)
	if err != nil {
		return nil, err
	}
	line.LineStyle = style
	return line, nil
}

// qTop is the largest queue of the run.
func (f *RunFigure) qTop() float64 {
	top := 0.0
	for _, q := range f.qmax {
		for _, x := range q {
			top = max(top, x)
		}
	}
	return top
}

// Render draws the queue above the rates, sharing the time axis, with
// their legends to the right, and encodes the figure as opt says. s is the
// run's summary: the rate chart draws the sources PickSources chooses by
// their throughput.
func (f *RunFigure) Render(s *batch.RunSummary, opt Options) ([]byte, error) {
	fig, err := f.figure(s, opt)
	if err != nil {
		return nil, err
	}
	return fig.Render(opt.Format)
}

func (f *RunFigure) figure(s *batch.RunSummary, opt Options) (*Figure, error) {
	r, err := f.build(s)
	if err != nil {
		return nil, err
	}
	if err := f.pfcPanel(r); err != nil {
		return nil, err
	}
	rows, legends := [][]*plot.Plot{{r.queue}}, []Legend{r.queueKey}
	// No greedy flow (flows of a given size only): no rates to draw,
	// rather than an empty panel.
	if f.nsources > 0 {
		rows, legends = append(rows, []*plot.Plot{r.rates}), append(legends, r.rateKey)
	}
	if r.pfc != nil {
		rows, legends = append(rows, []*plot.Plot{r.pfc}), append(legends, r.pfcKey)
	}
	timeLabel := r.rates.X.Label.Text
	for _, row := range rows[:len(rows)-1] { // the time axis' label on the last row
		row[0].X.Label.Text = ""
	}
	rows[len(rows)-1][0].X.Label.Text = timeLabel
	size := runSize
	if len(rows) > 2 {
		size.H = runSize.H * 1.4
	}
	return &Figure{Title: f.title, Rows: rows, Legends: legends, Size: opt.size(size)}, nil
}

func (f *RunFigure) binStart(b int) float64 { return (algos.Time(b) * f.width).Seconds() }

// binLine is the mean per bin of a series summed per bin, in base units,
// at the bins' middles in the time unit.
func (f *RunFigure) binLine(tu unit, sum func(bin int) float64) plotter.XYs {
	var xys plotter.XYs
	for b, n := range f.counts {
		if n == 0 {
			continue
		}
		t := (algos.Time(b)*f.width + f.width/2).Seconds() / tu.scale
		xys = append(xys, plotter.XY{X: t, Y: sum(b) / float64(n)})
	}
	return xys
}

// RunFigureName is the file of the figure of run i (from 0, the run column
// of results.csv) of a batch of total runs: its number, padded to sort,
// and its label, safe as a file name.
func RunFigureName(i, total int, label, format string) string {
	digits := max(3, len(fmt.Sprint(max(total-1, 0))))
	return "plots/" + fileName(fmt.Sprintf("run%0*d_", digits, i), label, format)
}

// fileName is prefix, label (safeName) and the format's extension, the
// label cut short if the name would be longer than a file name may be in
// an output directory (outdir.MaxName): then it ends in ~ and 12 hex digits
// of the label's SHA-256, so that names stay distinct, and the same for
// the same label in every run, shard and merge.
func fileName(prefix, label, format string) string { return taggedName(prefix, label, format, false) }

// taggedName is fileName, with the label's hash whatever the name's
// length when tag is set: for labels that safeName would make one.
func taggedName(prefix, label, format string, tag bool) string {
	safe := safeName(label)
	name := prefix + safe + "." + format
	if !tag && len(name) <= outdir.MaxName {
		return name
	}
	sum := sha256.Sum256([]byte(label))
	hash := "~" + hex.EncodeToString(sum[:6])
	keep := max(outdir.MaxName-len(prefix)-len(hash)-len(format)-1, 0)
	return prefix + safe[:min(keep, len(safe))] + hash + "." + format
}

// safeName keeps letters, digits, '-', '.' and '=' and turns the rest into '_'.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '=':
			return r
		}
		return '_'
	}, s)
}
