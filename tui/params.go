package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/table"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/keys"
	"qcnlab/printable"
	"qcnlab/units"
)

// paramRow is one editable key with its current value.
type paramRow struct {
	key   string // the dotted key Experiment.Set takes
	value string // current value with its unit, as the experiment file writes it
	doc   string
}

// editMsg asks the root model to set key to value: it applies it on a clone
// of the experiment and restarts the run, or reports why not.
type editMsg struct{ key, value string }

// initialRate is sources.initial_rate, which Resolved leaves unset while an
// override sets a line rate: each source then starts at its own line rate.
func initialRate(r *experiments.Experiment) string {
	if r.Sources.InitialRate == nil {
		return "line rate"
	}
	return units.FormatRate(float64(*r.Sources.InitialRate))
}

// row is the row of a key of the experiment file, its doc line the
// registry's (experiments/keys) for r's topology.
func row(r *experiments.Experiment, key, value string) paramRow {
	k, ok := keys.Lookup(key)
	if !ok {
		panic("tui: " + key + " is not a key of the registry")
	}
	return paramRow{key, value, k.DocFor(r.Network.Topology)}
}

// paramRows lists what the pane edits: the run and network keys, then every
// parameter of the algorithm with its resolved value.
func paramRows(e *experiments.Experiment, algo string) []paramRow {
	r := e.Resolved()
	dur := func(d units.Duration) string { return units.FormatDuration(algos.Time(d)) }
	rows := []paramRow{
		row(r, "duration", dur(r.Duration)),
		row(r, "warmup", dur(*r.Warmup)),
		row(r, "seed", strconv.FormatUint(r.Seed, 10)),
		row(r, "model", r.Model),
		row(r, "network.topology", r.Network.Topology),
	}
	if r.IsFabric() {
		rows = append(rows, fabricRows(r)...)
	} else {
		rows = append(rows, chainRows(r)...)
	}
	rows = append(rows,
		row(r, "output.sample_interval", dur(r.Output.SampleInterval)),
		row(r, "output.rate_window", dur(r.Output.RateWindow)),
		row(r, "output.fairness_threshold", strconv.FormatFloat(r.Output.FairnessThreshold, 'g', -1, 64)))
	sc, err := algos.Lookup(algo)
	if err != nil {
		return rows
	}
	values, err := e.ParamValues(algo)
	for _, p := range sc.Params {
		v := "?"
		if err == nil {
			v = units.FormatParam(p, values[p.Key])
		} else if x, ok := e.Params[algo][p.Key]; ok {
			v = units.FormatParam(p, x)
		}
		rows = append(rows, paramRow{"params." + algo + "." + p.Key, v, fmt.Sprintf("%s (%s)", p.Doc, p.Unit())})
	}
	return rows
}

// chainRows are the keys of a dumbbell or a parking lot.
func chainRows(r *experiments.Experiment) []paramRow {
	dur := func(d units.Duration) string { return units.FormatDuration(algos.Time(d)) }
	rows := []paramRow{
		row(r, "network.capacity", units.FormatRate(float64(r.Network.Capacity))),
		row(r, "network.buffer", units.FormatBytes(float64(r.Network.Buffer))),
		row(r, "network.frame_size", units.FormatBytes(float64(r.Network.FrameSize))),
		row(r, "network.rtt", dur(r.Network.RTT)),
		row(r, "network.links", strconv.Itoa(*r.Network.Links)),
	}
	if r.Network.HopDelay != nil { // a dumbbell has no hop between switches
		rows = append(rows, row(r, "network.hop_delay", r.Network.HopDelay.String()))
	}
	return append(rows,
		row(r, "network.pfc", strconv.FormatBool(r.Network.PFC)),
		row(r, "sources.count", strconv.Itoa(r.Sources.Count)),
		row(r, "sources.line_rate", units.FormatRate(float64(*r.Sources.LineRate))),
		row(r, "sources.initial_rate", initialRate(r)),
		row(r, "sources.forward_delay", r.Sources.ForwardDelay.String()),
		row(r, "sources.backward_delay", r.Sources.BackwardDelay.String()))
}

