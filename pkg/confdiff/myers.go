package confdiff

// opKind is one step of an edit script.
type opKind byte

const (
	opEqual  opKind = ' '
	opDelete opKind = '-'
	opInsert opKind = '+'
)

// op is one step: keep a[A] as b[B], delete a[A], or insert b[B].
type op struct {
	kind opKind
	A, B int
}

// editScript returns a shortest edit script turning a into b, by Myers' O((N+M)D)
// algorithm in its linear-space form (the middle snake, then each half). Memory is
// O(N+M) besides the script, so two large files that differ everywhere cost time, not
// memory.
func editScript[T comparable](a, b []T) []op {
	d := differ[T]{a: a, b: b}
	n := len(a) + len(b)
	d.vf, d.vb = make([]int, n+3), make([]int, n+3)
	d.compare(0, len(a), 0, len(b))
	return d.ops
}

type differ[T comparable] struct {
	a, b   []T
	vf, vb []int
	ops    []op
}

// compare appends the script for a[aLo:aHi] against b[bLo:bHi].
func (d *differ[T]) compare(aLo, aHi, bLo, bHi int) {
	for aLo < aHi && bLo < bHi && d.a[aLo] == d.b[bLo] {
		d.ops = append(d.ops, op{opEqual, aLo, bLo})
		aLo, bLo = aLo+1, bLo+1
	}
	suffix := 0
	for aHi > aLo && bHi > bLo && d.a[aHi-1] == d.b[bHi-1] {
		aHi, bHi, suffix = aHi-1, bHi-1, suffix+1
	}
	switch {
	case aLo == aHi:
		for j := bLo; j < bHi; j++ {
			d.ops = append(d.ops, op{opInsert, aLo, j})
		}
	case bLo == bHi:
		for i := aLo; i < aHi; i++ {
			d.ops = append(d.ops, op{opDelete, i, bLo})
		}
	default:
		x, y := d.midpoint(aLo, aHi, bLo, bHi)
		d.compare(aLo, x, bLo, y)
		d.compare(x, aHi, y, bHi)
	}
	for i := 0; i < suffix; i++ {
		d.ops = append(d.ops, op{opEqual, aHi + i, bHi + i})
	}
}

// midpoint returns a point (x, y) strictly between (aLo, bLo) and (aHi, bHi) on a
// shortest edit path, found by running the search from both ends until they meet. Both
// ranges are non-empty and differ in their first and last elements.
func (d *differ[T]) midpoint(aLo, aHi, bLo, bHi int) (int, int) {
	n, m := aHi-aLo, bHi-bLo
	delta := n - m
	odd := delta%2 != 0
	off := (n+m)/2 + 1 // index of diagonal 0 in vf and vb
	maxD := (n + m + 1) / 2
	vf, vb := d.vf[:2*off+1], d.vb[:2*off+1]
	vf[off+1], vb[off+1] = 0, 0
	for D := 0; D <= maxD; D++ {
		// Forward: x counts from aLo on diagonal k = x - y.
		for k := -D; k <= D; k += 2 {
			var x int
			if k == -D || (k != D && vf[off+k-1] < vf[off+k+1]) {
				x = vf[off+k+1]
			} else {
				x = vf[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && d.a[aLo+x] == d.b[bLo+y] {
				x, y = x+1, y+1
			}
			vf[off+k] = x
			// The reverse path on the same diagonal is delta-k in its coordinates.
			if kb := delta - k; odd && kb >= -(D-1) && kb <= D-1 && x+vb[off+kb] >= n {
				return aLo + x, bLo + y
			}
		}
		// Backward: x counts from aHi downwards on reverse diagonal k.
		for k := -D; k <= D; k += 2 {
			var x int
			if k == -D || (k != D && vb[off+k-1] < vb[off+k+1]) {
				x = vb[off+k+1]
			} else {
				x = vb[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && d.a[aHi-1-x] == d.b[bHi-1-y] {
				x, y = x+1, y+1
			}
			vb[off+k] = x
			if kf := delta - k; !odd && kf >= -D && kf <= D && x+vf[off+kf] >= n {
				return aHi - x, bHi - y
			}
		}
	}
	// Not reached: the two searches meet by D = ceil((n+m)/2).
	return aLo + 1, bLo
}
