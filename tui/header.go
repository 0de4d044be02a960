package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/model"
	"qcnlab/printable"
	"qcnlab/units"
)

// runState is what the header says the simulation is doing.
type runState int

const (
	stateRunning runState = iota
	statePaused
	stateFinished
	stateFailed
	stateBuilding // new runs are being built; the old ones wait
)

func (s runState) String() string {
	return [...]string{"running", "paused", "finished", "failed", "building"}[s]
}

// headerView is the top line: the experiment and its scenario on the left,
// simulated time, speed and state on the right. The left part gives way
// first when the terminal is narrow.
func headerView(w int, e *experiments.Experiment, now algos.Time, speed string, st runState) string {
	dur := algos.Time(e.Duration)
	// The time is padded to its widest, so the left part does not change
	// form as the digits grow.
	t := fmtTime(now, dur)
	t = strings.Repeat(" ", max(0, len(fmtTime(dur, dur))-len(t))) + t
	// The state and the speed are padded to their widest too, so nothing
	// on the right moves when they change.
	right := fmt.Sprintf("t %s/%s  ", t, units.FormatDuration(dur)) +
		stateStyles[st].Render(fmt.Sprintf("%-8s", st)) + "  " + speed +
		strings.Repeat(" ", max(0, speedWidth-lipgloss.Width(speed)))
	n := e.Network
	capacity, buffer, rtt := units.FormatRate(float64(n.Capacity)), units.FormatBytes(float64(n.Buffer)),
		units.FormatDuration(algos.Time(n.RTT))
	app, name := appNameStyle.Render("qcnlab")+"  ", titleStyle.Render(printable.Text(e.Name))
	room := w - lipgloss.Width(right) - 2
	if room < 8 {
		return fit(right, w)
	}
	// The longest description that fits, dropping what matters least
	// first, whole words, never a number cut: the program's name, the
	// words, the topology, the RTT (the sweep line names a swept one),
	// the buffer; then the name alone, cut.
	forms := []string{
		app + name + fmt.Sprintf("  %s, %d sources → %s, buffer %s, rtt %s", n.Topology, e.Sources.Count, capacity, buffer, rtt),
		name + fmt.Sprintf("  %s, %d sources → %s, buffer %s, rtt %s", n.Topology, e.Sources.Count, capacity, buffer, rtt),
		name + fmt.Sprintf("  %s %d → %s, %s, %s", n.Topology, e.Sources.Count, capacity, buffer, rtt),
		name + fmt.Sprintf("  %d → %s, %s, %s", e.Sources.Count, capacity, buffer, rtt),
		name + fmt.Sprintf("  %d → %s, %s", e.Sources.Count, capacity, buffer),
		name + fmt.Sprintf("  %d → %s", e.Sources.Count, capacity),
	}
	if e.IsFabric() {
		forms = fabricForms(app, name, e)
	}
	for _, c := range forms {
		if lipgloss.Width(c) <= room {
			return fit(styleTail(c, name), room) + "  " + right
		}
	}
	return fit(name, room) + "  " + right
}

// fabricForms describe a fabric in ever shorter forms: its shape, hosts,
// link rate, routing and traffic.
func fabricForms(app, name string, e *experiments.Experiment) []string {
	n, r := e.Network, e.Resolved()
	shape := e.FabricLabel()
	capacity, buffer := units.FormatRate(float64(n.Capacity)), units.FormatBytes(float64(n.Buffer))
	traffic := r.Traffic.Pattern
	return []string{
		app + name + fmt.Sprintf("  %s, %s links, buffer %s, %s, %s", shape, capacity, buffer, r.Network.Routing, traffic),
		name + fmt.Sprintf("  %s, %s links, buffer %s, %s, %s", shape, capacity, buffer, r.Network.Routing, traffic),
		name + fmt.Sprintf("  %s, %s, %s, %s", shape, capacity, r.Network.Routing, traffic),
		name + fmt.Sprintf("  %s, %s", shape, capacity),
		name + fmt.Sprintf("  %s", shape),
	}
}

// styleTail renders what follows the name in the header's style.
func styleTail(c, name string) string {
	head, tail, ok := strings.Cut(c, name)
	if !ok {
		return c
	}
	return head + name + headerStyle.Render(tail)
}

