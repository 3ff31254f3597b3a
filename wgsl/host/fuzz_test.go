package host_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/ringscope/ringscope/wgsl/abi"
	"github.com/ringscope/ringscope/wgsl/host"
)

// FuzzPublish drives a Queue with a byte script of publishes, fake GPU
// drains (random end statuses) and requeues, and checks after every step:
// no panic, buffer lengths fixed, a refused publish writes nothing, every
// changed byte lies in a dirty range, and dirty ranges are sorted, disjoint
// and word-aligned; every ring byte changed since the last ClearRingChanges
// lies in RingChanges, whole slots, sorted and disjoint.
func FuzzPublish(f *testing.F) {
	f.Add(uint8(10), uint8(3), []byte{0, 2, 1, 0, 0, 7, 2, 1, 1, 3, 0})
	f.Add(uint8(1), uint8(1), []byte{0, 4, 2, 0, 2, 0, 0, 1, 5, 3, 0, 0, 1, 6, 3})
	f.Add(uint8(7), uint8(29), []byte{0, 6, 0xF0, 0xFF, 0, 0, 0, 0, 1, 2, 0xF1, 0xFF, 0, 0, 0, 0, 3, 2})
	f.Fuzz(func(t *testing.T, slots, tenants uint8, script []byte) {
		cfg := host.ControlConfig{Slots: uint32(slots)%64 + 1, Observable: 2, Tenants: uint32(tenants) % 30}
		cfg.Quotas[1] = 3
		q, err := host.NewQueue(cfg, 2)
		if err != nil {
			if cfg.Tenants <= abi.TenantCount {
				t.Fatal(err)
			}
			return
		}
		q.ClearDirty()
		q.ClearRingChanges()
		since := append([]byte(nil), q.Ring()...) // the ring at the last ClearRingChanges
		lens := [3]int{len(q.Control()), len(q.Ring()), len(q.Log())}
		r := bytes.NewReader(script)
		next := func() uint32 {
			b, err := r.ReadByte()
			if err != nil {
				return 0
			}
			return uint32(b)
		}
		for step := 0; r.Len() > 0 && step < 64; step++ {
			before := snapshot(q)
			switch next() % 5 {
			case 0, 1: // publish
				n := int(next() % 8)
				items := make([]host.Item, n)
				for i := range items {
					items[i].Opcode = next() | next()<<8 | (next()%2)*0xFFFF0000
					items[i].Tenant = next() % 32
					items[i].Priority = next() % 6
					items[i].Args[0] = next()
				}
				got, err := q.Publish(items)
				if err != nil {
					if got != 0 || !same(before, snapshot(q)) {
						t.Fatalf("refused publish (%v) wrote something", err)
					}
					var pf *host.PartitionFullError
					var ie *host.ItemError
					if !errors.As(err, &pf) && !errors.As(err, &ie) && !errors.Is(err, host.ErrCounterLimit) {
						t.Fatalf("untyped error %v", err)
					}
				} else if got != n {
					t.Fatalf("published %d of %d", got, n)
				}
			case 2: // GPU drain with random end statuses
				q.ClearDirty()
				before = snapshot(q)
				ctl, ring := before[0], before[1]
				off := q.Partitions()
				for p := 0; p < abi.PriorityLevels; p++ {
					c := off[p+1] - off[p]
					h, tl := le(ctl, abi.CtrlHead+p), le(ctl, abi.CtrlTail+p)
					take := min(tl-h, next()%4)
					for k := h; k < h+take; k++ {
						putLE(ring, int(off[p]+k%c)*abi.SlotWords, next()%9)
					}
					putLE(ctl, abi.CtrlHead+p, h+take)
				}
				putLE(ctl, abi.CtrlBudgetExhausted, next())
				if next()%2 == 0 {
					if err := q.Absorb(ctl, ring, nil); err != nil {
						t.Fatal(err)
					}
					before = snapshot(q)
					break
				}
				// A summary frame: control, then the status map (sometimes
				// corrupted). A refusal changes nothing; a true map leaves
				// the host copy what the ring read would.
				if err := q.Absorb(ctl, nil, nil); err != nil {
					t.Fatal(err)
				}
				m := statusMap(ring)
				corrupt := next()%4 == 0
				if corrupt {
					switch next() % 2 {
					case 0:
						m = m[:int(next())%len(m)]
					default:
						m[int(next())%len(m)] ^= byte(next() | 1)
					}
				}
				mid := snapshot(q)
				if err := q.AbsorbStatusMap(m); err != nil {
					if !same(mid, snapshot(q)) {
						t.Fatalf("a refused status map (%v) changed the host copy", err)
					}
				} else if !corrupt && !bytes.Equal(q.Ring(), ring) {
					t.Fatal("the status map left the host copy unlike the ring")
				}
				before = snapshot(q)
			case 3:
				_, _ = q.Requeue(func(req host.Item) (host.Item, bool) { return req, next()%2 == 0 })
			case 4:
				switch next() % 4 {
				case 0:
					q.NewEpoch()
				case 1:
					_ = q.SetTenantMask(next()%32, next()%2 == 0)
				case 2:
					q.ReclaimFaults()
					// Every fault is reclaimed, wherever it is.
					ring := q.Ring()
					for slot := 0; slot < len(ring)/abi.SlotBytes; slot++ {
						if st := le(ring, slot*abi.SlotWords+abi.SlotStatus); st == abi.StatusFault {
							t.Fatalf("slot %d still FAULT after ReclaimFaults", slot)
						}
					}
				case 3:
					q.SetShutdown(next()%2 == 0)
				}
			}
			after := snapshot(q)
			for b := range after {
				if len(after[b]) != lens[b] {
					t.Fatalf("buffer %d length %d, want %d", b, len(after[b]), lens[b])
				}
				rs := q.Dirty(host.Buffer(b))
				for i, rg := range rs {
					if rg.Start%4 != 0 || rg.End%4 != 0 || rg.Start >= rg.End || rg.End > lens[b] || (i > 0 && rs[i-1].End >= rg.Start) {
						t.Fatalf("buffer %d: bad dirty ranges %v", b, rs)
					}
				}
				for i := range after[b] {
					if after[b][i] != before[b][i] && !covered(rs, i) {
						t.Fatalf("buffer %d byte %d changed outside the dirty ranges %v", b, i, rs)
					}
				}
			}
			ctl := q.Control()
			for p := 0; p < abi.PriorityLevels; p++ {
				if le(ctl, abi.CtrlTail+p) < le(ctl, abi.CtrlHead+p) {
					t.Fatalf("partition %d: TAIL below HEAD", p)
				}
			}
			q.ClearDirty()
			rc := q.RingChanges()
			for i, rg := range rc {
				if rg.Start%abi.SlotBytes != 0 || rg.End%abi.SlotBytes != 0 || rg.Start >= rg.End || rg.End > lens[1] || (i > 0 && rc[i-1].End >= rg.Start) {
					t.Fatalf("bad ring changes %v", rc)
				}
			}
			for i, b := range q.Ring() {
				if b != since[i] && !covered(rc, i) {
					t.Fatalf("ring byte %d changed outside the ring changes %v", i, rc)
				}
			}
			if next()%3 == 0 {
				q.ClearRingChanges()
				copy(since, q.Ring())
			}
		}
	})
}

func covered(rs []host.ByteRange, off int) bool {
	for _, r := range rs {
		if off >= r.Start && off < r.End {
			return true
		}
	}
	return false
}

func le(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[i*4:]) }

func putLE(b []byte, i int, v uint32) { binary.LittleEndian.PutUint32(b[i*4:], v) }

func same(a, b [3][]byte) bool {
	return bytes.Equal(a[0], b[0]) && bytes.Equal(a[1], b[1]) && bytes.Equal(a[2], b[2])
}
