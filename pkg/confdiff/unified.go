package confdiff

// contextLines is the number of unchanged lines shown around a change, as diff -u.
const contextLines = 3

// Hunk is one hunk of a unified diff: its lines, where they are in each file (1-based
// starts, as diff -u writes them) and the owners of the lines it changes.
type Hunk struct {
	OldStart, OldLines, NewStart, NewLines int
	Lines                                  []Line
	Owners                                 []Owner
}

// Line is a line of a hunk: kept (' '), removed ('-') or added ('+').
type Line struct {
	Op   byte
	Text string
}

// segment is a run of lines with one owner.
type segment struct {
	owner      Owner
	start, end int
}

func segments(c *canonical) ([]segment, []Owner) {
	var segs []segment
	var ids []Owner
	for i, o := range c.owners {
		if len(segs) > 0 && segs[len(segs)-1].owner == o {
			segs[len(segs)-1].end = i + 1
			continue
		}
		segs = append(segs, segment{o, i, i + 1})
		ids = append(ids, o)
	}
	return segs, ids
}

// lineScript is the edit script of two canonical files. Their segments (a job, a
// receiver, a top-level key) are matched by owner first, then the lines of matched
// segments are compared: a change inside one job is diffed within that job, however long
// the file.
func lineScript(a, b *canonical) []op {
	sa, ia := segments(a)
	sb, ib := segments(b)
	var out []op
	for _, s := range editScript(ia, ib) {
		switch s.kind {
		case opDelete:
			seg := sa[s.A]
			for i := seg.start; i < seg.end; i++ {
				out = append(out, op{opDelete, i, bPos(sb, s.B, len(b.lines))})
			}
		case opInsert:
			seg := sb[s.B]
			for j := seg.start; j < seg.end; j++ {
				out = append(out, op{opInsert, aPos(sa, s.A, len(a.lines)), j})
			}
		case opEqual:
			x, y := sa[s.A], sb[s.B]
			for _, l := range editScript(a.lines[x.start:x.end], b.lines[y.start:y.end]) {
				out = append(out, op{l.kind, x.start + l.A, y.start + l.B})
			}
		}
	}
	return out
}

func aPos(s []segment, i, n int) int {
	if i < len(s) {
		return s[i].start
	}
	return n
}

func bPos(s []segment, i, n int) int { return aPos(s, i, n) }

// hunks groups the changes of the two files into hunks with ctx lines of context.
func hunks(a, b *canonical, ctx int) []Hunk {
	script := lineScript(a, b)
	var out []Hunk
	for i := 0; i < len(script); {
		if script[i].kind == opEqual {
			i++
			continue
		}
		// A hunk starts ctx lines before this change and runs while the changes are less
		// than 2*ctx+1 kept lines apart.
		start := max(0, i-ctx)
		end := i
		for j := i; j < len(script); j++ {
			if script[j].kind != opEqual {
				end = j + 1
				continue
			}
			if j-end >= 2*ctx {
				break
			}
		}
		stop := min(len(script), end+ctx)
		out = append(out, makeHunk(a, b, script[start:stop]))
		i = stop
	}
	return out
}

func makeHunk(a, b *canonical, s []op) Hunk {
	h := Hunk{OldStart: s[0].A + 1, NewStart: s[0].B + 1}
	seen := map[Owner]bool{}
	own := func(o Owner) {
		if !seen[o] {
			seen[o] = true
			h.Owners = append(h.Owners, o)
		}
	}
	for _, o := range s {
		switch o.kind {
		case opEqual:
			h.Lines = append(h.Lines, Line{' ', a.lines[o.A]})
			h.OldLines++
			h.NewLines++
		case opDelete:
			h.Lines = append(h.Lines, Line{'-', a.lines[o.A]})
			h.OldLines++
			own(a.owners[o.A])
		case opInsert:
			h.Lines = append(h.Lines, Line{'+', b.lines[o.B]})
			h.NewLines++
			own(b.owners[o.B])
		}
	}
	// diff -u names the line before an empty range.
	if h.OldLines == 0 {
		h.OldStart--
	}
	if h.NewLines == 0 {
		h.NewStart--
	}
	return h
}
