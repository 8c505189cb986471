package arc

import "math/rand/v2"

// pair1D is one 1-D example: an input row and its output row.
type pair1D struct{ in, out []int }

// gen1D draws one example of a row of size cells, or reports false where
// reasoning-gym's generator returns None (the caller draws again).
type gen1D func(rng *rand.Rand, size int) (pair1D, bool)

// task1D is one of arc_1d_tasks.py's named generators.
type task1D struct {
	name string
	gen  gen1D
}

// randint is Python's random.randint: a value in [lo, hi], both inclusive.
// reasoning-gym's generators never ask for an empty range at sizes of at
// least 8 (Arc1DConfig's minimum); a panic here is a porting bug.
func randint(rng *rand.Rand, lo, hi int) int {
	if hi < lo {
		panic("arc: randint on an empty range")
	}
	return lo + rng.IntN(hi-lo+1)
}

func field(size int) []int { return make([]int, size) }

// writeBlock writes block into f at pos, clipping at the row's end (Python
// would raise there; no generator writes past it).
func writeBlock(f []int, pos int, block []int) {
	for i, c := range block {
		if p := pos + i; p >= 0 && p < len(f) {
			f[p] = c
		}
	}
}

func solidBlock(color, n int) []int {
	b := make([]int, n)
	for i := range b {
		b[i] = color
	}
	return b
}

func randomRow(rng *rand.Rand, size, lo, hi int) []int {
	row := make([]int, size)
	for i := range row {
		if rng.Float64() < 0.5 {
			row[i] = randint(rng, lo, hi)
		}
	}
	return row
}

func moveNPix(movePix int, solid bool) gen1D {
	return func(rng *rand.Rand, size int) (pair1D, bool) {
		if size <= movePix+1 {
			return pair1D{}, false
		}
		n := randint(rng, 1, size-movePix-1)
		pos := randint(rng, 0, size-n-movePix)
		block := colorBlock(rng, n, solid)
		in, out := field(size), field(size)
		writeBlock(in, pos, block)
		writeBlock(out, pos+movePix, block)
		return pair1D{in, out}, true
	}
}

func colorBlock(rng *rand.Rand, n int, solid bool) []int {
	if solid {
		return solidBlock(randint(rng, 1, 9), n)
	}
	b := make([]int, n)
	for i := range b {
		b[i] = randint(rng, 1, 9)
	}
	return b
}

func moveNPixWrapped(movePix int, solid bool) gen1D {
	return func(rng *rand.Rand, size int) (pair1D, bool) {
		n := randint(rng, 1, size)
		pos := randint(rng, 0, size-1)
		block := colorBlock(rng, n, solid)
		in, out := field(size), field(size)
		for i, c := range block {
			in[(pos+i)%size] = c
			out[(pos+movePix+i)%size] = c
		}
		return pair1D{in, out}, true
	}
}

func gravity(rng *rand.Rand, size int) (pair1D, bool) {
	in := randomRow(rng, size, 1, 9)
	out := field(size)
	k := 0
	for _, c := range in {
		if c != 0 {
			out[k] = c
			k++
		}
	}
	return pair1D{in, out}, true
}

func gravityCounting(rng *rand.Rand, size int) (pair1D, bool) {
	in := randomRow(rng, size, 1, 9)
	out := field(size)
	k := 0
	for _, c := range in {
		if c != 0 {
			out[k] = 1
			k++
		}
	}
	return pair1D{in, out}, true
}

func gravityAntigravity(rng *rand.Rand, size int) (pair1D, bool) {
	in := randomRow(rng, size, 1, 2)
	ones, twos := count(in, 1), count(in, 2)
	out := field(size)
	for i := range twos {
		out[i] = 2
	}
	for i := range ones {
		out[size-1-i] = 1
	}
	return pair1D{in, out}, true
}

func count(row []int, c int) int {
	n := 0
	for _, x := range row {
		if x == c {
			n++
		}
	}
	return n
}

// side picks where a block goes relative to a dot, as reasoning-gym does:
// at random where both fit.
func side(rng *rand.Rand, left, right bool) (isLeft, ok bool) {
	switch {
	case left && right:
		return rng.IntN(2) == 0, true
	case left:
		return true, true
	case right:
		return false, true
	}
	return false, false
}

