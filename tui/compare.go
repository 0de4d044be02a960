package tui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// comparePane shows every run of compare mode side by side: one small
// queue chart and rate chart per algorithm, all on the same axes.
type comparePane struct {
	common
	scenario scenario
	names    []string
	snaps    []*snapshot
	active   int
	link     int        // the bottleneck the summaries describe
	lines    [][]series // each run's rate lines
	rateMax  float64    // the rate axis' top, the same for every run
	rendered string
}

func (c *comparePane) setSize(w, h int) {
	if w != c.width || h != c.height {
		c.common.setSize(w, h)
		c.render()
	}
}

// update does nothing: the comparison takes no keys, only data (setData).
func (c *comparePane) update(tea.Msg) tea.Cmd { return nil }

func (c *comparePane) keyHelp(narrow bool) help.KeyMap { return mainHelp{c.keys, narrow} }

func (c *comparePane) setData(scen scenario, names []string, snaps []*snapshot, active, link int) {
	changed := scen != c.scenario || active != c.active || link != c.link || len(snaps) != len(c.snaps)
	for i := 0; !changed && i < len(snaps); i++ {
		changed = snaps[i] != c.snaps[i] || names[i] != c.names[i]
	}
	if changed {
		c.scenario, c.names, c.snaps, c.active, c.link = scen, names, append(c.snaps[:0:0], snaps...), active, link
		c.lines = make([][]series, len(snaps))
		for i, s := range snaps {
			c.lines[i] = rateSeries(scen, s)
		}
		c.rateMax = rateCeil(scen, c.snaps, c.lines...)
		c.render()
	}
}

func (c *comparePane) view() string { return c.rendered }

// grid is the columns and rows for n charts.
func grid(n int) (cols, rows int) {
	switch {
	case n <= 1:
		cols = 1
	case n <= 4:
		cols = 2
	default:
		cols = 3
	}
	return cols, (n + cols - 1) / cols
}

func (c *comparePane) render() {
	n := len(c.snaps)
	if n == 0 || c.width <= 0 || c.height <= 0 {
		c.rendered = blank(c.width, c.height)
		return
	}
	cols, rows := grid(n)
	if c.height < 2*rows {
		// No room for a chart under each name: a line per run, in as
		// many columns as the lines take.
		cols = (n + c.height - 1) / c.height
		rows = (n + cols - 1) / cols
	}
	if most := max(1, (c.width+1)/2); cols > most {
		// Not even a cell each: the runs that fit (never at a size the
		// workbench lays out).
		cols, rows = most, min(rows, c.height)
	}
	cellH := c.height / rows
	var lines []string
	for r := range rows {
		h := cellH
		if r == rows-1 {
			h = c.height - cellH*(rows-1)
		}
		var cells []string
		for k := range cols {
			w := max(0, (c.width-(cols-1))/cols)
			if k == cols-1 {
				w = max(0, c.width-(w+1)*(cols-1))
			}
			if k > 0 {
				cells = append(cells, blank(1, h))
			}
			i := r*cols + k
			switch {
			case i >= n:
				cells = append(cells, blank(w, h))
			case cellH < 2:
				cells = append(cells, fitLines([]string{c.head(i, w, 1)[0]}, w, h))
			default:
				cells = append(cells, c.cell(i, w, h))
			}
		}
		lines = append(lines, lipgloss.JoinHorizontal(lipgloss.Top, cells...))
	}
	c.rendered = lipgloss.JoinVertical(lipgloss.Left, lines...)
}

// head is a cell's title: the algorithm's name with its summary beside it
// if a full form fits there, else, when room is at least 5 lines, on a
// line of its own (a chart row matters less), in the longest form that
// fits; else the shortest form beside the name, cut.
func (c *comparePane) head(i, w, room int) []string {
	s := c.snaps[i]
	name := fmt.Sprintf("%d %s", i+1, display(c.names[i]))
	if i == c.active {
		name = "[" + name + "]"
	}
	title := compareCellHead.Render(name)
	var head []string
	switch {
	case s.err != nil:
		head = []string{title + "  " + errorStyle.Render("failed")}
	case len(s.summary.Bottlenecks) > 0 && s.now > c.scenario.warmup:
		forms := summaryForms(s.summary, c.link)
		for _, f := range forms[:2] {
			if lipgloss.Width(title)+2+lipgloss.Width(f) <= w {
				head = []string{title + "  " + faintStyle.Render(f)}
				break
			}
		}
		if head == nil && room > 5 {
			line := forms[len(forms)-1]
			for _, f := range forms {
				if lipgloss.Width(f) <= w {
					line = f
					break
				}
			}
			head = []string{title, faintStyle.Render(fit(line, w))}
		}
		if head == nil {
			for _, f := range forms {
				if lipgloss.Width(title)+2+lipgloss.Width(f) <= w {
					head = []string{title + "  " + faintStyle.Render(f)}
					break
				}
			}
		}
		if head == nil {
			head = []string{title + "  " + faintStyle.Render(forms[len(forms)-1])}
		}
	default:
		head = []string{title}
	}
	for i := range head {
		head[i] = fit(head[i], w)
	}
	return head
}

// cell is one algorithm's charts: a title with its summary, then the queue
// over the rates (or the queue alone, or sparklines, as room allows).
func (c *comparePane) cell(i, w, h int) string {
	s := c.snaps[i]
	head := c.head(i, w, h)
	body := h - len(head)
	var parts []string
	switch {
	case body >= 10:
		qh := body / 2
		// Every cell on the same axes: the rate axis fits all the runs.
		qp, rp := queuePlot(w, qh, c.scenario, s), ratePlot(w, body-qh, c.scenario, s, c.lines[i], c.rateMax)
		alignMargins(&qp, &rp)
		parts = []string{qp.render(), rp.render()}
	case body >= 4:
		parts = []string{queuePlot(w, body, c.scenario, s).render()}
	case body > 0:
		parts = []string{fitLines(sparkLines(w, c.scenario, s), w, body)}
	}
	return fitLines(splitLines(lipgloss.JoinVertical(lipgloss.Left, append(head, parts...)...)), w, h)
}
