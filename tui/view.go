package tui

// The root model's layout and view.

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// bottomHeight is the status line, or the save prompt's two lines, or the
// open prompt's.
func (m *Model) bottomHeight() int {
	switch m.focus {
	case focusSave:
		return 2
	case focusOpen:
		return m.opener.height
	}
	return 1
}

func (m *Model) helpView() string {
	// The short help in full if it fits, else its narrow form.
	full := m.help
	full.Width = 0 // unlimited, to measure
	narrow := lipgloss.Width(full.ShortHelpView(mainHelp{k: m.keys}.ShortHelp())) > m.width
	km := m.focused().keyHelp(narrow)
	// help truncates with an ellipsis, but lets the last item run over
	// when the ellipsis does not fit: cut every line to the width.
	lines := splitLines(m.help.View(km))
	for i, l := range lines {
		lines[i] = fit(l, m.width)
	}
	return strings.Join(lines, "\n")
}

// bodyHeight is what is left for the charts (or the pane).
func (m *Model) bodyHeight() int {
	return m.height - 2 - len(m.barLines()) - m.bottomHeight() - lipgloss.Height(m.helpView())
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

// paramsWidth is the parameter pane's width beside the charts.
func (m *Model) paramsWidth() int { return min(max(m.width*2/5, 46), 64) }

func (m *Model) layout() {
	m.help.Width = m.width
	w, h := m.width, m.bodyHeight()
	if w < minWidth || m.height < minHeight {
		return
	}
	m.save.setSize(w, m.save.height)
	m.opener.setSize(w, m.opener.height)
	chartsW, chartsH := w, h
	switch {
	case m.paramsOpen && w >= wideParams:
		pw := m.paramsWidth()
		m.params.setSize(pw-2, h) // the pane's left border and padding
		chartsW = w - pw
	case m.paramsOpen:
		chartsH = 2 // sparklines over the pane
		m.params.setSize(w, h-chartsH)
	}
	m.charts.setSize(chartsW, chartsH)
	m.comparison.setSize(chartsW, chartsH)
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
	rows := append([]string{headerView(w, m.run, m.sess.reached(), m.speedText(), m.state())}, m.barLines()...)
	rows = append(rows, m.bodyView(), statsLine(w, snap, m.scenario, m.eps, m.link))
	switch m.focus {
	case focusSave:
		rows = append(rows, m.save.view())
	case focusOpen:
		rows = append(rows, m.opener.view())
	default:
		style := faintStyle
		if m.statusErr {
			style = errorStyle
		} else if m.status != "" {
			style = okStyle
		}
		if err := m.sess.err(); err != nil {
			m.status, style = err.Error(), errorStyle
		}
		rows = append(rows, style.Render(fit(m.status, w)))
	}
	rows = append(rows, m.helpView())
	return lipgloss.JoinVertical(lipgloss.Left, rows...)
}

func (m *Model) bodyView() string {
	charts := m.charts.view()
	if m.compare && !(m.paramsOpen && m.width < wideParams) {
		charts = m.comparison.view()
	}
	switch {
	case m.paramsOpen && m.width >= wideParams:
		return lipgloss.JoinHorizontal(lipgloss.Top, charts, paneStyle.Render(m.params.view()))
	case m.paramsOpen:
		return lipgloss.JoinVertical(lipgloss.Left, charts, m.params.view())
	}
	return charts
}
