package host

import (
	"fmt"

	"github.com/ringscope/ringscope/wgsl/abi"
)

// Limits of the host encoder. They keep a bad configuration from allocating
// gigabytes; the WebGPU default storage binding limit (128 MiB) is lower
// still, so a real ring never comes near them.
const (
	// MaxSlots is the largest ring, in slots (1 GiB of ring).
	MaxSlots = 1 << 24
	// MaxObservable is the largest OBSERVABLE region, in words.
	MaxObservable = 1 << 24
	// MaxLogCapacity is the largest log, in records.
	MaxLogCapacity = 1 << 20
	// MaxCounter is the bound PROTOCOL §3 keeps every TAIL below: the host
	// re-initialises (Queue.Reset) before a counter could pass 2^31, so
	// unsigned comparisons of 32-bit counters stay exact.
	MaxCounter = 1 << 31
)

// MaskOn is the mask word the host writes for an enabled tenant. The kernel
// tests masks only for non-zero.
const MaskOn uint32 = 0xFFFFFFFF

// ControlConfig describes a fresh control buffer. The zero value is not
// valid (a ring needs at least one slot); with only Slots set it describes
// a ring with default partitions, no observable words, every tenant
// disabled and no quotas.
type ControlConfig struct {
	// Slots is the number of ring slots, 1 … MaxSlots.
	Slots uint32
	// Observable is the number of OBSERVABLE words after the 160 fixed
	// words, 0 … MaxObservable.
	Observable uint32
	// Tenants enables tenants 0 … Tenants−1 (mask MaskOn); at most
	// abi.TenantCount (29). Use either Tenants or Masks, not both.
	Tenants uint32
	// Masks, when non-nil, is written verbatim to TENANT_MASK[0 … len−1]
	// (non-zero = enabled); at most abi.TenantCount words.
	Masks []uint32
	// Quotas is TENANT_QUOTA for the valid tenants: how many items the
	// publisher accepts per tenant per host epoch (Queue.NewEpoch). Zero
	// means unlimited. Quota words of the ids ≥ 29 stay 0.
	Quotas [abi.TenantCount]uint32
	// Partitions is PRIORITY_OFFSETS: the start slot of priorities 0 … 4,
	// then Slots. It must start at 0, never decrease and end at Slots. The
	// zero value means abi.DefaultPartitions(Slots).
	Partitions [abi.PriorityLevels + 1]uint32
	// Generation is written to GENERATION.
	Generation uint32
	// Spawn marks a ring whose kernel spawns (docs/PROTOCOL-SPAWN.md): the
	// GPU's spawn finalize advances TAIL too, so an Absorb takes TAIL from
	// the readback instead of refusing it as foreign.
	Spawn bool
}

// partitions returns the effective PRIORITY_OFFSETS of cfg.
func (cfg *ControlConfig) partitions() [abi.PriorityLevels + 1]uint32 {
	if cfg.Partitions == ([abi.PriorityLevels + 1]uint32{}) {
		return abi.DefaultPartitions(cfg.Slots)
	}
	return cfg.Partitions
}

// Validate reports the first reason cfg cannot be encoded, or nil.
func (cfg *ControlConfig) Validate() error {
	if cfg.Slots == 0 || cfg.Slots > MaxSlots {
		return fmt.Errorf("host: config: %d slots, want 1 … %d", cfg.Slots, MaxSlots)
	}
	if cfg.Observable > MaxObservable {
		return fmt.Errorf("host: config: %d observable words, want at most %d", cfg.Observable, MaxObservable)
	}
	if cfg.Tenants > abi.TenantCount {
		return fmt.Errorf("host: config: %d tenants, want at most %d (ids ≥ %d are invalid)", cfg.Tenants, abi.TenantCount, abi.TenantCount)
	}
	if cfg.Masks != nil {
		if cfg.Tenants != 0 {
			return fmt.Errorf("host: config: both Tenants (%d) and Masks set; use one", cfg.Tenants)
		}
		if len(cfg.Masks) > abi.TenantCount {
			return fmt.Errorf("host: config: %d tenant masks, want at most %d", len(cfg.Masks), abi.TenantCount)
		}
	}
	off := cfg.partitions()
	if off[0] != 0 || off[abi.PriorityLevels] != cfg.Slots {
		return fmt.Errorf("host: config: partitions %v must start at 0 and end at the slot count %d", off, cfg.Slots)
	}
	for p := 0; p < abi.PriorityLevels; p++ {
		if off[p+1] < off[p] {
			return fmt.Errorf("host: config: partitions %v decrease at priority %d", off, p)
		}
	}
	return nil
}

// ControlBytes is the length in bytes of the control buffer cfg describes.
func (cfg *ControlConfig) ControlBytes() int {
	return int(abi.ControlWords(cfg.Observable)) * abi.WordBytes
}

// EncodeControl returns a fresh control buffer for cfg: MAGIC, ABI_VERSION,
// TENANT_BASE = 3, the tenant masks and quotas, PRIORITY_OFFSETS and
// GENERATION; every other word (counters, HEAD, TAIL, SHUTDOWN,
// OBSERVABLE) is 0.
func EncodeControl(cfg ControlConfig) ([]byte, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	b := make([]byte, cfg.ControlBytes())
	encodeControlInto(b, &cfg)
	return b, nil
}

// encodeControlInto writes the control words of a validated cfg into b,
// which must be zero and of cfg.ControlBytes() bytes.
func encodeControlInto(b []byte, cfg *ControlConfig) {
	abi.PutWord(b, abi.CtrlTenantBase, abi.TenantBaseValue)
	if cfg.Masks != nil {
		for t, m := range cfg.Masks {
			abi.PutWord(b, abi.CtrlTenantMask+t, m)
		}
	} else {
		for t := 0; t < int(cfg.Tenants); t++ {
			abi.PutWord(b, abi.CtrlTenantMask+t, MaskOn)
		}
	}
	for t, q := range cfg.Quotas {
		abi.PutWord(b, abi.CtrlTenantQuota+t, q)
	}
	for i, o := range cfg.partitions() {
		abi.PutWord(b, abi.CtrlPriorityOffsets+i, o)
	}
	abi.PutWord(b, abi.CtrlMagic, abi.Magic)
	abi.PutWord(b, abi.CtrlABIVersion, abi.Version)
	abi.PutWord(b, abi.CtrlGeneration, cfg.Generation)
}

// Params is the params uniform (binding 3) of one submission. The zero
// value is a submission with epoch 0 and budget 0: every lane stops at once.
type Params struct {
	// Epoch is copied into fault records (PROTOCOL §5); the host uses its
	// own epoch (Queue.Epoch).
	Epoch uint32
	// Budget is the number of claim iterations each lane may run.
	Budget uint32
	// Observable is the number of OBSERVABLE words opcodes may write.
	Observable uint32
	// Flags holds abi.ParamFlag* bits (Queue.Params sets them).
	Flags uint32
}

// Bytes returns the 16-byte little-endian encoding of p, ready for upload.
func (p Params) Bytes() [abi.ParamsWords * abi.WordBytes]byte {
	var b [abi.ParamsWords * abi.WordBytes]byte
	abi.PutWord(b[:], abi.ParamEpoch, p.Epoch)
	abi.PutWord(b[:], abi.ParamBudget, p.Budget)
	abi.PutWord(b[:], abi.ParamObservable, p.Observable)
	abi.PutWord(b[:], abi.ParamFlags, p.Flags)
	return b
}
