//go:build js && wasm

package megakernel

import (
	"context"
	"errors"
	"fmt"
	"github.com/ringscope/ringscope/internal/nocompare"

	"github.com/ringscope/ringscope/webgpu"
	"github.com/ringscope/ringscope/wgsl"
	"github.com/ringscope/ringscope/wgsl/abi"
)

// compileDrain compiles k's drain module. A module the device refuses
// comes back as a *CompileError located in the user's own sources.
func compileDrain(ctx context.Context, dev *webgpu.Device, k *wgsl.Kernel) (*webgpu.ShaderModule, error) {
	src, m := k.Source()
	mod, err := dev.CreateShaderModule(ctx, "ringscope drain", src)
	var se *webgpu.ShaderError
	if err != nil && !k.IsZero() && errors.As(err, &se) {
		return nil, compileError(se, m)
	}
	return mod, err
}

// PrepareKernel compiles k's drain module, and makes its drain pipeline,
// for the next Reset to use, without touching the ring that runs now: a
// kernel that does not compile or makes no pipeline is refused here (a
// *CompileError, or the *wgsl.DeclError of a bad declaration) and the
// runner goes on as it was.
func (r *Runner) PrepareKernel(ctx context.Context, k wgsl.Kernel) error {
	if err := r.usable("prepare kernel"); err != nil {
		return err
	}
	if err := checkKernel(&k, r.dev.Limits(), bindLimit(r.dev.Limits())); err != nil {
		return err
	}
	if k.SameProgram(&r.opts.Kernel) && r.prog.drainModule != nil {
		return nil
	}
	mod, err := compileDrain(ctx, r.dev, &k)
	if err != nil {
		return err
	}
	if err := checkPipeline(ctx, r.dev, &k, mod, r.opts.WorkgroupSize, workgroupClaims(r.dev, r.cpu.of(r.dev))); err != nil {
		return err
	}
	r.prog.prepared = preparedKernel{kernel: k.Clone(), module: mod}
	return nil
}

// preparedKernel is a drain module compiled ahead of the Reset that
// switches to its kernel.
type preparedKernel struct {
	kernel wgsl.Kernel
	module *webgpu.ShaderModule
}

// switchKernel makes k the runner's kernel: its drain module compiled (or
// taken from PrepareKernel) before anything changes, then every pipeline,
// the layouts and the user buffers dropped, so the next Step builds them
// for k. On error the runner is as it was.
func (r *Runner) switchKernel(ctx context.Context, k *wgsl.Kernel) error {
	mod := r.prog.prepared.module
	if mod == nil || !r.prog.prepared.kernel.SameProgram(k) {
		var err error
		if mod, err = compileDrain(ctx, r.dev, k); err != nil {
			return err
		}
	}
	r.prog.prepared = preparedKernel{}
	r.prog.drainModule = mod
	r.res.releaseUserBuffers()
	r.res.bindGroup, r.prog.bgl, r.prog.pipeLayout = nil, nil, nil
	r.prog.pipelines, r.prog.finalize = nil, nil
	r.prog.warming, r.prog.warmed = nil, ""
	r.prog.lastKey.key = ""
	return nil
}

// userLayoutEntries are the bind group layout entries of k's buffers.
func userLayoutEntries(k *wgsl.Kernel) []webgpu.BindGroupLayoutEntry {
	var out []webgpu.BindGroupLayoutEntry
	for i, b := range bindBuffers(k) {
		t := webgpu.BufferBindingReadOnlyStorage
		if b.Access == wgsl.ReadWrite {
			t = webgpu.BufferBindingStorage
		}
		out = append(out, webgpu.BindGroupLayoutEntry{Binding: uint32(abi.BindingFirstUser + i), Buffer: webgpu.BufferBindingLayout{Type: t}})
	}
	return out
}

// ensureUserBuffers creates the user buffers of decls on dev, unless
// they exist, and writes their initial bytes (the rest of each buffer is
// zero, as created).
func (res *resources) ensureUserBuffers(dev *webgpu.Device, decls []wgsl.Buffer) error {
	if len(res.userBufs) == len(decls) {
		return nil
	}
	res.releaseUserBuffers()
	for i, b := range decls {
		buf, err := dev.CreateBuffer(webgpu.BufferDescriptor{
			Label: "ringscope user " + b.Name, Size: b.Size,
			Usage: webgpu.BufferUsageStorage | webgpu.BufferUsageCopySrc | webgpu.BufferUsageCopyDst,
		})
		if err != nil {
			res.releaseUserBuffers()
			return fmt.Errorf("buffers[%d] %s: %w", i, b.Name, err)
		}
		res.userBufs = append(res.userBufs, buf)
		if len(b.Init) > 0 {
			if err := dev.Queue().WriteBuffer(buf, 0, b.Init); err != nil {
				res.releaseUserBuffers()
				return fmt.Errorf("buffers[%d] %s: initial bytes: %w", i, b.Name, err)
			}
		}
	}
	return nil
}

