package host

// stampFIFO counts the waiting items of one tenant or priority by publish
// time, oldest first: items are published in clock order, so a new stamp
// goes at the back (merged with an equal one: a batch is one stamp), and
// the oldest waiting item is the first stamp whose count is not 0. An
// item that leaves (it ended, or moved to another priority or tenant)
// takes one off its stamp's count, found by binary search, or at once when
// it is the stamp the last removal found: ends come in publish order, in
// runs of one batch. Its storage is reused, so it allocates only when
// more distinct stamps wait than ever before.
type stampFIFO struct {
	e    []stampCount
	head int // e[head:] are live; e[head].n > 0 unless empty
	hint int // the index the last remove found
}

type stampCount struct {
	at float64
	n  uint32
}

func (f *stampFIFO) reset() { f.e, f.head, f.hint = f.e[:0], 0, 0 }

// add counts n items published at at.
func (f *stampFIFO) add(at float64, n uint32) {
	if n == 0 {
		return
	}
	if last := len(f.e) - 1; last >= f.head {
		switch {
		case f.e[last].at == at:
			f.e[last].n += n
			return
		case f.e[last].at > at:
			// An item moved in from another group with its old stamp, or
			// a clock that stepped back: keep the order.
			f.insert(at, n)
			return
		}
	}
	if f.head > 0 && f.head == len(f.e) {
		f.e, f.head = f.e[:0], 0
	} else if f.head > 64 && f.head > len(f.e)/2 {
		f.e = f.e[:copy(f.e, f.e[f.head:])]
		f.head, f.hint = 0, 0
	}
	f.e = append(f.e, stampCount{at, n})
}

func (f *stampFIFO) insert(at float64, n uint32) {
	i := f.find(at)
	if i < len(f.e) && f.e[i].at == at {
		f.e[i].n += n
		return
	}
	f.e = append(f.e, stampCount{})
	copy(f.e[i+1:], f.e[i:])
	f.e[i] = stampCount{at, n}
	if i < f.head { // cannot happen: find searches e[head:]
		f.head = i
	}
}

// find is the first live index whose stamp is not below at.
func (f *stampFIFO) find(at float64) int {
	lo, hi := f.head, len(f.e)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if f.e[m].at < at {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// remove takes n items of stamp at off; it reports false when no item of
// that stamp waits (the caller's bookkeeping is off).
func (f *stampFIFO) remove(at float64, n uint32) bool {
	i := f.hint
	if i < f.head || i >= len(f.e) || f.e[i].at != at {
		if i = f.find(at); i >= len(f.e) || f.e[i].at != at {
			return false
		}
	}
	f.hint = i
	f.e[i].n -= min(n, f.e[i].n)
	for f.head < len(f.e) && f.e[f.head].n == 0 {
		f.head++
	}
	return true
}

// oldest is the stamp of the oldest waiting item.
func (f *stampFIFO) oldest() (float64, bool) {
	if f.head >= len(f.e) {
		return 0, false
	}
	return f.e[f.head].at, true
}
