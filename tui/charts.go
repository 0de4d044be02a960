package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/plots"
	"qcnlab/printable"
	"qcnlab/units"
)

// maxLines is the number of sources drawn one line each; above it the
// charts show the maxLines most different sources and their mean, the
// same as a run's figure.
const maxLines = plots.MaxSourceLines

// scenario is what the charts need of the experiment: the axes.
type scenario struct {
	duration  algos.Time
	warmup    algos.Time
	buffer    float64 // bytes: the queue chart's ceiling
	capacity  float64 // bits/s of each bottleneck
	fairShare float64 // bits/s: capacity over sources on a dumbbell, else 0
	sources   int
	window    algos.Time // the rates' averaging window
	// flows is all of a fabric's flows, of which sources are watched; 0
	// on a chain. The first pinned watched flows (output.watch's, the
	// explicit [[flows]]) are drawn whatever their rates.
	flows, pinned int
	// sending draws the rates at which the flows reach their first port
	// rather than what they deliver, on a fabric (the t key).
	sending bool
}

func scenarioOf(e *experiments.Experiment) scenario {
	sc := scenario{
		duration: algos.Time(e.Duration),
		warmup:   e.WarmupTime(),
		buffer:   float64(e.Network.Buffer),
		capacity: float64(e.Network.Capacity),
		window:   algos.Time(e.Output.RateWindow),
	}
	_, sc.sources = e.SeriesShape() // a fabric's watched flows
	if e.IsFabric() {
		if f, err := e.Fabric(); err == nil {
			sc.flows, sc.pinned = len(f.Flows), min(len(f.Watch), sc.sources)
		}
	}
	if e.OneBottleneck() && sc.sources > 0 {
		sc.fairShare = sc.capacity / float64(sc.sources)
	}
	return sc
}

// chartsPane shows one run: the queue over the per-source rates, sized to
// its area; when the area is short, sparklines instead.
type chartsPane struct {
	common
	scenario scenario
	snap     *snapshot
	rendered string
}

func (c *chartsPane) setSize(w, h int) {
	if w != c.width || h != c.height {
		c.common.setSize(w, h)
		c.render()
	}
}

func (c *chartsPane) setData(scen scenario, snap *snapshot) {
	if scen != c.scenario || snap != c.snap {
		c.scenario, c.snap = scen, snap
		c.render()
	}
}

// update does nothing: the charts take no keys, only data (setData).
func (c *chartsPane) update(tea.Msg) tea.Cmd { return nil }

func (c *chartsPane) view() string { return c.rendered }

func (c *chartsPane) keyHelp(narrow bool) help.KeyMap { return mainHelp{c.keys, narrow} }

func (c *chartsPane) render() {
	w, h := c.width, c.height
	switch {
	case w <= 0 || h <= 0 || c.snap == nil:
		c.rendered = blank(w, h)
	case h < 10:
		c.rendered = fitLines(sparkLines(w, c.scenario, c.snap), w, h)
	default:
		// The charts first, then the tiers' pause lines, then the
		// watched ports' as they fit.
		pfc := pfcLines(w, c.snap)
		if keep := max(0, h-14); len(pfc) > keep {
			pfc = pfc[:keep]
			if len(pfc) < 1+max(1, c.snap.heldTiers) { // the title and every tier, or one port
				pfc = nil
			}
		}
		h -= len(pfc)
		// Then the watched ports' classes, as many as fit.
		classes := classLines(w, c.snap)
		if keep := max(0, h-14); len(classes) > keep {
			classes = classes[:keep]
			if len(classes) < 2 {
				classes = nil
			}
		}
		h -= len(classes)
		pfc = append(pfc, classes...)
		qh := max(4, (h-2)/2)
		rh := h - 2 - qh
		lines := rateSeries(c.scenario, c.snap)
		yMax := rateCeil(c.scenario, []*snapshot{c.snap}, lines)
		qp, rp := queuePlot(w, qh, c.scenario, c.snap), ratePlot(w, rh, c.scenario, c.snap, lines, yMax)
		rateHead, named := rateTitle(c.scenario, c.snap, w, yMax)
		if !named {
			rp.marks = nil // a line the legend does not name is not drawn
		}
		alignMargins(&qp, &rp)
		parts := []string{
			fit(queueTitle(c.snap, w), w),
			qp.render(),
			fit(rateHead, w),
			rp.render()}
		for _, l := range pfc {
			parts = append(parts, fit(l, w))
		}
		c.rendered = lipgloss.JoinVertical(lipgloss.Left, parts...)
	}
}

