package shard

import (
	"fmt"
	"reflect"
	"strings"

	"qcnlab/experiments/results"
)

// What summary.json and shard.json may decode to is bounded by their size
// before they are decoded: the limits on the files' sizes alone do not
// bound it, since a tampered list of empty objects ([{},{},...], 3 bytes
// each) decodes to a struct of tens or hundreds of bytes per element. A
// shape counts the elements of every list in a file, each charged the size
// of what it decodes into (by the list's key), and refuses a file whose
// elements would take more than maxDecodedFactor times its size (plus
// maxDecodedSlack): a file qcnlab wrote takes less memory decoded than its
// JSON.
const (
	maxDecodedFactor = 2
	maxDecodedSlack  = 16 << 20
)

// shape is what the lists of a JSON file decode to: by the key of a list,
// the size of one of its elements (the largest for a key that several
// lists share); largest, the largest of all, for any other list.
type shape struct {
	elementBytes map[string]int64
	largest      int64
}

// The shapes of summary.json and shard.json.
var (
	summaryShape  = shapeOf(reflect.TypeOf(results.Result{}))
	manifestShape = shapeOf(reflect.TypeOf(Manifest{}))
)

func shapeOf(t reflect.Type) shape {
	sizes, largest := listElementSizes(t)
	return shape{sizes, largest}
}

// listElementSizes walks t's fields and returns, by JSON key, the size of
// the elements of each slice field, and the largest of them.
func listElementSizes(t reflect.Type) (map[string]int64, int64) {
	sizes := map[string]int64{}
	largest := int64(0)
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous {
				walk(f.Type)
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Slice {
				size := int64(ft.Elem().Size())
				sizes[name] = max(sizes[name], size)
				largest = max(largest, size)
			}
			walk(f.Type)
		}
	}
	walk(t)
	return sizes, largest
}

// bound refuses a file whose lists would decode to more than a file
// qcnlab writes can take (see maxDecodedFactor). It reads the JSON a byte
// at a time, allocating nothing; malformed JSON is left to the decoder.
func (sh shape) bound(data []byte) error {
	type frame struct {
		list      bool
		element   int64  // a list's element size
		key       []byte // an object's last key
		expectKey bool
	}
	stack := []frame{{}} // the document, as an object without keys
	var total int64
	limit := int64(len(data))*maxDecodedFactor + maxDecodedSlack
	value := func() { // a value starts: in a list, an element
		if top := &stack[len(stack)-1]; top.list {
			total += top.element
		}
	}
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case ' ', '\t', '\n', '\r', ':':
		case ',':
			if top := &stack[len(stack)-1]; !top.list {
				top.expectKey = true
			}
		case '"':
			j := i + 1
			for j < len(data) && data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				j++
			}
			if top := &stack[len(stack)-1]; !top.list && top.expectKey {
				top.key, top.expectKey = data[i+1:min(j, len(data))], false
			} else {
				value()
			}
			i = j
		case '{':
			value()
			stack = append(stack, frame{expectKey: true})
		case '[':
			value()
			size := sh.largest
			if top := stack[len(stack)-1]; !top.list {
				if s, ok := sh.elementBytes[string(top.key)]; ok {
					size = s
				}
			}
			stack = append(stack, frame{list: true, element: size})
		case '}', ']':
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		default: // a number, true, false or null
			value()
			for i+1 < len(data) && !strings.ContainsRune(" \t\n\r,]}:", rune(data[i+1])) {
				i++
			}
		}
		if total > limit {
			return fmt.Errorf("its lists would take more than %d bytes decoded, %d times its size: "+
				"not a summary qcnlab wrote (edited or damaged?)", limit, maxDecodedFactor)
		}
	}
	return nil
}
