package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/units"
)

// maxLines is the number of sources drawn one line each; above it the
// charts show the maxLines most different sources and their mean.
const maxLines = 8

// scenario is what the charts need of the experiment: the axes.
type scenario struct {
	duration algos.Time
	warmup   algos.Time
	buffer   float64 // bytes: the queue chart's ceiling
	maxRate  float64 // bits/s: the rate chart's ceiling
	sources  int
	window   algos.Time // the rates' averaging window
}

func scenarioOf(e *experiments.Experiment) scenario {
	sc := scenario{
		duration: algos.Time(e.Duration),
		warmup:   e.WarmupTime(),
		buffer:   float64(e.Network.Buffer),
		window:   algos.Time(e.Output.RateWindow),
	}
	for _, s := range e.SourceConfigs() {
		sc.maxRate = max(sc.maxRate, s.LineRate)
		sc.sources++
	}
	return sc
}

// chartsPane shows one run: the queue over the per-source rates, sized to
// its area; when the area is short, sparklines instead.
type chartsPane struct {
	width, height int
	scen          scenario
	snap          *snapshot
	rendered      string
}

func (c *chartsPane) setSize(w, h int) {
	if w != c.width || h != c.height {
		c.width, c.height = w, h
		c.render()
	}
}

func (c *chartsPane) setData(scen scenario, snap *snapshot) {
	if scen != c.scen || snap != c.snap {
		c.scen, c.snap = scen, snap
		c.render()
	}
}

func (c *chartsPane) view() string { return c.rendered }

func (c *chartsPane) render() {
	w, h := c.width, c.height
	switch {
	case w <= 0 || h <= 0 || c.snap == nil:
		c.rendered = blank(w, h)
	case h < 10:
		c.rendered = fitLines(sparkLines(w, c.scen, c.snap), w, h)
	default:
		qh := max(4, (h-2)/2)
		rh := h - 2 - qh
		c.rendered = lipgloss.JoinVertical(lipgloss.Left,
			fit(queueTitle(c.snap), w),
			queuePlot(w, qh, c.scen, c.snap),
			fit(rateTitle(c.scen, c.snap, w), w),
			ratePlot(w, rh, c.scen, c.snap))
	}
}

// queueTitle names the queue chart and its marks; with several bottlenecks
// (a parking lot) it is their legend too.
func queueTitle(s *snapshot) string {
	t := titleStyle.Render("queue") + faintStyle.Render(" (bytes at the bottleneck)")
	if s.queues > 1 {
		t = titleStyle.Render("queues") + faintStyle.Render(" (bytes at each bottleneck)")
		for j := 0; j < s.queues; j++ {
			t += "  " + seriesStyle(j).Render(fmt.Sprintf("━ sw%d", j))
		}
	}
	if q := qEq(s); q > 0 {
		t += "  " + targetStyle.Render("┈┈ q_eq "+units.FormatBytes(q))
	}
	return t
}

// qEq is the queue target of the run's scheme, 0 if it has none.
func qEq(s *snapshot) float64 {
	if len(s.summary.Bottlenecks) == 0 {
		return 0
	}
	return s.summary.Bottlenecks[0].QEq
}

func queuePlot(w, h int, scen scenario, s *snapshot) string {
	var queues []series
	for j := 0; j < max(1, s.queues); j++ {
		xs, ys := column(s, j)
		style := queueStyle
		if s.queues > 1 {
			style = seriesStyle(j)
		}
		queues = append(queues, series{xs: xs, ys: ys, style: style})
	}
	p := plot{
		w: w, h: h,
		xMax: scen.duration.Seconds(), yMax: scen.buffer,
		xLabel: axisTime, yLabel: axisBytes,
		series: queues,
	}
	if q := qEq(s); q > 0 {
		p.marks = []mark{{y: q, style: targetStyle}}
	}
	return p.render()
}

// rateTitle names the rate chart and holds its legend, in the longest form
// that fits w.
func rateTitle(scen scenario, s *snapshot, w int) string {
	ids, agg := pickSources(s, scen.sources)
	var legend strings.Builder
	for i, id := range ids {
		legend.WriteString("  " + seriesStyle(i).Render(fmt.Sprintf("━ s%d", id)))
	}
	if agg {
		legend.WriteString("  " + aggregateStyle.Render("━ mean"))
	}
	window := units.FormatDuration(scen.window)
	notes := []string{fmt.Sprintf(" (%s windows)", window), ""}
	if agg {
		notes = []string{
			fmt.Sprintf(" (%s windows, the %d most different of %d sources)", window, len(ids), scen.sources),
			fmt.Sprintf(" (%d of %d)", len(ids), scen.sources),
		}
	}
	title := titleStyle.Render("rates")
	for _, n := range notes {
		if t := title + faintStyle.Render(n) + legend.String(); lipgloss.Width(t) <= w {
			return t
		}
	}
	return title + faintStyle.Render(notes[len(notes)-1]) + legend.String()
}

func ratePlot(w, h int, scen scenario, s *snapshot) string {
	ids, agg := pickSources(s, scen.sources)
	p := plot{
		w: w, h: h,
		xMax: scen.duration.Seconds(), yMax: scen.maxRate,
		xLabel: axisTime, yLabel: axisRate,
	}
	for i, id := range ids {
		xs, ys := column(s, s.queues+id)
		p.series = append(p.series, series{xs: xs, ys: ys, style: seriesStyle(i)})
	}
	if agg {
		xs, ys := meanRates(s)
		p.series = append(p.series, series{xs: xs, ys: ys, style: aggregateStyle})
	}
	return p.render()
}