// pfcLines is the PFC view: a title, then for each tier of a fabric and each
// of its watched ports (each port of a chain) the share of the time its
// ports were paused by the next switch, as a sparkline over the run from 0
// to 1; none without PFC.
func pfcLines(w int, s *snapshot) []string {
	n := len(s.heldNames)
	if n == 0 || len(s.points) == 0 {
		return nil
	}
	width := 0
	for _, name := range s.heldNames {
		width = max(width, lipgloss.Width(printable.Text(name)))
	}
	base := len(s.points[0].v) - n
	out := []string{titleStyle.Render("paused") + faintStyle.Render(" (PFC: share of the time held by the next switch, 0 to 1)")}
	for k, name := range s.heldNames {
		_, ys := column(s, base+k)
		now := 0.0
		if len(ys) > 0 {
			now = ys[len(ys)-1]
		}
		label := fmt.Sprintf("%-*s %3.0f%% ", width, printable.Text(name), 100*now)
		out = append(out, label+spark(w-lipgloss.Width(label), ys, 1, seriesStyle(k)))
	}
	return out
}

// classLines is the classes view of the ports with several traffic
// classes: a title, then for each watched port its bytes queued in each
// class now, a class that PFC pauses marked "paused"; none with one class.
func classLines(w int, s *snapshot) []string {
	if len(s.classQueues) == 0 {
		return nil
	}
	width := 0
	for _, name := range s.ports {
		width = max(width, lipgloss.Width(printable.Text(name)))
	}
	out := []string{titleStyle.Render("classes") + faintStyle.Render(" (bytes queued in each class of a port now; paused: held by PFC)")}
	for k, q := range s.classQueues {
		name := fmt.Sprintf("sw%d", k)
		if k < len(s.ports) {
			name = printable.Text(s.ports[k])
		}
		line := fmt.Sprintf("%-*s", width, name)
		for c, b := range q {
			cell := fmt.Sprintf("  c%d %7s", c, units.FormatBytes(float64(b)))
			if k < len(s.classPaused) && s.classPaused[k]&(1<<c) != 0 {
				cell += " " + errorStyle.Render("paused")
			}
			line += seriesStyle(c).Render(cell)
		}
		out = append(out, line)
	}
	return out
}

// alignMargins gives stacked plots the same left margin, so their time
// axes line up.
func alignMargins(ps ...*plot) {
	m := 0
	for _, p := range ps {
		m = max(m, p.labelWidth())
	}
	for _, p := range ps {
		p.margin = m
	}
}

// queueTitle names the queue chart and its marks; with several bottlenecks
// (a parking lot, a fabric's watched ports) it is their legend too, in the
// longest form that fits w: with its note, without, with short entries,
// then as many entries as fit and how many more.
func queueTitle(s *snapshot, w int) string {
	title, note := titleStyle.Render("queue"), faintStyle.Render(" (bytes at the bottleneck)")
	var long, short []string
	if s.queues > 1 {
		title, note = titleStyle.Render("queues"), faintStyle.Render(" (bytes at each bottleneck)")
		for j := 0; j < s.queues; j++ {
			name := fmt.Sprintf("sw%d", j)
			if j < len(s.ports) {
				name = printable.Text(s.ports[j])
			}
			long = append(long, "  "+seriesStyle(j).Render(fmt.Sprintf("%c━ %s", glyphOf(j), name)))
			short = append(short, " "+seriesStyle(j).Render(fmt.Sprintf("%c%s", glyphOf(j), name)))
		}
	}
	marks := ""
	if lo, hi, ok := markingBand(s); ok {
		marks = "  " + targetStyle.Render("┈┈ K_min "+units.FormatBytes(lo)+", K_max "+units.FormatBytes(hi))
	} else if q := qEq(s); q > 0 {
		marks = "  " + targetStyle.Render("┈┈ q_eq "+units.FormatBytes(q))
	}
	for _, form := range []string{
		title + note + strings.Join(long, "") + marks,
		title + strings.Join(long, "") + marks,
		title + strings.Join(short, "") + marks,
	} {
		if lipgloss.Width(form) <= w {
			return form
		}
	}
	for n := len(short) - 1; n >= 0; n-- {
		form := title + strings.Join(short[:n], "") + faintStyle.Render(fmt.Sprintf(" +%d more", len(short)-n)) + marks
		if lipgloss.Width(form) <= w {
			return form
		}
	}
	return title + marks
}

