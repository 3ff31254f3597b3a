package render

// requests carries render requests: EventEnv.UnlockRender and event
// handlers send true on it without blocking (a full channel already asks
// for a render).
type requests chan bool

// wait blocks until a render is asked for.
func (q requests) wait() bool { return <-q }

// coalesce takes the requests pending now without blocking, so that one
// render answers them all; false if one of them asked the loop to stop.
func (q requests) coalesce() bool {
	for {
		select {
		case ok := <-q:
			if !ok {
				return false
			}
		default:
			return true
		}
	}
}

// prop follows keys through an event summary ("target", "value"); nil
// where a key is missing.
func prop(summary map[string]any, keys []string) any {
	var v any = summary
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
