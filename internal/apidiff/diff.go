package apidiff

import (
	"fmt"
	"strings"
)

// SplitLines splits s after each newline and terminates the last line, as difflib does.
func SplitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	lines[len(lines)-1] += "\n"
	return lines
}

// opcode is a difflib opcode: lines a[i1:i2] become b[j1:j2].
type opcode struct {
	tag            byte // 'e'qual, 'r'eplace, 'd'elete, 'i'nsert
	i1, i2, j1, j2 int
}

// maxDiffLines bounds the line matching, which is quadratic at worst; past it the
// differing part is shown as one replacement of everything between the common prefix
// and suffix.
const maxDiffLines = 20000

// matcher finds matching blocks the way difflib's SequenceMatcher does (without a junk
// function, with its "popular line" heuristic): the longest matching block first, then
// recursively on either side.
type matcher struct {
	a, b []string
	b2j  map[string][]int
}

func newMatcher(a, b []string) *matcher {
	m := &matcher{a: a, b: b, b2j: make(map[string][]int)}
	for j, l := range b {
		m.b2j[l] = append(m.b2j[l], j)
	}
	if n := len(b); n >= 200 {
		// Lines more common than 1% of b are not used to anchor a match.
		limit := n/100 + 1
		for l, idx := range m.b2j {
			if len(idx) > limit {
				delete(m.b2j, l)
			}
		}
	}
	return m
}

// longest returns the longest matching block in a[alo:ahi], b[blo:bhi], earliest in a
// then in b, extended over lines the heuristic ignored.
func (m *matcher) longest(alo, ahi, blo, bhi int) (int, int, int) {
	besti, bestj, best := alo, blo, 0
	j2len := map[int]int{}
	for i := alo; i < ahi; i++ {
		next := map[int]int{}
		for _, j := range m.b2j[m.a[i]] {
			if j < blo {
				continue
			}
			if j >= bhi {
				break
			}
			k := j2len[j-1] + 1
			next[j] = k
			if k > best {
				besti, bestj, best = i-k+1, j-k+1, k
			}
		}
		j2len = next
	}
	for besti > alo && bestj > blo && m.a[besti-1] == m.b[bestj-1] {
		besti, bestj, best = besti-1, bestj-1, best+1
	}
	for besti+best < ahi && bestj+best < bhi && m.a[besti+best] == m.b[bestj+best] {
		best++
	}
	return besti, bestj, best
}

// blocks appends the matching blocks of a[alo:ahi], b[blo:bhi] in order.
func (m *matcher) blocks(alo, ahi, blo, bhi int, out [][3]int) [][3]int {
	i, j, k := m.longest(alo, ahi, blo, bhi)
	if k == 0 {
		return out
	}
	if alo < i && blo < j {
		out = m.blocks(alo, i, blo, j, out)
	}
	out = append(out, [3]int{i, j, k})
	if i+k < ahi && j+k < bhi {
		out = m.blocks(i+k, ahi, j+k, bhi, out)
	}
	return out
}

// opcodes returns difflib's opcodes turning a into b.
func opcodes(a, b []string) []opcode {
	var matched [][3]int
	if len(a)+len(b) <= maxDiffLines {
		matched = newMatcher(a, b).blocks(0, len(a), 0, len(b), nil)
	} else {
		matched = prefixSuffixBlocks(a, b)
	}
	// Merge adjacent blocks, then add the sentinel.
	var merged [][3]int
	for _, blk := range matched {
		if n := len(merged); n > 0 && merged[n-1][0]+merged[n-1][2] == blk[0] && merged[n-1][1]+merged[n-1][2] == blk[1] {
			merged[n-1][2] += blk[2]
			continue
		}
		merged = append(merged, blk)
	}
	merged = append(merged, [3]int{len(a), len(b), 0})
	var codes []opcode
	i, j := 0, 0
	for _, blk := range merged {
		ai, bj, size := blk[0], blk[1], blk[2]
		switch {
		case i < ai && j < bj:
			codes = append(codes, opcode{'r', i, ai, j, bj})
		case i < ai:
			codes = append(codes, opcode{'d', i, ai, j, bj})
		case j < bj:
			codes = append(codes, opcode{'i', i, ai, j, bj})
		}
		i, j = ai+size, bj+size
		if size > 0 {
			codes = append(codes, opcode{'e', ai, i, bj, j})
		}
	}
	return codes
}

// prefixSuffixBlocks matches only the common prefix and suffix, in linear time.
func prefixSuffixBlocks(a, b []string) [][3]int {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out [][3]int
	if pre > 0 {
		out = append(out, [3]int{0, 0, pre})
	}
	if suf > 0 {
		out = append(out, [3]int{len(a) - suf, len(b) - suf, suf})
	}
	return out
}

// Unified formats the hunks of a and b with n lines of context, as difflib's
// WriteUnifiedDiff does without file names.
func Unified(a, b []string, n int) string {
	codes := opcodes(a, b)
	if len(codes) == 0 {
		codes = []opcode{{'e', 0, 1, 0, 1}}
	}
	if c := &codes[0]; c.tag == 'e' {
		c.i1, c.j1 = max(c.i1, c.i2-n), max(c.j1, c.j2-n)
	}
	if c := &codes[len(codes)-1]; c.tag == 'e' {
		c.i2, c.j2 = min(c.i2, c.i1+n), min(c.j2, c.j1+n)
	}
	var groups [][]opcode
	var group []opcode
	for _, c := range codes {
		if c.tag == 'e' && c.i2-c.i1 > 2*n {
			group = append(group, opcode{'e', c.i1, min(c.i2, c.i1+n), c.j1, min(c.j2, c.j1+n)})
			groups = append(groups, group)
			group = nil
			c.i1, c.j1 = max(c.i1, c.i2-n), max(c.j1, c.j2-n)
		}
		group = append(group, c)
	}
	if len(group) > 0 && !(len(group) == 1 && group[0].tag == 'e') {
		groups = append(groups, group)
	}
	var sb strings.Builder
	for _, g := range groups {
		first, last := g[0], g[len(g)-1]
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", unifiedRange(first.i1, last.i2), unifiedRange(first.j1, last.j2))
		for _, c := range g {
			if c.tag == 'e' {
				for _, l := range a[c.i1:c.i2] {
					sb.WriteString(" " + l)
				}
				continue
			}
			for _, l := range a[c.i1:c.i2] {
				sb.WriteString("-" + l)
			}
			for _, l := range b[c.j1:c.j2] {
				sb.WriteString("+" + l)
			}
		}
	}
	return sb.String()
}

func unifiedRange(start, stop int) string {
	begin, length := start+1, stop-start
	if length == 1 {
		return fmt.Sprintf("%d", begin)
	}
	if length == 0 {
		begin--
	}
	return fmt.Sprintf("%d,%d", begin, length)
}
