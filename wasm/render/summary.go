package render

import "github.com/ringscope/ringscope/internal/jsontext"

// parseSummary reads the event summary render.js made with
// JSON.stringify (an object of strings, numbers, booleans and the target's
// object of the same) as json.Unmarshal would into a map[string]any, the
// form vugu.DOMEvent hands out; nil when it is not one object. It uses
// jsontext, not encoding/json, for the page's size (issue 21).
func parseSummary(s string) map[string]any {
	m := map[string]any{}
	if jsontext.DecodeObject([]byte(s), func(d *jsontext.Decoder, key string) { m[key] = d.Any() }) != nil {
		return nil
	}
	return m
}
