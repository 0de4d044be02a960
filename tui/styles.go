package tui

import "github.com/charmbracelet/lipgloss"

// Every colour and style of the workbench. Tests switch colours off with
// lipgloss.SetColorProfile(termenv.Ascii), so layout never depends on them.
var (
	colorAccent = lipgloss.AdaptiveColor{Light: "#5A56E0", Dark: "#8C88FF"}
	colorFaint  = lipgloss.AdaptiveColor{Light: "#9B9B9B", Dark: "#6C6C6C"}
	colorText   = lipgloss.AdaptiveColor{Light: "#1A1A1A", Dark: "#DDDDDD"}
	colorError  = lipgloss.AdaptiveColor{Light: "#D7002F", Dark: "#FF5F87"}
	colorOK     = lipgloss.AdaptiveColor{Light: "#00875F", Dark: "#5FD787"}
	colorWarn   = lipgloss.AdaptiveColor{Light: "#AF5F00", Dark: "#FFAF5F"}
	colorQueue  = lipgloss.AdaptiveColor{Light: "#005FAF", Dark: "#5FAFFF"}
	colorTarget = lipgloss.AdaptiveColor{Light: "#AF5F00", Dark: "#FFD75F"}

	// seriesColors tell the sources apart; the aggregate has its own.
	seriesColors = []lipgloss.TerminalColor{
		lipgloss.AdaptiveColor{Light: "#005FAF", Dark: "#5FAFFF"},
		lipgloss.AdaptiveColor{Light: "#AF0000", Dark: "#FF5F5F"},
		lipgloss.AdaptiveColor{Light: "#008700", Dark: "#87D75F"},
		lipgloss.AdaptiveColor{Light: "#AF5F00", Dark: "#FFAF00"},
		lipgloss.AdaptiveColor{Light: "#8700AF", Dark: "#D787FF"},
		lipgloss.AdaptiveColor{Light: "#008787", Dark: "#5FD7D7"},
		lipgloss.AdaptiveColor{Light: "#AF005F", Dark: "#FF87AF"},
		lipgloss.AdaptiveColor{Light: "#5F5F00", Dark: "#D7D75F"},
	}
	colorAggregate = lipgloss.AdaptiveColor{Light: "#1A1A1A", Dark: "#FFFFFF"}
)

var (
	appNameStyle = lipgloss.NewStyle().Bold(true).Foreground(colorAccent)
	headerStyle  = lipgloss.NewStyle().Foreground(colorText)
	faintStyle   = lipgloss.NewStyle().Foreground(colorFaint)
	errorStyle   = lipgloss.NewStyle().Foreground(colorError)
	okStyle      = lipgloss.NewStyle().Foreground(colorOK)
	titleStyle   = lipgloss.NewStyle().Bold(true)

	stateStyles = map[runState]lipgloss.Style{
		stateRunning:  lipgloss.NewStyle().Bold(true).Foreground(colorOK),
		statePaused:   lipgloss.NewStyle().Bold(true).Foreground(colorWarn),
		stateFinished: lipgloss.NewStyle().Bold(true).Foreground(colorAccent),
		stateFailed:   lipgloss.NewStyle().Bold(true).Foreground(colorError),
		stateBuilding: lipgloss.NewStyle().Bold(true).Foreground(colorWarn),
	}

	// The algorithm bar: the active algorithm in brackets and reverse video.
	algoStyle       = lipgloss.NewStyle().Foreground(colorText)
	algoActiveStyle = lipgloss.NewStyle().Bold(true).Foreground(colorAccent)
	sweepStyle      = lipgloss.NewStyle().Foreground(colorWarn)

	axisStyle   = lipgloss.NewStyle().Foreground(colorFaint)
	labelStyle  = lipgloss.NewStyle().Foreground(colorFaint)
	queueStyle  = lipgloss.NewStyle().Foreground(colorQueue)
	targetStyle = lipgloss.NewStyle().Foreground(colorTarget)

	// The parameter pane.
	paneStyle       = lipgloss.NewStyle().Border(lipgloss.NormalBorder(), false, false, false, true).BorderForeground(colorFaint).PaddingLeft(1)
	tableHeadStyle  = lipgloss.NewStyle().Bold(true).Foreground(colorFaint)
	tableCellStyle  = lipgloss.NewStyle()
	tableSelStyle   = lipgloss.NewStyle().Bold(true).Foreground(colorAccent)
	promptStyle     = lipgloss.NewStyle().Bold(true).Foreground(colorAccent)
	compareCellHead = lipgloss.NewStyle().Bold(true)
)

// seriesStyle is the style of the i-th plotted source.
func seriesStyle(i int) lipgloss.Style {
	return lipgloss.NewStyle().Foreground(seriesColors[i%len(seriesColors)])
}

var aggregateStyle = lipgloss.NewStyle().Foreground(colorAggregate)