// markingBand is the marking band of a scheme that marks between two
// thresholds (DCQCN's K_min and K_max), as the run resolved them.
func markingBand(s *snapshot) (lo, hi float64, ok bool) {
	if s.band[1] > 0 {
		return s.band[0], s.band[1], true
	}
	return 0, 0, false
}

// qEq is the queue target of the run's scheme, 0 if it has none.
func qEq(s *snapshot) float64 {
	if len(s.summary.Bottlenecks) == 0 {
		return 0
	}
	return s.summary.Bottlenecks[0].QEq
}

func queuePlot(w, h int, scen scenario, s *snapshot) plot {
	var queues []series
	for j := 0; j < max(1, s.queues); j++ {
		xs, ys := column(s, j)
		sr := series{xs: xs, ys: ys, style: queueStyle}
		if s.queues > 1 {
			sr.style, sr.glyph = seriesStyle(j), glyphOf(j)
		}
		queues = append(queues, sr)
	}
	p := plot{
		w: w, h: h,
		xMax: scen.duration.Seconds(), yMax: scen.buffer,
		xLabel: axisTime, yLabel: axisBytes,
		series: queues,
	}
	if lo, hi, ok := markingBand(s); ok {
		p.marks = []mark{{y: lo, style: targetStyle, glyph: '┈'}, {y: hi, style: targetStyle, glyph: '┈'}}
	} else if q := qEq(s); q > 0 {
		p.marks = []mark{{y: q, style: targetStyle, glyph: '┈'}}
	}
	return p
}

// rateTitle names the rate chart and holds its legend and the marks drawn
// under yMax, in the longest form that fits w. A legend names every line
// drawn: named says whether the marks' names fit; if not, the marks must
// not be drawn (ratePlot's named).
func rateTitle(scen scenario, s *snapshot, w int, yMax float64) (title string, named bool) {
	ids, agg := pickPinned(s, scen.sources, scen.pinned)
	// The legend, then a narrower one.
	var legends [2]strings.Builder
	for i, id := range ids {
		name := fmt.Sprintf("s%d", id)
		if scen.flows > 0 {
			name = fmt.Sprintf("f%d", flowID(s, id)) // a fabric's flow, by its number
		}
		legends[0].WriteString("  " + seriesStyle(i).Render(fmt.Sprintf("%c━ %s", glyphOf(i), name)))
		legends[1].WriteString(" " + seriesStyle(i).Render(fmt.Sprintf("%c%s", glyphOf(i), name)))
	}
	if agg {
		legends[0].WriteString("  " + aggregateStyle.Render(fmt.Sprintf("%c━ mean", meanGlyph)))
		legends[1].WriteString(" " + aggregateStyle.Render(fmt.Sprintf("%cmean", meanGlyph)))
	}
	var long, short []string
	for _, mk := range rateMarks(scen, s, yMax) {
		long, short = append(long, mk.name), append(short, mk.short)
	}
	window := units.FormatDuration(scen.window)
	// What is drawn of what: "8 of 128 flows" counts every flow of a
	// fabric, not the watched ones alone.
	of, what := scen.sources, "sources"
	if scen.flows > 0 {
		of, what = scen.flows, "flows"
	}
	notes := func(marks []string) []string {
		tail := ""
		if len(marks) > 0 {
			tail = ", " + strings.Join(marks, ", ")
		}
		switch {
		case scen.flows > 0 && len(ids) < of:
			return []string{
				fmt.Sprintf(" (%s windows, %d of %d %s%s)", window, len(ids), of, what, tail),
				fmt.Sprintf(" (%d of %d%s)", len(ids), of, tail)}
		case agg:
			return []string{
				fmt.Sprintf(" (%s windows, the %d most different of %d %s%s)", window, len(ids), of, what, tail),
				fmt.Sprintf(" (%d of %d%s)", len(ids), of, tail)}
		}
		return []string{fmt.Sprintf(" (%s windows%s)", window, tail), fmt.Sprintf(" (%s)", strings.TrimPrefix(tail, ", "))}
	}
	name := "rates"
	if showsDelivered(scen, s) {
		name = "delivered"
	}
	head := titleStyle.Render(name)
	// The marks named in full, then in short, with every legend and note;
	// without them only if even the shortest form does not fit.
	for _, marks := range [][]string{long, short} {
		for _, legend := range legends {
			for _, n := range notes(marks) {
				if n == " ()" {
					n = ""
				}
				if t := head + faintStyle.Render(n) + legend.String(); lipgloss.Width(t) <= w {
					return t, true
				}
			}
		}
	}
	if len(long) == 0 {
		return head + legends[1].String(), true
	}
	return head + legends[1].String(), false
}