func blockTouchDot(rng *rand.Rand, size int) (pair1D, bool) {
	const dot = 1
	color := randint(rng, 2, 9)
	n := randint(rng, 1, size-1)
	dotPos := randint(rng, 0, size-1)
	isLeft, ok := side(rng, dotPos >= n, dotPos+n < size)
	if !ok {
		return pair1D{}, false
	}
	var qPos, aPos int
	if isLeft {
		qPos, aPos = randint(rng, 0, dotPos-n), dotPos-n
	} else {
		qPos, aPos = randint(rng, dotPos+1, size-n), dotPos+1
	}
	in, out := field(size), field(size)
	in[dotPos], out[dotPos] = dot, dot
	writeBlock(in, qPos, solidBlock(color, n))
	writeBlock(out, aPos, solidBlock(color, n))
	return pair1D{in, out}, true
}

func blockTouchDotNPix(movePix int) gen1D {
	return func(rng *rand.Rand, size int) (pair1D, bool) {
		const dot = 2
		color := randint(rng, 3, 9)
		n := randint(rng, 1, size-1)
		dotPos := randint(rng, 0, size-1)
		isLeft, ok := side(rng, dotPos >= n, dotPos+n < size)
		if !ok {
			return pair1D{}, false
		}
		var qPos, aPos int
		if isLeft {
			qPos = randint(rng, 0, dotPos-n)
			aPos = qPos + min(dotPos-n-qPos, movePix)
		} else {
			qPos = randint(rng, dotPos+1, size-n)
			aPos = qPos - min(qPos-(dotPos+1), movePix)
		}
		in, out := field(size), field(size)
		in[dotPos], out[dotPos] = dot, dot
		writeBlock(in, qPos, solidBlock(color, n))
		writeBlock(out, aPos, solidBlock(color, n))
		return pair1D{in, out}, true
	}
}

func blockScaleToDot(rng *rand.Rand, size int) (pair1D, bool) {
	const dot = 2
	color := randint(rng, 3, 9)
	n := randint(rng, 1, size-1)
	dotPos := randint(rng, 0, size-1)
	isLeft, ok := side(rng, dotPos >= n, dotPos+n < size)
	if !ok {
		return pair1D{}, false
	}
	var qPos, aPos, newSize int
	if isLeft {
		qPos = randint(rng, 0, dotPos-n)
		newSize, aPos = dotPos-qPos+1, qPos
	} else {
		qPos = randint(rng, dotPos+1, size-n)
		newSize, aPos = qPos+n-dotPos, dotPos
	}
	in, out := field(size), field(size)
	in[dotPos] = dot
	writeBlock(in, qPos, solidBlock(color, n))
	out[dotPos] = dot
	writeBlock(out, aPos, solidBlock(color, newSize))
	return pair1D{in, out}, true
}

func twoPointsAndFill(rng *rand.Rand, size int) (pair1D, bool) {
	color := randint(rng, 1, 9)
	p1, p2 := randint(rng, 0, size-1), randint(rng, 0, size-1)
	if p1 == p2 {
		return pair1D{}, false
	}
	p1, p2 = min(p1, p2), max(p1, p2)
	in := field(size)
	in[p1], in[p2] = color, color
	out := field(size)
	for i := p1; i <= p2; i++ {
		out[i] = color
	}
	return pair1D{in, out}, true
}

func reflectBlockWithBorderPixel(rng *rand.Rand, size int) (pair1D, bool) {
	n := randint(rng, 2, size)
	c1 := randint(rng, 1, 9)
	c2 := choiceExcept(rng, c1)
	left := rng.Float64() < 0.5
	pos := randint(rng, 0, size-n)
	block := solidBlock(c1, n)
	if left {
		block[0] = c2
	} else {
		block[n-1] = c2
	}
	return reflected(size, pos, block), true
}

// choiceExcept is reasoning-gym's choice from colours 1..8 other than c
// (its range(1, 9) stops at 8).
func choiceExcept(rng *rand.Rand, c int) int {
	var cs []int
	for x := 1; x < 9; x++ {
		if x != c {
			cs = append(cs, x)
		}
	}
	return cs[rng.IntN(len(cs))]
}

