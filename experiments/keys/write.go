package keys

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// kindText is a key's kind with its unit or words: "rate", "list of
// link indices", "ecmp|spray".
func (k *Key) kindText() string {
	switch {
	case k.Kind == Choice:
		return strings.Join(k.Choices, "|")
	case k.Kind == List:
		return "list of " + k.Unit
	case k.Unit != "":
		return k.Kind.String() + " (" + k.Unit + ")"
	}
	return k.Kind.String()
}

// defaultText is the default a key has: the value defaults gives it
// (what a default experiment resolves it to), after how it is derived.
func (k *Key) defaultText(defaults map[string]string) string {
	v := defaults[k.Path]
	switch {
	case k.Derived != "" && v != "" && k.Derived != strings.Trim(v, `"`):
		return k.Derived + " (" + v + ")"
	case k.Derived != "":
		return k.Derived
	}
	return v
}

// docText is the doc line, with the fabric's reading and the cost.
func (k *Key) docText() string {
	doc := k.Doc
	if k.FabricDoc != "" {
		doc += "; on a fabric: " + k.FabricDoc
	}
	if k.Cost != "" {
		doc += "; cost: " + k.Cost
	}
	return doc
}

// WriteText writes the registry as qcnlab help keys shows it: one key a
// block, its kind, default, where it applies and its doc.
func WriteText(w io.Writer, defaults map[string]string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i := range All {
		k := &All[i]
		fmt.Fprintf(tw, "%s\t%s\n", k.Path, k.kindText())
		if d := k.defaultText(defaults); d != "" {
			fmt.Fprintf(tw, "\tdefault %s\n", d)
		}
		if where := k.Where(); where != "all" {
			fmt.Fprintf(tw, "\tapplies to %s\n", where)
		}
		fmt.Fprintf(tw, "\t%s\n", k.docText())
	}
	return tw.Flush()
}

// WriteMarkdown writes the registry as the README's table of keys.
func WriteMarkdown(w io.Writer, defaults map[string]string) error {
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	code := func(s string) string {
		if s == "" {
			return ""
		}
		return "`" + s + "`"
	}
	if _, err := fmt.Fprintln(w, "| key | kind | default | applies to | what it is |\n|---|---|---|---|---|"); err != nil {
		return err
	}
	for i := range All {
		k := &All[i]
		def := defaults[k.Path]
		d := code(def)
		if k.Derived != "" {
			d = cell(k.Derived)
			if def != "" && k.Derived != strings.Trim(def, `"`) {
				d += " (" + code(def) + ")"
			}
		}
		if _, err := fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s |\n", k.Path, cell(k.kindText()), d, k.Where(), cell(k.docText())); err != nil {
			return err
		}
	}
	return nil
}

// DropWhatDoesNotApply removes from a saved experiment the keys and tables
// its topology does not read (the registry's Topologies: a fabric's
// [sources] and network.rtt), which the encoder writes for every
// experiment, and which loading it back would refuse.
func DropWhatDoesNotApply(text, topology string) string {
	applies := func(path string) bool {
		k, ok := Lookup(path)
		return !ok || k.AppliesTo(topology)
	}
	var out []string
	skip, table := false, ""
	for _, line := range strings.SplitAfter(text, "\n") {
		t := strings.TrimSpace(line)
		switch key, _, isKey := strings.Cut(t, " ="); {
		case strings.HasPrefix(t, "["):
			table = strings.Trim(t, "[] ")
			skip = !applies(table)
		case isKey && table == "" && !applies(key), isKey && table != "" && !applies(table+"."+key):
			continue
		}
		if !skip {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}
