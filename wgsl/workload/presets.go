package workload

import "github.com/ringscope/ringscope/wgsl/abi"

// Preset is a workload the page offers: its name, how the page describes
// it (what a person should see, and the diagnosis expected), and the ring
// it runs on. The page's settings form starts from these values
// (settings.Presets); its other settings (workgroup size, sketches, readback)
// are the page's own.
type Preset struct {
	Name, Title, Description string
	// Slots, Tenants and Budget are the ring's size, the tenant ids the
	// generator uses and each lane's claim budget.
	Slots, Tenants, Budget uint32
	// Workers caps the workgroups of a submission (the page's worker
	// cap; 0: the adapter's). The backlog presets run on one, so a frame
	// claims 64 lanes × Budget items at the default width, whatever the
	// adapter, and their backlogs outlast it.
	Workers uint32
	// WindowOpcodes are decoded as ticketed windows (none: nil).
	WindowOpcodes []uint32
	// FrameClaims is the fewest claims a frame of a backlog preset must
	// make (launch.go); 0 for a preset that keeps no backlog.
	FrameClaims uint32
}

// Catalogue is every preset, in menu order: the one list of them.
var Catalogue = []Preset{
	{Name: DefaultMix, Title: "Default mix", Description: "every opcode class, 8 tenants, all priorities, some windows; " +
		"every item ends within a frame or two. Expected: progressing, no cause",
		Slots: 65536, Tenants: 8, Budget: 64, WindowOpcodes: []uint32{abi.OpHash}},
	{Name: NOPFlood, Title: "Uniform NOP flood", Description: "half the ring published as NOPs each frame: raw claim throughput. " +
		"Expected: progressing, no cause",
		Slots: 65536, Tenants: 1, Budget: 64},
	{Name: SkewedTenants, Title: "Skewed tenants", Description: "tenant 0 keeps an eighth of the ring queued at HIGH (8,192 items on the default 65,536 slots), more than a frame claims " +
		"(lane budget 16 on one workgroup; a smaller ring gets a smaller lane budget), so tenants 1-15, queued at NORMAL to IDLE, never run: their oldest items age without bound " +
		"and their claims stay flat while tenant 0 completes everything. Expected: starvation of tenants 1-15, tenant 0 named hot",
		Slots: 65536, Tenants: 16, Budget: 16, Workers: 1, WindowOpcodes: []uint32{abi.OpHash}, FrameClaims: 1},
	{Name: PriorityInversion, Title: "Priority inversion", Description: "an IDLE job (tenant 7) holds a lock that CRITICAL work of " +
		"tenant 0 waits on (WAIT_IO), while a NORMAL flood takes every claim, so the IDLE job never runs to release it: CRITICAL's " +
		"claims stay flat and its oldest item ages for the flood's 300 frames while NORMAL completes; then the flood pauses and " +
		"CRITICAL completes with a p99 wait far above NORMAL's. Expected: priority inversion of CRITICAL",
		Slots: 65536, Tenants: 8, Budget: 8, Workers: 1, WindowOpcodes: []uint32{abi.OpHash}, FrameClaims: invTrickle + 1},
	{Name: Stall, Title: "Stall", Description: "work published for a masked tenant: queued, never done; the watchdog fires. " +
		"Expected: stalled, masked-tenant naming tenant 0 and its queued slots",
		Slots: 4096, Tenants: 8, Budget: 64, WindowOpcodes: []uint32{abi.OpHash}},
	{Name: FaultStorm, Title: "Fault storm", Description: "40 % of the items fault (unknown opcodes, protected and out-of-bounds words, RAISE): " +
		"faults and the log fill up. Expected: degraded, fault-storm with the fault share",
		Slots: 16384, Tenants: 8, Budget: 64, WindowOpcodes: []uint32{abi.OpHash}},
}

// Presets lists every preset name in menu order.
var Presets = func() []string {
	names := make([]string, len(Catalogue))
	for i, p := range Catalogue {
		names[i] = p.Name
	}
	return names
}()

// PresetByName finds a preset of the Catalogue.
func PresetByName(name string) (Preset, bool) {
	for _, p := range Catalogue {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}