func reflected(size, pos int, block []int) pair1D {
	in, out := field(size), field(size)
	writeBlock(in, pos, block)
	rev := make([]int, len(block))
	for i, c := range block {
		rev[len(block)-1-i] = c
	}
	writeBlock(out, pos, rev)
	return pair1D{in, out}
}

func reflectBlockRandom(rng *rand.Rand, size int) (pair1D, bool) {
	n := randint(rng, 2, size)
	left := rng.Float64() < 0.5
	pos := randint(rng, 0, size-n)
	border := randint(rng, 1, 9)
	block := make([]int, n)
	for i := range block {
		block[i] = choiceExcept(rng, border)
	}
	if left {
		block[0] = border
	} else {
		block[n-1] = border
	}
	return reflected(size, pos, block), true
}

func reflectBlockAroundDot(rng *rand.Rand, size int) (pair1D, bool) {
	const dot = 2
	dotPos := randint(rng, 0, size-1)
	n := randint(rng, 1, size-1)
	pos := randint(rng, 0, size-n)
	end := pos + n - 1
	if !(end < dotPos || pos > dotPos) {
		return pair1D{}, false
	}
	color := randint(rng, 3, 9)
	if 2*dotPos-end < 0 || 2*dotPos-pos >= size {
		return pair1D{}, false
	}
	in, out := field(size), field(size)
	writeBlock(in, pos, solidBlock(color, n))
	in[dotPos], out[dotPos] = dot, dot
	for i := range n {
		out[2*dotPos-(pos+i)] = color
	}
	return pair1D{in, out}, true
}

func blockAndNoiseRemove(rng *rand.Rand, size int) (pair1D, bool) {
	n := randint(rng, 2, size)
	pos := randint(rng, 0, size-n)
	color := randint(rng, 1, 9)
	f := field(size)
	forbidden := make([]bool, size)
	for i := pos; i < pos+n; i++ {
		f[i], forbidden[i] = color, true
	}
	if pos > 0 {
		forbidden[pos-1] = true
	}
	if pos+n < size {
		forbidden[pos+n] = true
	}
	noise := randint(rng, 1, 3)
	var placed []int
	for range noise {
		var allowed []int
		for i, no := range forbidden {
			if !no {
				allowed = append(allowed, i)
			}
		}
		if len(allowed) == 0 {
			break
		}
		p := allowed[rng.IntN(len(allowed))]
		placed = append(placed, p)
		f[p], forbidden[p] = color, true
		if p > 0 {
			forbidden[p-1] = true
		}
		if p+1 < size {
			forbidden[p+1] = true
		}
	}
	if len(placed) < noise {
		return pair1D{}, false
	}
	out := clone(f)
	for _, p := range placed {
		out[p] = 0
	}
	return pair1D{f, out}, true
}

func clone(row []int) []int { return append([]int(nil), row...) }

func blockAndNoiseRemoveInside(rng *rand.Rand, size int) (pair1D, bool) {
	if size <= 6 {
		return pair1D{}, false
	}
	n := randint(rng, 6, size)
	pos := randint(rng, 0, size-n)
	color := randint(rng, 1, 9)
	f := field(size)
	writeBlock(f, pos, solidBlock(color, n))
	noise := randint(rng, 1, max(1, n/2-1))
	offsets := make([]int, n)
	for i := range offsets {
		offsets[i] = i
	}
	shuffle(rng, offsets)
	for _, off := range offsets[:noise] {
		c := randint(rng, 1, 9)
		for c == color {
			c = randint(rng, 1, 9)
		}
		f[pos+off] = c
	}
	out := clone(f)
	for _, off := range offsets[:noise] {
		out[pos+off] = color
	}
	return pair1D{f, out}, true
}

// shuffle is Python's random.shuffle (Fisher–Yates from the end).
func shuffle[T any](rng *rand.Rand, s []T) {
	for i := len(s) - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		s[i], s[j] = s[j], s[i]
	}
}

