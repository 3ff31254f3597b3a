package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ringscope/ringscope/ui"
	"github.com/ringscope/ringscope/wasm/render"
)

// The dashboard's throttled tables (ui.Throttled) stand for their DOM with
// a marker the renderer keeps; the two packages cannot import each other.
func TestThrottledTablesUseTheRenderersKeepMarker(t *testing.T) {
	assert.Equal(t, render.KeepAttr, ui.KeepAttr)
}
