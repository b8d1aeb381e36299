// Package coverage counts what a differential test's inputs reached (outcomes,
// branches, classes) and asserts the minimums the test promises: a weak generator, or a
// run shrunk by PODLIFE_N, fails the test instead of passing with a thin log line.
package coverage

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// Counts is a multiset of named outcomes. The zero value is ready to use.
type Counts struct {
	m     map[string]int
	total int
}

// Add counts one occurrence of key.
func (c *Counts) Add(key string) { c.AddN(key, 1) }

// AddN counts n occurrences of key.
func (c *Counts) AddN(key string, n int) {
	if c.m == nil {
		c.m = map[string]int{}
	}
	c.m[key] += n
	c.total += n
}

// Addf counts one occurrence of the formatted key.
func (c *Counts) Addf(format string, args ...any) { c.Add(fmt.Sprintf(format, args...)) }

// Get returns the count of key.
func (c *Counts) Get(key string) int { return c.m[key] }

// Total returns the number of occurrences counted.
func (c *Counts) Total() int { return c.total }

// Keys returns the keys counted, sorted.
func (c *Counts) Keys() []string {
	keys := make([]string, 0, len(c.m))
	for k := range c.m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// String renders the counts, sorted by key.
func (c *Counts) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range c.Keys() {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s: %d", k, c.m[k])
	}
	b.WriteByte('}')
	return b.String()
}

// AtLeast fails tb unless key was counted at least n times.
func (c *Counts) AtLeast(tb testing.TB, what, key string, n int) {
	tb.Helper()
	if got := c.m[key]; got < n {
		tb.Errorf("%s: %q reached %d times, the test requires at least %d (counts %s)", what, key, got, n, c)
	}
}

// Each fails tb unless every key was counted at least n times.
func (c *Counts) Each(tb testing.TB, what string, n int, keys ...string) {
	tb.Helper()
	for _, k := range keys {
		c.AtLeast(tb, what, k, n)
	}
}

// Share fails tb unless key makes up at least frac of the total.
func (c *Counts) Share(tb testing.TB, what, key string, frac float64) {
	tb.Helper()
	if c.total == 0 || float64(c.m[key]) < frac*float64(c.total) {
		tb.Errorf("%s: %q is %d of %d, the test requires a share of at least %.3g (counts %s)", what, key, c.m[key], c.total, frac, c)
	}
}

// Require fails tb unless got is at least min; what names the quantity.
func Require(tb testing.TB, what string, got, min int) {
	tb.Helper()
	if got < min {
		tb.Errorf("%s: %d, the test requires at least %d", what, got, min)
	}
}

// RequireShare fails tb unless part is at least frac of whole.
func RequireShare(tb testing.TB, what string, part, whole int, frac float64) {
	tb.Helper()
	if whole == 0 || float64(part) < frac*float64(whole) {
		tb.Errorf("%s: %d of %d, the test requires a share of at least %.3g", what, part, whole, frac)
	}
}
