package tui

import (
	"github.com/charmbracelet/bubbles/key"
)

// keyMap holds every key binding of the workbench. The help line and the
// full help (?) are generated from it, so what is shown is what works.
type keyMap struct {
	NextAlgo, PrevAlgo, PickAlgo key.Binding
	Pause                        key.Binding
	Faster, Slower, Fastest      key.Binding
	Restart                      key.Binding
	Compare                      key.Binding
	Params                       key.Binding
	Link                         key.Binding
	Rates                        key.Binding // delivered or sending rates, on a fabric
	NextPoint, PrevPoint         key.Binding
	Save, Open                   key.Binding
	Help                         key.Binding
	Quit                         key.Binding

	// In the parameter pane and the prompts.
	Up, Down key.Binding
	Edit     key.Binding
	Apply    key.Binding
	Cancel   key.Binding
	Complete key.Binding
	Yes, No  key.Binding
}

func defaultKeys() keyMap {
	return keyMap{
		NextAlgo: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next algorithm")),
		PrevAlgo: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous algorithm")),
		PickAlgo: key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"),
			key.WithHelp("1-9", "pick algorithm")),
		Pause:     key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "pause")),
		Faster:    key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "faster")),
		Slower:    key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "slower")),
		Fastest:   key.NewBinding(key.WithKeys("0"), key.WithHelp("0", "max speed")),
		Restart:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "restart")),
		Compare:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "compare")),
		Params:    key.NewBinding(key.WithKeys("e", "p"), key.WithHelp("e/p", "params")),
		NextPoint: key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next sweep point")),
		PrevPoint: key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous sweep point")),
		Link:      key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "next link (stats)")),
		Rates:     key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "delivered/sending rates")),
		Save:      key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save")),
		Open:      key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),

		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Edit:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "edit")),
		Apply:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply")),
		Cancel:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Complete: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
		Yes:      key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "overwrite")),
		No:       key.NewBinding(key.WithKeys("n", "N", "esc"), key.WithHelp("n", "keep it")),
	}
}

// help.KeyMap views of the bindings, one per context.

// mainHelp is the help of the charts. The short form fits 80 columns when
// narrow is set: what it leaves out is in the full help.
type mainHelp struct {
	k      *keyMap
	narrow bool
}

// Help-only bindings that stand for several keys in the short help.
var (
	algoHelp  = key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "algo"))
	speedHelp = key.NewBinding(key.WithKeys("+", "-"), key.WithHelp("+/-", "speed"))
)

func (h mainHelp) ShortHelp() []key.Binding {
	k := h.k
	if h.narrow {
		return []key.Binding{algoHelp, k.Pause, speedHelp, k.Compare, k.Params, k.Help, k.Quit}
	}
	return []key.Binding{algoHelp, k.Pause, speedHelp, k.Restart, k.Compare, k.Params, k.Save, k.Open, k.Help, k.Quit}
}

func (h mainHelp) FullHelp() [][]key.Binding {
	k := h.k
	return [][]key.Binding{
		{k.NextAlgo, k.PrevAlgo, k.PickAlgo, k.Compare, k.NextPoint, k.PrevPoint},
		{k.Pause, k.Faster, k.Slower, k.Fastest, k.Restart},
		{k.Link, k.Rates, k.Params, k.Save, k.Open, k.Help, k.Quit},
	}
}

// paramsHelp is the help of the parameter pane.
type paramsHelp struct {
	k      *keyMap
	narrow bool
}

var closeHelp = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close"))

func (h paramsHelp) ShortHelp() []key.Binding {
	k := h.k
	if h.narrow {
		return []key.Binding{k.Up, k.Down, k.Edit, closeHelp, k.Help, k.Quit}
	}
	return []key.Binding{k.Up, k.Down, k.Edit, closeHelp, algoHelp, k.Pause, k.Restart, k.Save, k.Help, k.Quit}
}

func (h paramsHelp) FullHelp() [][]key.Binding {
	k := h.k
	return append([][]key.Binding{{k.Up, k.Down, k.Edit, closeHelp}}, mainHelp{k: k}.FullHelp()...)
}

// inputHelp is the help of a text prompt (editing a value, a file name).
type inputHelp struct{ k *keyMap }

func (h inputHelp) ShortHelp() []key.Binding { return []key.Binding{h.k.Apply, h.k.Cancel} }
func (h inputHelp) FullHelp() [][]key.Binding {
	return [][]key.Binding{h.ShortHelp()}
}

// confirmHelp is the help of a yes/no question.
type confirmHelp struct{ k *keyMap }

func (h confirmHelp) ShortHelp() []key.Binding  { return []key.Binding{h.k.Yes, h.k.No} }
func (h confirmHelp) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }

// openHelp is the help of the open prompt.
type openHelp struct{ k *keyMap }

func (h openHelp) ShortHelp() []key.Binding {
	return []key.Binding{
		h.k.Complete,
		key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "choose")),
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		h.k.Cancel,
	}
}
func (h openHelp) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }
