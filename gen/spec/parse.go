package spec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Parse decodes and validates the spec in data; path is the file's name as
// it should appear in messages and in generated headers. On any problem it
// returns a nil Spec and an ErrorList holding every problem found.
func Parse(path string, data []byte) (*Spec, error) {
	d := &decoder{collector{path: path}}
	root, err := parseYAML(data)
	if err != nil {
		line, msg := yamlErrorLine(err)
		d.errorf(line, "%s", msg)
		return nil, d.errs.err()
	}
	s := d.spec(root)
	d.errs = append(d.errs, s.validate()...)
	if err := d.errs.err(); err != nil {
		return nil, err
	}
	return s, nil
}

// parseYAML parses the single YAML document in data. The parser has
// panicked on malformed input before; a spec must never crash the
// generator, so a panic becomes an error.
func parseYAML(data []byte) (doc *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, fmt.Errorf("the YAML parser failed on this input: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var n yaml.Node
	if err := dec.Decode(&n); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("the spec is empty; it must start with version: 1")
		}
		return nil, err
	}
	// yaml.Unmarshal would silently drop a second document; say so instead.
	var more yaml.Node
	switch err := dec.Decode(&more); {
	case err == nil:
		return nil, fmt.Errorf("yaml: line %d: a spec is one YAML document; remove the second one (after ---)", more.Line)
	case !errors.Is(err, io.EOF):
		return nil, err
	}
	return &n, nil
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlErrorLine splits "yaml: line N: msg" so the line is positioned like
// every other error.
func yamlErrorLine(err error) (int, string) {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return n, "invalid YAML: " + m[2]
		}
	}
	return 1, "invalid YAML: " + strings.TrimPrefix(msg, "yaml: ")
}