// speedWidth is the widest speed label: "max ≈0.0001x".
const speedWidth = 12

// barView is the algorithm bar: every algorithm with its number key, the
// active one highlighted (and bracketed, so it shows without colour); on its
// right, which sweep point runs, if the experiment has a sweep.
func barView(w int, names []string, active int, compare bool, point string) string {
	var b strings.Builder
	if compare {
		b.WriteString(faintStyle.Render("compare "))
	}
	for i, name := range names {
		label := fmt.Sprintf("%d %s", i+1, display(name))
		if i == active {
			b.WriteString(algoActiveStyle.Render("[" + label + "]"))
		} else {
			b.WriteString(algoStyle.Render(" " + label + " "))
		}
		b.WriteString(" ")
	}
	if point == "" {
		return fit(b.String(), w)
	}
	room := w - lipgloss.Width(b.String())
	if room < 12 {
		return fit(b.String(), w)
	}
	point = truncate(point, room)
	return fit(b.String(), w-lipgloss.Width(point)) + sweepStyle.Render(point)
}

// display is an algorithm's name for screens.
func display(name string) string {
	if sc, err := algos.Lookup(name); err == nil {
		return sc.Display
	}
	return printable.Text(name)
}

// statsLine is the run's summary so far: its metrics cover [warmup, now]
// and, with several bottlenecks, the link-th one, which it names.
func statsLine(w int, s *snapshot, scen scenario, eps float64, link int) string {
	rate := ""
	if eps > 0 {
		rate = faintStyle.Render(fmt.Sprintf("%s events/s", fmtCount(eps)))
	}
	if s == nil || len(s.summary.Bottlenecks) == 0 {
		return fit(rate, w)
	}
	if s.now <= scen.warmup {
		return fit(faintStyle.Render(fmt.Sprintf("statistics start after the warm-up (%s)  ",
			units.FormatDuration(scen.warmup)))+rate, w)
	}
	// The longest form that fits: the long numbers or the short, the
	// tiers in full or their highest utilizations, the event rate or not.
	long, short := summaryText(s.summary, true, link), summaryText(s.summary, false, link)
	tiers, tiersShort := tierText(s.summary, false), tierText(s.summary, true)
	tiersShortest, _, _ := strings.Cut(tiersShort, "  pauses")
	var forms []string
	for _, t := range []string{tiers, tiersShort, tiersShortest} {
		for _, text := range []string{long, short} {
			if t != "" {
				text := text + "  " + t
				forms = append(forms, text+"  "+rate, text)
			}
		}
	}
	forms = append(forms, long+"  "+rate, short+"  "+rate, short)
	for _, f := range forms {
		if lipgloss.Width(f) <= w {
			return fit(f, w)
		}
	}
	return fit(short, w)
}

// summaryForms are the summary's headline numbers in ever shorter forms,
// for the compare view's cells: the short form of summaryText, then
// without the drops when there are none, then with fewer digits, then
// without the spread and the fairness, then the utilization alone. Every
// number keeps its label: "74.8%" alone does not say what it is.
func summaryForms(sum model.Summary, link int) []string {
	b := bottleneckAt(sum, link)
	name := ""
	if len(sum.Bottlenecks) > 1 {
		name = printable.Text(b.Name) + ": "
	}
	drops := ""
	if b.Drops > 0 {
		drops = fmt.Sprintf(" drops %d", b.Drops)
	}
	kb := func(x float64) string { return fmt.Sprintf("%.0f", x/1e3) }
	util := 100 * b.Utilization
	return []string{
		summaryText(sum, false, link),
		fmt.Sprintf("%sutil %.1f%% q %s±%s%s J %s", name, util, fmtBytes(b.QueueMean), fmtBytes(b.QueueStd), drops, jain(sum, 3)),
		fmt.Sprintf("%sutil %.1f%% q %s±%sKB%s J %s", name, util, kb(b.QueueMean), kb(b.QueueStd), drops, jain(sum, 2)),
		fmt.Sprintf("%sutil %.0f%% q %s±%sKB J %s", name, util, kb(b.QueueMean), kb(b.QueueStd), jain(sum, 2)),
		fmt.Sprintf("%sutil %.0f%% q %sKB", name, util, kb(b.QueueMean)),
		fmt.Sprintf("%sutil %.0f%%", name, util),
	}
}

