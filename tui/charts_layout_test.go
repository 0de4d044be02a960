package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"qcnlab/algos"
	"qcnlab/experiments"
)

// chartLines splits the main view into the queue chart's and the rate
// chart's lines, by their titles.
func chartLines(t *testing.T, v string) (queue, rate []string) {
	t.Helper()
	lines := strings.Split(v, "\n")
	qi, ri := -1, -1
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "queue"):
			qi = i
		case strings.HasPrefix(l, "rates"):
			ri = i
		}
	}
	if qi < 0 || ri < qi {
		t.Fatalf("no charts:\n%s", v)
	}
	end := ri + 1
	for end < len(lines) && !strings.HasPrefix(lines[end], "utilization") && !strings.HasPrefix(lines[end], "link") {
		end++
	}
	return lines[qi+1 : ri], lines[ri+1 : end]
}

// The rate axis fits the data: 20 sources near their 500 Mbps fair share
// fill the chart instead of its bottom row, the fair share is marked, the
// units are written out, and each source has a glyph of its own that a
// plain-text capture shows.
func TestRateAxisFitsTheData(t *testing.T) {
	h := newHarness(t, testExperiment(t, "sources.count=20", "sources.initial_rate=0.5Gbps"), 120, 40)
	for range 4 {
		h.advance(tick250)
	}
	v := h.view()
	_, rate := chartLines(t, v)
	top := strings.TrimSpace(strings.SplitN(rate[0], "│", 2)[0])
	if top == "10Gbps" || !strings.HasSuffix(top, "bps") {
		t.Errorf("rate axis top %q: want the data's scale, in bps units", top)
	}
	if !strings.Contains(v, "fair share 500Mbps") || !strings.Contains(strings.Join(rate, "\n"), "┈") {
		t.Errorf("fair share not marked:\n%s", v)
	}
	// Every glyph of the legend is drawn on the chart too.
	body := strings.Join(rate, "\n")
	for _, g := range append(glyphs, meanGlyph) {
		if !strings.ContainsRune(v, g) {
			t.Errorf("legend lacks %c", g)
		}
		if !strings.ContainsRune(body, g) {
			t.Errorf("%c is not on the chart", g)
		}
	}
	// The lines are spread over the chart's rows, not squashed in one.
	rows := 0
	for _, l := range rate[:len(rate)-2] {
		if strings.ContainsAny(l, "⠁⠂⠄⡀⠈⠐⠠⢀⣀⠉⠤⠒●▲■◆○△□◇×") {
			rows++
		}
	}
	if rows < 3 {
		t.Errorf("the rates fill %d rows:\n%s", rows, body)
	}
}

// The queue and rate charts share their left margin, so their time axes
// line up, and both label the end of the run.
func TestChartsLineUp(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		h := newHarness(t, testExperiment(t), size[0], size[1])
		h.advance(tick250)
		queue, rate := chartLines(t, h.view())
		axis := func(lines []string) (col int, labels string) {
			for i, l := range lines {
				if j := strings.Index(l, "└"); j >= 0 {
					return len([]rune(l[:j])), lines[i+1]
				}
			}
			t.Fatal("no axis")
			return 0, ""
		}
		qc, ql := axis(queue)
		rc, rl := axis(rate)
		if qc != rc {
			t.Errorf("%v: queue axis at column %d, rate axis at %d", size, qc, rc)
		}
		for _, l := range []string{ql, rl} {
			if !strings.HasSuffix(strings.TrimRight(l, " "), "20ms") || len([]rune(strings.TrimRight(l, " "))) != size[0] {
				t.Errorf("%v: end time not labelled at the right end: %q", size, l)
			}
		}
	}
}

// The header's time is in the unit of the duration, and its right part
// does not move as the speed's label changes width.
func TestHeaderStaysPut(t *testing.T) {
	e := testExperiment(t, "duration=5s")
	var at []int
	for _, speed := range []string{"0.01x", "0.0001x", "10x", "max", "max ≈0.0123x"} {
		hv := headerView(120, e, 5*algos.Second, speed, stateRunning)
		if !strings.Contains(hv, "t 5.000s/5s  running") {
			t.Errorf("header %q", hv)
		}
		at = append(at, strings.Index(hv, "t 5.000s"))
	}
	for _, i := range at {
		if i != at[0] {
			t.Errorf("the time moved with the speed's label: columns %v", at)
		}
	}
}

// On a parking lot the stats line names the link it describes; l moves to
// the next one.
func TestStatsLineNamesTheLink(t *testing.T) {
	h := newHarness(t, testExperiment(t, "network.topology=parking_lot"), 120, 40)
	for range 3 {
		h.advance(tick250)
	}
	if v := h.view(); !strings.Contains(v, "link sw0 (l: next): utilization") {
		t.Fatalf("stats line does not name the link:\n%s", v)
	}
	h.keys("l")
	if v := h.view(); !strings.Contains(v, "link sw1 (l: next): utilization") {
		t.Errorf("l did not move to sw1:\n%s", v)
	}
	h.keys("l")
	if h.m.link != 0 {
		t.Errorf("l wraps to link %d, want 0", h.m.link)
	}
	// Compare mode's summaries name the link too.
	h.keys("l", "c")
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	for range 3 {
		h.advance(tick250)
	}
	if v := h.view(); !strings.Contains(v, "sw1: util") {
		t.Errorf("compare cells do not name the link:\n%s", v)
	}
	// A dumbbell's stats line has one link and does not name it.
	d := newHarness(t, testExperiment(t), 120, 40)
	for range 3 {
		d.advance(tick250)
	}
	if v := d.view(); strings.Contains(v, "link sw0") || !strings.Contains(v, "utilization") {
		t.Errorf("dumbbell stats line:\n%s", v)
	}
}

