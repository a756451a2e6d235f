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
	// work is each step's expected share of the section's time.
	work    []float64
	started time.Time
	what    string
	shown   bool
}

func newProgress(w io.Writer, on bool) *progress {
	return &progress{w: w, on: on, now: time.Now}
}

// section starts a section of total steps, each expected to take as long.
func (p *progress) section(name string, total int) {
	work := make([]float64, total)
	for i := range work {
		work[i] = 1
	}
	p.sectionWork(name, work)
}

// sectionWork starts a section of len(work) steps, step i expected to take
// work[i] (in any unit), so that the time left follows the work left.
func (p *progress) sectionWork(name string, work []float64) {
	p.name, p.done, p.total, p.work, p.started, p.what = name, 0, len(work), work, p.now(), ""
	p.redraw()
}

// fraction is the share of the section's work done.
func (p *progress) fraction() float64 {
	var done, all float64
	for i, w := range p.work {
		all += w
		if i < p.done {
			done += w
		}
	}
	if !(all > 0) {
		return 0
	}
	return done / all
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
	fmt.Fprint(p.w, "\r\033[K"+formatProgress(p.name, p.what, p.done, p.total, p.fraction(), p.now().Sub(p.started)))
	p.shown = true
}

// formatProgress is the progress line: section, steps done of total, the
// percent of the section's work done (frac), what runs, and the time left
// if the work so far ran at the section's pace.
func formatProgress(section, what string, done, total int, frac float64, elapsed time.Duration) string {
	pct := int(100 * frac)
	left := "time left unknown"
	if done > 0 && total >= done && frac > 0 && frac <= 1 {
		rem := time.Duration(float64(elapsed) * (1 - frac) / frac)
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