func copyBlockToDots(colored bool) gen1D {
	return func(rng *rand.Rand, size int) (pair1D, bool) {
		n := 5
		if rng.Float64() < 0.5 {
			n = 3
		}
		if n >= size {
			return pair1D{}, false
		}
		color := randint(rng, 1, 9)
		var dots, colors []int
		for pos := n + n/2 + 1; pos <= size-n; pos++ {
			if rng.Float64() < 0.5 {
				dots = append(dots, pos)
				c := color
				if colored {
					c = randint(rng, 1, 9)
				}
				colors = append(colors, c)
				pos += n
			}
		}
		if len(dots) == 0 {
			return pair1D{}, false
		}
		in, out := field(size), field(size)
		writeBlock(in, 0, solidBlock(color, n))
		writeBlock(out, 0, solidBlock(color, n))
		for i, p := range dots {
			in[p] = colors[i]
			writeBlock(out, p-n/2, solidBlock(colors[i], n))
		}
		return pair1D{in, out}, true
	}
}

// block is a run of cells: its start and length.
type block struct{ pos, n int }

func paintBiggestBlock(rng *rand.Rand, size int) (pair1D, bool) {
	const target = 1
	color := randint(rng, 2, 9)
	in := field(size)
	var blocks []block
	for pos := 0; pos < size; {
		if rng.Float64() < 0.4 && size-pos >= 2 {
			n := randint(rng, 2, min(size-pos, 6))
			blocks = append(blocks, block{pos, n})
			writeBlock(in, pos, solidBlock(color, n))
			pos += n + 1
		} else {
			pos++
		}
	}
	if len(blocks) < 2 {
		return pair1D{}, false
	}
	big := blocks[0]
	for _, b := range blocks[1:] {
		if b.n > big.n {
			big = b
		}
	}
	ties := 0
	for _, b := range blocks {
		if b.n == big.n {
			ties++
		}
	}
	if ties > 1 {
		return pair1D{}, false
	}
	out := clone(in)
	writeBlock(out, big.pos, solidBlock(target, big.n))
	return pair1D{in, out}, true
}

func sortBlocksBySize(rng *rand.Rand, size int) (pair1D, bool) {
	color := randint(rng, 1, 9)
	var blocks []block
	for pos := 0; pos < size; {
		if rng.Float64() < 0.4 && size-pos >= 2 {
			n := randint(rng, 1, min(size-pos, 6))
			blocks = append(blocks, block{pos, n})
			pos += n + randint(rng, 1, 4)
		} else {
			pos++
		}
	}
	if len(blocks) < 2 {
		return pair1D{}, false
	}
	in := field(size)
	for _, b := range blocks {
		writeBlock(in, b.pos, solidBlock(color, b.n))
	}
	sortStable(blocks)
	total := len(blocks) - 1
	for _, b := range blocks {
		total += b.n
	}
	if total > size {
		return pair1D{}, false
	}
	out := field(size)
	pos := 0
	for _, b := range blocks {
		writeBlock(out, pos, solidBlock(color, b.n))
		pos += b.n + 1
	}
	return pair1D{in, out}, true
}

// sortStable sorts blocks by length, keeping the order of equal ones (as
// Python's sort does).
func sortStable(bs []block) {
	for i := 1; i < len(bs); i++ {
		for j := i; j > 0 && bs[j].n < bs[j-1].n; j-- {
			bs[j], bs[j-1] = bs[j-1], bs[j]
		}
	}
}

func sortCompleteSequence(rng *rand.Rand, size int) (pair1D, bool) {
	maxN, total := 1, 0
	for total+maxN+1 <= size {
		total += maxN + 1
		maxN++
	}
	maxN--
	if maxN < 2 {
		return pair1D{}, false
	}
	color := randint(rng, 1, 9)
	sizes := make([]int, maxN)
	for i := range sizes {
		sizes[i] = i + 1
	}
	shuffle(rng, sizes)
	in, out := field(size), field(size)
	pos := 0
	for _, n := range sizes {
		writeBlock(in, pos, solidBlock(color, n))
		pos += n + 1
	}
	pos = 0
	for n := 1; n <= maxN; n++ {
		writeBlock(out, pos, solidBlock(color, n))
		pos += n + 1
	}
	return pair1D{in, out}, true
}

func recolorBlocksBySize(rng *rand.Rand, size int) (pair1D, bool) {
	s1 := randint(rng, 2, 8)
	s2 := randint(rng, 2, 8)
	for s2 == s1 {
		s2 = randint(rng, 2, 8)
	}
	if s1+s2+1 > size {
		return pair1D{}, false
	}
	p1 := randint(rng, 0, size-(s1+s2+1))
	p2 := randint(rng, p1+s1+1, size-s2)
	in := field(size)
	writeBlock(in, p1, solidBlock(3, s1))
	writeBlock(in, p2, solidBlock(3, s2))
	out := clone(in)
	c1, c2 := 2, 1
	if s1 > s2 {
		c1, c2 = 1, 2
	}
	writeBlock(out, p1, solidBlock(c1, s1))
	writeBlock(out, p2, solidBlock(c2, s2))
	return pair1D{in, out}, true
}