// A capacity that changes during the run (model.Sample.Capacity) is drawn
// as a line that steps, kept in view, and named with its present value;
// the fair share steps with it.
func TestCapacityStepsOnTheRateChart(t *testing.T) {
	scen := scenario{duration: algos.Second, capacity: 10e9, fairShare: 5e9, sources: 2, window: algos.Millisecond}
	s := &snapshot{queues: 1}
	full, half := []float64{10e9}, []float64{5e9}
	for k := 1; k <= 100; k++ {
		c := full
		if k > 50 {
			c = half
		}
		s.points = append(s.points, point{t: algos.Time(k) * 10 * algos.Millisecond, v: []float64{0, 1e9, 1.5e9}, capacity: c})
	}
	lines := rateSeries(scen, s)
	yMax := rateCeil(scen, []*snapshot{s}, lines)
	if yMax < 10e9 {
		t.Errorf("axis top %g hides the capacity before its step", yMax)
	}
	out := ratePlot(60, 14, scen, s, lines, yMax).render()
	rows := map[string]int{} // the row of the capacity rule in each half
	for i, l := range strings.Split(out, "\n") {
		r := []rune(l)
		if strings.ContainsRune(string(r[:len(r)/2]), '╌') {
			rows["first"] = i
		}
		if strings.ContainsRune(string(r[len(r)/2:]), '╌') {
			rows["second"] = i
		}
	}
	if rows["first"] >= rows["second"] || rows["second"] == 0 {
		t.Errorf("the capacity does not step down (rows %v):\n%s", rows, out)
	}
	var names []string
	for _, mk := range rateMarks(scen, s, yMax) {
		names = append(names, mk.name)
	}
	if got := strings.Join(names, "; "); got != "┈┈ fair share, now 2.5Gbps; ╌╌ capacity, now 5Gbps" {
		t.Errorf("marks named %q", got)
	}
}

// End to end: a built-in whose capacity drops and rises again
// ([[network.changes]] at 100 and 200 ms) shows the step on the rate chart:
// the capacity's rule is at 10 Gbps before and after, not between.
func TestCapacityDropOnScreen(t *testing.T) {
	e, err := experiments.OpenWith("qcn-capacity-drop", []string{"duration=240ms", "warmup=10ms", "output.phases=[]"})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, e, 120, 40)
	h.keys("0")
	h.advance(tick250)
	if h.m.state() != stateFinished {
		t.Fatalf("state %v", h.m.state())
	}
	v := h.view()
	if !strings.Contains(v, "capacity, now 10Gbps") {
		t.Errorf("the changing capacity is not named:\n%s", v)
	}
	_, rate := chartLines(t, v)
	for _, l := range rate {
		r := []rune(l)
		if !strings.ContainsRune(l, '╌') {
			continue
		}
		// The 10 Gbps row: the plot spans columns 7..120; 100-200 ms is
		// from about 47% to 83% of it.
		first, mid, last := string(r[10:50]), string(r[66:90]), string(r[105:])
		if !strings.ContainsRune(first, '╌') || strings.ContainsRune(mid, '╌') || !strings.ContainsRune(last, '╌') {
			t.Errorf("the capacity does not step: %q", l)
		}
		return
	}
	t.Errorf("no capacity rule:\n%s", strings.Join(rate, "\n"))
}

// The rate chart's legend names every reference line it draws, at every
// width the charts take: with the parameter pane open (or at 80 columns)
// the fair share and capacity lines were drawn unnamed.
func TestRateLegendNamesEveryLineDrawn(t *testing.T) {
	h := newHarness(t, testExperiment(t), 120, 40)
	h.advance(tick250)
	c := chartsPane{common: common{keys: h.m.keys}}
	c.setData(h.m.scenario, h.m.mainSnap())
	for w := 20; w <= 140; w++ {
		c.setSize(w, 30)
		lines := strings.Split(c.view(), "\n")
		title, drawn := "", ""
		for i, l := range lines {
			if strings.HasPrefix(l, "rates") {
				title, drawn = l, strings.Join(lines[i+1:], "\n")
			}
		}
		for _, mk := range []struct{ glyph, name string }{{"┈", "fair"}, {"╌", "cap"}} {
			if strings.Contains(drawn, mk.glyph) && !strings.Contains(title, mk.glyph+mk.glyph) {
				t.Errorf("width %d: the %s line is drawn, not named: %q", w, mk.name, title)
			}
			if strings.Contains(title, mk.glyph+mk.glyph) && !strings.Contains(title, mk.name) {
				t.Errorf("width %d: %q", w, title)
			}
		}
	}
}