// sparkLines is the compact form of the charts: one sparkline for the
// queue and one for the mean rate, each with its latest value.
func sparkLines(w int, scen scenario, s *snapshot) []string {
	_, q := column(s, 0)
	_, r := meanRates(s)
	label := func(name, value string) string {
		return fmt.Sprintf("%-5s %9s ", name, value)
	}
	qv, rv := "-", "-"
	if n := len(q); n > 0 {
		qv, rv = fmtBytes(q[n-1]), fmtRate(r[n-1])
	}
	ql, rl := label("queue", qv), label("rate", rv)
	return []string{
		titleStyle.Render(ql) + spark(w-lipgloss.Width(ql), q, scen.buffer, queueStyle),
		titleStyle.Render(rl) + spark(w-lipgloss.Width(rl), r, scen.maxRate, aggregateStyle),
	}
}

// column returns one value of every point: the times (seconds) and values.
func column(s *snapshot, j int) (xs, ys []float64) {
	xs = make([]float64, len(s.points))
	ys = make([]float64, len(s.points))
	for i, p := range s.points {
		xs[i], ys[i] = p.t.Seconds(), p.v[j]
	}
	return xs, ys
}

// meanRates is the mean rate of all sources at every point.
func meanRates(s *snapshot) (xs, ys []float64) {
	xs = make([]float64, len(s.points))
	ys = make([]float64, len(s.points))
	for i, p := range s.points {
		rates := p.v[s.queues:]
		var sum float64
		for _, r := range rates {
			sum += r
		}
		xs[i] = p.t.Seconds()
		if len(rates) > 0 {
			ys[i] = sum / float64(len(rates))
		}
	}
	return xs, ys
}

// pickSources chooses the sources drawn one line each: all of them up to
// maxLines; above, the maxLines most different, by their mean rate over the
// last quarter of the history: the slowest, the fastest, and evenly spaced
// ranks between. agg says the mean of all is drawn too.
func pickSources(s *snapshot, n int) (ids []int, agg bool) {
	if n <= maxLines {
		ids = make([]int, n)
		for i := range ids {
			ids[i] = i
		}
		return ids, false
	}
	mean := make([]float64, n)
	from := len(s.points) * 3 / 4
	for _, p := range s.points[from:] {
		for i := range mean {
			mean[i] += p.v[s.queues+i]
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case mean[a] < mean[b]:
			return -1
		case mean[a] > mean[b]:
			return 1
		}
		return 0
	})
	for k := range maxLines {
		ids = append(ids, order[int(math.Round(float64(k*(n-1))/float64(maxLines-1)))])
	}
	slices.Sort(ids)
	return slices.Compact(ids), true
}

// Axis labels: exact values with units, as the experiment files write them.
func axisTime(sec float64) string { return units.FormatDuration(algos.Seconds(sec)) }
func axisBytes(b float64) string  { return units.FormatBytes(math.Round(b)) }
func axisRate(r float64) string   { return strings.TrimSuffix(units.FormatRate(math.Round(r)), "bps") }

// Readouts: rounded to a few digits.
func fmtBytes(b float64) string {
	switch {
	case b >= 1e6:
		return fmt.Sprintf("%.2fMB", b/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.1fKB", b/1e3)
	}
	return fmt.Sprintf("%.0fB", b)
}

func fmtRate(r float64) string {
	switch {
	case r >= 1e9:
		return fmt.Sprintf("%.2fGbps", r/1e9)
	case r >= 1e6:
		return fmt.Sprintf("%.1fMbps", r/1e6)
	}
	return fmt.Sprintf("%.0fKbps", r/1e3)
}

// fmtTime writes a simulated time with a precision that suits the run's
// duration.
func fmtTime(t, duration algos.Time) string {
	switch {
	case duration >= 10*algos.Second:
		return fmt.Sprintf("%.2fs", t.Seconds())
	case duration >= 10*algos.Millisecond:
		return fmt.Sprintf("%.2fms", t.Seconds()*1e3)
	}
	return fmt.Sprintf("%.1fus", t.Seconds()*1e6)
}

// fit cuts or pads a one-line string to exactly w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if lipgloss.Width(s) > w {
		s = truncate(s, w)
	}
	return s + strings.Repeat(" ", max(0, w-lipgloss.Width(s)))
}

// fitLines makes exactly h lines of w cells.
func fitLines(lines []string, w, h int) string {
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = fit(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", max(0, w))
		}
	}
	return strings.Join(out, "\n")
}

func repeat(s string, n int) string { return strings.Repeat(s, max(0, n)) }

func splitLines(s string) []string { return strings.Split(s, "\n") }

// wrap word-wraps text to w cells and exactly n lines (the last one cut),
// each rendered with style.
func wrap(style lipgloss.Style, text string, w, n int) []string {
	lines := splitLines(lipgloss.NewStyle().Width(max(1, w)).Render(text))
	out := make([]string, n)
	for i := range out {
		if i < len(lines) {
			out[i] = style.Render(fit(strings.TrimRight(lines[i], " "), w))
		} else {
			out[i] = fit("", w)
		}
	}
	if len(lines) > n && n > 0 {
		out[n-1] = style.Render(fit(strings.TrimRight(lines[n-1], " ")+" "+lines[n], w))
	}
	return out
}
