package ui

// OccupancyPanel shows slots per status: the current counts (data-testid
// occupancy-<status>, occupancy-total) and their history as a stacked area.
type OccupancyPanel struct {
	Frame   *Frame
	History *History

	plot Plot
}

// OccRow is one status of the legend.
type OccRow struct {
	Key, Name, Count, Percent, Title, TestID, Swatch string
}

// Seq is the frame sequence number (0 before the first frame).
func (c *OccupancyPanel) Seq() uint64 {
	if c.Frame == nil {
		return 0
	}
	return c.Frame.Seq
}

// Painter draws the stacked area.
func (c *OccupancyPanel) Painter() Painter { return OccupancyPainter{H: c.History} }

// Sub summarises the ring.
func (c *OccupancyPanel) Sub() string {
	if c.Frame == nil || c.Frame.Ring == nil {
		return "no frame yet"
	}
	o := &c.Frame.Ring.Occupancy
	return Thousands(uint64(o.TotalSlots())) + " slots · " + Thousands(uint64(o.ActiveSlots())) + " active"
}

// Rows lists every status with its count and share of the ring.
func (c *OccupancyPanel) Rows() []OccRow {
	rows := make([]OccRow, len(StatusOrder))
	for i, s := range StatusOrder {
		key := StatusKey(s)
		r := OccRow{Key: key, Name: key, Count: dash, Percent: "", Title: StatusMeaning(s) + " (slots)",
			TestID: "occupancy-" + key, Swatch: "swatch st-" + key}
		if c.Frame != nil && c.Frame.Ring != nil {
			o := &c.Frame.Ring.Occupancy
			n := OccupancyCount(o, s)
			r.Count = Thousands(uint64(n))
			r.Percent = Percent(uint64(n), uint64(o.TotalSlots()))
		}
		rows[i] = r
	}
	return rows
}

// Total is the number of slots.
func (c *OccupancyPanel) Total() string {
	if c.Frame == nil || c.Frame.Ring == nil {
		return dash
	}
	return Thousands(uint64(c.Frame.Ring.Occupancy.TotalSlots()))
}

// Depth is the queue depth, labelled.
func (c *OccupancyPanel) Depth() string {
	if c.Frame == nil || c.Frame.Ring == nil {
		return ""
	}
	return "depth " + Thousands(uint64(c.Frame.Ring.Occupancy.QueueDepth()))
}

// Rendered draws the plot.
func (c *OccupancyPanel) Rendered() { c.plot.Draw(c.Seq(), c.Painter()) }
