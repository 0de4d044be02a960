package tui

// The root model's layout and view.

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// bottomHeight is the status line (wrapped), or the save prompt's two
// lines, or the open prompt's.
func (m *Model) bottomHeight() int {
	switch m.focus {
	case focusSave:
		return 2
	case focusOpen:
		return m.opener.height
	case focusLeave:
		return m.leave.height
	}
	return len(m.statusLines())
}

// maxStatusLines is the most lines a status message wraps to: what an edit
// of the duration dropped takes four at 80 columns.
const maxStatusLines = 4

// statusLines are the status message, or a run's error, word-wrapped to
// the width: a message cut at the edge lost what it said last (what an
// edit dropped). At most maxStatusLines, the last one cut.
func (m *Model) statusLines() []string {
	text, style := m.status, faintStyle
	if m.statusErr {
		style = errorStyle
	} else if m.status != "" {
		style = okStyle
	}
	if m.sess != nil {
		if err := m.sess.err(); err != nil {
			text, style = err.Error(), errorStyle
		}
	}
	if lipgloss.Width(text) <= m.width {
		return []string{style.Render(fit(text, m.width))}
	}
	n := len(splitLines(lipgloss.NewStyle().Width(max(1, m.width)).Render(text)))
	return wrap(style, text, m.width, min(n, maxStatusLines))
}

func (m *Model) helpView() string { return m.helpLines(m.help.ShowAll) }

// helpLines is the help: in full (all) or the short form, which is one
// line.
func (m *Model) helpLines(all bool) string {
	// The short help in full if it fits, else its narrow form.
	full := m.help
	full.Width = 0 // unlimited, to measure
	full.ShowAll = false
	narrow := lipgloss.Width(full.ShortHelpView(mainHelp{k: m.keys}.ShortHelp())) > m.width
	km := m.focused().keyHelp(narrow)
	hm := m.help
	hm.ShowAll = all
	// help truncates with an ellipsis, but lets the last item run over
	// when the ellipsis does not fit: cut every line to the width.
	lines := splitLines(hm.View(km))
	for i, l := range lines {
		lines[i] = fit(l, m.width)
	}
	return strings.Join(lines, "\n")
}

// barLines are the algorithm bar and the sweep point: on the bar's right
// when the point's values fit there whole, else on a line of their own
// under it (the point and its seed matter more than a chart's row).
func (m *Model) barLines() []string {
	w := m.width
	bar := barView(w, m.bar, m.active, m.compare, "")
	if len(m.points) < 2 {
		return []string{bar}
	}
	room := w - lipgloss.Width(strings.TrimRight(ansi.Strip(bar), " ")) - 2
	if label := m.sweepLabel(room); room >= 12 && !strings.Contains(label, "…") {
		return []string{barView(w, m.bar, m.active, m.compare, label)}
	}
	return []string{bar, sweepStyle.Render(fit(m.sweepLabel(w), w))}
}

// minBody is the fewest lines the charts (or the pane) get: the two
// sparklines. The full help gives way to the short one to leave them.
const minBody = 2

// minParams is the fewest lines of the parameter pane over the charts
// with two rows of its table (its title, the table's header and two rows,
// its footer): under it, the sparklines over it give way.
const minParams = 1 + 3 + paramsFooter

// screen is the layout at the model's size and state: the lines of the
// parts around the body, and the sizes of the panes in it. Every size is
// at least 0, and the parts add up to the terminal's height.
type screen struct {
	bar  []string // the algorithm bar and the sweep point
	help string
	body int // lines between the bar and the stats line
	// The charts' (or the comparison's) area and the parameter pane's;
	// beside says the pane sits beside the charts, not under them.
	chartsW, chartsH int
	paramsW, paramsH int
	beside           bool
}