// fabricRows are the keys of a fabric: its size, links, routing and
// traffic.
func fabricRows(r *experiments.Experiment) []paramRow {
	n, tr := r.Network, r.Traffic
	itoa := func(p *int) string {
		if p == nil {
			return "-"
		}
		return strconv.Itoa(*p)
	}
	// First the keys of this topology alone: its sizes.
	rows := []paramRow{}
	for _, k := range keys.All {
		if len(k.Topologies) == 1 && k.Topologies[0] == n.Topology && k.Kind != keys.Tables && !keys.InRepeated(k.Path) {
			rows = append(rows, row(r, k.Path, r.KeyText(k.Path)))
		}
	}
	rows = append(rows,
		row(r, "network.capacity", units.FormatRate(float64(n.Capacity))),
		row(r, "network.buffer", units.FormatBytes(float64(n.Buffer))),
		row(r, "network.frame_size", units.FormatBytes(float64(n.FrameSize))),
		row(r, "network.hop_delay", n.HopDelay.String()),
		row(r, "network.routing", n.Routing),
		row(r, "network.pfc", strconv.FormatBool(n.PFC)),
		row(r, "traffic.pattern", tr.Pattern),
		row(r, "traffic.flow_size", tr.FlowSize))
	if tr.Pattern == "incast" {
		rows = append(rows,
			row(r, "traffic.incast_senders", itoa(tr.IncastSenders)),
			row(r, "traffic.incast_to", itoa(tr.IncastTo)))
	}
	return rows
}

// paramsPane lists the keys in a table; enter edits the selected value in a
// text input, and an error from applying it is shown under the input.
type paramsPane struct {
	common
	algo    string
	rows    []paramRow
	swept   map[string]bool // the keys [sweep] sets: not editable here
	table   table.Model
	input   textinput.Model
	editing bool
	err     string
}

func newParamsPane(keys *keyMap) paramsPane {
	km := table.DefaultKeyMap()
	km.PageDown.SetKeys("pgdown", "f") // space pauses the run
	t := table.New(table.WithKeyMap(km), table.WithFocused(true),
		table.WithColumns([]table.Column{{Title: "key", Width: 28}, {Title: "value", Width: 12}}))
	t.SetStyles(table.Styles{Header: tableHeadStyle.Padding(0, 1), Cell: tableCellStyle.Padding(0, 1), Selected: tableSelStyle})
	in := newInput("", maxValueChars)
	return paramsPane{common: common{keys: keys}, table: t, input: in}
}

// load shows the keys of e (a sweep point of exp) and algo, keeping the
// selected row; the keys exp's [sweep] sets are marked.
func (p *paramsPane) load(e, exp *experiments.Experiment, algo string) {
	p.algo = algo
	p.rows = paramRows(e, algo)
	p.swept = map[string]bool{}
	for _, a := range exp.Sweep {
		p.swept[a.Key] = true
	}
	p.syncRows()
	p.layout()
}

// sweptMessage says why a swept key is not edited here.
func sweptMessage(key string) string {
	return fmt.Sprintf("%s is swept: [sweep] sets it at each point (] and [ pick the point; s saves the sweep)", key)
}

// syncRows fills the table, marking the selected row so it shows without
// colour too.
func (p *paramsPane) syncRows() {
	rows := make([]table.Row, len(p.rows))
	for i, r := range p.rows {
		marker := "  "
		if i == p.table.Cursor() {
			marker = "▸ "
		}
		value := r.value
		if p.swept[r.key] {
			value += " (swept)"
		}
		rows[i] = table.Row{marker + shortKey(r.key, p.algo), printable.Text(value)}
	}
	p.table.SetRows(rows)
}

// shortKey drops the params.<algo>. prefix the title already shows.
func shortKey(k, algo string) string {
	if prefix := "params." + algo + "."; len(k) > len(prefix) && k[:len(prefix)] == prefix {
		return "· " + k[len(prefix):]
	}
	return k
}

func (p *paramsPane) setSize(w, h int) {
	if w != p.width || h != p.height {
		p.common.setSize(w, h)
		p.layout()
	}
}

