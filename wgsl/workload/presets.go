package workload

import "github.com/ringscope/ringscope/wgsl/abi"

// Preset is a workload the page offers: its name, how the page describes
// it, and the ring it runs on. The page's settings form starts from these
// values (ui.Presets); its other settings (workgroup size, sketches,
// readback) are the page's own.
type Preset struct {
	Name, Title, Description string
	// Slots, Tenants and Budget are the ring's size, the tenant ids the
	// generator uses and each lane's claim budget.
	Slots, Tenants, Budget uint32
	// WindowOpcodes are decoded as ticketed windows (none: nil).
	WindowOpcodes []uint32
}

// Catalogue is every preset, in menu order: the one list of them.
var Catalogue = []Preset{
	{Name: DefaultMix, Title: "Default mix", Description: "every opcode class, 8 tenants, all priorities, some windows",
		Slots: 65536, Tenants: 8, Budget: 64, WindowOpcodes: []uint32{abi.OpHash}},
	{Name: NOPFlood, Title: "Uniform NOP flood", Description: "the whole ring published as NOPs: raw claim throughput",
		Slots: 65536, Tenants: 1, Budget: 64},
	{Name: SkewedTenants, Title: "Skewed tenants", Description: "Zipf-like tenant mix: one tenant owns most slots; watch fairness skew",
		Slots: 65536, Tenants: 16, Budget: 64, WindowOpcodes: []uint32{abi.OpHash}},
	{Name: PriorityInversion, Title: "Priority inversion", Description: "IDLE floods while CRITICAL work waits behind it; watch heads/tails",
		Slots: 65536, Tenants: 8, Budget: 8, WindowOpcodes: []uint32{abi.OpHash}},
	{Name: Stall, Title: "Stall", Description: "work published for a masked tenant: queued, never done; the watchdog fires",
		Slots: 4096, Tenants: 8, Budget: 64, WindowOpcodes: []uint32{abi.OpHash}},
	{Name: FaultStorm, Title: "Fault storm", Description: "unknown opcodes, bad tenants and RAISE: faults and the log fill up",
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
