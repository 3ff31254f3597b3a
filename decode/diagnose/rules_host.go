package diagnose

// The rules of what the host knows for certain, or of the control buffer
// as a whole: a lost device, a stuck submission, a control buffer of
// another layout, SHUTDOWN.

func (r *rules) deviceLost(dst []Cause) []Cause {
	if !r.f.Lost {
		return dst
	}
	c := r.inFlightCause(DeviceLost)
	c.Evidence.AddText("reason", r.f.LostReason)
	r.addInFlight(&c)
	c.Fix = "The page recovers the device and reopens the ring; if a user opcode was in flight, bound its loops."
	if r.f.Attached {
		c.Fix = "The host ended the attachment (it destroyed a buffer, or its device was lost): nothing is read back; attach again once its ring exists."
	}
	if len(r.f.InFlight) > 0 && r.wantFix(&c) {
		c.Fix = "The page recovers the device and reopens the ring; bound the loops of " + r.f.InFlight[0] +
			", which was in flight when the device was lost."
	}
	if r.f.EarlierRunaways > 0 {
		c.Evidence.Add("earlierRunaways", float64(r.f.EarlierRunaways))
		c.Fix = "An earlier runaway still ran on the adapter (a CPU adapter runs it until the page closes): this submission may have waited behind it rather than run away itself. Reload the page to free the adapter."
	}
	return append(dst, c)
}

func (r *rules) submissionStuck(dst []Cause) []Cause {
	if r.f.StuckMillis <= 0 || r.f.Lost {
		return dst
	}
	c := r.inFlightCause(SubmissionStuck)
	c.Evidence.Add("waitedMs", r.f.StuckMillis)
	c.Evidence.Add("boundMs", r.f.StuckBoundMillis)
	r.addInFlight(&c)
	c.Fix = "A submission has not completed; nothing is read back until it does. If it never does, the page gives its device up at the bound (submissionTimeoutMs); bound the loops of the user opcodes in flight, or raise the bound for work that is this long."
	if len(r.f.InFlight) > 0 && r.wantFix(&c) {
		c.Fix = "A submission has not completed; nothing is read back until it does. Bound the loops of " + r.f.InFlight[0] +
			", which it could run: past submissionTimeoutMs the page gives its device up as a runaway (raise the bound for work that is this long)."
	}
	return append(dst, c)
}

// foreignControl: the control buffer fails the ABI check (MAGIC, then
// ABI_VERSION), so its words are not the counters the rules read.
func (r *rules) foreignControl(dst []Cause) []Cause {
	k := &r.in.Ring.Control
	c := Cause{Kind: ForeignControl, Subject: NoSubject}
	c.Evidence.Add("magic", float64(k.Magic))
	c.Evidence.Add("abiVersion", float64(k.ABIVersion))
	c.Fix = "The control buffer is not in ringscope's layout (ABI v1: MAGIC 0x31435352 at word 141, ABI_VERSION 1 at word 142, docs/PROTOCOL.md), " +
		"so its counters mean nothing here: have the host write both when it initialises the ring and leave them, or attach its control buffer, not another."
	return append(dst, c)
}

func (r *rules) shutdown(dst []Cause) []Cause {
	if !r.in.Ring.Control.Shutdown || r.cur.queue == 0 {
		return dst
	}
	c := Cause{Kind: Shutdown, Subject: NoSubject, Fix: "SHUTDOWN is set: call setShutdown(false) to let lanes claim again."}
	if r.f.Attached {
		// The host's control buffer: ringscope's setters refuse while
		// attached.
		c.Fix = "SHUTDOWN is set in the host's control buffer: the host must clear it (control word 0) for its lanes to claim again."
	}
	c.Evidence.Add("queued", float64(r.cur.queue))
	return append(dst, c)
}

// inFlightCause is a cause of kind whose subject is the first user opcode
// in flight on the GPU (none: no subject): device-lost and
// submission-stuck both name what the GPU was running.
func (r *rules) inFlightCause(kind Kind) Cause {
	c := Cause{Kind: kind, Subject: NoSubject}
	if len(r.f.InFlight) > 0 {
		c.Subject.Name = r.f.InFlight[0]
	}
	return c
}

// addInFlight adds how many user opcodes were in flight and the first
// three of their names to c's evidence.
func (r *rules) addInFlight(c *Cause) {
	c.Evidence.Add("inFlight", float64(len(r.f.InFlight)))
	for _, op := range r.f.InFlight[:min(len(r.f.InFlight), 3)] {
		c.Evidence.AddText("opcode", op)
	}
}
