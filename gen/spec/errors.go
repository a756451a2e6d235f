package spec

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem in a spec, at a line of its file.
type Error struct {
	Path string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg) }

// ErrorList is every problem found in a spec, sorted by line then message.
type ErrorList []*Error

func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.As find the individual *Error values.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// add records a problem at line.
func (l *ErrorList) add(path string, line int, format string, args ...any) {
	*l = append(*l, &Error{Path: path, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// err sorts l and returns it, or a nil error (not a typed nil) when empty.
func (l ErrorList) err() error {
	if len(l) == 0 {
		return nil
	}
	sort.SliceStable(l, func(i, j int) bool {
		if l[i].Line != l[j].Line {
			return l[i].Line < l[j].Line
		}
		return l[i].Msg < l[j].Msg
	})
	return l
}

// collector gathers the errors of one spec file.
type collector struct {
	path string
	errs ErrorList
}

func (c *collector) errorf(line int, format string, args ...any) {
	c.errs.add(c.path, line, format, args...)
}