// namedMark is a reference line of the rate chart with its legend, in
// full and short.
type namedMark struct {
	mark
	name, short string
}

// rateMarks are the rate chart's reference lines: the fair share on a
// dumbbell, and the bottleneck's capacity. Both step where the capacity in
// force changes (the first bottleneck's, as the run's samples give it); a
// line is drawn where it falls within yMax, and named if it does anywhere.
func rateMarks(scen scenario, s *snapshot, yMax float64) []namedMark {
	capacity := capacitySteps(scen, s)
	var out []namedMark
	add := func(glyph rune, style lipgloss.Style, name, short string, scale float64) {
		mk := mark{y: capacity.y * scale, style: style, glyph: glyph}
		lo, hi, now := mk.y, mk.y, mk.y
		for _, st := range capacity.steps {
			mk.steps = append(mk.steps, step{t: st.t, y: st.y * scale})
			lo, hi, now = min(lo, st.y*scale), max(hi, st.y*scale), st.y*scale
		}
		if !(lo > 0) || lo > yMax {
			return
		}
		if hi != lo {
			name += ", now"
		}
		out = append(out, namedMark{mk,
			fmt.Sprintf("%c%c %s %s", glyph, glyph, name, units.FormatRate(now)),
			fmt.Sprintf("%c%c%s %s", glyph, glyph, short, units.FormatRate(now))})
	}
	if scen.fairShare > 0 {
		add('┈', targetStyle, "fair share", "fair", 1/float64(scen.sources))
	}
	if scen.fairShare == 0 || scen.sources > 1 {
		add('╌', faintStyle, "capacity", "cap", 1)
	}
	return out
}

// capacitySteps is the capacity of the first bottleneck over the run: its
// level at the start, and a step wherever the snapshot's points show a
// change. Without capacities in the points, the experiment's.
func capacitySteps(scen scenario, s *snapshot) mark {
	mk := mark{y: scen.capacity}
	if s == nil {
		return mk
	}
	var last []float64
	for i, p := range s.points {
		if len(p.capacity) == 0 || slices.Equal(p.capacity, last) {
			continue
		}
		if last == nil && i == 0 {
			mk.y = p.capacity[0]
		} else if last == nil || p.capacity[0] != last[0] {
			mk.steps = append(mk.steps, step{t: p.t.Seconds(), y: p.capacity[0]})
		}
		last = p.capacity
	}
	return mk
}

// rateSeries are the lines of the rate chart: the sources pickSources
// chooses, and their mean when it leaves some out.
func rateSeries(scen scenario, s *snapshot) []series {
	ids, agg := pickPinned(s, scen.sources, scen.pinned)
	var out []series
	for i, id := range ids {
		xs, ys := column(s, rateOffset(scen, s)+id)
		out = append(out, series{xs: xs, ys: ys, style: seriesStyle(i), glyph: glyphOf(i)})
	}
	if agg {
		xs, ys := meanRates(scen, s)
		out = append(out, series{xs: xs, ys: ys, style: aggregateStyle, glyph: meanGlyph})
	}
	return out
}