// jain is the summary's Jain index to prec decimals, or "none" when
// nothing was delivered (as the text summary says it), never "NaN".
func jain(sum model.Summary, prec int) string {
	if sum.JainFairness == nil {
		return "none"
	}
	return strconv.FormatFloat(*sum.JainFairness, 'f', prec, 64)
}

// summaryText is the summary's headline numbers: those of the link-th
// bottleneck, named when there are several, and the fairness of all sources.
func summaryText(sum model.Summary, long bool, link int) string {
	b := bottleneckAt(sum, link)
	name := ""
	if len(sum.Bottlenecks) > 1 {
		name = printable.Text(b.Name) + ": "
	}
	if !long {
		return fmt.Sprintf("%sutil %.1f%%  q %s±%s  drops %d  J %s",
			name, 100*b.Utilization, fmtBytes(b.QueueMean), fmtBytes(b.QueueStd), b.Drops, jain(sum, 3))
	}
	if name != "" {
		name = fmt.Sprintf("link %s (l: next): ", printable.Text(b.Name))
	}
	text := fmt.Sprintf("%sutilization %.1f%%  drops %d  queue %s ± %s  Jain %s",
		name, 100*b.Utilization, b.Drops, fmtBytes(b.QueueMean), fmtBytes(b.QueueStd), jain(sum, 3))
	if b.PauseFrames > 0 || b.HeldFraction > 0 {
		text += fmt.Sprintf("  pausing %.0f%% paused %.0f%%", 100*b.PausedFraction, 100*b.HeldFraction)
	}
	if f := sum.Flows; f != nil && f.Completed > 0 {
		text += fmt.Sprintf("  FCT %s p99 %s, slowdown p50 %.3g p99 %.3g (%d/%d flows)", units.FormatDuration(algos.Seconds(f.FCTMean)),
			units.FormatDuration(algos.Seconds(f.FCTP99)), f.SlowdownP50, f.SlowdownP99, f.Completed, f.Started)
	}
	return text
}

// bottleneckAt is the link-th bottleneck the stats line shows: on a fabric
// the watched ports first (those offered the most load), then the others.
func bottleneckAt(sum model.Summary, link int) model.BottleneckSummary {
	bs := sum.Bottlenecks
	link = min(max(link, 0), len(bs)-1)
	if sum.Watched == nil {
		return bs[link]
	}
	order := make([]int, 0, len(bs))
	index := make(map[string]int, len(bs))
	for i, b := range bs {
		index[b.Name] = i
	}
	first := map[int]bool{}
	for _, name := range sum.Watched.Ports {
		if i, ok := index[name]; ok && !first[i] {
			first[i] = true
			order = append(order, i)
		}
	}
	for i := range bs {
		if !first[i] {
			order = append(order, i)
		}
	}
	return bs[order[link]]
}

// tierText is a fabric's per-tier line: each tier's mean and highest
// utilization (short: the highest only), then the drops and pause frames
// of all its ports.
func tierText(sum model.Summary, short bool) string {
	if len(sum.Tiers) == 0 {
		return ""
	}
	var parts []string
	var drops, pauses int64
	for _, t := range sum.Tiers {
		if short {
			parts = append(parts, fmt.Sprintf("%s %.0f%%", printable.Text(t.Tier), 100*t.UtilizationMax))
		} else {
			parts = append(parts, fmt.Sprintf("%s %.0f/%.0f%%", printable.Text(t.Tier), 100*t.UtilizationMean, 100*t.UtilizationMax))
		}
		drops += t.Drops
		pauses += t.PauseFrames
	}
	head := "tiers "
	if short {
		head = "max "
		return faintStyle.Render(head) + strings.Join(parts, ", ") + fmt.Sprintf("  pauses %d", pauses)
	}
	return faintStyle.Render(head) + strings.Join(parts, ", ") + fmt.Sprintf("  drops %d  pauses %d", drops, pauses)
}

// fmtCount writes a large count with a k, M or G suffix.
func fmtCount(x float64) string {
	switch {
	case x >= 1e9:
		return fmt.Sprintf("%.1fG", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.1fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.1fk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}

// truncate cuts a styled string to w cells, ending in an ellipsis.
func truncate(s string, w int) string { return ansi.Truncate(s, w, "…") }
