// Package ref is the pure-Go reference interpreter of the ringscope
// megakernel ABI v1 (docs/PROTOCOL.md §3–§5): the oracle the WGSL
// kernel is tested against. Run executes one submission (one bounded drain
// dispatch, then the finalize dispatch) over the same little-endian byte
// buffers the GPU binds, in place.
//
// # Lane interleaving
//
// The GPU runs lanes concurrently and nondeterministically; the interpreter
// is deterministic. It runs in rounds: in round r (r < params.budget) every
// lane still running executes its iteration r, in global lane order
// (lane = workgroup × width + local index), each iteration atomically. After
// the last round, every lane that ran all its budget checks the exhaustion
// rule against the final state. Within a dispatch no work appears (TAIL is
// host-owned and protected) and SHUTDOWN only goes from 0 to 1, so once one
// lane fails to claim, every later lane fails too; the interpreter exploits
// that and costs O(claims + rounds), not O(lanes × budget).
//
// GPU tests compare only order-independent results: final statuses, the
// counters, HEAD, OBSERVABLE words written by one slot each, the multiset of
// log records when none were dropped.
//
// # One lane (the WGSL kernel must match this)
//
//	if lane == 0 { DISPATCHES += 1 }
//	for i := 0; i < budget; i++ {
//		if SHUTDOWN != 0 { return }
//		claimed := false
//		for p := 0; p < 5 && !claimed; p++ {
//			if !usable(p) || HEAD[p] >= TAIL[p] { continue } // unsigned compare
//			c := atomicAdd(&HEAD[p], 1)
//			if c < TAIL[p] { run(OFF[p] + c%C(p), p); claimed = true }
//		}
//		if !claimed { return }
//	}
//	if SHUTDOWN == 0 && some usable p has HEAD[p] < TAIL[p] { BUDGET_EXHAUSTED += 1 }
//
// Partition p is usable when OFF[p] < OFF[p+1] ≤ slots (the ring's length in
// slots), C(p) = OFF[p+1] − OFF[p]; malformed or empty partitions are never
// claimed from and never count as remaining work. The finalize dispatch then
// sets HEAD[p] = min(HEAD[p], TAIL[p]) for all five p.
//
// # One claimed slot: run(slot, p)
//
//	STATUS != PUBLISHED        → fault BAD_STATE
//	TENANT ≥ 29                → fault BAD_TENANT
//	control[3 + TENANT] == 0   → STATUS = YIELD, DENIED += 1
//	otherwise                  → STATUS = CLAIMED, CLAIMS += 1,
//	                             TENANT_CLAIMS[TENANT] += 1, PRIORITY_CLAIMS[p] += 1,
//	                             OPCODE_METRICS[op] += 1 if op < 32, then the opcode
//
// The mask is read at the constant offset 3 (TENANT_BASE is not followed),
// PRIORITY_CLAIMS is indexed by the partition (the slot's PRIORITY word is
// not read), STARVATION is not written. A fault sets STATUS = FAULT,
// DONE_COUNT += 1, FAULTS += 1 and appends the record
// [0xFFFF0000 | code, slot, OPCODE, params.epoch]; DONE sets STATUS = DONE
// and DONE_COUNT += 1. Appending a record: r = atomicAdd(&CURSOR, 1); the
// record is written at word 4 + 4r only when r < min(CAPACITY, (words − 4)/4)
// (the log's declared capacity, bounded by its real length).
//
// # Opcodes
//
// Bounds: W is the control buffer's length in words, N = min(params.observable,
// W − 160) the OBSERVABLE words opcodes may write, D the data buffer's length
// in words. A write to control word w faults PROTECTED when w < 160 and
// OUT_OF_BOUNDS when w − 160 ≥ N; a read of word w faults OUT_OF_BOUNDS when
// w ≥ W; a result index i (OBSERVABLE[i] = control[160 + i]) faults
// OUT_OF_BOUNDS when i ≥ N. All index arithmetic is exact (no 32-bit
// wrap-around; the WGSL twin must check without overflowing). Checks run in
// argument order before any effect: a faulting opcode has no effect but the
// fault.
//
//	NOP           nothing
//	STORE_U32     write a1: control[a1] = a0
//	ATOMIC_ADD    write a1: control[a1] += a0 (mod 2^32)
//	LOAD_U32      read a0, result a1: OBSERVABLE[a1] = control[a0]
//	COMPARE_SWAP  write a0, result a3: old = control[a0];
//	              if old == a1 { control[a0] = a2 }; OBSERVABLE[a3] = old
//	MEMCPY        a0 + a2 ≤ W else OUT_OF_BOUNDS; a1 ≥ 160 else PROTECTED;
//	              a1 + a2 ≤ 160 + N else OUT_OF_BOUNDS (checked even when
//	              a2 = 0); then for i = 0, 1, … a2−1: control[a1+i] = control[a0+i]
//	              (forward, so an overlapping copy with a1 > a0 repeats words)
//	DFA_STEP      write a0 (the state word, absolute like STORE_U32's);
//	              a2 + a3 ≤ 4D else OUT_OF_BOUNDS; state = control[a0]; for each
//	              byte b of data bytes a2 … a2+a3−1 (byte j is bits 8(j%4)… of
//	              word j/4): t = a1 + 256·state + b, t < D else OUT_OF_BOUNDS
//	              (the state word is then not written), state = data[t];
//	              finally control[a0] = state
//	BATCH_FENCE   result a2: EPOCH += 1; OBSERVABLE[a2] = a1
//	HASH          a0 + a1 ≤ D else OUT_OF_BOUNDS; result a2:
//	              OBSERVABLE[a2] = Hash(data words a0 … a0+a1−1)
//	SPIN          a0 ≤ abi.SpinMaxRounds else OUT_OF_BOUNDS; result a1:
//	              OBSERVABLE[a1] = Spin(a2, a0) (a2 is the seed)
//	YIELD         STATUS = YIELD        REQUEUE   STATUS = REQUEUE
//	WAIT_IO       STATUS = WAIT_IO      RAISE     fault USER_FAULT (a0 stays in the slot)
//	PRINTF        append [a0, slot, a1, a2]; DONE (also when dropped)
//	SHUTDOWN      SHUTDOWN = 1; DONE
//	anything else fault UNKNOWN_OPCODE
//
// Every opcode that neither faults nor names another status ends DONE.
package ref