func gravityOneStep(rng *rand.Rand, size int) (pair1D, bool) {
	in := randomRow(rng, size, 1, 9)
	out := clone(in)
	for i := 1; i < size; i++ {
		if out[i] != 0 && out[i-1] == 0 {
			out[i-1], out[i] = out[i], 0
		}
	}
	return pair1D{in, out}, true
}

func moveBlockByOwnSize(rng *rand.Rand, size int) (pair1D, bool) {
	n := randint(rng, 1, size/2)
	pos := randint(rng, 0, size-2*n)
	color := randint(rng, 1, 9)
	in, out := field(size), field(size)
	writeBlock(in, pos, solidBlock(color, n))
	writeBlock(out, pos+n, solidBlock(color, n))
	return pair1D{in, out}, true
}

func changeToFive(rng *rand.Rand, size int) (pair1D, bool) {
	in := randomRow(rng, size, 1, 9)
	out := field(size)
	for i, c := range in {
		if c != 0 {
			out[i] = 5
		}
	}
	return pair1D{in, out}, true
}

func recolorBlocksFromPalette(rng *rand.Rand, size int) (pair1D, bool) {
	n := randint(rng, 2, 4)
	var blocks []int
	for pos := 0; pos+n <= size; {
		if rng.Float64() < 0.4 {
			blocks = append(blocks, pos)
			pos += n + 1
		} else {
			pos++
		}
	}
	// reasoning-gym loops for ever drawing a tenth distinct colour (rows
	// above about 40 cells); Quarry keeps the first nine blocks.
	blocks = blocks[:min(len(blocks), 9)]
	for len(blocks) > 0 && blocks[len(blocks)-1]+n+len(blocks)+1 >= size {
		blocks = blocks[:len(blocks)-1]
	}
	if len(blocks) == 0 {
		return pair1D{}, false
	}
	for i := range blocks {
		blocks[i] += len(blocks) + 1
	}
	var colors []int
	for range blocks {
		for {
			c := randint(rng, 1, 9)
			if !contains(colors, c) {
				colors = append(colors, c)
				break
			}
		}
	}
	in := field(size)
	copy(in, colors)
	for _, p := range blocks {
		writeBlock(in, p, solidBlock(5, n))
	}
	out := clone(in)
	for i, p := range blocks {
		writeBlock(out, p, solidBlock(colors[i], n))
	}
	return pair1D{in, out}, true
}