// userEntries are the bind group entries of the user buffers.
func (res *resources) userEntries() []webgpu.BindGroupEntry {
	out := make([]webgpu.BindGroupEntry, len(res.userBufs))
	for i, b := range res.userBufs {
		out[i] = webgpu.BindGroupEntry{Binding: uint32(abi.BindingFirstUser + i), Buffer: b}
	}
	return out
}

func (res *resources) releaseUserBuffers() {
	for _, b := range res.userBufs {
		b.Destroy()
	}
	res.userBufs = nil
}

// ReadBuffer copies the user buffer named name back from the device, as
// the last submission left it (before the first Step: its initial bytes).
// A device loss restarts user buffers from their initial bytes.
func (r *Runner) ReadBuffer(ctx context.Context, name string) ([]byte, error) {
	if err := r.usable("read buffer"); err != nil {
		return nil, err
	}
	i := -1
	for j, b := range r.sp.decls {
		if b.Name == name {
			i = j
		}
	}
	if i < 0 {
		return nil, fmt.Errorf("megakernel: read buffer %q: the kernel declares no such buffer", name)
	}
	if err := r.res.ensureUserBuffers(r.dev, r.sp.decls); err != nil {
		return nil, failOn(r.dev, "read buffer "+name, err)
	}
	size := r.sp.decls[i].Size
	stage, err := r.dev.CreateBuffer(webgpu.BufferDescriptor{Label: "ringscope read " + name, Size: size,
		Usage: webgpu.BufferUsageMapRead | webgpu.BufferUsageCopyDst})
	if err != nil {
		return nil, failOn(r.dev, "read buffer "+name, err)
	}
	defer stage.Destroy()
	enc, err := r.dev.CreateCommandEncoder("ringscope read " + name)
	if err != nil {
		return nil, failOn(r.dev, "read buffer "+name, err)
	}
	enc.CopyBufferToBuffer(r.res.userBufs[i], 0, stage, 0, size)
	cmd, err := enc.Finish()
	if err != nil {
		return nil, failOn(r.dev, "read buffer "+name, err)
	}
	if err := r.dev.Queue().Submit(cmd); err != nil {
		return nil, failOn(r.dev, "read buffer "+name, err)
	}
	out := make([]byte, size)
	if err := stage.MapReadInto(ctx, out, 0); err != nil {
		return nil, failOn(r.dev, "read buffer "+name, err)
	}
	return out, nil
}

// InFlightUserOpcodes names the user opcodes the last submission could run
// (the JIT set of its pending items): after a device loss, the functions
// that may have run away.
func (r *Runner) InFlightUserOpcodes() []string {
	var out []string
	for _, op := range r.scan.opcodes {
		if name := r.opts.Kernel.Name(op); name != "" {
			out = append(out, name)
		}
	}
	return out
}

// CompileError is a user kernel the device would not compile: the
// messages of GPUShaderModule.getCompilationInfo, each located in the
// user's own source.
type CompileError struct {
	Diagnostics []Diagnostic
}

// Diagnostic is one compilation message at the user's line and column.
type Diagnostic struct {
	_ nocompare.T

	// Field is the declaration at fault (opcodes[0].wgsl, buffers[1]), or
	// "kernel" for a line of the built-in kernel (Line is then the
	// assembled source's).
	Field string
	// Opcode is the name of the opcode or buffer of Field.
	Opcode string
	// Line and Column are 1-based; 0 where the device's message has no
	// position (a kernel that compiles but makes no pipeline).
	Line, Column int
	Type         string // error, warning or info
	Message      string
}

func (d Diagnostic) String() string {
	where := d.Field
	if d.Opcode != "" {
		where += " (" + d.Opcode + ")"
	}
	if d.Line == 0 { // a pipeline's error: no position (kernelcheck_js.go)
		return fmt.Sprintf("%s: %s: %s", where, d.Type, d.Message)
	}
	return fmt.Sprintf("%s line %d, column %d: %s: %s", where, d.Line, d.Column, d.Type, d.Message)
}

func (e *CompileError) Error() string {
	msg := "kernel: does not compile"
	n := 0
	for _, d := range e.Diagnostics {
		if d.Type == "error" {
			if n == 0 {
				msg += ": "
			} else {
				msg += "; "
			}
			msg += d.String()
			n++
		}
	}
	return msg
}

func compileError(se *webgpu.ShaderError, m wgsl.SourceMap) *CompileError {
	e := &CompileError{}
	for _, msg := range se.Messages {
		o := m.Locate(msg.Line)
		d := Diagnostic{Field: o.Field, Opcode: o.Name, Line: o.Line, Column: msg.Column, Type: msg.Type, Message: msg.Message}
		if o.Call {
			d.Column = 1
			d.Message = "the kernel calls " + o.Name + "(slot: u32, args: Args) -> Outcome: " + msg.Message
		}
		e.Diagnostics = append(e.Diagnostics, d)
	}
	return e
}

// Implements reports whether the runner's kernel runs op (a built-in or
// one of its user opcodes).
func (r *Runner) Implements(op uint32) bool { return r.opts.Kernel.Implements(op) }
