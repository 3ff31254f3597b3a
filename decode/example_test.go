package decode_test

import (
	"encoding/binary"
	"fmt"

	"github.com/ringscope/ringscope/decode"
	"github.com/ringscope/ringscope/wgsl/abi"
)

func putWord(b []byte, word int, v uint32) { binary.LittleEndian.PutUint32(b[word*abi.WordBytes:], v) }

func ExampleDecodeInto() {
	control := make([]byte, abi.ControlWords(0)*abi.WordBytes)
	putWord(control, abi.CtrlMagic, abi.Magic)
	putWord(control, abi.CtrlABIVersion, abi.Version)
	putWord(control, abi.CtrlDoneCount, 1)
	ring := make([]byte, 4*abi.SlotBytes)
	putWord(ring, 0*abi.SlotWords+abi.SlotStatus, abi.StatusDone)
	putWord(ring, 1*abi.SlotWords+abi.SlotStatus, abi.StatusPublished)

	// A polling loop keeps dst and scratch: every later decode reuses them.
	var dst decode.RingTelemetry
	var scratch decode.DecodeScratch
	if err := decode.DecodeInto(&dst, &scratch, control, ring, nil); err != nil {
		fmt.Println(err)
		return
	}
	rc, _ := dst.RuntimeCounters()
	fmt.Println(dst.Slots[1].Status, dst.Occupancy.QueueDepth(), rc.GPUIdlePPM)

	err := decode.DecodeInto(&dst, &scratch, control, ring[:130], nil)
	fmt.Println(err)
	// Output:
	// PUBLISHED 1 500000
	// decode: ring length 130 bytes is not a whole number of 64-byte slots (2 whole ring slots, then 2 stray bytes)
}

func ExampleWatchdog() {
	control := make([]byte, abi.ControlWords(0)*abi.WordBytes)
	putWord(control, abi.CtrlMagic, abi.Magic)
	ring := make([]byte, abi.SlotBytes)
	putWord(ring, abi.SlotStatus, abi.StatusClaimed) // work that never completes

	w := decode.NewWatchdog(3)
	dec := decode.NewDecoder(nil)
	for i := range 5 {
		tel, _, err := dec.Decode(decode.Buffers{Control: control, Ring: ring})
		if err != nil {
			fmt.Println(err)
			return
		}
		st := w.Observe(float64(i*100), tel)
		fmt.Println(st.StalledIntervals, st.Stalled)
	}
	// Output:
	// 0 false
	// 1 false
	// 2 false
	// 3 true
	// 4 true
}

func ExampleDecodeLogInto() {
	log := make([]byte, abi.LogWords(2)*abi.WordBytes)
	putWord(log, abi.LogCursor, 3) // three records attempted, two fit
	putWord(log, abi.LogCapacity, 2)
	putWord(log, abi.LogHeaderWords+0, abi.LogFaultTag|abi.FaultProtected)
	putWord(log, abi.LogHeaderWords+1, 17)
	var l decode.Log
	if err := decode.DecodeLogInto(&l, log); err != nil {
		fmt.Println(err)
		return
	}
	r := l.Records[0]
	fmt.Println(len(l.Records), l.Dropped, r.Slot, r.FaultCode(), r.FaultCode().Reason())
	// Output: 2 1 17 PROTECTED the opcode tried to write a protected control word (below OBSERVABLE)
}
