package tui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
)

// The most characters each text input holds. A text input costs time in
// its length at every key (its width is measured anew), so a paste of
// 100,000 characters with no limit took minutes, the screen frozen; past
// the limit a key costs what one at the limit does.
const (
	maxPathChars  = 4096 // PATH_MAX on Linux: no longer path opens or saves
	maxValueChars = 256  // a key's value (a number, a duration, a name) is a few dozen
)

// newInput is a text input with a static cursor holding at most limit
// characters.
func newInput(prompt string, limit int) textinput.Model {
	in := textinput.New()
	in.Prompt = prompt
	in.PromptStyle = promptStyle
	in.CharLimit = limit
	in.Cursor.SetMode(cursor.CursorStatic)
	return in
}

// typeInto hands msg to the input; changed says whether its text changed,
// and cut, when text typed or pasted did not fit, says so.
func typeInto(in *textinput.Model, msg tea.Msg, what string) (changed bool, cut string, cmd tea.Cmd) {
	before := in.Value()
	*in, cmd = in.Update(msg)
	after := in.Value()
	if km, ok := msg.(tea.KeyMsg); ok && km.Type == tea.KeyRunes && in.CharLimit > 0 &&
		len([]rune(before))+len(km.Runes) > in.CharLimit && len([]rune(after)) >= in.CharLimit {
		cut = fmt.Sprintf("%s holds at most %d characters: the rest was not taken", what, in.CharLimit)
	}
	return after != before, cut, cmd
}