// rateCeil is the rate axis' top: the highest rate of the lines drawn (and
// the fair share), rounded up to a round value, so the data fill the chart.
// A capacity that changes during the run is kept in view, so its steps show.
func rateCeil(scen scenario, snaps []*snapshot, lines ...[]series) float64 {
	top := scen.fairShare
	for _, s := range snaps {
		if c := capacitySteps(scen, s); len(c.steps) > 0 {
			top = max(top, c.y)
			for _, st := range c.steps {
				top = max(top, st.y)
			}
		}
	}
	for _, ss := range lines {
		for _, sr := range ss {
			for _, y := range sr.ys {
				top = max(top, y)
			}
		}
	}
	if !(top > 0) {
		return max(scen.capacity, 1)
	}
	return niceCeil(top * 1.05)
}

func ratePlot(w, h int, scen scenario, s *snapshot, lines []series, yMax float64) plot {
	p := plot{
		w: w, h: h,
		xMax: scen.duration.Seconds(), yMax: yMax,
		xLabel: axisTime, yLabel: axisRate,
		series: lines,
	}
	for _, mk := range rateMarks(scen, s, yMax) {
		p.marks = append(p.marks, mk.mark)
	}
	return p
}

// sparkLines is the compact form of the charts: one sparkline for the
// queue and one for the mean rate, each with its latest value.
func sparkLines(w int, scen scenario, s *snapshot) []string {
	_, q := column(s, 0)
	_, r := meanRates(scen, s)
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
		titleStyle.Render(rl) + spark(w-lipgloss.Width(rl), r, rateCeil(scen, []*snapshot{s}, []series{{ys: r}}), aggregateStyle),
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

// showsDelivered reports whether the rate charts draw delivered rates: on
// a fabric, unless the user asked for the sending rates.
func showsDelivered(scen scenario, s *snapshot) bool { return s.delivered && !scen.sending }

// rateOffset is where the rates drawn start in a point's values.
func rateOffset(scen scenario, s *snapshot) int {
	if showsDelivered(scen, s) {
		return s.queues + s.sources
	}
	return s.queues
}

// meanRates is the mean rate of all sources at every point.
func meanRates(scen scenario, s *snapshot) (xs, ys []float64) {
	xs = make([]float64, len(s.points))
	ys = make([]float64, len(s.points))
	off := rateOffset(scen, s)
	for i, p := range s.points {
		rates := p.v[off:]
		if s.sources > 0 {
			rates = p.v[off : off+s.sources]
		}
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

// pickSources chooses the sources drawn one line each, as a run's figure
// does (plots.PickSources): all of them up to maxLines; above, the maxLines
// most different by their throughput after warm-up so far: the slowest,
// the fastest, and evenly spaced ranks between. agg says the mean of all
// is drawn too.
func pickSources(s *snapshot, n int) (ids []int, agg bool) {
	return pickPinned(s, n, 0)
}

// pickPinned is pickSources with the first pinned columns always drawn
// (a fabric's explicit flows: what the experiment is about), the others
// picked among the rest, as a run's figure does (plots.PickPinned).
func pickPinned(s *snapshot, n, pinned int) (ids []int, agg bool) {
	throughputs := make([]float64, n)
	if s != nil {
		for k := range throughputs {
			if i := flowID(s, k); i < len(s.summary.Sources) {
				throughputs[k] = s.summary.Sources[i].ThroughputBps
			}
		}
	}
	return plots.PickPinned(throughputs, pinned)
}

// flowID is the source (a fabric's flow) of the k-th rate column: on a
// fabric the k-th watched flow, which need not be flow k.
func flowID(s *snapshot, k int) int {
	if w := s.summary.Watched; w != nil && k < len(w.Flows) {
		return w.Flows[k]
	}
	return k
}

// Axis labels: exact values with units, as the experiment files write them.
func axisTime(sec float64) string { return units.FormatDuration(algos.Seconds(sec)) }
func axisBytes(b float64) string  { return units.FormatBytes(math.Round(b)) }
func axisRate(r float64) string   { return units.FormatRate(math.Round(r)) }

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

// fmtTime writes a simulated time in the unit of the run's duration, to
// a millisecond's thousandth or so.
func fmtTime(t, duration algos.Time) string {
	switch {
	case duration >= algos.Second:
		return fmt.Sprintf("%.3fs", t.Seconds())
	case duration >= algos.Millisecond:
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

// fitLines makes exactly h lines of w cells (none if h is not positive).
func fitLines(lines []string, w, h int) string {
	out := make([]string, max(0, h))
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
