package main

import (
	"fmt"
	"io"
	"time"
)

// progress is the line on stderr that says which section and kernel runs,
// how far the section is and about how long it has left. It rewrites itself
// with a carriage return, so it is drawn only on a terminal (or with
// -progress), and every result line on stdout clears it first.
type progress struct {
	w           io.Writer
	on          bool
	now         func() time.Time
	name        string
	done, total int
	started     time.Time
	what        string
	shown       bool
}

func newProgress(w io.Writer, on bool) *progress {
	return &progress{w: w, on: on, now: time.Now}
}

// section starts a section of total steps.
func (p *progress) section(name string, total int) {
	p.name, p.done, p.total, p.started, p.what = name, 0, total, p.now(), ""
	p.redraw()
}

// item names what runs now.
func (p *progress) item(what string) {
	p.what = what
	p.redraw()
}

// step counts one step of the section done.
func (p *progress) step() {
	p.done++
	p.redraw()
}

// clear erases the line, if it is shown.
func (p *progress) clear() {
	if p != nil && p.on && p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}

// redraw writes the line again.
func (p *progress) redraw() {
	if p == nil || !p.on || p.name == "" {
		return
	}
	fmt.Fprint(p.w, "\r\033[K"+formatProgress(p.name, p.what, p.done, p.total, p.now().Sub(p.started)))
	p.shown = true
}

// formatProgress is the progress line: section, steps done of total,
// percent, what runs, and the time left if the steps so far are typical.
func formatProgress(section, what string, done, total int, elapsed time.Duration) string {
	pct := 0
	if total > 0 {
		pct = 100 * done / total
	}
	left := "time left unknown"
	if done > 0 && total >= done {
		rem := time.Duration(float64(elapsed) / float64(done) * float64(total-done))
		left = "about " + rem.Round(time.Second).String() + " left"
	}
	line := fmt.Sprintf("[%s %d/%d %d%%] %s, %s", section, done, total, pct, elapsed.Round(time.Second), left)
	if what != "" {
		line += ": " + what
	}
	const width = 160 // longer lines wrap, and \r then redraws only the last part
	if len(line) > width {
		line = line[:width-3] + "..."
	}
	return line
}