// screen lays the workbench out at its size: the header, the bar, the
// body, the stats line, the status line or a prompt, and the help.
func (m *Model) screen() screen {
	w := m.width
	s := screen{bar: m.barLines(), help: m.helpView()}
	around := 2 + len(s.bar) + m.bottomHeight() // the header and the stats line
	s.body = m.height - around - lipgloss.Height(s.help)
	if s.body < minBody && m.help.ShowAll {
		s.help = m.helpLines(false)
		s.body = m.height - around - lipgloss.Height(s.help)
	}
	s.body = max(0, s.body)
	s.chartsW, s.chartsH = w, s.body
	switch {
	case m.paramsOpen && w >= wideParams:
		pw := m.paramsWidth()
		s.beside = true
		s.paramsW, s.paramsH = pw-2, s.body // the pane's left border and padding
		s.chartsW = w - pw
	case m.paramsOpen:
		s.chartsH = 0
		if s.body >= minBody+minParams {
			s.chartsH = minBody // sparklines over the pane
		}
		s.paramsW, s.paramsH = w, s.body-s.chartsH
	}
	return s
}

// paramsWidth is the parameter pane's width beside the charts.
func (m *Model) paramsWidth() int { return min(max(m.width*2/5, 46), 64) }

func (m *Model) layout() {
	m.help.Width = m.width
	if m.width < minWidth || m.height < minHeight {
		return
	}
	s := m.screen()
	m.save.setSize(m.width, m.save.height)
	m.opener.setSize(m.width, m.opener.height)
	m.leave.setSize(m.width, m.leave.height)
	if m.paramsOpen {
		m.params.setSize(s.paramsW, s.paramsH)
	}
	// The pane not shown is given no room: it then draws nothing as the
	// runs go on.
	if m.showsComparison() {
		m.charts.setSize(0, 0)
		m.comparison.setSize(s.chartsW, s.chartsH)
	} else {
		m.charts.setSize(s.chartsW, s.chartsH)
		m.comparison.setSize(0, 0)
	}
}

// showsComparison reports whether the body shows compare mode's runs side
// by side: not when the parameter pane takes the width, with the active
// run's sparklines over it.
func (m *Model) showsComparison() bool {
	return m.compare && !(m.paramsOpen && m.width < wideParams)
}

func (m Model) View() string {
	if m.quitting || m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.width < minWidth || m.height < minHeight {
		msg := fmt.Sprintf("terminal too small (need %dx%d, have %dx%d)", minWidth, minHeight, m.width, m.height)
		lines := splitLines(lipgloss.NewStyle().Width(m.width).Align(lipgloss.Center).Render(msg))
		return lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center,
			strings.Join(lines[:min(len(lines), m.height)], "\n"))
	}
	w := m.width
	snap := m.mainSnap()
	sc := m.screen()
	rows := append([]string{headerView(w, m.run, m.sess.reached(), m.speedText(), m.state())}, sc.bar...)
	if sc.body > 0 {
		rows = append(rows, m.bodyView(sc))
	}
	rows = append(rows, statsLine(w, snap, m.scenario, m.eps, m.link))
	switch m.focus {
	case focusSave:
		rows = append(rows, m.save.view())
	case focusOpen:
		rows = append(rows, m.opener.view())
	case focusLeave:
		rows = append(rows, m.leave.view())
	default:
		rows = append(rows, m.statusLines()...)
	}
	rows = append(rows, sc.help)
	return lipgloss.JoinVertical(lipgloss.Left, rows...)
}

// bodyView is the charts, or the comparison, and the parameter pane
// beside or under them, as sc lays them out.
func (m *Model) bodyView(sc screen) string {
	charts := m.charts.view()
	if m.showsComparison() {
		charts = m.comparison.view()
	}
	switch {
	case m.paramsOpen && sc.beside:
		return lipgloss.JoinHorizontal(lipgloss.Top, charts, paneStyle.Render(m.params.view()))
	case m.paramsOpen && sc.chartsH == 0:
		return m.params.view()
	case m.paramsOpen:
		return lipgloss.JoinVertical(lipgloss.Left, charts, m.params.view())
	}
	return charts
}
