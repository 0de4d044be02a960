package experiments

import (
	"fmt"

	"qcnlab/experiments/tomltext"
)

// MaxNesting bounds how deep arrays and inline tables may nest in an
// experiment file. The deepest a valid file goes is about 3 ([[sources.
// override]] with ids = [...]); the TOML decoder's memory grows steeply with
// depth (a 40 KB file nested 20,000 deep once took 14 GB), so the text is
// scanned before it is decoded.
const MaxNesting = 16

// checkNesting refuses text whose arrays or inline tables nest deeper than
// MaxNesting, naming the line and the key it is under.
func checkNesting(where, text string, snippet bool) error {
	line, key, deep := tomltext.TooDeep(text, MaxNesting)
	if !deep {
		return nil
	}
	at := where
	if !snippet {
		at = fmt.Sprintf("%s:%d", where, line)
	}
	return &Error{Where: at, Key: key,
		Msg: fmt.Sprintf("arrays and inline tables nest deeper than %d levels; an experiment needs a few", MaxNesting)}
}