func contains(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func duplicateBlockFromSeeds(rng *rand.Rand, size int) (pair1D, bool) {
	n := randint(rng, 2, 4)
	if n+1 >= size || size <= 3+n {
		return pair1D{}, false
	}
	pos := randint(rng, 2, size-n-2)
	left, right := false, false
	for !left && !right {
		left = rng.Float64() < 0.5
		right = rng.Float64() < 0.5
	}
	in := field(size)
	writeBlock(in, pos, solidBlock(1, n))
	type seed struct {
		left     bool
		pos, col int
	}
	var seeds []seed
	if left {
		c := randint(rng, 1, 9)
		in[pos-2] = c
		seeds = append(seeds, seed{true, pos - 2, c})
	}
	if right {
		c := randint(rng, 1, 9)
		in[pos+n+1] = c
		seeds = append(seeds, seed{false, pos + n + 1, c})
	}
	out := clone(in)
	for _, s := range seeds {
		if s.left {
			for end := s.pos; end >= 0; {
				start := end - n + 1
				for p := max(0, start); p <= end; p++ {
					out[p] = s.col
				}
				if start < 1 {
					break
				}
				end = start - 2
			}
			continue
		}
		for start := s.pos; start < size; start += n + 1 {
			for off := range min(n, size-start) {
				out[start+off] = s.col
			}
			if start+n+1 >= size {
				break
			}
		}
	}
	return pair1D{in, out}, true
}

func fillFromPixel(rng *rand.Rand, size int) (pair1D, bool) {
	if size < 8 {
		return pair1D{}, false
	}
	n := randint(rng, 3, size-5)
	pos := randint(rng, 2, size-n-2)
	in := field(size)
	color := randint(rng, 1, 9)
	writeBlock(in, pos, solidBlock(color, n))
	seed := randint(rng, 1, 8)
	if seed >= color {
		seed++
	}
	left := rng.Float64() < 0.5
	if left {
		in[pos-1] = seed
	} else {
		in[pos+n] = seed
	}
	out := clone(in)
	if left {
		for i := range pos {
			out[i] = seed
		}
	} else {
		for i := pos + n; i < size; i++ {
			out[i] = seed
		}
	}
	return pair1D{in, out}, true
}

func markSizeTwoBlocks(rng *rand.Rand, size int) (pair1D, bool) {
	if size < 8 {
		return pair1D{}, false
	}
	sizes := []int{2}
	for pos := 4; pos < size; {
		if rng.Float64() < 0.4 {
			n := randint(rng, 1, 3)
			if pos+n <= size {
				sizes = append(sizes, n)
			}
			pos += n + 2
		} else {
			sizes = append(sizes, 0)
			pos++
		}
	}
	shuffle(rng, sizes)
	var blocks []block
	pos := 0
	for _, n := range sizes {
		if n == 0 {
			pos++
			continue
		}
		blocks = append(blocks, block{pos, n})
		pos += n + 2
	}
	in := field(size)
	for _, b := range blocks {
		c := randint(rng, 1, 8)
		if c >= 3 {
			c++
		}
		writeBlock(in, b.pos, solidBlock(c, b.n))
	}
	out := clone(in)
	for _, b := range blocks {
		if b.n != 2 {
			continue
		}
		if b.pos > 0 {
			out[b.pos-1] = 3
		}
		if b.pos+b.n < size {
			out[b.pos+b.n] = 3
		}
	}
	return pair1D{in, out}, true
}

func fillUntilCollision(rng *rand.Rand, size int) (pair1D, bool) {
	if size < 4 {
		return pair1D{}, false
	}
	left := rng.Float64() < 0.5
	in := field(size)
	lo, hi := 1, size-1
	if left {
		in[0] = 5
	} else {
		in[size-1] = 5
		lo, hi = 0, size-2
	}
	k := randint(rng, 2, 4)
	var ps []int
	for range k {
		for {
			p := randint(rng, lo, hi)
			if !contains(ps, p) {
				ps = append(ps, p)
				break
			}
		}
	}
	for _, p := range ps {
		c := randint(rng, 1, 8)
		if c >= 5 {
			c++
		}
		in[p] = c
	}
	sortInts(ps)
	out := clone(in)
	if left {
		prev := 0
		for _, p := range ps {
			for i := prev + 1; i < p; i++ {
				out[i] = in[p]
			}
			prev = p
		}
	} else {
		prev := size - 1
		for i := len(ps) - 1; i >= 0; i-- {
			p := ps[i]
			for j := p + 1; j < prev; j++ {
				out[j] = in[p]
			}
			prev = p
		}
	}
	return pair1D{in, out}, true
}

func sortInts(s []int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func repeatPatternFull(rng *rand.Rand, size int) (pair1D, bool) {
	n := randint(rng, 2, 5)
	pattern := make([]int, n)
	for i := range pattern {
		pattern[i] = randint(rng, 1, 9)
	}
	if 2*n >= size {
		return pair1D{}, false
	}
	in := field(size)
	writeBlock(in, 0, pattern)
	writeBlock(in, n, pattern)
	out := field(size)
	for i := range out {
		out[i] = pattern[i%n]
	}
	return pair1D{in, out}, true
}

func gravityWeightedColors(rng *rand.Rand, size int) (pair1D, bool) {
	in := randomRow(rng, size, 1, 2)
	ones, twos := count(in, 1), count(in, 2)
	out := field(size)
	for i := range twos {
		out[i] = 2
	}
	for i := range ones {
		out[twos+i] = 1
	}
	return pair1D{in, out}, true
}

func colorLeftHalfBlocks(rng *rand.Rand, size int) (pair1D, bool) {
	in := field(size)
	var blocks []block
	for pos := 0; pos < size; {
		if rng.Float64() < 0.4 {
			n := randint(rng, 2, size/2)
			if pos+n > size {
				break
			}
			blocks = append(blocks, block{pos, n})
			writeBlock(in, pos, solidBlock(2, n))
			pos += n + 1
		} else {
			pos++
		}
	}
	if len(blocks) < 2 {
		return pair1D{}, false
	}
	out := clone(in)
	for _, b := range blocks {
		writeBlock(out, b.pos, solidBlock(8, b.n/2))
	}
	return pair1D{in, out}, true
}

// mirror is task_mirror: both rows reversed.
func mirror(g gen1D) gen1D {
	return func(rng *rand.Rand, size int) (pair1D, bool) {
		p, ok := g(rng, size)
		if !ok {
			return p, false
		}
		return pair1D{reversed(p.in), reversed(p.out)}, true
	}
}

func reversed(row []int) []int {
	r := make([]int, len(row))
	for i, c := range row {
		r[len(row)-1-i] = c
	}
	return r
}

// inverse is task_inverse: input and output swapped.
func inverse(g gen1D) gen1D {
	return func(rng *rand.Rand, size int) (pair1D, bool) {
		p, ok := g(rng, size)
		return pair1D{p.out, p.in}, ok
	}
}

// tasks1D is ARC_1D_TASKS, in its order.
var tasks1D = func() []task1D {
	var ts []task1D
	add := func(name string, g gen1D) { ts = append(ts, task1D{name, g}) }
	for _, wrapped := range []bool{false, true} {
		for _, left := range []bool{false, true} {
			for _, solid := range []bool{true, false} {
				for n := 1; n <= 4; n++ {
					kind := "colorful"
					if solid {
						kind = "solid"
					}
					dir, w := "right", ""
					if left {
						dir = "left"
					}
					g := moveNPix(n, solid)
					if wrapped {
						g, w = moveNPixWrapped(n, solid), "_wrapped"
					}
					if left {
						g = mirror(g)
					}
					add("move_"+string(rune('0'+n))+"pix_"+kind+w+"_"+dir, g)
				}
			}
		}
	}
	gravities := []task1D{
		{"gravity", gravity},
		{"gravity_counting", gravityCounting},
		{"gravity_antigravity", gravityAntigravity},
		{"gravity_one_step", gravityOneStep},
		{"gravity_weighted_colors", gravityWeightedColors},
	}
	for _, g := range gravities {
		add(g.name+"_right", g.gen)
	}
	for _, g := range gravities {
		add(g.name+"_left", mirror(g.gen))
	}
	add("block_touch_dot", blockTouchDot)
	for n := 1; n <= 4; n++ {
		add("block_touch_dot_"+string(rune('0'+n))+"pix", blockTouchDotNPix(n))
	}
	add("block_scale_to_dot", blockScaleToDot)
	add("block_and_noise_remove", blockAndNoiseRemove)
	add("block_and_noise_remove_inside", blockAndNoiseRemoveInside)
	add("move_block_by_own_size", moveBlockByOwnSize)
	add("two_points_and_fill", twoPointsAndFill)
	add("two_points_and_fill_inv", inverse(twoPointsAndFill))
	add("copy_block_to_dots", copyBlockToDots(false))
	add("copy_block_to_dots_colors", copyBlockToDots(true))
	add("repeat_pattern_full", repeatPatternFull)
	add("reflect_block_with_border_pixel", reflectBlockWithBorderPixel)
	add("reflect_block_random", reflectBlockRandom)
	add("reflect_block_around_dot", reflectBlockAroundDot)
	add("paint_biggest_block", paintBiggestBlock)
	add("recolor_blocks_by_size", recolorBlocksBySize)
	add("change_to_five", changeToFive)
	add("recolor_blocks_from_palette", recolorBlocksFromPalette)
	add("color_left_half_blocks", colorLeftHalfBlocks)
	add("sort_blocks_by_size", sortBlocksBySize)
	add("sort_complete_sequence", sortCompleteSequence)
	add("duplicate_block_from_seeds", duplicateBlockFromSeeds)
	add("fill_from_pixel", fillFromPixel)
	add("fill_until_collision", fillUntilCollision)
	add("mark_size_two_blocks", markSizeTwoBlocks)
	return ts
}()
