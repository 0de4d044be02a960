package tomltext

import (
	"errors"
	"fmt"
)

// Join joins problems as errors.Join does, listing each message once and
// at most most of them: a large file repeating one mistake must not print
// it a million times.
func Join(errs []error, most int) error {
	var out []error
	seen := map[string]bool{}
	more := 0
	for _, err := range errs {
		if err == nil || seen[err.Error()] {
			continue
		}
		seen[err.Error()] = true
		if len(out) == most {
			more++
			continue
		}
		out = append(out, err)
	}
	if more > 0 {
		out = append(out, fmt.Errorf("... and %d more", more))
	}
	return errors.Join(out...)
}