// keyHelp is the table's keys, or the text input's while a value is
// edited.
func (p *paramsPane) keyHelp(narrow bool) help.KeyMap {
	if p.editing {
		return inputHelp{p.keys}
	}
	return paramsHelp{p.keys, narrow}
}

// Lines below the table: a rule, the selected key's meaning (two lines),
// the edit line and the error (two lines).
const paramsFooter = 6

func (p *paramsPane) layout() {
	valueW := 12
	for _, r := range p.rows {
		if p.swept[r.key] {
			valueW = 20 // room for " (swept)"
		}
	}
	keyW := max(8, min(28, p.width-valueW-4))
	p.table.SetColumns([]table.Column{{Title: "key", Width: keyW}, {Title: "value", Width: valueW}})
	p.table.SetWidth(p.width)
	p.table.SetHeight(max(2, p.height-1-paramsFooter))
	p.input.Width = max(1, p.width-lipgloss.Width(p.input.Prompt)-1)
}

func (p *paramsPane) selected() (paramRow, bool) {
	i := p.table.Cursor()
	if i < 0 || i >= len(p.rows) {
		return paramRow{}, false
	}
	return p.rows[i], true
}

// startEdit opens the text input on the selected value; a swept key says
// at once why it is not edited here, before anything is typed.
func (p *paramsPane) startEdit() tea.Cmd {
	r, ok := p.selected()
	if !ok {
		return nil
	}
	if p.swept[r.key] {
		p.err = sweptMessage(r.key)
		return nil
	}
	p.editing, p.err = true, ""
	p.input.Prompt = r.key + " = "
	p.input.SetValue(r.value)
	p.input.CursorEnd()
	p.layout()
	return p.input.Focus()
}

// editingKey is the key whose value is being edited, "" if none.
func (p *paramsPane) editingKey() string {
	if !p.editing {
		return ""
	}
	return strings.TrimSuffix(p.input.Prompt, " = ")
}

func (p *paramsPane) stopEdit() {
	p.editing, p.err = false, ""
	p.input.Blur()
}

// fail shows why an edit was not applied; the input stays open.
func (p *paramsPane) fail(msg string) { p.err = printable.Text(msg) }

func (p *paramsPane) update(msg tea.Msg) tea.Cmd {
	km, isKey := msg.(tea.KeyMsg)
	switch {
	case p.editing && isKey && key.Matches(km, p.keys.Apply):
		r, _ := p.selected()
		edit := editMsg{key: r.key, value: p.input.Value()}
		return func() tea.Msg { return edit }
	case p.editing && isKey && key.Matches(km, p.keys.Cancel):
		p.stopEdit()
		return nil
	case p.editing:
		changed, cut, cmd := typeInto(&p.input, msg, "a value")
		if changed {
			p.err = ""
		}
		if cut != "" {
			p.err = cut
		}
		return cmd
	case isKey && key.Matches(km, p.keys.Edit):
		return p.startEdit()
	}
	var cmd tea.Cmd
	before := p.table.Cursor()
	p.table, cmd = p.table.Update(msg)
	if p.table.Cursor() != before {
		p.err = ""
		p.syncRows()
	}
	return cmd
}

func (p *paramsPane) view() string {
	w := p.width
	title := titleStyle.Render("parameters") + faintStyle.Render(" of the run and of ") + titleStyle.Render(display(p.algo))
	doc := ""
	if r, ok := p.selected(); ok {
		doc = r.doc
	}
	lines := []string{fit(title, w), p.table.View(), faintStyle.Render(fit(repeat("─", w), w))}
	lines = append(lines, wrap(faintStyle, doc, w, 2)...)
	if p.editing {
		lines = append(lines, fit(p.input.View(), w))
		lines = append(lines, wrap(errorStyle, p.err, w, 2)...)
	} else if p.err != "" { // a swept key: why it is not edited
		lines = append(lines, fit(faintStyle.Render("enter edits the selected value"), w))
		lines = append(lines, wrap(errorStyle, p.err, w, 2)...)
	} else {
		lines = append(lines, fit(faintStyle.Render("enter edits the selected value"), w), "", "")
	}
	return fitLines(splitLines(lipgloss.JoinVertical(lipgloss.Left, lines...)), w, p.height)
}
