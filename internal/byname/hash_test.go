package byname

import (
	"strconv"
	"testing"
)

// TestHashSpreadsNames: names of one pod, which differ in a digit or two, fill a
// table's slots about as a random function would, through the high bits the table
// reads (slotOf) and through the low bits alone.
func TestHashSpreadsNames(t *testing.T) {
	for _, prefix := range []string{"app-", "c", "init-container-", "sidecar-proxy-number-"} {
		const n, size = 100, 256
		used, low := map[int]bool{}, map[uint64]bool{}
		for i := range n {
			h := hash(prefix + strconv.Itoa(i))
			used[slotOf(h, size)] = true
			low[h&(size-1)] = true
		}
		// 100 random keys in 256 slots fill about 83; far fewer means the hash
		// ignores the bytes that differ.
		if len(used) < 70 || len(low) < 70 {
			t.Errorf("prefix %q: %d names fill %d of %d slots (%d by the low bits)", prefix, n, len(used), size, len(low))
		}
	}
}
