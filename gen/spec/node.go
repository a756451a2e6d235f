package spec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kgen-gpu/kgen/gen/ir"
	"gopkg.in/yaml.v3"
)

// decoder walks the yaml.Node tree. Each helper reports what is wrong with
// a node and returns ok=false, so callers only skip the field concerned and
// keep going: one bad field must not hide the others.
type decoder struct{ collector }

// describe names what a node holds, for "got ..." in messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!str":
			return fmt.Sprintf("the string %.40q", n.Value)
		case "!!int":
			return "the integer " + n.Value
		case "!!bool":
			return "the boolean " + n.Value
		case "!!null":
			return "nothing (null)"
		case "!!float":
			return "the number " + n.Value
		}
		return fmt.Sprintf("%s %.40q", n.ShortTag(), n.Value)
	}
	return "nothing"
}

// kind checks that n is of kind k; want says what was expected.
func (d *decoder) kind(n *yaml.Node, k yaml.Kind, what, want string) bool {
	if n.Kind == k {
		return true
	}
	if n.Kind == yaml.AliasNode {
		// Following aliases would let a small file expand exponentially.
		d.errorf(n.Line, "%s: anchors and aliases (*name) are not supported; write the value out", what)
		return false
	}
	d.errorf(n.Line, "%s must be %s, got %s", what, want, describe(n))
	return false
}

// fields returns the value node of each key of the mapping n. Unknown and
// repeated keys are errors, and so is a key of required that is missing.
func (d *decoder) fields(n *yaml.Node, what string, known, required []string) (map[string]*yaml.Node, bool) {
	if !d.kind(n, yaml.MappingNode, what, "a mapping (key: value)") {
		return nil, false
	}
	out := map[string]*yaml.Node{}
	lines := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.errorf(k.Line, "%s: a key must be a plain name, got %s", what, describe(k))
			continue
		}
		if !slices.Contains(known, k.Value) {
			d.errorf(k.Line, "%s: unknown key %.40q; the keys are %s", what, k.Value, strings.Join(known, ", "))
			continue
		}
		if first, dup := lines[k.Value]; dup {
			d.errorf(k.Line, "%s: key %q is repeated (first on line %d); keep one", what, k.Value, first)
			continue
		}
		lines[k.Value], out[k.Value] = k.Line, v
	}
	for _, r := range required {
		if _, ok := out[r]; !ok {
			d.errorf(n.Line, "%s: missing required key %q", what, r)
		}
	}
	return out, true
}

// list returns the items of the sequence n; nonEmpty makes [] an error.
func (d *decoder) list(n *yaml.Node, what string, nonEmpty bool) ([]*yaml.Node, bool) {
	if !d.kind(n, yaml.SequenceNode, what, "a list") {
		return nil, false
	}
	if nonEmpty && len(n.Content) == 0 {
		d.errorf(n.Line, "%s must not be empty", what)
		return nil, false
	}
	return n.Content, true
}

// scalar checks that n is a scalar with the short tag tag.
func (d *decoder) scalar(n *yaml.Node, tag, what, want string) bool {
	if !d.kind(n, yaml.ScalarNode, what, want) {
		return false
	}
	if n.ShortTag() != tag {
		d.errorf(n.Line, "%s must be %s, got %s", what, want, describe(n))
		return false
	}
	return true
}

func (d *decoder) str(n *yaml.Node, what string) (string, bool) {
	return n.Value, d.scalar(n, "!!str", what, "a string")
}

func (d *decoder) integer(n *yaml.Node, what string) (int, bool) {
	var v int
	if !d.scalar(n, "!!int", what, "an integer") {
		return 0, false
	}
	if err := n.Decode(&v); err != nil {
		d.errorf(n.Line, "%s: %s is not an integer this generator can hold", what, describe(n))
		return 0, false
	}
	return v, true
}

func (d *decoder) boolean(n *yaml.Node, what string) (bool, bool) {
	var v bool
	if !d.scalar(n, "!!bool", what, "true or false") {
		return false, false
	}
	if err := n.Decode(&v); err != nil {
		d.errorf(n.Line, "%s: %s is not true or false", what, describe(n))
		return false, false
	}
	return v, true
}

// ints decodes a list of exactly len(names) integers, e.g. [M, N, K].
func (d *decoder) ints(n *yaml.Node, what string, names ...string) ([]int, bool) {
	want := fmt.Sprintf("a list of %d integers [%s]", len(names), strings.Join(names, ", "))
	if !d.kind(n, yaml.SequenceNode, what, want) {
		return nil, false
	}
	if len(n.Content) != len(names) {
		d.errorf(n.Line, "%s must be %s, got %d items", what, want, len(n.Content))
		return nil, false
	}
	out := make([]int, len(names))
	ok := true
	for i, item := range n.Content {
		v, good := d.integer(item, what+" "+names[i])
		out[i], ok = v, ok && good
	}
	return out, ok
}

// enum decodes a string that must spell one of all.
func enum[T fmt.Stringer](d *decoder, n *yaml.Node, what, noun string, all []T, parse func(string) (T, bool)) (T, bool) {
	var zero T
	s, ok := d.str(n, what)
	if !ok {
		return zero, false
	}
	v, ok := parse(s)
	if !ok {
		d.errorf(n.Line, "%s: unknown %s %.40q; use one of %s", what, noun, s, strings.Join(ir.Names(all), ", "))
	}
	return v, ok
}
